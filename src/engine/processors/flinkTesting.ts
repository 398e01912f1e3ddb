/**
 * The S07 workload and job the Flink tests share (flink.test.ts, flinkBarrier.test.ts, flinkXa.test.ts,
 * flinkRestart.test.ts): checkpoints, restore, and what each sink sees on replay (docs/semantics/flink.md, docs/semantics/scenarios.md#s07-flink-checkpoint-replay, docs/semantics/scenarios.md#s08-crash-in-the-2pc-commit-phase, docs/semantics/scenarios.md#s25-side-effects-and-idempotency-keys).
 * e1..e200 arrive at 0 ms, e201..e250 at 5,000 ms (offsets 0..249 here; S07 numbers them from 1).
 * The job starts at 1 s and its checkpoint coordinator triggers a checkpoint every second from
 * then on, traffic or not (Flink's CheckpointCoordinator: a fixed schedule; the model's first
 * trigger is one interval after the start): checkpoint 1 at 2 s completes with the source at
 * offset 200; checkpoints 2, 3 and 4 at 3, 4 and 5 s complete while the job is idle, with the
 * same offset (accounted together when e201 is taken at 5,005 ms: checkpoint 4's barrier reached
 * the task at 5,001 ms, before it); checkpoint 5 at 6 s is the first after the burst. At 5 s the
 * job processes e201..e250 and the task manager crashes after 50 records (before checkpoint 5);
 * the job restores checkpoint 4 — offset 200, as checkpoint 1 — and replays e201..e250.
 * Faults that act on a checkpoint (a crash at its barrier, pre-commit or completion, a lost or
 * delayed checkpoint message) are armed at AFTER_IDLE = 5.5 s: checkpoint 4 (5 s) is over by then,
 * so they hit checkpoint 5, the one that covers e201..e250. Armed at 5 s they hit checkpoint 4, as
 * they would in Flink (flinkBarrier.test.ts). With such a fault the coordinator simulates the checkpoints
 * from one interval before it is armed step by step: only 2 and 3 are accounted as idle (at
 * 4.5 s), checkpoint 4 is a real one — with nothing new, at offset 200.
 * https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/datastream/fault-tolerance/checkpointing/
 */
import type { Run } from '../simulate';
import { entriesOf, runScenario } from '../testing';
import { CHECKPOINT_STEPS } from '../trace';

const ev = Array.from({ length: 250 }, (_, i) => ({
  id: `e${i + 1}`,
  amount: 10 * (i + 1),
  at: i < 200 ? 0 : 5000,
}));
export const eo = {
  type: 'kafka',
  deliveryGuarantee: 'EXACTLY_ONCE',
  transactionalIdPrefix: 'job-a',
  // Set, as a Flink user must: KafkaSink's own 1 h is refused by a default broker (tested below).
  'transaction.timeout.ms': 60_000,
} as const;
export const flink = (
  sink: Record<string, unknown>,
  faults: unknown[],
  readers: unknown[] = [],
  processor: Record<string, unknown> = {},
  top: Record<string, unknown> = {},
) =>
  runScenario({
    ...top,
    workload: { events: ev },
    network: { latencyMs: 1, jitterMs: 0 },
    producer: { 'linger.ms': 0 },
    processor: {
      type: 'flink',
      'execution.checkpointing.interval': 1000,
      startAtMs: 1000,
      processing: { perRecordMs: 1 },
      ...processor,
    },
    sink: sink as never,
    readers: readers as never,
    faults: faults as never,
  });
/** When the faults that act on a checkpoint are armed: after idle checkpoint 4, before 5. */
export const AFTER_IDLE = 5500;
export const crashAfter = (n: number) => [
  { kind: 'crash', target: 'flink', point: 'mid-batch', afterRecords: n, at: 5000 },
];
export const sum201to250 = (10 * ((201 + 250) * 50)) / 2; // 112,750
export const dupIds = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, k) => `e${from + k}:2`);

export const rcBarrier = [{ name: 'rc', 'isolation.level': 'read_committed' }];
export const ruBarrier = [{ name: 'ru', 'isolation.level': 'read_uncommitted' }];
/** The S07 job with a crash before the first barrier handled at or after `at`. */
export const beforeBarrier = (
  sink: Record<string, unknown>,
  readers: unknown[] = [],
  at = AFTER_IDLE,
) => flink(sink, [{ kind: 'crash', target: 'flink', point: 'before-barrier', at }], readers);
/** The checkpoint ids that reached step `s`, in trace order. */
export const ckptsAt = (run: Run, s: (typeof CHECKPOINT_STEPS)[number]) =>
  entriesOf(run, 'checkpoint')
    .filter((i) => run.trace.aux[i] === CHECKPOINT_STEPS.indexOf(s))
    .map((i) => run.trace.ckpt[i]);
