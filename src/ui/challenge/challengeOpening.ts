/**
 * What a challenge id opens: the shipped challenge, else the one the address's hash carries
 * (`#ch=…`, a file's, src/views/challenge/challengeLink.ts) if it has that id. Read by the page's
 * boot for `?challenge=` (src/ui/io/firstChallenge.ts) and by the challenge panel's provider for
 * the library and Back/Forward (./ChallengeContext.tsx). The shipped challenges (and the presets
 * and zod they are checked with) are imported here, on first use (issues #24, #31).
 */
import type { Challenge, ScenarioInput } from '../../engine';

/** A challenge as the page opens it: the challenge and its start as written. */
export interface ChallengeOpening {
  challenge: Challenge;
  start: ScenarioInput;
  /** Opened from a file (the page's Import), carried by the address's hash (`#ch=…`). */
  fromFile?: true;
}

/**
 * The challenge `id` names and its start; null for an id the lab does not have; the words of a
 * carried challenge that does not validate.
 * @param hash - the address's hash (`location.hash`), where a file's challenge travels.
 */
export async function openingOf(
  id: string,
  hash: string,
): Promise<ChallengeOpening | null | string> {
  const { challengeById, startInput } = await import('../../scenarios/challenges');
  const c = challengeById(id);
  if (c) {
    const start = startInput(c);
    return start.ok ? { challenge: c, start: start.input } : null;
  }
  const { decodeChallengeLink } = await import('../../views/challenge/challengeLink');
  const carried = decodeChallengeLink(hash);
  if (carried === null) return null;
  if (!carried.ok)
    return `The challenge in this link could not be opened: ${carried.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`.slice(
      0,
      400,
    );
  return carried.challenge.id === id
    ? { challenge: carried.challenge, start: carried.start, fromFile: true }
    : null;
}

/** The words for an id that opened nothing. */
export function noChallengeText(id: string): string {
  return `No challenge “${id.slice(0, 60)}” in the lab.`;
}
