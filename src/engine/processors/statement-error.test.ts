/**
 * `processor.onStatementError` in every processing mode: a hand-off worker and a parallel pool
 * apply it to their record as a sync loop applies it to its batch (retry after a second, skip,
 * halt), with exact counts derived by hand. A statement's write whose request is lost times out
 * after `statement.timeout.ms` (5 s by default; the client's socketTimeout,
 * https://jdbc.postgresql.org/documentation/use/#connection-parameters) and, with `retries: 0`,
 * fails at once.
 */
import { describe, expect, it } from 'vitest';
import { traceHash } from '../hash';
import { entriesOf, events, runScenario, totals } from '../testing';

type Mode = 'sync' | 'handoff' | 'parallel';

// issue 30, item 3: one event, its write lost, onStatementError retry.
const lostWrite = (mode: Mode, onStatementError: 'retry' | 'skip' | 'halt') =>
  runScenario({
    workload: { events: [{ id: 'e1', amount: 1, at: 0 }] },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      processing: { mode },
      onStatementError,
    },
    sink: { type: 'table', retries: 0 },
    faults: [{ kind: 'drop-request', link: 'sink' }],
  });

describe('onStatementError retry in every processing mode (issue 30, item 3)', () => {
  // e1 is polled at 19 ms and processed at 20 (perRecordMs 1); its INSERT is lost and times out
  // at 5,020; a second later (6,020) the record is processed again (6,021) and written: 1 row,
  // sum 1, two processing attempts — the same run, byte for byte, in all three modes.
  it.each<Mode>(['sync', 'handoff', 'parallel'])(
    '%s: the lost INSERT is retried a second after its timeout → 1 row, sum 1, drained',
    (mode) => {
      const run = lostWrite(mode, 'retry');
      expect(totals(run)).toEqual({ rows: 1, sum: 1, duplicates: 0, lost: 0 });
      expect(totals(run, 'processed').rows).toBe(2);
      expect(run.endTime).toBe(6027);
      expect(run.cutOff).toBe(false);
      expect(run.verdict.held).toBe(true);
      expect(traceHash(run.trace)).toBe(traceHash(lostWrite('sync', 'retry').trace));
    },
  );

  it.each<Mode>(['handoff', 'parallel'])(
    '%s with skip or halt: e1 is not written (0 rows), as in sync',
    (mode) => {
      for (const policy of ['skip', 'halt'] as const) {
        const run = lostWrite(mode, policy);
        expect(totals(run)).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 1 });
        expect(traceHash(run.trace)).toBe(traceHash(lostWrite('sync', policy).trace));
      }
    },
  );
});

// e1..e4 (10..40) at 1..4 ms; the consumer starts at 1 s with all four in the log.
const pool = (
  processing: Record<string, unknown>,
  onStatementError: 'retry' | 'skip' | 'halt',
  statementPer: 'record' | 'batch' = 'batch',
) =>
  runScenario({
    workload: { events: events(4) },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      startAtMs: 1000,
      processing: { mode: 'parallel', ...processing },
      onStatementError,
    },
    sink: { type: 'table', retries: 0, statementPer },
    faults: [
      { kind: 'drop-request', link: 'sink', match: { event: 'e1' } },
      { kind: 'drop-request', link: 'sink', match: { event: 'e3' } },
    ],
  });

describe('a parallel pool: several failed statements wait for their retries at once', () => {
  // Concurrency 4: e1..e4 are processed together, each its own one-row statement; e1's and e3's
  // are lost and time out 5 s later. Each retry resends its own statement's row: 4 rows, 100.
  // (Before, the writer kept only its last failed statement: e1's retry found e3's rows, wrote
  // nothing, and e1 was committed past — lost.)
  it.each(['batch', 'record'] as const)(
    'one statement per %s: e1 and e3 retried → 4 rows, sum 100, offset 4 committed',
    (statementPer) => {
      const run = pool({}, 'retry', statementPer);
      expect(totals(run)).toEqual({ rows: 4, sum: 100, duplicates: 0, lost: 0 });
      expect(run.state.cluster.coordinator.committed('group-1', 0, 0)).toBe(4);
      expect(run.cutOff).toBe(false);
    },
  );

  // skip: e1 and e3 are given up; the finished prefix moves past them, so offset 4 is committed
  // (before, a failed record never counted as finished and the committed offset stayed at 0,
  // so any restart would replay e2 and e4 again): 2 rows, 20 + 40 = 60.
  it('skip: e2 and e4 written, the prefix moves past the skipped records → 2 rows, 60, offset 4', () => {
    const run = pool({}, 'skip');
    expect(totals(run)).toEqual({ rows: 2, sum: 60, duplicates: 0, lost: 2 });
    expect(run.state.cluster.coordinator.committed('group-1', 0, 0)).toBe(4);
  });

  // halt with one record at a time: e1 fails, the loop stops; e2..e4 are never processed (before,
  // the pool went on and wrote them, the halt ignored).
  it('halt, concurrency 1: the loop stops at e1 → 0 rows, e2..e4 never processed', () => {
    const run = pool({ concurrency: 1 }, 'halt');
    expect(totals(run)).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 4 });
    expect(totals(run, 'processed').rows).toBe(1);
    expect(entriesOf(run, 'reject').length).toBeGreaterThan(0);
  });
});
