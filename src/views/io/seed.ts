/**
 * Reading a seed typed by hand. The scenario schema's range (src/engine/scenario/schema.ts:
 * `seed: z.number().int().min(0).max(0xffffffff)`) is the rule; this says, in words, why a text
 * is not a seed, so the field can tell the user instead of silently running something else.
 */
import { seedDraws, type Scenario } from '../../engine';
import { parseNumberIn, type NumberParse } from '../edit/numberField';

/**
 * What the seed changes in a scenario, in words, for the seed field: the random draws it has, or
 * that it has none — a preset without random faults, jitter or a random workload gives the same
 * run for every seed, and a class changing it should not expect otherwise.
 */
export function seedEffect(s: Scenario): string {
  const draws = seedDraws(s);
  return draws.length === 0
    ? 'Nothing in this scenario is random (no random fault, no network jitter, no random workload): every seed gives this same run.'
    : `In this scenario the seed draws: ${draws.join(', ')}.`;
}

/** The largest seed the scenario schema accepts (2³² − 1). */
export const SEED_MAX = 0xffffffff;

/** What a seed must be, in words, for error messages and the field's tooltip. */
export const SEED_RULE = 'a whole number from 0 to 4,294,967,295';

/**
 * Parse a seed as typed: digits only (surrounding spaces ignored), within [0, 2³² − 1]. An empty
 * field, a sign, a fraction, an exponent or anything else is refused with the reason (`problem`
 * is a short clause: "−1 is negative", "“abc” is not a number"). The rule is the general one of
 * ./numberField.ts for the seed's range.
 */
export function parseSeed(text: string): NumberParse {
  return parseNumberIn(text, { min: 0, max: SEED_MAX, int: true }, 'the seed');
}
