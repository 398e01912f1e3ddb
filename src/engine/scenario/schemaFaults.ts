/**
 * A scenario's faults: messages lost or delayed on a link, crashes at a point of a component's
 * cycle, leader failovers, rebalances, zombies, re-sends and duplicates, transactions aborted or
 * left hanging, a checkpoint reset, and faults that fire by chance.
 */
import { z } from 'zod';
import { LIMITS } from './limits';
import { int, ms, name, topicName } from './schemaFields';

/** Which messages a network fault applies to. */
export const LinkSchema = z.enum([
  'produce',
  'fetch',
  'commit',
  'sink',
  'effect',
  'txn',
  'checkpoint',
]);

/**
 * Picks the messages a fault applies to: the `nth` one at or after `at` that carries `event` /
 * `partition`; with `every`, also each `every`-th matching message after that (every 100th: 1%).
 * Each fault counts on its own; when two are due on the same message the first listed wins and
 * the other takes the next matching message.
 */
export const MatchSchema = z.strictObject({
  event: name().optional(),
  partition: int(0, LIMITS.partitions).optional(),
  nth: int(1, 1_000_000).default(1),
  every: int(1, 1_000_000).optional(),
});

const faultBase = {
  /** Optional label shown on the timeline. */
  id: name().optional(),
  /** Virtual time (ms) from which the fault is armed. */
  at: ms().default(0),
};

/** Where a crash lands in a component's cycle; the first such point at or after `at` (or the `nth`). */
export const CrashPointSchema = z.enum([
  'now',
  // consumer loop
  'after-poll',
  'mid-batch',
  'before-commit',
  'after-commit',
  // Flink
  'before-barrier',
  'after-precommit',
  'after-checkpoint',
  'during-commit',
  // Spark
  'before-sink-write',
  'after-sink-write',
  // transactional producer
  'before-commit-transaction',
  'after-commit-decision',
]);

export const FAULT_KINDS = [
  'drop-request',
  'drop-response',
  'delay-response',
  'crash',
  'leader-failover',
  'rebalance',
  'zombie',
  'app-resend',
  'source-duplicate',
  'abort-transaction',
  'hang-transaction',
  'checkpoint-reset',
  'random',
  'periodic-crash',
] as const;

const randomBase = {
  kind: z.literal('random'),
  ...faultBase,
  /**
   * Probability of each chance (per message, record, event or append, as `what` says), drawn from
   * the seed: each random fault has its own stream (`fault:<index>`), so adding one leaves the
   * draws of the others as they were.
   */
  probability: z.number().min(0).max(1),
  /** End of the window in which it applies (ms); default: the whole run. */
  untilMs: ms().optional(),
};

/** What a `random` fault does each time it fires. */
export const RANDOM_FAULT_WHATS = [
  'drop-request',
  'drop-response',
  'crash',
  'rebalance',
  'app-resend',
  'source-duplicate',
  'leader-failover',
] as const;

/**
 * `random`: a fault that fires by chance, `probability` per opportunity, from `at` to `untilMs`.
 * `what` says which fault and what an opportunity is; the fields are those of the scheduled
 * fault of the same name.
 */
export const RandomFaultSchema = z.discriminatedUnion(
  'what',
  [
    /** Each request on `link` is lost with the probability. */
    z.strictObject({ ...randomBase, what: z.literal('drop-request'), link: LinkSchema }),
    /** Each response on `link` is lost with the probability. */
    z.strictObject({ ...randomBase, what: z.literal('drop-response'), link: LinkSchema }),
    /**
     * Each record `target` (`consumer-0`…, `flink`, `spark`, `reader-0`…) processes crashes it
     * with the probability: right after that record (`point` "now"), or at the next `point`.
     */
    z.strictObject({
      ...randomBase,
      what: z.literal('crash'),
      target: name(),
      point: CrashPointSchema.default('now'),
      /** Downtime before each restart (ms); null = it stays down. */
      restartAfterMs: ms().nullable().default(1_000),
    }),
    /** Each record the group member `target` processes moves its partitions (as `rebalance`). */
    z.strictObject({
      ...randomBase,
      what: z.literal('rebalance'),
      target: name().default('consumer-0'),
    }),
    /**
     * Each business event the application takes from upstream is sent twice: the copy, a new
     * record, right after the original (as `app-resend`).
     */
    z.strictObject({ ...randomBase, what: z.literal('app-resend') }),
    /** Each business event upstream hands over comes twice, the copy right after it (F11). */
    z.strictObject({ ...randomBase, what: z.literal('source-duplicate') }),
    /**
     * Each produce request a partition leader appends (of `topic`, default the workload's, and
     * `partition`, default any) makes that leader fail right after the append, before its
     * followers copy it (as `leader-failover`).
     */
    z.strictObject({
      ...randomBase,
      what: z.literal('leader-failover'),
      topic: topicName().optional(),
      partition: int(0, LIMITS.partitions).optional(),
      /** The old leader's downtime (ms); null = it stays down. */
      restartAfterMs: ms().nullable().default(60_000),
    }),
  ],
  {
    error: (iss) =>
      iss.code === 'invalid_union'
        ? `what must be one of ${RANDOM_FAULT_WHATS.map((k) => `"${k}"`).join(', ')}`
        : undefined,
  },
);

export const FaultSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('drop-request'),
      ...faultBase,
      link: LinkSchema,
      match: MatchSchema.default({ nth: 1 }),
    }),
    z.strictObject({
      kind: z.literal('drop-response'),
      ...faultBase,
      link: LinkSchema,
      match: MatchSchema.default({ nth: 1 }),
    }),
    z.strictObject({
      kind: z.literal('delay-response'),
      ...faultBase,
      link: LinkSchema,
      match: MatchSchema.default({ nth: 1 }),
      delayMs: ms(),
    }),
    z.strictObject({
      kind: z.literal('crash'),
      ...faultBase,
      /** `producer`, `broker-1`…, `consumer-0`…, `flink`, `spark`, `reader-0`…, `sink`. */
      target: name(),
      point: CrashPointSchema.default('now'),
      /** Which occurrence of `point` at or after `at` (1 = the first). */
      nth: int(1, 1_000_000).default(1),
      /**
       * `mid-batch`: records processed in the batch before the crash, from 1 (a Flink job: since
       * the last barrier). 0 is accepted for the other points, which ignore it, as scenarios saved
       * before the default was 1 carry it; a `mid-batch` crash after 0 records is refused.
       */
      afterRecords: int(0, 1_000_000).default(1),
      /** Downtime before the restart (ms); null = it stays down. */
      restartAfterMs: ms().nullable().default(1_000),
    }),
    /**
     * The partition's leader broker process dies (at `at`): a broker crash like `crash` of
     * `broker-N` — its clients see their connections reset (requests in flight fail with
     * NETWORK_EXCEPTION one network latency later and are retried; connection attempts are
     * refused while it is down, src/engine/connections.ts) — and the controller elects a new
     * leader from the in-sync replicas after `broker.session.timeout.ms`.
     */
    z.strictObject({
      kind: z.literal('leader-failover'),
      ...faultBase,
      topic: topicName().optional(),
      partition: int(0, LIMITS.partitions).default(0),
      /**
       * When it dies: `now` (default), at `at`; `after-append`, right after the leader appends the
       * next produce request at or after `at` (and acknowledges it with acks=1), before it answers
       * its followers' fetches with it — the moment the producer docs name for acks=1: "should the
       * leader fail immediately after acknowledging the record but before the followers have
       * replicated it then the record will be lost"
       * (https://kafka.apache.org/documentation/#producerconfigs_acks).
       */
      point: z.enum(['now', 'after-append']).optional(),
      /** The old leader's downtime (ms); null = it stays down. */
      restartAfterMs: ms().nullable().default(60_000),
    }),
    z.strictObject({
      kind: z.literal('rebalance'),
      ...faultBase,
      /**
       * The member whose partitions move to the next live member of the group (to itself, in a new
       * generation, when it is alone). It finishes its current batch first, as a member does before
       * it rejoins; a parallel consumer commits its finished prefix and drops its in-flight records.
       * With `partition.assignment.strategy` `range` (eager) every other member gives up all its
       * partitions too and is assigned them again, from the committed offsets.
       */
      target: name().default('consumer-0'),
    }),
    z.strictObject({
      kind: z.literal('zombie'),
      ...faultBase,
      /** The instance that stalls (a long GC pause, a network partition) and is replaced, then wakes up. */
      target: name(),
      /** How long it stalls (ms). */
      pauseMs: ms(),
    }),
    z.strictObject({
      kind: z.literal('app-resend'),
      ...faultBase,
      /** The application sends this business event again, as a new record. */
      event: name(),
    }),
    z.strictObject({
      kind: z.literal('source-duplicate'),
      ...faultBase,
      /** The upstream system emits this business event twice. */
      event: name(),
    }),
    z.strictObject({
      kind: z.literal('abort-transaction'),
      ...faultBase,
      /** The application aborts its nth transaction (1-based) and sends its events again in the next. */
      transaction: int(1, 1_000_000),
    }),
    z.strictObject({
      kind: z.literal('hang-transaction'),
      ...faultBase,
      /** The application never completes its nth transaction (it stalls with it open). */
      transaction: int(1, 1_000_000),
    }),
    z.strictObject({
      kind: z.literal('checkpoint-reset'),
      ...faultBase,
      /** Spark: the checkpoint location is deleted and the query restarted (with `startingOffsets`). */
      restartAfterMs: ms().default(1_000),
      /**
       * The Delta `txnAppId` the restarted query writes with (unset: the same as before). Batch ids
       * restart from 0 with the new checkpoint: under the same txnAppId Delta skips every write
       * whose txnVersion is ≤ the one it recorded (loss); under a new one nothing is recorded, so
       * a replay is written again (duplicates). Delta's guide asks for a different txnAppId
       * after a new checkpoint, else the restarted query's writes "will be ignored"
       * (https://docs.delta.io/latest/delta-streaming.html#idempotent-table-writes-in-foreachbatch).
       */
      txnAppId: name().optional(),
    }),
    RandomFaultSchema,
    z.strictObject({
      kind: z.literal('periodic-crash'),
      ...faultBase,
      target: name(),
      /** Crash every time this many more records have been processed. */
      everyRecords: int(1, LIMITS.generatedEvents),
      point: CrashPointSchema.default('now'),
      restartAfterMs: ms().default(1_000),
    }),
  ],
  {
    error: (iss) =>
      iss.code === 'invalid_union'
        ? `kind must be one of ${FAULT_KINDS.map((k) => `"${k}"`).join(', ')}`
        : undefined,
  },
);

export type FaultSpec = z.output<typeof FaultSchema>;
export type RandomFaultSpec = z.output<typeof RandomFaultSchema>;
export type CrashPoint = z.output<typeof CrashPointSchema>;
export type Link = z.output<typeof LinkSchema>;
