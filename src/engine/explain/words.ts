/**
 * Sentence pieces the explanations share: durations, restart strategies, crash causes, sink
 * statements and skip reasons in words.
 */
import type { FaultSpec, FlinkProcessorConfig } from '../scenario/schema';
import { flinkRestartStrategy } from '../scenario/flinkRestart';
import type { SKIP_REASONS } from '../trace';
import { describeFault } from '../faultWords';
import { groupDigits } from '../groupDigits';

/** Why a sink skipped a row, in words (the Delta and file-sink cases have their own sentences). */
export const SKIP_WORDS: Record<(typeof SKIP_REASONS)[number], string> = {
  'on-conflict': 'a row with its key was already there (ON CONFLICT DO NOTHING)',
  'merge-matched': 'MERGE matched an existing row with its key and left it as it was',
  'dedupe-table': 'its id was already in the dedupe table',
  'txn-version':
    'the Delta table had already recorded a txnVersion ≥ this batch id for the txnAppId',
  'idempotency-key': 'the service had already seen its idempotency key',
  'file-sink-log': "the file sink's log already listed its batch",
  'same-value': 'the row already held the same value',
};

/**
 * A duration in words: hours from 1 h up, seconds from 1 s up (one decimal at most), else ms —
 * a key kept 60 s is not "kept 0 h".
 */
export function span(ms: number): string {
  if (ms >= 3_600_000) return `${Number((ms / 3_600_000).toFixed(1))} h`;
  if (ms >= 1_000) return `${groupDigits(Number((ms / 1_000).toFixed(1)))} s`;
  return `${ms} ms`;
}

/** Why a Flink job with restart strategy none is not restarted: set so, or Flink's default. */
function noneWhy(p: {
  'restart-strategy.type'?: 'exponential-delay' | 'fixed-delay' | 'none';
}): string {
  return p['restart-strategy.type'] === 'none'
    ? 'restart-strategy.type=none'
    : 'no restart strategy set and checkpointing disabled: Flink’s default is none';
}

/**
 * Why a Flink job was not restarted after its `failures`-th failure, as a clause: "the job failed
 * for good (…)", naming the restart strategy none or fixed-delay's used-up attempts.
 * https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/task_failure_recovery/
 */
export function gaveUpWhy(p: FlinkProcessorConfig, failures: number): string {
  if (flinkRestartStrategy(p) === 'none') return `the job failed for good (${noneWhy(p)})`;
  const n = p['restart-strategy.fixed-delay.attempts'];
  const allows = n === 0 ? 'no restart' : n === 1 ? 'one restart' : `${n} restarts`;
  return `the job failed for good: restart-strategy.fixed-delay.attempts=${n}${n === 1 ? ' (Flink’s default)' : ''} allows ${allows}, and this was failure ${failures}`;
}

/**
 * What made an actor crash, as a parenthesis after "crashed": the fault's name, or what kind of
 * fault it was — nothing for a plain scheduled crash ("flink crashed (a crash of flink)" says
 * nothing twice).
 */
export function crashCause(f: FaultSpec | undefined): string {
  if (f?.id) return ` (fault "${f.id}")`;
  if (!f || f.kind === 'crash') return '';
  return ` (${describeFault(f)})`;
}

/**
 * The same step told once, with how many times it happened: three identical re-sends read as one
 * step "(3 times)", not three copies joined by ';'.
 */
export function countRepeats(steps: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const s of steps) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([s, n]) => (n > 1 ? `${s} (${n} times)` : s));
}
