/**
 * Flink's restart strategy as a run applies it: plain rules with no schema (docs/ARCHITECTURE.md,
 * "Our presets without zod").
 */
import type { FlinkProcessorConfig } from './schemaProcessors';

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
