import { describe, expect, it, vi } from 'vitest';
import {
  parseScenario,
  simulate,
  traceHash,
  type Scenario,
  type ScenarioInput,
} from '../../engine';
import { applyGuarantee, findPreset, presets } from '../../scenarios';
import {
  cellAt,
  checkpointRowsAt,
  countersAt,
  indexAtTime,
  ledgerRowAt,
  partitionAt,
  processorsAt,
  rowsAt,
  rowSource,
  sourceChars,
  stateUpdatesAt,
  tokensAt,
} from './at';
import { traceHashOfView } from './hash';
import { eventIdOf, keyNameOf, toRunView, type RunView } from './runView';
import { describeEntry } from '../diagrams/describe';
import { runSequenceDiagram } from '../diagrams/mermaid';
import { K } from './kinds';

// Whole runs on a loaded two-core machine: its slowest test took 1.0 s in a full CI run
// (this file 5.8 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

function scenarioOf(input: ScenarioInput): Scenario {
  const r = parseScenario(input);
  if (!r.ok) throw new Error(r.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  return r.scenario;
}

/** KafkaSink EXACTLY_ONCE into `out` (prefix `job`, 60 s transactions), read by `rc` with read_committed. */
const exactlyOnceOut: Pick<ScenarioInput, 'sink' | 'readers'> = {
  sink: {
    type: 'kafka',
    topic: 'out',
    deliveryGuarantee: 'EXACTLY_ONCE',
    transactionalIdPrefix: 'job',
    'transaction.timeout.ms': 60_000,
  },
  readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
};

function viewOf(ref: string): RunView {
  return toRunView(simulate(scenarioOf(findPreset(ref)!.variant.scenario)));
}

describe('toRunView counters', () => {
  it.each(presets.map((p) => p.id))('%s: at the end they equal the checker’s totals', (id) => {
    const s = scenarioOf(findPreset(id)!.variant.scenario);
    const run = simulate(s);
    const v = toRunView(run);
    const p = run.verdict.points.find((x) => x.name === run.verdict.primary)!;
    const c = countersAt(v, v.n);
    expect(c.final).toBe(true);
    expect({
      rows: c.rows,
      duplicates: c.duplicates,
      lost: c.missing,
      sum: c.sum,
      doubleCounted: c.doubleCounted,
    }).toEqual({
      rows: p.totals.rows,
      duplicates: p.totals.duplicates,
      lost: p.totals.lost,
      sum: p.totals.observedSum,
      doubleCounted: p.totals.doubleCounted,
    });
  });

  it('at any time they equal the verdict of the same run cut off there (stopAtMs)', () => {
    // The engine's values at time t: the scenario run with stopAtMs = t. The trace prefix is the
    // same run's, so the counters derived at cursor indexAtTime(t) must match exactly.
    const s = scenarioOf(findPreset('at-least-once')!.variant.scenario);
    const v = toRunView(simulate(s));
    const times = [0, 7, 161, 30_263, 40_009, 40_048, 40_050, 41_059, 41_100, v.endTime];
    for (const t of times) {
      const cut = simulate({ ...s, stopAtMs: t });
      const p = cut.verdict.points.find((x) => x.name === 'sink')!;
      const c = countersAt(v, indexAtTime(v, t));
      expect([t, c.rows, c.duplicates, c.missing, c.sum]).toEqual([
        t,
        p.totals.rows,
        p.totals.duplicates,
        p.totals.lost,
        p.totals.observedSum,
      ]);
    }
  });

  it('at-least-once: the double-counted amount is the duplicated payments’ sum', () => {
    // p-4 (40), p-5 (50), p-6 (60), p-7 (70) are applied twice: 40 + 50 + 60 + 70 = 220.
    const v = viewOf('at-least-once');
    const c = countersAt(v, v.n);
    expect(c.doubleAmount).toBe(220);
    expect(c.sum - c.trueSum).toBe(220);
  });

  it('the amount of the events sent so far goes with their count (the total only at the end)', () => {
    // p-k is $10·k: once p-1..p-4 are sent, a correct report holds 4 rows and 10+20+30+40 = $100.
    const v = viewOf('at-least-once');
    const idx = Array.from({ length: v.n + 1 }, (_, i) => i).find(
      (i) => countersAt(v, i).sent === 4,
    )!;
    expect(countersAt(v, idx).sentAmount).toBe(100);
    expect(countersAt(v, 0).sentAmount).toBe(0);
    const end = countersAt(v, v.n);
    expect([end.sent, end.sentAmount]).toEqual([20, end.trueSum]);
  });

  it('at-most-once: the missing amount is p-9 + p-10 = 90 + 100', () => {
    const v = viewOf('at-most-once');
    const c = countersAt(v, v.n);
    expect([c.missing, c.missingAmount]).toEqual([2, 190]);
  });
});

describe('table sources', () => {
  it('the source column is as wide as its longest entry: partition@offset or initial', () => {
    // flink-checkpoint-replay's plain JDBC sink: 300 rows, the last from in-0@249.
    const flink = viewOf('flink-checkpoint-replay/plain-sink');
    const sink = flink.tables.find((t) => t.point === 'sink')!;
    expect(rowSource(sink, 0)).toBe('0@0');
    expect(sourceChars(sink)).toBe('0@249'.length);
    // merge-duplicate-source starts its table with a row of its own.
    const merge = viewOf('merge-duplicate-source');
    const target = merge.tables.find((t) => t.point === 'sink')!;
    expect(rowSource(target, 0)).toBe('initial');
    expect(sourceChars(target)).toBe('initial'.length);
  });
});

describe('partition logs', () => {
  it('at-least-once: p-4 twice, at offsets 3 and 4, all 21 readable at the end', () => {
    const v = viewOf('at-least-once');
    const log = v.logs.find((l) => l.name === 'payments-0')!;
    const marks = partitionAt(log, v.n);
    expect([marks.leo, marks.hw, marks.lso]).toEqual([21, 21, 21]);
    expect(marks.commits).toEqual([{ group: 'processor', offset: 21 }]);
    const ids = Array.from({ length: 21 }, (_, o) => {
      const c = cellAt(v, log, o, v.n)!;
      return `${eventIdOf(v.events, c.identity)}:${c.status}`;
    });
    expect(ids.slice(2, 6)).toEqual(['p-3:data', 'p-4:data', 'p-4:data', 'p-5:data']);
    expect(cellAt(v, log, 21, v.n)).toBeNull();
  });

  it('the committed offset moves only when the consumer commits', () => {
    const v = viewOf('at-least-once');
    const log = v.logs[0]!;
    // First commit (offset 5) at 40,033 ms; the crash at 40,050 happens before the second.
    expect(partitionAt(log, indexAtTime(v, 40_032)).commits[0]!.offset).toBe(-1);
    expect(partitionAt(log, indexAtTime(v, 40_033)).commits[0]!.offset).toBe(5);
    expect(partitionAt(log, indexAtTime(v, 41_000)).commits[0]!.offset).toBe(5);
  });

  it('transactions: open, aborted and committed records and markers, with the LSO', () => {
    const input = {
      version: 1,
      name: 'txn',
      workload: {
        topic: 'in',
        events: Array.from({ length: 4 }, (_, i) => ({ id: `e${i + 1}`, amount: 10, at: i * 20 })),
      },
      producer: { 'transactional.id': 'app', app: { eventsPerTransaction: 2 } },
      processor: { type: 'consumer', startAtMs: 10_000 },
      faults: [{ kind: 'abort-transaction', transaction: 1 }],
    } as ScenarioInput;
    const v = toRunView(simulate(scenarioOf(input)));
    const log = v.logs.find((l) => l.name === 'in-0')!;
    const statuses = (idx: number) => {
      const marks = partitionAt(log, idx);
      const cells = Array.from({ length: marks.leo }, (_, o) => cellAt(v, log, o, idx)!.status);
      return { cells, lso: marks.lso };
    };
    // Transaction 1 (e1, e2) is aborted and re-sent in transaction 2: [e1 e2 ABORT e1 e2 COMMIT].
    const end = statuses(v.n);
    expect(end.cells.slice(0, 6)).toEqual([
      'aborted',
      'aborted',
      'abort-marker',
      'data',
      'data',
      'commit-marker',
    ]);
    // Right after the first append, before its marker: open records hold the LSO at 0.
    const firstAppend = Array.from(v.cols.kind).findIndex(
      (_, i) => v.cols.offset[i] === 0 && log.addedAt[0] === i,
    );
    const open = statuses(firstAppend + 1);
    expect(open.cells).toEqual(['open-txn', 'open-txn']);
    expect(open.lso).toBe(0);
  });
});

describe('tokens', () => {
  it('at-least-once: the lost acknowledgement of p-4 is in flight at 161 ms, marked lost', () => {
    const v = viewOf('at-least-once');
    const tokens = tokensAt(v, 162, indexAtTime(v, 162));
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ type: 'produce-response', lost: true, progress: 0.5 });
    expect(eventIdOf(v.events, v.events.identity[tokens[0]!.event]!)).toBe('p-4');
  });

  it('nothing is in flight during the 30 s retry wait', () => {
    const v = viewOf('at-least-once');
    expect(tokensAt(v, 10_000, indexAtTime(v, 10_000))).toEqual([]);
  });
});

describe('sink table and ledger', () => {
  it('at-least-once: rows appear in insertion order, the replayed ones as second copies', () => {
    const v = viewOf('at-least-once');
    const tb = v.tables[v.primaryTable]!;
    expect(rowsAt(tb, v.n)).toBe(24);
    // By the crash at 40,050 ms: p-1..p-4, p-4′ (the producer's retry), p-5, p-6, p-7 = 8 rows.
    expect(rowsAt(tb, indexAtTime(v, 40_050))).toBe(8);
    const copies = Array.from(tb.copy);
    // Rows 0..4 = p-1..p-4, p-4′ (copy 2); 5..7 = p-5..p-7; after the restart p-5..p-7 again.
    expect(copies.slice(0, 11)).toEqual([1, 1, 1, 1, 2, 1, 1, 1, 2, 2, 2]);
  });

  it('the ledger tracks one event through log, processor and sink', () => {
    const v = viewOf('at-least-once');
    const j = v.events.ids!.indexOf('p-5');
    const row = ledgerRowAt(v, j, v.n);
    expect(row).toMatchObject({ id: 'p-5', amount: 50, processed: 2, rows: 2, fate: 'duplicated' });
    expect(row.records.map((r) => r.offset)).toEqual([5]);
    const early = ledgerRowAt(v, j, indexAtTime(v, 20_000));
    expect(early.fate).toBe('pending');
  });

  it('the ledger shows an event’s latency from its first row on, never ahead of the cursor', () => {
    const v = viewOf('at-least-once');
    const j = v.events.ids!.indexOf('p-5');
    // p-5 is sent at 200 ms; its first row is inserted at 40,038 ms: 39,838 ms. The replay's
    // second row (41,059 ms) does not change it.
    const first = v.verdict.visibleAt[j]!;
    expect(v.cols.time[first]).toBe(40_038);
    expect(ledgerRowAt(v, j, v.n).latencyMs).toBe(39_838);
    expect(ledgerRowAt(v, j, first + 1).latencyMs).toBe(39_838);
    // Up to that entry (not yet applied), nothing — the final value is not given away.
    expect(ledgerRowAt(v, j, first).latencyMs).toBe(-1);
    expect(ledgerRowAt(v, j, first).rows).toBe(0);
    expect(ledgerRowAt(v, j, indexAtTime(v, 20_000)).latencyMs).toBe(-1);
  });

  it('an event that never reaches the sink has no latency, even at the end', () => {
    const v = viewOf('at-most-once');
    const lost = ledgerRowAt(v, v.events.ids!.indexOf('p-9'), v.n);
    expect([lost.fate, lost.latencyMs]).toEqual(['lost', -1]);
    expect(v.verdict.latencyOf[lost.identity]).toBe(-1);
  });
});

describe('processor status', () => {
  it('counts what the current incarnation processed since its last commit', () => {
    const v = viewOf('at-least-once');
    // Before the crash (40,048 ms): the 2nd batch's p-5, p-6, p-7 processed since the commit of
    // offset 5 at 40,033 ms.
    expect(processorsAt(v, indexAtTime(v, 40_048), 40_048)[0]!.sinceCommit).toBe(3);
    // After the restart (41,050 ms) the replay has processed p-5 (41,057) and p-6 (41,062):
    // 2 — the previous incarnation's three are being replayed, not at risk again.
    const after = processorsAt(v, indexAtTime(v, 41_063), 41_063)[0]!;
    expect([after.incarnation, after.sinceCommit, after.life]).toEqual([1, 2, 'up']);
  });
});

describe('checkpoint history', () => {
  it('lists each Flink checkpoint with its source offset and sink transaction', () => {
    const input = {
      version: 1,
      name: 'flink',
      workload: {
        topic: 'in',
        events: Array.from({ length: 6 }, (_, i) => ({ id: `e${i + 1}`, amount: 10, at: i * 300 })),
      },
      processor: { type: 'flink', 'execution.checkpointing.interval': 1000 },
      ...exactlyOnceOut,
    } as ScenarioInput;
    const v = toRunView(simulate(scenarioOf(input)));
    const rows = checkpointRowsAt(v, v.n, v.endTime);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.status).toBe('completed');
      expect(r.txnStatus).toBe('committed');
      expect(r.offset).toBeGreaterThan(0);
    }
    // Newest first, and a checkpoint is not listed before it is triggered.
    expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((a, b) => b - a));
    expect(checkpointRowsAt(v, 0, 0)).toEqual([]);
  });
});

describe('checkpoint history of the S07/S08 presets', () => {
  it('a transaction the broker aborted for its timeout reads "timed out"; each epoch counts its records once', () => {
    // S08 after-transaction-timeout: checkpoint 1 (2 s) holds e1..e200 (committed); 2 and 3
    // complete while the job is idle (one row); 4 (5 s) too, simulated step by step as the crash
    // point armed at 5.5 s is near, with nothing new (no transaction); checkpoint 5's epoch holds
    // e201..e250, pre-committed and completed, but the job is down past transaction.timeout.ms and
    // the broker aborts it.
    const s08 = viewOf('flink-commit-phase-crash/after-transaction-timeout');
    expect(
      checkpointRowsAt(s08, s08.n, s08.endTime).map((r) => [
        r.firstId,
        r.id,
        r.txnStatus,
        r.epochRecords,
      ]),
    ).toEqual([
      [5, 5, 'timed out', 50],
      [4, 4, 'none', 0],
      [2, 3, 'none', 0],
      [1, 1, 'committed', 200],
    ]);
    // S07 2PC: checkpoints 2–4 (3..5 s) complete while the job is idle. The crash after 50 of
    // e201..e250 discards the epoch's first attempt; the job restores checkpoint 4 and the replay
    // processes the same 50 into it again — checkpoint 5 (8 s) covers 50 records, not 100.
    const s07 = viewOf('flink-checkpoint-replay/2pc-read-committed');
    expect(
      checkpointRowsAt(s07, s07.n, s07.endTime).map((r) => [
        r.firstId,
        r.id,
        r.txnStatus,
        r.epochRecords,
      ]),
    ).toEqual([
      [5, 5, 'committed', 50],
      [2, 4, 'none', 0],
      [1, 1, 'committed', 200],
    ]);
  });
});

describe('checkpoints completed while a Flink job is idle, in the event log', () => {
  it('one line names them all: ids, schedule and the offset they hold', () => {
    // S07 plain sink: checkpoint 1 at 2 s, then nothing new until e201 is taken at 5,005 ms; the
    // triggers at 3, 4 and 5 s were checkpoints 2–4, each complete at offset 200.
    const v = viewOf('flink-checkpoint-replay/plain-sink');
    const jm = v.actors.indexOf('jobmanager');
    const lines: string[] = [];
    for (let i = 0; i < v.n; i++)
      if (v.cols.actor[i] === jm && v.cols.kind[i] === K.checkpoint)
        lines.push(`${v.cols.time[i]} ${describeEntry(v, i)}`);
    expect(lines).toContain(
      '5005 jobmanager: checkpoints 2–4 completed while the job was idle (one every 1 s from 3.000 s, nothing new, source offset 200)',
    );
  });
});

describe('ledger when the pipeline ends in a topic nobody reads', () => {
  it('counts the records in that topic, as the checker does: the replayed epoch twice', () => {
    // S07 with KafkaSink EXACTLY_ONCE and no reader: the end of the pipeline is the topic `out`,
    // every record in its log counted (docs/semantics/broker.md#isolation-levels: what read_uncommitted would see). e201..e250
    // were written in the aborted epoch and again after the restore: 2 records each; e1..e200 one.
    const s = structuredClone(
      findPreset('flink-checkpoint-replay/2pc-read-committed')!.variant.scenario,
    );
    s.readers = [];
    const v = toRunView(simulate(scenarioOf(s)));
    expect(v.verdict.primary).toBe('log:out');
    const at = (id: string) => ledgerRowAt(v, v.events.ids!.indexOf(id), v.n);
    expect([at('e1').rows, at('e200').rows, at('e201').rows, at('e250').rows]).toEqual([
      1, 1, 2, 2,
    ]);
    for (let j = 0; j < v.events.identities; j++) {
      const row = ledgerRowAt(v, j, v.n);
      expect(row.fate === 'duplicated' ? 2 : row.fate === 'once' ? 1 : 0).toBe(row.finalFate);
    }
  });
});

describe('checkpoint history when the first checkpoint fails', () => {
  it("the next checkpoint's epoch holds every record processed after the restore", () => {
    // 120 events at 40/s (the last by ~3 s); the job crashes after pre-committing checkpoint 1
    // (~1.5 s) and restarts 2 s later with no checkpoint to restore: it processes all 120 again
    // before checkpoint 2's barrier, so checkpoint 2 covers 120 records and every event's ledger
    // row names checkpoint 2.
    const input = {
      version: 1,
      name: 'first checkpoint fails',
      seed: 3,
      network: { latencyMs: 1 },
      workload: {
        topic: 'in',
        generate: { count: 120, ratePerSec: 40, arrivals: 'poisson', keys: 6, keyChoice: 'random' },
      },
      broker: { partitions: 2 },
      processor: { type: 'flink', 'execution.checkpointing.interval': 1000, startAtMs: 500 },
      ...exactlyOnceOut,
      faults: [
        {
          kind: 'crash',
          target: 'flink',
          at: 1500,
          point: 'after-precommit',
          restartAfterMs: 2000,
        },
      ],
    } as ScenarioInput;
    const v = toRunView(simulate(scenarioOf(input)));
    const rows = checkpointRowsAt(v, v.n, v.endTime);
    expect(rows.map((r) => [r.id, r.status, r.txnStatus])).toEqual([
      [2, 'completed', 'committed'],
      [1, 'failed', 'aborted'],
    ]);
    expect(rows[0]!.epochRecords).toBe(120);
    for (let j = 0; j < v.events.identities; j++) expect(ledgerRowAt(v, j, v.n).checkpoint).toBe(2);
  });
});

describe('checkpoint history with two input partitions', () => {
  it("lists every partition's offset, and the ledger finds each event's checkpoint on its own partition", () => {
    // 40 events 50 ms apart, keys k0..k3 in turn; murmur2 puts k3 on in-0 and k0..k2 on in-1.
    // Checkpoint 1 triggers at 500 ms (one interval after the job's start), its barrier reaching
    // the task after e1..e10 and before e11 (sent at 500 ms): in-0 holds e4, e8 (position 2), in-1
    // the other eight (position 8). So e1..e10 are covered by checkpoint 1; e11 (in-1 offset 8)
    // and e12 (in-0 offset 2) by checkpoint 2.
    const input = {
      version: 1,
      name: 'two partitions',
      workload: {
        events: Array.from({ length: 40 }, (_, i) => ({
          id: `e${i + 1}`,
          key: `k${i % 4}`,
          amount: 10,
          at: i * 50,
        })),
      },
      broker: { partitions: 2 },
      processor: { type: 'flink', 'execution.checkpointing.interval': 500 },
      sink: { type: 'table' },
    } as ScenarioInput;
    const v = toRunView(simulate(scenarioOf(input)));
    const first = checkpointRowsAt(v, v.n, v.endTime).at(-1)!;
    expect([first.id, first.offsets]).toEqual([
      1,
      [
        { partition: 0, offset: 2 },
        { partition: 1, offset: 8 },
      ],
    ]);
    const covered = Array.from({ length: 12 }, (_, j) => ledgerRowAt(v, j, v.n).checkpoint);
    expect(covered).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2]);
  });
});

describe('checkpoint history after a crash', () => {
  it('the failed checkpoint’s pre-committed transaction shows aborted once the marker is written', () => {
    // 12 events 300 ms apart, checkpoints every second, KafkaSink EXACTLY_ONCE. The job crashes
    // after pre-committing checkpoint 3 (triggered at ~3 s): the checkpoint fails; on recovery
    // from checkpoint 2 the lingering transaction of epoch 3 is aborted (an abort marker).
    const input = {
      version: 1,
      name: 'flink crash',
      workload: {
        topic: 'in',
        events: Array.from({ length: 12 }, (_, i) => ({
          id: `e${i + 1}`,
          amount: 10,
          at: i * 300,
        })),
      },
      processor: { type: 'flink', 'execution.checkpointing.interval': 1000 },
      ...exactlyOnceOut,
      faults: [{ kind: 'crash', target: 'flink', point: 'after-precommit', at: 2500 }],
    } as ScenarioInput;
    const v = toRunView(simulate(scenarioOf(input)));
    const rows = checkpointRowsAt(v, v.n, v.endTime);
    const failed = rows.find((r) => r.status === 'failed')!;
    expect(failed.txn).toBeGreaterThanOrEqual(0);
    expect(failed.txnStatus).toBe('aborted');
    expect(
      rows.filter((r) => r.status === 'completed').every((r) => r.txnStatus === 'committed'),
    ).toBe(true);
  });
});

describe('traceHashOfView', () => {
  it('equals the engine’s traceHash', () => {
    for (const id of ['at-least-once', 'at-most-once']) {
      const run = simulate(scenarioOf(findPreset(id)!.variant.scenario));
      expect(traceHashOfView(toRunView(run))).toBe(traceHash(run.trace));
    }
    const big = applyGuarantee(
      {
        version: 1,
        name: 'g',
        workload: { generate: { count: 300 } },
        processor: { type: 'consumer' },
        sink: { type: 'table' },
      },
      'exactly-once',
    );
    const run = simulate(scenarioOf(big));
    expect(traceHashOfView(toRunView(run))).toBe(traceHash(run.trace));
  });
});

describe('at-most-once progress', () => {
  it('records processed after a commit that already covers them are not at risk of replay', async () => {
    const { findPreset } = await import('../../scenarios');
    const { parseScenario, simulate } = await import('../../engine');
    const { processorsAt } = await import('./at');
    const r = parseScenario(findPreset('at-most-once')!.variant.scenario);
    if (!r.ok) throw new Error('preset invalid');
    const run = simulate(r.scenario);
    const v = toRunView(run);
    // The loop commits offset 20 before processing its last batch (p-16..p-20): a crash now
    // would skip them, not replay them — 0 at risk, though 5 were processed after the commit.
    const [consumer] = processorsAt(v, v.n, run.endTime);
    expect(consumer!.lastProcess!.offset).toBe(19);
    expect(consumer!.sinceCommit).toBe(0);
  });
});

describe('Spark progress', () => {
  it("a micro-batch recorded in the commit log leaves nothing 'since the last commit'", async () => {
    const { findPreset } = await import('../../scenarios');
    const { parseScenario, simulate } = await import('../../engine');
    const { processorsAt } = await import('./at');
    const p = findPreset('spark-batch-replay/file-sink')!;
    const r = parseScenario(p.variant.scenario);
    if (!r.ok) throw new Error('preset invalid');
    const run = simulate(r.scenario);
    const v = toRunView(run);
    // At the end every batch (0, 1, and 2 re-run) has its commits/N entry.
    expect(processorsAt(v, v.n, run.endTime).map((x) => [x.name, x.sinceCommit])).toEqual([
      ['spark', 0],
    ]);
  });
});

describe('an expired checkpoint (execution.checkpointing.timeout) in the views', () => {
  // 20 events 100 ms apart, checkpoints every second, the barrier of checkpoint 2 lost; it
  // expires 60 s after its trigger and, with 0 failed checkpoints tolerated, the job fails over.
  const input = {
    version: 1,
    name: 'expired checkpoint',
    workload: { generate: { count: 20, intervalMs: 100 } },
    processor: {
      type: 'flink',
      'execution.checkpointing.interval': 1000,
      'execution.checkpointing.timeout': 60_000,
    },
    sink: { type: 'table' },
    faults: [{ kind: 'drop-request', link: 'checkpoint', at: 1500 }],
  } as ScenarioInput;
  const v = toRunView(simulate(scenarioOf(input)));
  const row2 = () => checkpointRowsAt(v, v.n, v.endTime).find((r) => r.id === 2)!;

  it('the history lists it as failed, expired, 60 s after its trigger', () => {
    expect(row2()).toMatchObject({ status: 'failed', failure: 'expired', durationMs: 60_000 });
  });

  it('the event log says the job failed over because of it', () => {
    const crashes = [...v.processors.find((p) => p.name === 'flink')!.life].filter(
      (i) => v.cols.kind[i] === K.crash,
    );
    expect(crashes).toHaveLength(1);
    expect(describeEntry(v, crashes[0]!)).toBe(
      'flink FAILS OVER: checkpoint 2 expired, more failed checkpoints than execution.checkpointing.tolerable-failed-checkpoints',
    );
  });
});

describe("Flink's JDBC exactly-once (XA) sink in the checkpoint history", () => {
  // The library's 2pc-jdbc-xa job (200 events at 0, 50 at 5 s, checkpoints every second from
  // 2 s) with its crash moved to right after the prepare of checkpoint 5 (6 s; armed at 5.5 s,
  // after checkpoint 4). Checkpoints 2–3 complete while the job is idle; 4 (5 s) is simulated step
  // by step (the fault is near) and prepares nothing: XA transaction 2, opened after checkpoint
  // 1, was empty. Transaction 3 holds e201..e250 and is prepared at checkpoint 5's barrier; the
  // restore of checkpoint 4 rolls it back and checkpoint 6 commits the replay (transaction 5: 4
  // was the restored job's first, left empty and skipped).
  const input: ScenarioInput = {
    ...findPreset('flink-checkpoint-replay/2pc-jdbc-xa')!.variant.scenario,
    faults: [{ kind: 'crash', target: 'flink', point: 'after-precommit', at: 5500 }],
  };
  const v = toRunView(simulate(scenarioOf(input)));

  it('each checkpoint names its XA transaction and its fate', () => {
    const rows = checkpointRowsAt(v, v.n, v.endTime);
    expect(rows.map((r) => [r.id, r.status, r.txn, r.txnStatus])).toEqual([
      [6, 'completed', 5, 'committed'],
      [5, 'failed', 3, 'aborted'],
      [4, 'completed', -1, 'none'],
      [3, 'completed', -1, 'none'],
      [1, 'completed', 1, 'committed'],
    ]);
  });

  it('the event log tells the database side: prepare, commit, rollback', () => {
    const sink = v.actors.indexOf('sink');
    const lines: string[] = [];
    for (let i = 0; i < v.n; i++)
      if (v.cols.actor[i] === sink && v.cols.kind[i] === K.checkpoint)
        lines.push(describeEntry(v, i));
    expect(lines).toEqual([
      'sink: PREPARE TRANSACTION — XA transaction 1 of checkpoint 1 holds 200 records, durable and invisible',
      'sink: COMMIT PREPARED — XA transaction 1 of checkpoint 1, its rows become visible',
      'sink: PREPARE TRANSACTION — XA transaction 3 of checkpoint 5 holds 50 records, durable and invisible',
      'sink: ROLLBACK PREPARED — XA transaction 3 of checkpoint 5, 50 records discarded',
      'sink: PREPARE TRANSACTION — XA transaction 5 of checkpoint 6 holds 50 records, durable and invisible',
      'sink: COMMIT PREPARED — XA transaction 5 of checkpoint 6, its rows become visible',
    ]);
  });
});

describe('the event log names a downstream reader by its name too', () => {
  it('2pc-read-committed: reader-0 (rc) and reader-1 (ru), as the panels call them', () => {
    const v = viewOf('flink-checkpoint-replay/2pc-read-committed');
    const lines: string[] = [];
    for (let i = 0; i < v.n; i++)
      if (v.actors[v.cols.actor[i]!]?.startsWith('reader-')) lines.push(describeEntry(v, i));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => /^reader-0 \(rc\) |^reader-1 \(ru\) /.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith('reader-1 (ru) '))).toBe(true);
  });
});

describe('keyed state updates', () => {
  it('name the record key as the producer sent it, not its index', () => {
    // flink-checkpoint-replay: listed events e1..e250, each keyed by its own id (key index 249
    // is e250's key, "e250").
    const v = viewOf('flink-checkpoint-replay/plain-sink');
    const [last] = stateUpdatesAt(v, v.n, 1);
    expect(eventIdOf(v.events, v.events.identity[last!.event]!)).toBe('e250');
    expect(last!.key).toBe(249);
    expect(keyNameOf(v.events, last!.key)).toBe('e250');
    // A generated workload's keys are k0, k1, …
    expect(keyNameOf({ ...v.events, keys: null }, 249)).toBe('k249');
  });
});

describe('an offset commit that times out, in words', () => {
  // Both attempts of the first commit (offset 5, sent at 1,031 ms) lost: the consumer's request
  // times out at 31,031, the repeat leaves at 31,131, and commitSync gives up at 61,031 (60 s).
  const input = {
    version: 1,
    name: 'lost commits',
    workload: { topic: 'events', generate: { count: 10, startAtMs: 10, intervalMs: 10 } },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      'max.poll.records': 5,
      startAtMs: 1000,
    },
    sink: { type: 'table', name: 't' },
    faults: [
      { kind: 'drop-request', link: 'commit', match: { nth: 1 } },
      { kind: 'drop-request', link: 'commit', match: { nth: 2 } },
    ],
  } as ScenarioInput;
  const run = simulate(scenarioOf(input));
  const v = toRunView(run);

  it('the event log says the consumer stopped waiting, then gave up — not that it refused', () => {
    const lines: string[] = [];
    for (let i = 0; i < v.n; i++)
      if (v.cols.kind[i] === K.reject || v.cols.kind[i] === K['commit-failed'])
        lines.push(describeEntry(v, i));
    expect(lines).toEqual([
      'consumer-0 gets no answer within request.timeout.ms (REQUEST_TIMED_OUT)',
      "consumer-0's commitSync gives up after default.api.timeout.ms (COMMIT_TIMEOUT)",
    ]);
  });

  it('the sequence diagram marks the repeat and names the request that got no answer', () => {
    const d = runSequenceDiagram(run);
    expect(d).toContain('Note over P3: no answer to commit offset 5 · REQUEST_TIMED_OUT');
    expect(d).toContain('P3-xP2: commit offset 5 (sent again) (lost)');
    expect(d).toContain(
      'Note over P3: commitSync of offset 5 gave up after default.api.timeout.ms (COMMIT_TIMEOUT)',
    );
  });
});
