/**
 * Reading a seed typed by hand. The scenario schema's range (src/engine/scenario/schema.ts:
 * `seed: z.number().int().min(0).max(0xffffffff)`) is the rule; this says, in words, why a text
 * is not a seed, so the field can tell the user instead of silently running something else.
 */

/** The largest seed the scenario schema accepts (2³² − 1). */
export const SEED_MAX = 0xffffffff;

/** What a seed must be, in words, for error messages and the field's tooltip. */
export const SEED_RULE = 'a whole number from 0 to 4,294,967,295';

/** The seed in a text, or why there is none. */
export type SeedParse = { ok: true; seed: number } | { ok: false; problem: string };

/** Shortens what the user typed for quoting it back. */
function quote(text: string): string {
  return `“${text.length > 16 ? `${text.slice(0, 15)}…` : text}”`;
}

/**
 * Parse a seed as typed: digits only (surrounding spaces ignored), within [0, 2³² − 1]. An empty
 * field, a sign, a fraction, an exponent or anything else is refused with the reason (`problem`
 * is a short clause: "−1 is negative", "“abc” is not a number").
 */
export function parseSeed(text: string): SeedParse {
  const t = text.trim();
  if (t === '') return { ok: false, problem: 'the seed is empty' };
  if (/^\d+$/.test(t)) {
    // Compare as digits first: a long string would lose precision as a number.
    const digits = t.replace(/^0+(?=\d)/, '');
    if (digits.length > String(SEED_MAX).length || Number(digits) > SEED_MAX) {
      return { ok: false, problem: `${quote(t)} is more than 4,294,967,295` };
    }
    return { ok: true, seed: Number(digits) };
  }
  if (/^[-−]\s*\d+(\.\d*)?$/.test(t)) return { ok: false, problem: `${quote(t)} is negative` };
  if (/^\+?\d*[.,]\d+$/.test(t) || /^\d+[.,]$/.test(t)) {
    return { ok: false, problem: `${quote(t)} is not a whole number` };
  }
  return { ok: false, problem: `${quote(t)} is not a number` };
}
