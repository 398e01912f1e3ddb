/**
 * The guarantee switch's answers as the player can give them now: by zod once the validation is
 * in hand (src/scenarios/guarantees.ts, every answer as before), else, for one of our presets as
 * shipped, from its generated module (`SwitchAnswers`, computed by the same functions in
 * scripts/parsedPresets.ts) — an embed of a preset loads no zod (issue 31). Undefined: neither
 * (a scenario waiting for the validation; the store loads it and runs again).
 */
import type { Guarantee, ScenarioInput } from '../engine';
import type { GuaranteeAvailability, KnobSetting } from '../scenarios';
import { loadedSwitchAnswers } from '../scenarios/presetScenarios';
import { knownPresetRef, validation } from '../views/run/validationOnDemand';
import { claimOf } from '../scenarios/claim';

function shippedAnswers(s: ScenarioInput) {
  const ref = knownPresetRef(s);
  return ref === undefined ? undefined : loadedSwitchAnswers(ref);
}

/** `guaranteeAvailability(s, g)` (src/scenarios/guarantees.ts), or undefined (see above). */
export function availabilityInHand(
  s: ScenarioInput,
  g: Guarantee,
): GuaranteeAvailability | undefined {
  const v = validation();
  if (v) return v.guaranteeAvailability(s, g);
  const answers = shippedAnswers(s);
  if (answers === undefined) return undefined;
  const reason = answers.refused[g];
  return reason === undefined ? { ok: true } : { ok: false, reason };
}

/** `recipeDifferences(s, claimOf(s))` (src/scenarios/guarantees.ts), or undefined (see above). */
export function claimDifferencesInHand(s: ScenarioInput): readonly KnobSetting[] | undefined {
  const v = validation();
  if (v) return v.recipeDifferences(s, claimOf(s));
  return shippedAnswers(s)?.differences;
}
