/**
 * The processor of a scenario: a Kafka consumer loop, a Flink job or a Spark Structured Streaming
 * query, with what each record's processing costs and the side effect it may have, and the rules
 * Flink's restart strategies follow.
 */
import { z } from 'zod';
import { LIMITS } from './limits';
import { int, ms, name } from './schemaFields';

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
    concurrency: int(1, 1000).default(4),
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
  instances: int(1, LIMITS.instances).default(1),
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
  'max.poll.records': int(1, 100_000).default(500),
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
  /**
   * Checkpoint interval (ms); null = checkpointing disabled (Flink's default). At least 10 ms:
   * Flink's CheckpointConfig.setCheckpointInterval throws IllegalArgumentException ("Checkpoint
   * interval must be larger than or equal to 10 ms", MINIMAL_CHECKPOINT_TIME), as for the
   * timeout below
   * (https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/config/#execution-checkpointing-interval).
   */
  'execution.checkpointing.interval': ms(10).nullable().default(null),
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
  'execution.checkpointing.tolerable-failed-checkpoints': int(0, 1_000).default(0),
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
  'restart-strategy.fixed-delay.attempts': int(0, 2147483647).default(1),
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
  maxOffsetsPerTrigger: int(1, 10_000_000).optional(),
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

export type ProcessorConfig = z.output<typeof ProcessorSchema>;
export type ConsumerProcessorConfig = z.output<typeof ConsumerProcessorSchema>;
export type FlinkProcessorConfig = z.output<typeof FlinkProcessorSchema>;
export type SparkProcessorConfig = z.output<typeof SparkProcessorSchema>;
export type SideEffectConfig = z.output<typeof SideEffectSchema>;
