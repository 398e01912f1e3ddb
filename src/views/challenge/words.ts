/**
 * A challenge in words, for the page and the docs: its goal, what the student may change, its
 * count of solutions, the hints unlocked so far.
 */
import type { Challenge, Goal } from '../../engine';
import type { SolutionCount } from './solutions';
import { formatCountOf, pluralOf } from '../run/format';

const events = (n: number) => (n === 1 ? 'an event' : `at least ${n} events`);

/** The goal as a sentence ("Lose an event at the end of the pipeline."). */
export function goalWords(goal: Goal): string {
  switch (goal.kind) {
    case 'lose':
      return `Lose ${events(goal.atLeast)}: never written at the end of the pipeline.`;
    case 'duplicate':
      return `Apply ${events(goal.atLeast)} twice at the end of the pipeline.`;
    case 'exact':
      return 'Make the end of the pipeline exact: every event once, none lost, none twice.';
    default: {
      const never: never = goal;
      return never;
    }
  }
}

/** What the student may change, one line each. */
export function allowWords(c: Challenge): string[] {
  const { faults, knobs } = c.allow;
  const out: string[] = [];
  if (faults.max > 0) {
    const kinds = faults.kinds ? ` (${faults.kinds.join(', ')})` : '';
    out.push(`Add at most ${formatCountOf(faults.max, 'fault')}${kinds}.`);
  } else out.push('Add no fault: the faults on the timeline stay as they are.');
  if (knobs.max > 0)
    out.push(
      `Change at most ${formatCountOf(knobs.max, 'knob')}${knobs.locked.length > 0 ? `; ${knobs.locked.join(', ')} ${pluralOf(knobs.locked.length, 'stays', 'stay')} as set` : ''}.`,
    );
  else out.push('Change no knob.');
  return out;
}

/** "10 of 202 single-fault placements solve it", or null without a count. */
export function countWords(count: SolutionCount | undefined): string | null {
  if (!count) return null;
  const what =
    count.unit === 'placements' ? 'single-fault placements' : 'knob settings within the limit';
  return `${count.solutions} of ${count.of} ${what} solve it.`;
}

/** The hints unlocked after `attempts`, and how many attempts until the next one (or null). */
export function hintsUnlocked(
  c: Challenge,
  attempts: number,
): { shown: string[]; nextIn: number | null } {
  const shown = c.hints.filter((h) => attempts >= h.after).map((h) => h.text);
  const next = c.hints.find((h) => attempts < h.after);
  return { shown, nextIn: next ? next.after - attempts : null };
}
