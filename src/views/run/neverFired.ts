/**
 * Which faults that never fired the page warns about ("⚠ never fired"): only those the user
 * added. A shipped preset's faults are part of its lesson — at-most-once keeps the lost
 * acknowledgement of its siblings, which acks=0 gives nothing to lose, and its setup says so —
 * so a warning there only alarms. The markers of every fault stay on the timeline either way.
 */
import type { ScenarioInput } from '../../engine';
import { canonicalJson } from './compute';
import { parseInHand } from './validationOnDemand';
import type { FaultMarker } from '../edit/faultActions';

/**
 * The markers to warn about: those that never fired, less the faults of `shipped` (the preset
 * variant the workspace was opened from, or null), compared as parsed (defaults applied).
 */
export function neverFiredToWarn(
  markers: readonly FaultMarker[],
  faults: readonly unknown[],
  shipped: ScenarioInput | null,
): FaultMarker[] {
  const unfired = markers.filter((m) => m.firedEntry < 0);
  if (unfired.length === 0 || shipped === null) return unfired;
  // A shipped preset parses without zod (./validationOnDemand.ts): an embed of it loads none.
  const parsed = parseInHand(shipped);
  if (!parsed?.ok) return unfired;
  const ours = new Set(parsed.scenario.faults.map((f) => canonicalJson(f)));
  return unfired.filter((m) => !ours.has(canonicalJson(faults[m.index])));
}
