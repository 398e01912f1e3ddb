/**
 * The documentation the library's presets rest on: the public pages of docs/semantics/README.md#sources, keyed
 * as docs/semantics/README.md#sources keys them (K-DES, F-KAF, …) so a preset's `sources` can be checked against the
 * S-number it reproduces. Two keys are split where docs/semantics/README.md#sources lists two pages under one key: K-TXN is
 * K-DES's §4.7 anchor ("Using Transactions"), STRIPE-API is the API-reference half of STRIPE.
 */

/** One source: its public URL and a short title for a link. */
export interface Source {
  url: string;
  title: string;
}

/** Every source a preset may cite, by its docs/semantics/README.md#sources key. */
export const SOURCES = {
  'K-DES': {
    url: 'https://kafka.apache.org/documentation/#semantics',
    title: 'Kafka design: message delivery semantics',
  },
  'K-TXN': {
    url: 'https://kafka.apache.org/documentation/#usingtransactions',
    title: 'Kafka design: using transactions',
  },
  'K-PCFG': {
    url: 'https://kafka.apache.org/documentation/#producerconfigs',
    title: 'Kafka producer configs',
  },
  /** The primary page for `transaction.max.timeout.ms`. */
  'K-BCFG': {
    url: 'https://kafka.apache.org/documentation/#brokerconfigs_transaction.max.timeout.ms',
    title: 'Kafka broker configs: transaction.max.timeout.ms',
  },
  'K-PJD': {
    url: 'https://kafka.apache.org/documentation/#producerapi',
    title: 'KafkaProducer javadoc (idempotent and transactional producer)',
  },
  'K-UPG': {
    url: 'https://kafka.apache.org/documentation/#upgrade_300_notable',
    title: 'Kafka 3.0 upgrade notes: idempotence by default',
  },
  'K-CCFG': {
    url: 'https://kafka.apache.org/documentation/#consumerconfigs',
    title: 'Kafka consumer configs',
  },
  'K-CJD': {
    url: 'https://kafka.apache.org/documentation/#consumerapi',
    title: 'KafkaConsumer javadoc: manual offset control',
  },
  'KIP-890': {
    url: 'https://cwiki.apache.org/confluence/display/KAFKA/KIP-890:+Transactions+Server-Side+Defense',
    title: 'KIP-890: hanging transactions',
  },
  'F-FT': {
    url: 'https://nightlies.apache.org/flink/flink-docs-stable/docs/learn-flink/fault_tolerance/',
    title: 'Flink: fault tolerance via state snapshots',
  },
  'F-CKP': {
    url: 'https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/datastream/fault-tolerance/checkpointing/',
    title: 'Flink: checkpointing (interval, timeout, concurrent checkpoints)',
  },
  'F-SSP': {
    url: 'https://nightlies.apache.org/flink/flink-docs-stable/docs/concepts/stateful-stream-processing/',
    title: 'Flink: stateful stream processing (recovery)',
  },
  'F-GUA': {
    url: 'https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/guarantees/',
    title: 'Flink: guarantees of sources and sinks',
  },
  'F-KAF': {
    url: 'https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/',
    title: 'Flink Kafka connector: KafkaSink delivery guarantees',
  },
  'F-2PC': {
    url: 'https://github.com/apache/flink/blob/release-1.17/flink-streaming-java/src/main/java/org/apache/flink/streaming/api/functions/sink/TwoPhaseCommitSinkFunction.java',
    title: 'Flink TwoPhaseCommitSinkFunction',
  },
  'S-FT': {
    url: 'https://spark.apache.org/docs/latest/streaming/getting-started.html#fault-tolerance-semantics',
    title: 'Spark Structured Streaming: fault-tolerance semantics',
  },
  'S-SINK': {
    url: 'https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#output-sinks',
    title: 'Spark Structured Streaming: output sinks and foreachBatch',
  },
  'S-MBE': {
    url: 'https://github.com/apache/spark/blob/v3.3.0/sql/core/src/main/scala/org/apache/spark/sql/execution/streaming/MicroBatchExecution.scala',
    title: 'Spark MicroBatchExecution (offset and commit logs)',
  },
  'D-IDEM': {
    url: 'https://docs.delta.io/latest/delta-streaming.html#idempotent-table-writes-in-foreachbatch',
    title: 'Delta Lake: idempotent table writes in foreachBatch',
  },
  'D-MERGE': {
    url: 'https://docs.delta.io/latest/delta-update.html#upsert-into-a-table-using-merge',
    title: 'Delta Lake: upsert with MERGE',
  },
  'PG-INS': {
    url: 'https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT',
    title: 'PostgreSQL: INSERT … ON CONFLICT',
  },
  'PG-MRG': {
    url: 'https://www.postgresql.org/docs/current/sql-merge.html',
    title: 'PostgreSQL: MERGE',
  },
  'STRIPE-API': {
    url: 'https://docs.stripe.com/api/idempotent_requests',
    title: 'Stripe API: idempotent requests',
  },
  STRIPE: {
    url: 'https://docs.stripe.com/idempotency',
    title: 'Stripe: idempotency',
  },
  'AF-BP': {
    url: 'https://airflow.apache.org/docs/apache-airflow/stable/best-practices.html#creating-a-task',
    title: 'Airflow best practices: creating a task',
  },
  'AF-DR': {
    url: 'https://airflow.apache.org/docs/apache-airflow/stable/core-concepts/dag-run.html',
    title: 'Airflow DAG runs: catchup, backfill, re-run',
  },
  'AF-BF': {
    url: 'https://airflow.apache.org/docs/apache-airflow/stable/core-concepts/backfill.html',
    title: 'Airflow backfill: reprocessing, a running date, max_active_runs',
  },
  'DBT-INC': {
    url: 'https://docs.getdbt.com/docs/build/incremental-models',
    title: 'dbt incremental models',
  },
  'D-RW': {
    url: 'https://docs.databricks.com/aws/en/delta/selective-overwrite',
    title: 'Delta Lake: selective overwrite with replaceWhere',
  },
  'R-SET': {
    url: 'https://redis.io/docs/latest/commands/set/',
    title: 'Redis SET (NX, EX)',
  },
  'S-DEDUP': {
    url: 'https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#streaming-deduplication',
    title: 'Spark Structured Streaming: streaming deduplication',
  },
  'S-DDWW': {
    url: 'https://spark.apache.org/docs/latest/api/python/reference/pyspark.sql/api/pyspark.sql.DataFrame.dropDuplicatesWithinWatermark.html',
    title: 'PySpark: DataFrame.dropDuplicatesWithinWatermark',
  },
  'F-DEDUP': {
    url: 'https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/deduplication/',
    title: 'Flink SQL: deduplication (ROW_NUMBER)',
  },
  'F-TTL': {
    url: 'https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/config/#table-exec-state-ttl',
    title: 'Flink table config: table.exec.state.ttl',
  },
  'F-STTL': {
    url: 'https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/datastream/fault-tolerance/state/#state-time-to-live-ttl',
    title: 'Flink: state time-to-live (StateTtlConfig)',
  },
} as const satisfies Record<string, Source>;

/** A source key of docs/semantics/README.md#sources. */
export type SourceKey = keyof typeof SOURCES;

/** The URLs of the given sources, in order (a preset's `sources`). */
export function sourceUrls(...keys: SourceKey[]): string[] {
  return keys.map((k) => SOURCES[k].url);
}

/**
 * Title of a source URL (for a link's text), or undefined for a URL not in {@link SOURCES}. A
 * config's own anchor on a page of configs listed there (Kafka's `#producerconfigs_<key>`) is
 * named by the page's title and the key: "Kafka producer configs: enable.idempotence".
 */
export function sourceTitle(url: string): string | undefined {
  const all = Object.values(SOURCES);
  const exact = all.find((s) => s.url === url)?.title;
  if (exact) return exact;
  const page = all.find((s) => /configs$/.test(s.url) && url.startsWith(`${s.url}_`));
  return page && `${page.title}: ${url.slice(page.url.length + 1)}`;
}
