/**
 * The scenario format, version 1: a complete, plain-data description of a run.
 *
 * Knobs carry the real systems' names (`acks`, `enable.idempotence`, `isolation.level`,
 * `execution.checkpointing.interval`, `txnAppId`, …) with the real defaults, each documented
 * with the page it comes from. Units: every `…Ms` / `….ms` field is virtual milliseconds.
 *
 * The schema is also exported as JSON Schema (`public/scenario.schema.json`, see
 * `scripts/schema.ts`), so the limits below are visible to editors and other tools.
 */
import { z } from 'zod';
import { LIMITS } from './limits';
import { BatchSchema } from '../batch/schema';

/** Virtual milliseconds, an integer from `min` (one bound: a negative value gets one message). */
const ms = (min = 0) => z.number().int().min(min).max(LIMITS.timeMs);
const name = () => z.string().min(1).max(LIMITS.stringLength);
/**
 * A Kafka topic name, as the broker accepts it: ASCII letters, digits, `.`, `_` and `-`, and
 * neither `.` nor `..` (Kafka's own length limit, 249, is above this format's string limit).
 * Source: org.apache.kafka.common.internals.Topic#validate,
 * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/common/internals/Topic.java
 */
const topicName = () =>
  z
    .string()
    .min(1)
    .max(LIMITS.stringLength)
    .regex(/^[a-zA-Z0-9._-]+$/, {
      message: "a Kafka topic name holds only ASCII letters, digits, '.', '_' and '-'",
    })
    .refine((t) => t !== '.' && t !== '..', {
      message: "'.' and '..' are not topic names in Kafka",
    });
const count = (max: number) => z.number().int().min(0).max(max);

/** One business event, listed explicitly. The same `id` listed twice is the upstream source emitting it twice. */
export const EventSchema = z.strictObject({
  /** Business id, e.g. `p-77`. */
  id: name(),
  /** Record key (partitioning). Default: the id. */
  key: name().optional(),
  /** Amount in the workload's currency units; sums are compared against the true sum. */
  amount: z.number().min(-1e12).max(1e12),
  /** Virtual time (ms) at which the application hands the event to the producer. */
  at: ms(),
});

const GenerateObjectSchema = z
  .strictObject({
    count: z.number().int().min(1).max(LIMITS.generatedEvents),
    /** Time of the first event (ms). */
    startAtMs: ms().default(0),
    /**
     * Time between two events (ms, may be fractional: 0.01 = 100 events per ms); times are floored.
     * Default 10 (see {@link generateIntervalMs}) — not filled in, so that a parsed scenario with
     * `ratePerSec` parses again (a default here would then read as "both given").
     */
    intervalMs: z.number().min(0.0001).max(3_600_000).optional(),
    /**
     * Events per virtual second: the other way to give the spacing (200 = one every 5 ms from
     * `startAtMs`; times are floored). Give it or `intervalMs`, not both.
     */
    ratePerSec: z.number().min(0.001).max(10_000_000).optional(),
    /**
     * `uniform`: one event every interval. `poisson`: a Poisson process of the same mean rate, the
     * first event at `startAtMs` and the gaps exponential, drawn from the seed; times are floored
     * to whole ms, so events can share a millisecond.
     */
    arrivals: z.enum(['uniform', 'poisson']).default('uniform'),
    /** Number of distinct keys, `k0`…; with `round-robin`, event i gets key `k{(i-1) % keys}`. */
    keys: z.number().int().min(1).max(1_000_000).default(100),
    /** `round-robin` (above), or `random`: each event's key drawn uniformly from the keys, by the seed. */
    keyChoice: z.enum(['round-robin', 'random']).default('round-robin'),
    /**
     * `index`: amount(e_i) = 10·i (the convention of docs/semantics/README.md#amounts); `fixed`: every amount is
     * `fixedAmount`; `random`: a whole number drawn uniformly from `amountRange`, by the seed.
     */
    amounts: z.enum(['index', 'fixed', 'random']).default('index'),
    fixedAmount: z.number().min(-1e12).max(1e12).default(10),
    /** `amounts: "random"` only: the range of the amounts, both ends included. */
    amountRange: z
      .strictObject({
        min: z.number().int().min(-1e12).max(1e12),
        max: z.number().int().min(-1e12).max(1e12),
      })
      .refine((r) => r.min <= r.max, { message: 'max is below min', path: ['max'] })
      .optional(),
    idPrefix: z.string().max(20).default('e'),
  })
  .superRefine(
    (g, ctx) => {
      if (g.amounts === 'random' && g.amountRange === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['amountRange'],
          message: 'amounts "random" needs amountRange { min, max }',
        });
      if (g.amounts !== 'random' && g.amountRange !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['amountRange'],
          message: `amountRange applies to amounts "random" only (amounts is "${g.amounts}")`,
        });
      // Generated times are Int32 ms (workload.ts): the nominal last event must be within the limit.
      const last = g.startAtMs + (g.count - 1) * generateIntervalMs(g);
      if (last > LIMITS.timeMs)
        ctx.addIssue({
          code: 'custom',
          path: ['count'],
          message: `the last event would come at ${Math.floor(last)} ms, beyond the time limit (${LIMITS.timeMs} ms)`,
        });
    },
    // Across fields only once every field is valid: a ratePerSec of 0 is one problem, not two.
    { when: (payload) => payload.issues.length === 0 },
  );

/**
 * A seeded generator of events `e1..eN`. By default, fixed spacing, round-robin keys and
 * `amount = 10·i`, with no random draw; `arrivals`, `keyChoice` and `amounts` make them random,
 * each from its own stream of the scenario's `seed`.
 */
export const GenerateSchema = z.preprocess((g: z.input<typeof GenerateObjectSchema>, ctx) => {
  // Checked before the defaults apply: `intervalMs` has one, so afterwards it always looks set.
  // The value is still unchecked input here (typed for ScenarioInput), hence the plain reads.
  const raw = g as unknown as Record<string, unknown> | null;
  if (typeof raw === 'object' && raw?.intervalMs !== undefined && raw.ratePerSec !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['ratePerSec'],
      message: 'give intervalMs or ratePerSec, not both',
      input: raw,
    });
  return g;
}, GenerateObjectSchema);

/** The mean time between two generated events (ms): from `ratePerSec` when given, else `intervalMs`. */
export function generateIntervalMs(g: { intervalMs?: number; ratePerSec?: number }): number {
  return g.ratePerSec === undefined ? (g.intervalMs ?? DEFAULT_INTERVAL_MS) : 1000 / g.ratePerSec;
}

/** `workload.generate.intervalMs` when neither it nor `ratePerSec` is given (ms). */
export const DEFAULT_INTERVAL_MS = 10;

export const WorkloadSchema = z
  .strictObject({
    /** Name of the input topic. */
    topic: topicName().default('events'),
    events: z.array(EventSchema).min(1).max(LIMITS.explicitEvents).optional(),
    generate: GenerateSchema.optional(),
    /** Serialized size of one record, used to fill `batch.size` (bytes). */
    recordBytes: z.number().int().min(1).max(1_000_000).default(100),
  })
  .refine((w) => (w.events === undefined) !== (w.generate === undefined), {
    message: 'give exactly one of workload.events or workload.generate',
  });

/** `acks` as Kafka accepts it: "0", "1", "all" or "-1" (= all); numbers are accepted too. */
export const AcksSchema = z.union(
  [z.enum(['0', '1', 'all', '-1']), z.literal(0), z.literal(1), z.literal(-1)],
  {
    error: 'expected "0", "1", "all" or "-1"',
  },
);

/**
 * The source application and its Kafka producer client.
 * Defaults and checks: the Kafka 4.x Java client (`linger.ms` 5; more than 5 requests in flight is
 * an error unless idempotence is switched off) — https://kafka.apache.org/documentation/#producerconfigs.
 * A Kafka sink's producer (the output of a job) defaults to what the Flink connector's bundled 3.x
 * client does (`linger.ms` 0, {@link KafkaSinkSchema}).
 */
export const ProducerSchema = z.strictObject({
  /** `acks` (default `all` since Kafka 3.0). */
  acks: AcksSchema.default('all'),
  /**
   * `enable.idempotence`. Unset: on, unless `acks`≠all or `retries`=0 turn it off silently; set to
   * true together with such a setting: the producer refuses to start (`ConfigException`).
   */
  'enable.idempotence': z.boolean().optional(),
  retries: z.number().int().min(0).max(2147483647).default(2147483647),
  'delivery.timeout.ms': ms().default(120_000),
  'request.timeout.ms': ms(1).default(30_000),
  'retry.backoff.ms': ms().default(100),
  /**
   * The longest wait between attempts: `retry.backoff.ms` doubles with each failed attempt of a
   * batch up to this (Kafka ≥ 3.7, KIP-580; its ±20 % jitter is not drawn).
   * https://kafka.apache.org/documentation/#producerconfigs_retry.backoff.max.ms
   */
  'retry.backoff.max.ms': ms().default(1000),
  'linger.ms': ms().default(5),
  /**
   * Bytes per partition batch; 0 disables batching (each record is sent on its own).
   * https://kafka.apache.org/documentation/#producerconfigs_batch.size
   */
  'batch.size': z
    .number()
    .int()
    .min(0)
    .max(16 * 1024 * 1024)
    .default(16_384),
  'max.in.flight.requests.per.connection': z.number().int().min(1).max(100).default(5),
  /** Setting it makes the producer transactional (and idempotent). */
  'transactional.id': name().optional(),
  'transaction.timeout.ms': ms(1).default(60_000),
  /** How the application uses the producer. */
  app: z
    .strictObject({
      /** `async`: `send()` with a callback, next event at its own time; `sync`: `send().get(timeout)` one after another. */
      mode: z.enum(['async', 'sync']).default('async'),
      /** `sync` only: how long the application waits on the future before it gives up (ms). */
      'get.timeout.ms': ms(1).optional(),
      /**
       * What the application does when a send fails or its wait times out: `skip` (log and go on),
       * `resend` (send the same business event again: a new record, not a producer retry), `halt`.
       */
      onFailure: z.enum(['skip', 'resend', 'halt']).default('skip'),
      /** Transactional producers: business events per transaction. */
      eventsPerTransaction: z.number().int().min(1).max(100_000).default(1),
    })
    .default({ mode: 'async', onFailure: 'skip', eventsPerTransaction: 1 }),
});

/** Kafka's default broker `transaction.max.timeout.ms` (15 min, in ms). */
export const KAFKA_TRANSACTION_MAX_TIMEOUT_MS = 900_000;

/** The Kafka cluster. Docs: https://kafka.apache.org/documentation/#brokerconfigs */
export const BrokerSchema = z
  .strictObject({
    brokers: z.number().int().min(1).max(LIMITS.brokers).default(3),
    /** Partitions of the input topic. */
    partitions: z.number().int().min(1).max(LIMITS.partitions).default(1),
    /** Our default is 3 (Kafka's broker default `default.replication.factor` is 1). */
    'replication.factor': z.number().int().min(1).max(LIMITS.brokers).default(3),
    /** Our default is 2 (Kafka's broker default is 1). Only `acks=all` writes check it. */
    'min.insync.replicas': z.number().int().min(1).max(LIMITS.brokers).default(2),
    'unclean.leader.election.enable': z.boolean().default(false),
    /**
     * A follower that has not caught up for longer than this (ms) is dropped from the ISR by its
     * leader's periodic check (every half of it). Followers fall behind here only when their broker
     * is down; the controller's removal after `broker.session.timeout.ms` may come first.
     */
    'replica.lag.time.max.ms': ms().default(30_000),
    /** How long the controller takes to declare a silent broker dead (KRaft default 9000 ms). */
    'broker.session.timeout.ms': ms().default(9_000),
    /**
     * The longest `transaction.timeout.ms` the transaction coordinator accepts (Kafka's default
     * 15 min). A transactional producer asking for more is refused at initTransactions with
     * INVALID_TRANSACTION_TIMEOUT ("The transaction timeout is larger than the maximum value
     * allowed by the broker"), https://kafka.apache.org/documentation/#brokerconfigs_transaction.max.timeout.ms
     */
    'transaction.max.timeout.ms': ms(1).default(KAFKA_TRANSACTION_MAX_TIMEOUT_MS),
  })
  .refine((b) => b['replication.factor'] <= b.brokers, {
    message: 'replication.factor cannot exceed the number of brokers',
    path: ['replication.factor'],
  });

const ProcessingSchema = z
  .strictObject({
    /**
     * Virtual time spent on each record before its output is written (ms). A fraction (0.01)
     * means several records per millisecond: a Flink job whose output needs no answer
     * processes them in one step per millisecond; elsewhere it is rounded up per record.
     */
    perRecordMs: z.number().min(0).max(LIMITS.timeMs).default(1),
    /**
     * `sync`: records are processed in the poll loop, one after another.
     * `handoff`: poll hands records to a worker and returns at once (the auto-commit trap).
     * `parallel`: up to `concurrency` records at once, finishing out of order; only the contiguous
     * prefix of finished offsets is committed.
     */
    mode: z.enum(['sync', 'handoff', 'parallel']).default('sync'),
    concurrency: z.number().int().min(1).max(1000).default(4),
    /**
     * Per-record processing times, in place of `perRecordMs` (ms): an instance's n-th processing
     * attempt takes the n-th time, cycling through the list (a record processed again takes the
     * next one). One long time in the list is one slow record.
     */
    durationsMs: z.array(ms()).max(1000).optional(),
  })
  .default({ perRecordMs: 1, mode: 'sync', concurrency: 4 });

/** A side effect performed for every record the operator processes (an email, a card charge). */
export const SideEffectSchema = z.strictObject({
  service: z.enum(['email', 'card-charge']),
  /** `none`: every call is an effect; `business-id`: key derived from the event id; `per-attempt`: a new key each call. */
  idempotencyKey: z.enum(['none', 'business-id', 'per-attempt']).default('none'),
  /** How long the service remembers a key (Stripe: keys may be pruned after 24 h). */
  retentionMs: ms().default(24 * 3600 * 1000),
});

/**
 * A Kafka consumer loop: poll → process → write → commit.
 * Docs: https://kafka.apache.org/documentation/#consumerconfigs
 */
export const ConsumerProcessorSchema = z.strictObject({
  type: z.literal('consumer'),
  'group.id': name().default('group-1'),
  /** Group members; partitions are spread over them (`partition.assignment.strategy`). */
  instances: z.number().int().min(1).max(LIMITS.instances).default(1),
  /**
   * Kafka's default, true — except with `commit: 'with-transaction'`, where a scenario that leaves
   * it out gets false and one that sets it true is refused: sendOffsetsToTransaction's consumer
   * "should have enable.auto.commit=false" (KafkaProducer javadoc; see parseScenario).
   */
  'enable.auto.commit': z.boolean().default(true),
  'auto.commit.interval.ms': ms(1).default(5_000),
  /**
   * With `enable.auto.commit=false`: when the loop commits. `with-transaction` sends the offsets in
   * the output producer's transaction (`sendOffsetsToTransaction`; needs a transactional Kafka sink).
   */
  commit: z
    .enum(['after-processing', 'before-processing', 'with-transaction'])
    .default('after-processing'),
  'max.poll.records': z.number().int().min(1).max(100_000).default(500),
  'isolation.level': z.enum(['read_uncommitted', 'read_committed']).default('read_uncommitted'),
  'auto.offset.reset': z.enum(['earliest', 'latest']).default('latest'),
  'fetch.max.wait.ms': ms().default(500),
  'session.timeout.ms': ms().default(45_000),
  /**
   * The assignor, and with it the rebalance protocol. `range` (RangeAssignor, the EAGER protocol:
   * Kafka's default list [RangeAssignor, CooperativeStickyAssignor] "will use the RangeAssignor by
   * default"): at each rebalance every member revokes all its partitions, the ones it keeps too,
   * and starts them again from the committed offset. `cooperative-sticky`
   * (CooperativeStickyAssignor, COOPERATIVE protocol): members keep what the balance allows and
   * only the partitions that move are revoked.
   * https://kafka.apache.org/documentation/#consumerconfigs_partition.assignment.strategy
   */
  'partition.assignment.strategy': z.enum(['range', 'cooperative-sticky']).default('range'),
  /**
   * The longest a sync loop may go without calling poll() (ms). A batch that takes longer makes
   * the member leave the group: its commit for that batch fails and the batch is read again.
   * Kafka's default is 5 min; the minimum 1
   * (https://kafka.apache.org/documentation/#consumerconfigs_max.poll.interval.ms).
   */
  'max.poll.interval.ms': ms(1).default(300_000),
  processing: ProcessingSchema,
  sideEffect: SideEffectSchema.optional(),
  /** When the instances start polling (ms). */
  startAtMs: ms().default(0),
  /**
   * What the loop does when a sink statement fails with an error: retry it a second later, skip it,
   * or stop — a sync loop for its batch's statement, a hand-off worker or a parallel pool for its
   * record's.
   */
  onStatementError: z.enum(['retry', 'skip', 'halt']).default('halt'),
});

/** A Flink job: KafkaSource → keyed running sum → sink, with checkpoints. */
export const FlinkProcessorSchema = z.strictObject({
  type: z.literal('flink'),
  /** Checkpoint interval (ms); null = checkpointing disabled (Flink's default). */
  'execution.checkpointing.interval': ms(1).nullable().default(null),
  'execution.checkpointing.mode': z.enum(['EXACTLY_ONCE', 'AT_LEAST_ONCE']).default('EXACTLY_ONCE'),
  /**
   * A checkpoint not completed this long after its trigger expires ("Checkpoint expired before
   * completing") and counts as a failed checkpoint (ms). Flink's default is 10 min; its minimum
   * is 10 ms (https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/config/#execution-checkpointing-timeout).
   */
  'execution.checkpointing.timeout': ms(10).default(600_000),
  /**
   * Consecutive failed checkpoints (expired ones count) the job tolerates; one more fails the
   * job over to its last completed checkpoint. Default 0: the first failure restarts the job
   * (https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/config/#execution-checkpointing-tolerable-failed-checkpoints).
   */
  'execution.checkpointing.tolerable-failed-checkpoints': z
    .number()
    .int()
    .min(0)
    .max(1_000)
    .default(0),
  /**
   * The KafkaSource consumer property `enable.auto.commit`. KafkaSourceBuilder sets it to false
   * unless given, so a job without checkpointing commits nothing (with checkpointing, offsets are
   * committed when a checkpoint completes, whatever this says). True: the Kafka consumer's
   * periodic auto-commit (every 5 s, `auto.commit.interval.ms`'s default) commits its fetch
   * position while checkpointing is off.
   * https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/#consumer-offset-committing
   */
  'enable.auto.commit': z.boolean().default(false),
  /**
   * KafkaSource's `setStartingOffsets(OffsetsInitializer…)`: where the job reads from when it
   * starts with no checkpoint to restore (its first start, or a restart before any checkpoint
   * completed or without checkpointing). `committedOffsets`: the group's committed offsets, else
   * the earliest (`committedOffsets(OffsetResetStrategy.EARLIEST)`; the model's default);
   * `earliest`: every partition from its first offset (`earliest()`, the real KafkaSource
   * default); `latest`: from each partition's end at that moment (`latest()`): a restart skips
   * what was not processed yet.
   * https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/#starting-offset
   */
  offsetsInitializer: z
    .enum(['committedOffsets', 'earliest', 'latest'])
    .default('committedOffsets'),
  /**
   * `restart-strategy.type`: `exponential-delay` (Flink's defaults since 1.19: a first delay of
   * 1 s, × 1.5 after each failure up to 1 min, back to 1 s once the job has run an hour without
   * failing — {@link EXPONENTIAL_DELAY}), `fixed-delay` (`restart-strategy.fixed-delay.delay`
   * every time, at most `restart-strategy.fixed-delay.attempts` times) or `none` (a failure fails the job; nothing restarts it). Unset, as Flink: `none`
   * when checkpointing is disabled, `exponential-delay` when it is enabled. See
   * {@link flinkRestartStrategy}.
   * https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/task_failure_recovery/
   */
  'restart-strategy.type': z.enum(['exponential-delay', 'fixed-delay', 'none']).optional(),
  /** Fixed-delay restart strategy: wait before the job restarts after a failure (ms). */
  'restart-strategy.fixed-delay.delay': ms().default(1_000),
  /**
   * Fixed-delay restart strategy: how many times the job is restarted in all; the failure after
   * the last of them fails the job for good. Flink's default is 1 ("The number of times that Flink
   * retries the execution before the job is declared as failed if restart-strategy has been set to
   * fixed-delay"): a job set to fixed-delay survives one failure, not two. The count never resets
   * (FixedDelayRestartBackoffTimeStrategy: `canRestart()` is `failures ≤ attempts`). Ignored under
   * the other strategies.
   * https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/config/#restart-strategy-fixed-delay-attempts
   */
  'restart-strategy.fixed-delay.attempts': z.number().int().min(0).max(2147483647).default(1),
  processing: ProcessingSchema,
  sideEffect: SideEffectSchema.optional(),
  startAtMs: ms().default(0),
  /** A record is flushed to a non-transactional sink this long after it is processed (ms); see docs/semantics/flink.md#sink-flush-timing. */
  sinkFlushDelayMs: ms().default(0),
  /**
   * Keep-first dedupe on the event id before the sink, `ROW_NUMBER() OVER (PARTITION BY id ORDER
   * BY proctime) = 1`, whose keyed state lives `table.exec.state.ttl` ms after it is written
   * (processing time; 0, Flink's default, never expires it) — the same rule as a `StateTtlConfig`
   * on a DataStream `ValueState` (docs/semantics/stream-dedupe.md,
   * https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/config/#table-exec-state-ttl).
   */
  dedupe: z.strictObject({ 'table.exec.state.ttl': ms() }).optional(),
});

/** A Spark Structured Streaming query reading Kafka, writing with `foreachBatch` or a built-in sink. */
export const SparkProcessorSchema = z.strictObject({
  type: z.literal('spark'),
  /**
   * `trigger(processingTime=…)` in ms: a batch starts on an interval boundary, or at once when the
   * previous one ran past it (https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#triggers).
   */
  'trigger.processingTime': ms(1).default(1_000),
  maxOffsetsPerTrigger: z.number().int().min(1).max(10_000_000).optional(),
  startingOffsets: z.enum(['earliest', 'latest']).default('latest'),
  processing: ProcessingSchema,
  sideEffect: SideEffectSchema.optional(),
  startAtMs: ms().default(0),
  /**
   * A streaming dedupe on the event id before foreachBatch, bounded by a watermark
   * (docs/semantics/stream-dedupe.md): `withWatermark(eventTime, delayThresholdMs)` then
   * `dropDuplicatesWithinWatermark(["id"])` (a key kept until the watermark passes its first
   * copy's event time + the delay) or `dropDuplicates(["id", eventTime])` (the event time is part
   * of the key). `eventTime`: `timestamp`, the Kafka record's own timestamp (a copy sent again
   * has a later one; the model stamps a record when its leader appends it), or `eventTime`, the
   * event's time in the payload (the same in every copy). Records at or before the watermark are
   * dropped as late
   * (https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#streaming-deduplication).
   */
  dedupe: z
    .strictObject({
      operator: z
        .enum(['dropDuplicatesWithinWatermark', 'dropDuplicates'])
        .default('dropDuplicatesWithinWatermark'),
      eventTime: z.enum(['timestamp', 'eventTime']).default('timestamp'),
      delayThresholdMs: ms(1),
    })
    .optional(),
});

export const ProcessorSchema = z.discriminatedUnion(
  'type',
  [ConsumerProcessorSchema, FlinkProcessorSchema, SparkProcessorSchema],
  {
    error: (iss) =>
      iss.code === 'invalid_union' ? 'type must be "consumer", "flink" or "spark"' : undefined,
  },
);

const RowSchema = z.strictObject({ id: name(), amount: z.number().min(-1e12).max(1e12) });

/**
 * A clean table built downstream from the sink table (the raw layer, which takes every delivery):
 * `ROW_NUMBER() OVER (PARTITION BY event_id ORDER BY the source offset) = 1`, then MERGE into the
 * clean table WHEN NOT MATCHED THEN INSERT (docs/semantics/stream-dedupe.md#raw-then-clean). With
 * it, the clean table is the end of the pipeline; the raw table stays an observation point.
 */
export const CleanLayerSchema = z.strictObject({ name: name().default('clean') });

/**
 * A SQL table (PostgreSQL semantics): https://www.postgresql.org/docs/current/sql-insert.html
 * and https://www.postgresql.org/docs/current/sql-merge.html
 */
export const TableSinkSchema = z.strictObject({
  type: z.literal('table'),
  name: name().default('sink'),
  /**
   * `insert`: plain INSERT. `on-conflict-do-nothing`: INSERT … ON CONFLICT (key) DO NOTHING.
   * `on-conflict-do-update`: INSERT … ON CONFLICT (key) DO UPDATE (see `set`).
   * `merge`: MERGE … ON key (see `merge`).
   */
  statement: z
    .enum(['insert', 'on-conflict-do-nothing', 'on-conflict-do-update', 'merge'])
    .default('insert'),
  /** DO UPDATE: `excluded` = SET amount = EXCLUDED.amount; `add-excluded` = SET amount = t.amount + EXCLUDED.amount. */
  set: z.enum(['excluded', 'add-excluded']).default('excluded'),
  merge: z
    .strictObject({
      /** WHEN MATCHED THEN UPDATE / DO NOTHING, or no WHEN MATCHED clause. */
      whenMatched: z.enum(['update', 'do-nothing', 'none']).default('update'),
      /** Deduplicate the source on the key first (DISTINCT ON, keeping the last). */
      dedupeSource: z.boolean().default(false),
    })
    .default({ whenMatched: 'update', dedupeSource: false }),
  /**
   * Whether the key column has a unique index / primary key. ON CONFLICT needs one (its arbiter);
   * unset means: yes for ON CONFLICT, no otherwise.
   */
  uniqueKey: z.boolean().optional(),
  /**
   * The key column's value: the producer's business id, a UUID generated each time the pipeline
   * processes the record (a replay gets a new one), or the source coordinate (topic/partition/offset).
   */
  key: z.enum(['business-id', 'uuid-per-attempt', 'source-offset']).default('business-id'),
  /** One statement per record, or one statement for each poll batch / micro-batch. */
  statementPer: z.enum(['record', 'batch']).default('record'),
  /**
   * A dedupe table `processed(id PRIMARY KEY)`, written in the same transaction as the row: a
   * record whose business id was recorded within `retentionMs` is skipped.
   */
  dedupe: z.strictObject({ retentionMs: ms() }).optional(),
  /**
   * The client's wait for a statement's answer (ms), like JDBC's socketTimeout: after it the writer
   * does not know whether the statement applied. Not Postgres's server-side statement_timeout,
   * which cancels the statement (SQLSTATE 57014), so a retry after it cannot duplicate.
   */
  'statement.timeout.ms': ms(1).default(5_000),
  /** How many times the writer retries a statement that timed out. */
  retries: z.number().int().min(0).max(1000).default(3),
  /**
   * Flink only: write through Flink's JDBC exactly-once sink (`JdbcSink.exactlyOnceSink`): one XA
   * transaction per checkpoint epoch, prepared (PREPARE TRANSACTION) when the barrier passes,
   * committed (COMMIT PREPARED) when the checkpoint completes; on restore the restored
   * checkpoint's prepared transactions are committed and the others rolled back. Rows become
   * visible at the commit. Flink requires `maxRetries` 0 here (`retries: 0`, FLINK-22311): a
   * failed write fails the job, which then replays from the last checkpoint
   * (https://nightlies.apache.org/flink/flink-docs-release-1.17/docs/connectors/datastream/jdbc/,
   * https://github.com/apache/flink-connector-jdbc/blob/main/flink-connector-jdbc/src/main/java/org/apache/flink/connector/jdbc/xa/JdbcXaSinkFunction.java).
   * PostgreSQL needs `max_prepared_transactions` > 0 for it (its default is 0); the model assumes
   * it is set.
   */
  xa: z.boolean().default(false),
  initialRows: z.array(RowSchema).max(LIMITS.initialRows).default([]),
  clean: CleanLayerSchema.optional(),
});

/** A Delta Lake table written from `foreachBatch`: https://docs.delta.io/latest/delta-streaming.html#idempotent-table-writes-in-foreachbatch */
export const DeltaSinkSchema = z.strictObject({
  type: z.literal('delta'),
  name: name().default('sink'),
  /** `txnAppId` option; with it, `txnVersion` = the batch id and a version already written is skipped. */
  txnAppId: name().nullable().default(null),
  /** `append`, or `merge`: MERGE ON id WHEN NOT MATCHED THEN INSERT. */
  mode: z.enum(['append', 'merge']).default('append'),
  clean: CleanLayerSchema.optional(),
});

/** Spark's built-in file sink (exactly-once through its own metadata log). */
export const FileSinkSchema = z.strictObject({
  type: z.literal('file'),
  name: name().default('sink'),
  format: z.enum(['parquet', 'json']).default('parquet'),
});

/**
 * A Kafka output topic. From Flink: KafkaSink with `deliveryGuarantee`
 * (https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/).
 * From a consumer loop: a producer, transactional when `transactional.id` is set.
 */
export const KafkaSinkSchema = z.strictObject({
  type: z.literal('kafka'),
  topic: topicName().default('out'),
  partitions: z.number().int().min(1).max(LIMITS.partitions).default(1),
  /** Flink KafkaSink: NONE (its default), AT_LEAST_ONCE, EXACTLY_ONCE (Kafka transactions per checkpoint). */
  deliveryGuarantee: z.enum(['NONE', 'AT_LEAST_ONCE', 'EXACTLY_ONCE']).default('NONE'),
  transactionalIdPrefix: name().optional(),
  /** Consumer loop: the output producer's `transactional.id`. */
  'transactional.id': name().optional(),
  /**
   * The output producer's `transaction.timeout.ms`. The plain Kafka producer's default is 60 s
   * (https://kafka.apache.org/documentation/#producerconfigs_transaction.timeout.ms).
   * Flink's KafkaSinkBuilder sets 1 h unless it is set (DEFAULT_KAFKA_TRANSACTION_TIMEOUT), and its
   * guide says to set it above the maximum checkpoint duration plus the maximum restart time, or
   * "data loss may happen"
   * (https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/).
   * Unset, the engine takes each system's own default ({@link outputTransactionTimeoutMs}): 1 h
   * under Flink, 60 s for a consumer loop's producer. The broker's `transaction.max.timeout.ms`
   * (default 15 min) caps it: a larger value fails the producer's initTransactions — which is
   * what Flink's 1 h default does against a broker left at its defaults
   * (https://kafka.apache.org/documentation/#brokerconfigs_transaction.max.timeout.ms).
   */
  'transaction.timeout.ms': ms(1).optional(),
  /**
   * The output producer's `linger.ms`. Default 0: the kafka-clients 3.x default the Flink Kafka
   * connector and most applications still run with (Kafka 4.0 changed the client default to 5).
   */
  'linger.ms': ms().default(0),
  /**
   * Flink EXACTLY_ONCE only: what happens when a recovered transaction has expired. `true` (the
   * default) is the current KafkaSink (Sink V2): its KafkaCommitter catches the
   * InvalidTxnStateException / ProducerFencedException, logs "Unable to commit transaction …
   * Most likely the transaction has been aborted" and drops the committable — the data is lost
   * silently and the job keeps running; KafkaSink has no option to change that
   * (https://github.com/apache/flink-connector-kafka/blob/main/flink-connector-kafka/src/main/java/org/apache/flink/connector/kafka/sink/KafkaCommitter.java).
   * `false` models a sink on the legacy TwoPhaseCommitSinkFunction whose recoverAndCommit throws
   * when the commit fails, without `ignoreFailuresAfterTransactionTimeout()` — off by default
   * there — which rethrows, so the job fails on every restore (not the legacy FlinkKafkaProducer:
   * its recoverAndCommit catches the fencing error, logs "Presumably this transaction has been
   * already committed before" and goes on, losing the data as KafkaSink does)
   * (https://github.com/apache/flink/blob/release-1.17/flink-streaming-java/src/main/java/org/apache/flink/streaming/api/functions/sink/TwoPhaseCommitSinkFunction.java).
   * The field name is the legacy API's; KafkaSink itself has no such setting.
   */
  ignoreFailuresAfterTransactionTimeout: z.boolean().default(true),
});

/** An external service as the sink: each call is an effect unless an idempotency key dedupes it (https://docs.stripe.com/api/idempotent_requests). */
export const EffectSinkSchema = z.strictObject({
  type: z.literal('effect'),
  service: z.enum(['email', 'card-charge']).default('card-charge'),
  idempotencyKey: z.enum(['none', 'business-id', 'per-attempt']).default('business-id'),
  retentionMs: ms().default(24 * 3600 * 1000),
  /** The client gives up waiting after this (ms) and retries. */
  'timeout.ms': ms(1).default(30_000),
  retries: z.number().int().min(0).max(1000).default(3),
  /** Delay before a retry (ms). */
  retryDelayMs: ms().default(10_000),
  /** A retry sends the amount changed by this much (a client bug: same key, different request). */
  retryAmountDelta: z.number().min(-1e12).max(1e12).default(0),
});

export const SinkSchema = z.discriminatedUnion(
  'type',
  [TableSinkSchema, DeltaSinkSchema, FileSinkSchema, KafkaSinkSchema, EffectSinkSchema],
  {
    error: (iss) =>
      iss.code === 'invalid_union'
        ? 'type must be "table", "delta", "file", "kafka" or "effect"'
        : undefined,
  },
);

/** A downstream consumer of a topic that copies what it reads into its own plain table. */
export const ReaderSchema = z.strictObject({
  name: name(),
  topic: topicName().default('out'),
  'isolation.level': z.enum(['read_uncommitted', 'read_committed']).default('read_uncommitted'),
  startAtMs: ms().default(0),
});

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
  partition: z.number().int().min(0).max(LIMITS.partitions).optional(),
  nth: z.number().int().min(1).max(1_000_000).default(1),
  every: z.number().int().min(1).max(1_000_000).optional(),
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
      partition: z.number().int().min(0).max(LIMITS.partitions).optional(),
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
      nth: z.number().int().min(1).max(1_000_000).default(1),
      /**
       * `mid-batch`: records processed in the batch before the crash, from 1 (a Flink job: since
       * the last barrier). 0 is accepted for the other points, which ignore it, as scenarios saved
       * before the default was 1 carry it; a `mid-batch` crash after 0 records is refused.
       */
      afterRecords: z.number().int().min(0).max(1_000_000).default(1),
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
      partition: z.number().int().min(0).max(LIMITS.partitions).default(0),
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
      transaction: z.number().int().min(1).max(1_000_000),
    }),
    z.strictObject({
      kind: z.literal('hang-transaction'),
      ...faultBase,
      /** The application never completes its nth transaction (it stalls with it open). */
      transaction: z.number().int().min(1).max(1_000_000),
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
      everyRecords: z.number().int().min(1).max(LIMITS.generatedEvents),
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

export const GuaranteeSchema = z.enum(['at-most-once', 'at-least-once', 'exactly-once']);
export const ObservedGuaranteeSchema = z.enum([
  'exactly-once',
  'at-least-once',
  'at-most-once',
  'none',
]);

const TotalsExpectSchema = z.strictObject({
  rows: count(1e9).optional(),
  duplicates: count(1e9).optional(),
  lost: count(1e9).optional(),
  sum: z.number().optional(),
  events: count(1e9).optional(),
});

const PointExpectSchema = z.strictObject({
  totals: TotalsExpectSchema.optional(),
  /** Rows (effects) per business id, for the ids listed. */
  rows: z.record(z.string().max(LIMITS.stringLength), count(1e9)).optional(),
});

/** What the run must show; `--check` and the tests compare the run with it. */
export const ExpectSchema = z.strictObject({
  totals: TotalsExpectSchema.optional(),
  rows: z.record(z.string().max(LIMITS.stringLength), count(1e9)).optional(),
  observed: ObservedGuaranteeSchema.optional(),
  /** Other observation points by name (`log:events`, `sink`, `reader:rc`, `effects`, `state`). */
  points: z.record(z.string().max(LIMITS.stringLength), PointExpectSchema).optional(),
});

/** Slowest and fastest playback speeds (virtual ms per real ms): the page's speed range. */
export const PACE_MIN = 0.001;
export const PACE_MAX = 1000;

export const ScenarioSchema = z.strictObject({
  /** Where editors find this schema (`scenario.schema.json`); ignored by the engine. */
  $schema: z.string().max(LIMITS.stringLength).optional(),
  version: z.literal(1),
  name: name(),
  description: z.string().max(LIMITS.textLength).optional(),
  seed: z.number().int().min(0).max(0xffffffff).default(1),
  /** The guarantee the configuration is meant to give; the checker compares the run with it. */
  claim: GuaranteeSchema.default('at-least-once'),
  /** End of the run (ms). Default: when nothing is left to happen. */
  stopAtMs: ms().optional(),
  network: z
    .strictObject({
      /** One-way latency of every link (ms). */
      latencyMs: ms().default(2),
      /** Extra uniform latency in [0, jitterMs] per message, from the seed. */
      jitterMs: ms().default(0),
    })
    .default({ latencyMs: 2, jitterMs: 0 }),
  workload: WorkloadSchema,
  producer: ProducerSchema.default(() => ProducerSchema.parse({})),
  broker: BrokerSchema.default(() => BrokerSchema.parse({})),
  processor: ProcessorSchema.default(() => ConsumerProcessorSchema.parse({ type: 'consumer' })),
  sink: SinkSchema.default(() => TableSinkSchema.parse({ type: 'table' })),
  readers: z.array(ReaderSchema).max(LIMITS.readers).default([]),
  faults: z.array(FaultSchema).max(LIMITS.faults).default([]),
  /**
   * A batch pipeline (a scheduled job over a partitioned source table), judged by the batch
   * checker instead of the streaming one: src/engine/batch/, docs/semantics/batch.md.
   */
  batch: BatchSchema.optional(),
  expect: ExpectSchema.optional(),
  /**
   * How the page plays the run; no part of the run itself (the trace is the same with or without).
   * `pace`: playback speed in virtual ms per real ms (0.01: 1 ms of the run takes 0.1 s on
   * screen), from {@link PACE_MIN} to {@link PACE_MAX}; default: the speed that plays the story in
   * about 30 s with idle stretches cut (src/views/run/pace.ts).
   */
  display: z
    .strictObject({
      pace: z.number().min(PACE_MIN).max(PACE_MAX).optional(),
    })
    .optional(),
});

/** A scenario as written (defaults not yet applied). */
export type ScenarioInput = z.input<typeof ScenarioSchema>;
/** A validated scenario with every default applied. */
export type Scenario = z.output<typeof ScenarioSchema>;
export type EventSpec = z.output<typeof EventSchema>;
export type ProducerConfig = z.output<typeof ProducerSchema>;
export type BrokerConfig = z.output<typeof BrokerSchema>;
export type ProcessorConfig = z.output<typeof ProcessorSchema>;
export type ConsumerProcessorConfig = z.output<typeof ConsumerProcessorSchema>;
export type FlinkProcessorConfig = z.output<typeof FlinkProcessorSchema>;
export type SparkProcessorConfig = z.output<typeof SparkProcessorSchema>;
export type SinkConfig = z.output<typeof SinkSchema>;
export type TableSinkConfig = z.output<typeof TableSinkSchema>;
export type KafkaSinkConfig = z.output<typeof KafkaSinkSchema>;
export type EffectSinkConfig = z.output<typeof EffectSinkSchema>;
export type SideEffectConfig = z.output<typeof SideEffectSchema>;
export type ReaderConfig = z.output<typeof ReaderSchema>;
export type FaultSpec = z.output<typeof FaultSchema>;
export type RandomFaultSpec = z.output<typeof RandomFaultSchema>;
export type CrashPoint = z.output<typeof CrashPointSchema>;
export type Link = z.output<typeof LinkSchema>;
export type Guarantee = z.output<typeof GuaranteeSchema>;
export type ObservedGuarantee = z.output<typeof ObservedGuaranteeSchema>;

/** Flink's KafkaSinkBuilder sets this `transaction.timeout.ms` unless it is set (1 h, in ms). */
export const FLINK_KAFKA_SINK_TRANSACTION_TIMEOUT_MS = 3_600_000;
/** The Kafka producer's own `transaction.timeout.ms` default (60 s, in ms). */
export const KAFKA_PRODUCER_TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * What the seed draws in this scenario, in words ("network jitter", "2 random faults", "Poisson
 * arrivals", …); empty when nothing in it is random — every seed then gives the same run.
 */
export function seedDraws(s: Scenario): string[] {
  const out: string[] = [];
  if (s.network.jitterMs > 0) out.push('network jitter');
  const random = s.faults.filter((f) => f.kind === 'random').length;
  if (random > 0) out.push(random === 1 ? 'a random fault' : `${random} random faults`);
  const g = s.workload.generate;
  if (g?.arrivals === 'poisson') out.push('Poisson arrivals');
  if (g?.keyChoice === 'random') out.push('random keys');
  if (g?.amounts === 'random') out.push('random amounts');
  return out;
}

/** The restart strategy a Flink job runs with: the one set, or Flink's default for its checkpointing. */
export function flinkRestartStrategy(
  p: FlinkProcessorConfig,
): 'exponential-delay' | 'fixed-delay' | 'none' {
  return (
    p['restart-strategy.type'] ??
    (p['execution.checkpointing.interval'] === null ? 'none' : 'exponential-delay')
  );
}

/**
 * Whether a Flink job is restarted after its `failures`-th failure (1 for the first): never under
 * `none`; under `fixed-delay` while `failures` ≤ `restart-strategy.fixed-delay.attempts`
 * (FixedDelayRestartBackoffTimeStrategy counts every failure and `canRestart()` is
 * `currentRestartAttempt <= maxNumberRestartAttempts`); always under `exponential-delay` (its
 * `attempts-before-reset-backoff` default, Integer.MAX_VALUE, is not modelled).
 * https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/task_failure_recovery/#fixed-delay-restart-strategy
 */
export function flinkRestartsAfter(p: FlinkProcessorConfig, failures: number): boolean {
  switch (flinkRestartStrategy(p)) {
    case 'none':
      return false;
    case 'fixed-delay':
      return failures <= p['restart-strategy.fixed-delay.attempts'];
    case 'exponential-delay':
      return true;
  }
}

/**
 * Flink's exponential-delay restart strategy with its defaults (1.19+, FLINK-33736), in ms:
 * `initial-backoff` 1 s, `max-backoff` 1 min, `backoff-multiplier` 1.5,
 * `reset-backoff-threshold` 1 h. Its `jitter-factor` (0.1: each delay drawn within ±10 %) is not
 * drawn here, so a restart's time does not depend on the seed.
 * https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/config/#restart-strategy-exponential-delay-initial-backoff
 */
export const EXPONENTIAL_DELAY = {
  initialBackoffMs: 1_000,
  maxBackoffMs: 60_000,
  multiplier: 1.5,
  resetThresholdMs: 3_600_000,
} as const;

/**
 * The Kafka sink's `transaction.timeout.ms` in effect (ms): the value set, else the default of
 * whoever builds the producer — Flink's KafkaSinkBuilder (DEFAULT_KAFKA_TRANSACTION_TIMEOUT, 1 h:
 * https://github.com/apache/flink-connector-kafka/blob/main/flink-connector-kafka/src/main/java/org/apache/flink/connector/kafka/sink/KafkaSinkBuilder.java)
 * or the plain Kafka producer (60 s:
 * https://kafka.apache.org/documentation/#producerconfigs_transaction.timeout.ms).
 */
export function outputTransactionTimeoutMs(s: Pick<Scenario, 'processor' | 'sink'>): number {
  if (s.sink.type === 'kafka' && s.sink['transaction.timeout.ms'] !== undefined)
    return s.sink['transaction.timeout.ms'];
  return s.processor.type === 'flink'
    ? FLINK_KAFKA_SINK_TRANSACTION_TIMEOUT_MS
    : KAFKA_PRODUCER_TRANSACTION_TIMEOUT_MS;
}
export type Expect = z.output<typeof ExpectSchema>;
