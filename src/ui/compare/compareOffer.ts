import type { ScenarioInput } from '../../engine';
import { claimDifferencesInHand } from '../../store/guaranteeSwitch';
import { defaultCompare, type CompareSpec } from '../../views/compare/compareSpec';

/**
 * The default offer for `s` (defaultCompare): with its claim's recipe among the lanes when its
 * knobs are not that recipe — known once the validation is in hand, or for a preset as shipped.
 */
export function offerFor(s: ScenarioInput): CompareSpec {
  return defaultCompare(s, (claimDifferencesInHand(s)?.length ?? 0) > 0);
}
