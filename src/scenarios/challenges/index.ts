/**
 * The challenges: goals over the run a student makes, decided by the engine (issue 25, §2). A
 * lesson step names one by id; the page opens one with `?challenge=<id>`.
 */
import type { Challenge } from '../../engine';
import { misspellingBound, nearest } from '../../engine/core/editDistance';
import { shippedChallenges } from './shipped';
import { checkChallenge } from './resolve';

export { checkChallenge, continuesAttempt, startInput, solutionInput, knobIssues } from './resolve';

/**
 * Validate a shipped challenge ({@link checkChallenge}). A shipped challenge that does not
 * validate is a bug: fail on first use (challenges.test.ts uses them all), naming the field.
 */
function validated(raw: unknown): Challenge {
  const r = checkChallenge(raw);
  if (!r.ok)
    throw new Error(
      `challenge ${String((raw as { id?: unknown }).id)}: ${r.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    );
  return r.challenge;
}

let validatedOnce: readonly Challenge[] | null = null;

/**
 * Every shipped challenge, in the order the Challenges list shows them: validated on first use,
 * not when the page's entry script loads (parsing each one and its start cost the first verdict
 * about a tenth of a second, for a list few visits open).
 */
export function challenges(): readonly Challenge[] {
  validatedOnce ??= shippedChallenges.map(validated);
  return validatedOnce;
}

/** The challenge with this id, or undefined. */
export function challengeById(id: string): Challenge | undefined {
  return challenges().find((c) => c.id === id);
}

/**
 * The shipped challenge an unknown id probably meant: one misspelt (two edits at most from 6
 * letters, src/engine/core/editDistance.ts) or cut short (a link's tail lost: the only id that
 * begins with it, from 6 letters), else null.
 */
export function nearestChallengeId(id: string): string | null {
  const ids = challenges().map((c) => c.id);
  const misspelt = nearest(id, ids, misspellingBound);
  if (misspelt !== null) return misspelt;
  const longer = id.length >= 6 ? ids.filter((k) => k.startsWith(id)) : [];
  return longer.length === 1 ? longer[0]! : null;
}
