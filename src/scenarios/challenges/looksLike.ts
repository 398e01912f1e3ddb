/**
 * Telling a challenge file from the lab's other JSON files (scenarios, lessons), by its fields
 * alone — no schema, so that the page's import and the CLI can ask before loading any.
 */

/** The fields only a challenge has (docs/challenges.md): two of them make a file a challenge. */
const CHALLENGE_FIELDS = ['start', 'goal', 'allow', 'solution', 'hints', 'intro', 'area'];

/**
 * Whether a JSON value is meant as a challenge: two of its own fields, and no workload, batch job
 * or steps — so one misspelt field (`gaol`) still reads as a challenge with a typo, not as a
 * scenario missing its workload.
 */
export function looksLikeChallenge(raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return false;
  if ('workload' in raw || 'batch' in raw || 'steps' in raw) return false;
  return CHALLENGE_FIELDS.filter((k) => k in raw).length >= 2;
}
