/**
 * The producer client's settings under their Java client names, the source producer's from the
 * scenario and a pipeline's own output producer's, and the retry rules that read them.
 * https://kafka.apache.org/documentation/#producerconfigs
 */
import type { ErrorCode } from './trace';
import type { World } from './world';

/** The producer settings a client needs (a subset of the scenario's producer block). */
export interface ClientConfig {
  acks: '0' | '1' | 'all';
  idempotent: boolean;
  transactionalId: string | null;
  retries: number;
  deliveryTimeoutMs: number;
  requestTimeoutMs: number;
  retryBackoffMs: number;
  retryBackoffMaxMs: number;
  lingerMs: number;
  batchSize: number;
  maxInFlight: number;
  transactionTimeoutMs: number;
}

/** The errors a batch is retried after (the others fail it). */
export const RETRIABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'REQUEST_TIMED_OUT',
  'NETWORK_EXCEPTION',
  'NOT_LEADER_OR_FOLLOWER',
  'NOT_ENOUGH_REPLICAS',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
]);

/**
 * The Java client's backoff before it asks again when the first AddPartitionsToTxn of a
 * transaction was refused with CONCURRENT_TRANSACTIONS (ms): retry.backoff.ms, lowered to this
 * ("the previous transaction is still completing and we don't want to wait too long before trying
 * to start the new one" — TransactionManager.ADD_PARTITIONS_RETRY_BACKOFF_MS,
 * AddPartitionsToTxnHandler.maybeOverrideRetryBackoffMs).
 * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionManager.java
 */
export const ADD_PARTITIONS_RETRY_BACKOFF_MS = 20;

/**
 * The wait before a batch's next attempt, after `attempts` failed ones (ms). Kafka ≥ 3.7
 * (KIP-580): `retry.backoff.ms`, doubled for each further failed attempt, up to
 * `retry.backoff.max.ms` — or that maximum from the start when `retry.backoff.ms` is larger.
 * Kafka's ±20 % jitter is not drawn, so retry times do not depend on the seed.
 * https://kafka.apache.org/documentation/#producerconfigs_retry.backoff.max.ms
 */
export function retryBackoff(
  cfg: Pick<ClientConfig, 'retryBackoffMs' | 'retryBackoffMaxMs'>,
  attempts: number,
): number {
  const base = cfg.retryBackoffMs;
  const max = cfg.retryBackoffMaxMs;
  if (base >= max) return max;
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

/** Client settings of the scenario's source producer. */
export function sourceClientConfig(
  p: World['scenario']['producer'],
  acks: '0' | '1' | 'all',
  idempotent: boolean,
): ClientConfig {
  return {
    acks,
    idempotent,
    transactionalId: p['transactional.id'] ?? null,
    retries: p.retries,
    deliveryTimeoutMs: p['delivery.timeout.ms'],
    requestTimeoutMs: p['request.timeout.ms'],
    retryBackoffMs: p['retry.backoff.ms'],
    retryBackoffMaxMs: p['retry.backoff.max.ms'],
    lingerMs: p['linger.ms'],
    batchSize: p['batch.size'],
    maxInFlight: p['max.in.flight.requests.per.connection'],
    transactionTimeoutMs: p['transaction.timeout.ms'],
  };
}

/**
 * Client settings of a pipeline's own output producer (a consumer loop's or Flink's Kafka sink):
 * the Java client's defaults (acks=all, idempotent), with the sink's `linger.ms`, transactional
 * when `transactionalId` is given.
 */
export function outputClientConfig(
  transactionalId: string | null,
  transactionTimeoutMs: number,
  lingerMs: number,
  idempotent = true,
): ClientConfig {
  return {
    acks: 'all',
    idempotent: idempotent || transactionalId !== null,
    transactionalId,
    retries: 2147483647,
    deliveryTimeoutMs: 120_000,
    requestTimeoutMs: 30_000,
    retryBackoffMs: 100,
    retryBackoffMaxMs: 1000,
    lingerMs,
    batchSize: 16_384,
    maxInFlight: 5,
    transactionTimeoutMs,
  };
}
