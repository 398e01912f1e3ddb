/**
 * The challenges: goals over the run a student makes, decided by the engine (issue 25, §2). A
 * lesson step names one by id; the page opens one with `?challenge=<id>`.
 */
import { parseChallenge, type Challenge } from '../../engine';
import { shippedChallenges } from './shipped';
import { startScenario } from './resolve';

export { startInput, solutionInput } from './resolve';

/**
 * Validate a shipped challenge: its file, and its start (a preset the library has, a valid
 * scenario). A shipped challenge that does not validate is a bug: fail at load, naming the field.
 */
function validated(raw: unknown): Challenge {
  const parsed = parseChallenge(raw);
  const id = (raw as { id?: unknown }).id;
  if (!parsed.ok)
    throw new Error(
      `challenge ${String(id)}: ${parsed.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    );
  const start = startScenario(parsed.challenge);
  if (!start.ok)
    throw new Error(
      `challenge ${String(id)}: ${start.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    );
  return parsed.challenge;
}

/** Every shipped challenge, in the order the Challenges list shows them. */
export const challenges: readonly Challenge[] = shippedChallenges.map(validated);

/** The challenge with this id, or undefined. */
export function challengeById(id: string): Challenge | undefined {
  return challenges.find((c) => c.id === id);
}
