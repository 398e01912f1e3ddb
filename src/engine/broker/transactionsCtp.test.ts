/**
 * Consume-transform-produce with sendOffsetsToTransaction (docs/semantics/scenarios.md#s15-consume-transform-produce).
 */
import { describe, expect, it } from 'vitest';
import { entriesOf, events, runScenario, totals } from '../testing';
import { ERROR_CODES, TXN_STATES } from '../trace';

describe('consume-transform-produce with sendOffsetsToTransaction (docs/semantics/scenarios.md#s15-consume-transform-produce)', () => {
  // Input e1..e10 (non-transactional); batches of 5; the copier's transaction holds its outputs
  // and its input offsets. Batch 1 commits with offset 5; batch 2 sends e6..e10 and offset 10, and
  // the process dies before commitTransaction. The restart's initTransactions aborts it; the group
  // offset is still 5, so e6..e10 are processed again in a new transaction, which commits.
  const s15 = (
    reader: 'read_committed' | 'read_uncommitted',
    point = 'before-commit-transaction',
  ) =>
    runScenario({
      workload: { events: events(10) },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        commit: 'with-transaction',
        'isolation.level': 'read_committed',
        'max.poll.records': 5,
        'auto.offset.reset': 'earliest',
        startAtMs: 1000,
      },
      sink: { type: 'kafka', topic: 'out', 'transactional.id': 'copier-0' },
      readers: [{ name: 'r', topic: 'out', 'isolation.level': reader }],
      faults: [
        {
          kind: 'crash',
          target: 'consumer-0',
          point: point as 'before-commit-transaction',
          nth: 2,
        },
      ],
    });

  it('read_committed: 10, 550 — the aborted attempt is invisible', () => {
    expect(totals(s15('read_committed'))).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
  });

  it('read_uncommitted: e6..e10 twice — 15, 950', () => {
    const run = s15('read_uncommitted');
    expect(totals(run)).toEqual({ rows: 15, sum: 950, duplicates: 5, lost: 0 });
    expect(run.verdict.explanations.some((e) => e.sentence.includes('initTransactions'))).toBe(
      true,
    );
  });

  it('(c) a crash after the commit decision: initTransactions "awaits its completion" → committed once', () => {
    expect(totals(s15('read_uncommitted', 'after-commit-decision'))).toEqual({
      rows: 10,
      sum: 550,
      duplicates: 0,
      lost: 0,
    });
  });

  it('a zombie copier is fenced: its writes never reach a read_committed reader', () => {
    const run = runScenario({
      workload: { events: events(10) },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        commit: 'with-transaction',
        'isolation.level': 'read_committed',
        'max.poll.records': 5,
        'auto.offset.reset': 'earliest',
        startAtMs: 1000,
      },
      sink: { type: 'kafka', topic: 'out', 'transactional.id': 'copier-0' },
      readers: [{ name: 'r', topic: 'out', 'isolation.level': 'read_committed' }],
      faults: [{ kind: 'zombie', target: 'consumer-0', at: 1012, pauseMs: 60_000 }],
    });
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(entriesOf(run, 'fenced').length).toBeGreaterThanOrEqual(1);
  });

  it('enable.auto.commit left out: the copier commits each transaction (it used to skip the commit and lose both events at the 60 s transaction timeout)', () => {
    // e1 at 0 ms and e2 at 10 ms, one batch each: transaction 1 copies e1 with offset 1,
    // transaction 2 copies e2 with offset 2. Both commit: each event once in the log and in the
    // read_committed view, and the run is over well before any transaction.timeout.ms.
    const run = runScenario({
      workload: {
        topic: 't',
        events: [
          { id: 'e1', amount: 1, at: 0 },
          { id: 'e2', amount: 2, at: 10 },
        ],
      },
      processor: { type: 'consumer', commit: 'with-transaction' },
      sink: { type: 'kafka', 'transactional.id': 'tx', 'transaction.timeout.ms': 60_000 },
    });
    expect(totals(run)).toEqual({ rows: 2, sum: 3, duplicates: 0, lost: 0 });
    expect(totals(run, 'log:out:read_committed')).toEqual({
      rows: 2,
      sum: 3,
      duplicates: 0,
      lost: 0,
    });
    expect(run.verdict.observed).toBe('exactly-once');
    // Two transactions complete as commits, none aborts.
    const ended = (state: (typeof TXN_STATES)[number]) =>
      entriesOf(run, 'txn').filter((i) => run.trace.aux[i] === TXN_STATES.indexOf(state)).length;
    expect([ended('CompleteCommit'), ended('PrepareAbort')]).toEqual([2, 0]);
  });

  it('a transaction the coordinator aborted on timeout: the copier aborts, claims the bumped epoch (KIP-588) and copies its batch again — each event once', () => {
    // transaction.timeout.ms 3 s; the first 5 records take 1 s each. The copier polls e1..e5 at
    // 1,010 ms; transaction 1 begins with e1's output (2,010 ms) and the coordinator aborts it
    // 3 s later (5,010 ms), which bumps the producer's epoch. e4's and e5's sends are
    // refused with INVALID_PRODUCER_EPOCH — abortable, not fatal, since no other instance took
    // the transactional.id: the copier's commit fails, abortTransaction sends InitProducerId with
    // its own epoch and gets the bumped one, and the group offset (still 0) brings e1..e5 back.
    // Before: the copier was fenced for good and its 10 events were lost.
    const run = runScenario({
      workload: { topic: 'in', generate: { count: 10, startAtMs: 10, intervalMs: 10 } },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        commit: 'with-transaction',
        'isolation.level': 'read_committed',
        'max.poll.records': 5,
        'auto.offset.reset': 'earliest',
        startAtMs: 1000,
        processing: {
          mode: 'sync',
          perRecordMs: 1, // The list is used in turn, again and again: 5 slow records, then 40 quick ones.
          durationsMs: [1000, 1000, 1000, 1000, 1000, ...new Array<number>(40).fill(1)],
        },
      },
      sink: {
        type: 'kafka',
        topic: 'out',
        'transactional.id': 'copier-0',
        'transaction.timeout.ms': 3000,
      },
      readers: [
        { name: 'rc', topic: 'out', 'isolation.level': 'read_committed' },
        { name: 'ru', topic: 'out', 'isolation.level': 'read_uncommitted' },
      ],
    });
    const t = run.trace;
    const refused = entriesOf(run, 'reject').filter(
      (i) => ERROR_CODES[t.aux[i]!] === 'INVALID_PRODUCER_EPOCH',
    );
    expect(refused.map((i) => `${t.time[i]}:${run.events.id(t.event[i]!)}`)).toEqual([
      '5012:e4',
      '6012:e5',
    ]);
    expect(entriesOf(run, 'fenced')).toEqual([]);
    expect(totals(run, 'reader:rc')).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    // e1..e3 were written in the aborted transaction: read_uncommitted sees them twice.
    expect(totals(run, 'reader:ru')).toEqual({ rows: 13, sum: 610, duplicates: 3, lost: 0 });
  });
});
