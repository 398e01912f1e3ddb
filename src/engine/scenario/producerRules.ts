/**
 * Kafka's producer rules the engine and the views read of a validated scenario (`acks` written
 * any way the client accepts, idempotence on by default), apart from ./semanticIssues.ts: the
 * validation's checks are then not in a run's bundle (issue 31: the embed's first load).
 */
import type { Scenario } from './schema';

/**
 * Whether the producer ends up idempotent. Kafka's rule (ProducerConfig, `enable.idempotence`):
 * on by default "if no conflicting configurations are set"; a conflicting `acks` or `retries=0`
 * turns it off silently unless it was set explicitly; a `transactional.id` implies it.
 * https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence
 */
export function effectiveIdempotence(cfg: Scenario['producer']): boolean {
  if (cfg['transactional.id'] !== undefined) return true;
  if (cfg['enable.idempotence'] !== undefined) return cfg['enable.idempotence'];
  return normalizeAcks(cfg.acks) === 'all' && cfg.retries > 0;
}

/** The normalized `acks`: "0", "1" or "all". */
export function normalizeAcks(acks: Scenario['producer']['acks']): '0' | '1' | 'all' {
  if (acks === 'all' || acks === '-1' || acks === -1) return 'all';
  if (acks === '0' || acks === 0) return '0';
  return '1';
}
