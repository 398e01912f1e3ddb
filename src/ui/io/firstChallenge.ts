/**
 * The challenge the address names (`?challenge=<id>`, docs/challenges.md), resolved before the
 * lab's page boots, as a share link is (./firstShare.ts): src/ui/io/boot.ts awaits
 * {@link firstChallengeLoaded} (a top-level await), so the page's first screen is the challenge's
 * start — never the default story for the moment the challenges took to load, and with no undo step
 * back to a story the student never asked for. The shipped challenges, the presets and zod they are
 * checked with are imported only when the address names one (issues #24, #31). The embed has no
 * challenge panel and never imports this module.
 */
import type { ScenarioInput } from '../../engine';
import { addressHash, addressQuery, hasAddress } from '../../platform/address';
import { challengeParamOf, openChallengeBefore } from '../../platform/challengeProgress';
import { loadValidation } from '../../views/run/validationOnDemand';
import { openingOf, type ChallengeOpening } from '../challenge/challengeOpening';

/** The address's challenge, as the boot reads it. */
export interface FirstChallenge {
  /** The id as the address gives it (trimmed, lower case). */
  id: string;
  /**
   * The challenge and its start; null for an id the lab does not have; the words of a carried
   * challenge (`#ch=…`) that does not validate, or of one that could not be loaded.
   */
  opening: ChallengeOpening | null | string;
  /** For an id the lab does not have, the shipped one it probably meant, or null. */
  suggestion: string | null;
  /**
   * Whether `scenario` (what the page would open without the challenge) is an attempt at it to
   * keep, as it is, rather than replace by the start: a share link's (`shared`: the attempt its
   * sender shared, the challenge's page's Share) or, restored, the workspace this very tab left
   * on it (a reload: src/platform/challengeProgress.ts `rememberOpenChallenge`; a friend's link in
   * a new tab opens the start).
   */
  keepsAttempt(scenario: ScenarioInput | undefined, shared: boolean): boolean;
}

const NEVER = () => false;

async function firstChallengeOf(search: string, hash: string): Promise<FirstChallenge | null> {
  const id = challengeParamOf(search);
  if (id === null) return null;
  const hadOpen = openChallengeBefore() === id;
  try {
    const [opening, { continuesAttempt, nearestChallengeId }] = await Promise.all([
      openingOf(id, hash),
      import('../../scenarios/challenges'),
      // A challenge's start is not a pristine preset: the store validates it as it runs.
      loadValidation(),
    ]);
    const start = typeof opening === 'object' && opening !== null ? opening.start : null;
    return {
      id,
      opening,
      suggestion: opening === null ? nearestChallengeId(id) : null,
      keepsAttempt: (scenario, shared) =>
        (shared || hadOpen) &&
        start !== null &&
        scenario !== undefined &&
        continuesAttempt(start, scenario),
    };
  } catch {
    // Their chunk did not download: the challenge is not refused as unknown, it is unread.
    return {
      id,
      opening: `The challenge “${id.slice(0, 60)}” could not be loaded (reload the page to retry).`,
      suggestion: null,
      keepsAttempt: NEVER,
    };
  }
}

/** The address's challenge, resolved (null when it names none). */
export const firstChallengeLoaded: Promise<FirstChallenge | null> =
  // Only in a browser: unit tests open challenges themselves.
  hasAddress() ? firstChallengeOf(addressQuery(), addressHash()) : Promise.resolve(null);
