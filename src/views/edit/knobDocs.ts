/** What the knob table's entries share: the official documentation addresses, and when a knob applies. */
import type { Scenario } from '../../engine';

export const KAFKA = 'https://kafka.apache.org/documentation/';
export const producerDoc = (n: string) => `${KAFKA}#producerconfigs_${n}`;
export const consumerDoc = (n: string) => `${KAFKA}#consumerconfigs_${n}`;
export const brokerDoc = (n: string) => `${KAFKA}#brokerconfigs_${n}`;
export const FLINK_CONFIG =
  'https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/config/';
export const FLINK_KAFKA_START =
  'https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/#starting-offset';
export const FLINK_KAFKA =
  'https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/';
export const SPARK_KAFKA =
  'https://spark.apache.org/docs/latest/streaming/structured-streaming-kafka-integration.html';
export const SPARK_TRIGGERS =
  'https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#triggers';
export const PG_INSERT = 'https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT';
export const PG_MERGE = 'https://www.postgresql.org/docs/current/sql-merge.html';
export const DELTA =
  'https://docs.delta.io/latest/delta-streaming.html#idempotent-table-writes-in-foreachbatch';
export const STRIPE = 'https://docs.stripe.com/api/idempotent_requests';

export const always = () => true;
export const consumer = (s: Scenario) => s.processor.type === 'consumer';
export const durationList = (s: Scenario) =>
  s.processor.type === 'consumer' && (s.processor.processing.durationsMs?.length ?? 0) > 0;
export const flink = (s: Scenario) => s.processor.type === 'flink';
export const spark = (s: Scenario) => s.processor.type === 'spark';
export const table = (s: Scenario) => s.sink.type === 'table';
export const kafkaSink = (s: Scenario) => s.sink.type === 'kafka';
export const delta = (s: Scenario) => s.sink.type === 'delta';
export const effect = (s: Scenario) => s.sink.type === 'effect';

export const ms = (min: number, max = 7 * 24 * 3_600_000) => ({
  type: 'number' as const,
  min,
  max,
  unit: 'ms' as const,
});
