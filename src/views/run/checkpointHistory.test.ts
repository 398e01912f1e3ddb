/** The run view's checkpoint history: Flink checkpoints, their sink transactions and fates, failures, expiry, XA. */
import { describe, expect, it, vi } from 'vitest';
import { simulate, type ScenarioInput } from '../../engine';
import { findPreset } from '../../scenarios';
import { checkpointRowsAt, ledgerRowAt } from './at';
import { toRunView } from './runView';
import { describeEntry } from '../diagrams/describe';
import { K } from './kinds';
import { scenarioOf, exactlyOnceOut, viewOf } from './runViewTesting';

// Whole runs on a loaded two-core machine: its slowest test took 1.0 s in a full CI run
// (this file 5.8 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

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
