/**
 * Where a scenario's pipeline writes (a SQL table, a Delta table, files, a Kafka topic, an external
 * service) and the readers downstream of a topic, with the output producer's transaction timeout.
 */
import { z } from 'zod';
import { LIMITS } from './limits';
import { amount, int, ms, name, topicName } from './schemaFields';
import { EVENT_CONTENT_COLUMNS } from '../batch/schema';
import { dedupeKeyIssue } from '../batch/contentColumns';
import { TABLE_COLUMNS } from '../sinks/keyColumns';
import { sqlIdentifierIssue } from '../sinks/sqlIdentifier';

/** A table sink's key that is no content tuple (docs/semantics/sinks.md#sink-key). */
const SINK_KEY_IDS = ['business-id', 'uuid-per-attempt', 'source-offset'] as const;

const RowSchema = z.strictObject({ id: name(), amount: amount() });

/** A column name as PostgreSQL reads an identifier (src/engine/sinks/sqlIdentifier.ts). */
const SqlIdentifierSchema = z.string().superRefine((v, ctx) => {
  const why = sqlIdentifierIssue(v);
  if (why) ctx.addIssue({ code: 'custom', message: `"${v.slice(0, 80)}" ${why}` });
});

/**
 * The user's names of the table's columns, by the lab's (`{"id": "payment_id"}`): what the
 * importer read from their statement (src/scenarios/config/sinkSql.ts), so the statements the lab
 * shows and prints are theirs (docs/sql.md#your-names). Unset: the lab's names.
 */
const ColumnsSchema = z.strictObject(
  Object.fromEntries(TABLE_COLUMNS.map((c) => [c, SqlIdentifierSchema.optional()])) as Record<
    (typeof TABLE_COLUMNS)[number],
    z.ZodOptional<typeof SqlIdentifierSchema>
  >,
);

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
   * processes the record (a replay gets a new one), the source coordinate (topic/partition/offset),
   * or a tuple of the event's content columns (e.g. `["time", "amount"]`: ON CONFLICT (event_time,
   * amount)) — two real events with equal content then share one key and merge, a false merge
   * (docs/semantics/sinks.md#content-keys). The dedupe table is keyed the same way.
   */
  key: z
    .union(
      [
        z.enum(SINK_KEY_IDS),
        z.array(z.enum(EVENT_CONTENT_COLUMNS)).min(1).max(EVENT_CONTENT_COLUMNS.length),
      ],
      {
        error: (iss) =>
          iss.code === 'invalid_union'
            ? dedupeKeyIssue(iss.input, SINK_KEY_IDS, EVENT_CONTENT_COLUMNS)
            : undefined,
      },
    )
    .default('business-id'),
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
  retries: int(0, 1000).default(3),
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
  /** The table's columns under the user's names, by the lab's: {@link ColumnsSchema}. */
  columns: ColumnsSchema.optional(),
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
  partitions: int(1, LIMITS.partitions).default(1),
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
  retries: int(0, 1000).default(3),
  /** Delay before a retry (ms). */
  retryDelayMs: ms().default(10_000),
  /** A retry sends the amount changed by this much (a client bug: same key, different request). */
  retryAmountDelta: amount().default(0),
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

export type SinkConfig = z.output<typeof SinkSchema>;
export type TableSinkConfig = z.output<typeof TableSinkSchema>;
export type KafkaSinkConfig = z.output<typeof KafkaSinkSchema>;
export type EffectSinkConfig = z.output<typeof EffectSinkSchema>;
export type ReaderConfig = z.output<typeof ReaderSchema>;
