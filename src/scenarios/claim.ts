/**
 * The guarantee a scenario claims, read without zod (the player's guarantee switch reads it as it
 * renders; issue 31: a preset embed loads no zod): its `claim` when it is one of the three, else
 * the schema's default. `claim.test.ts` keeps both equal to `ScenarioSchema.shape.claim`
 * (src/engine/scenario/schema.ts).
 */
import type { Guarantee, ScenarioInput } from '../engine';

/** The claims the schema accepts (`GuaranteeSchema`, src/engine/scenario/schemaExpect.ts). */
export const CLAIMS: readonly Guarantee[] = ['at-most-once', 'at-least-once', 'exactly-once'];

/** The schema's default claim. */
export const DEFAULT_CLAIM: Guarantee = 'at-least-once';

/**
 * The guarantee a scenario claims — the one its verdict checks the run against: its `claim`, or
 * the schema's default (at-least-once) when it has none. A claim the schema refuses leaves the
 * scenario without a verdict; the default stands in for it.
 */
export function claimOf(s: ScenarioInput): Guarantee {
  const claim: unknown = s.claim;
  return CLAIMS.includes(claim as Guarantee) ? (claim as Guarantee) : DEFAULT_CLAIM;
}
