/**
 * Transaction timeouts in effect where a scenario leaves them unset: plain rules with no schema,
 * so a run reads them without building the scenario schemas (docs/ARCHITECTURE.md, "Our presets
 * without zod").
 */
import type { ProcessorConfig } from './schemaProcessors';
import type { SinkConfig } from './schemaSinks';

/** Kafka's default broker `transaction.max.timeout.ms` (15 min, in ms). */
export const KAFKA_TRANSACTION_MAX_TIMEOUT_MS = 900_000;

/** Flink's KafkaSinkBuilder sets this `transaction.timeout.ms` unless it is set (1 h, in ms). */
export const FLINK_KAFKA_SINK_TRANSACTION_TIMEOUT_MS = 3_600_000;
/** The Kafka producer's own `transaction.timeout.ms` default (60 s, in ms). */
export const KAFKA_PRODUCER_TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * The Kafka sink's `transaction.timeout.ms` in effect (ms): the value set, else the default of
 * whoever builds the producer — Flink's KafkaSinkBuilder (DEFAULT_KAFKA_TRANSACTION_TIMEOUT, 1 h:
 * https://github.com/apache/flink-connector-kafka/blob/main/flink-connector-kafka/src/main/java/org/apache/flink/connector/kafka/sink/KafkaSinkBuilder.java)
 * or the plain Kafka producer (60 s:
 * https://kafka.apache.org/documentation/#producerconfigs_transaction.timeout.ms).
 */
export function outputTransactionTimeoutMs(s: {
  processor: ProcessorConfig;
  sink: SinkConfig;
}): number {
  if (s.sink.type === 'kafka' && s.sink['transaction.timeout.ms'] !== undefined)
    return s.sink['transaction.timeout.ms'];
  return s.processor.type === 'flink'
    ? FLINK_KAFKA_SINK_TRANSACTION_TIMEOUT_MS
    : KAFKA_PRODUCER_TRANSACTION_TIMEOUT_MS;
}
