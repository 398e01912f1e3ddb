/**
 * Which faults that never fired the page warns about ("⚠ never fired"): every one, unless the
 * scenario is a library variant exactly as shipped. A shipped preset's faults are its lesson —
 * at-most-once keeps the lost acknowledgement of its siblings, which acks=0 gives nothing to lose,
 * and its setup says so — so a warning there only alarms. Once edited (a fault added), a shipped
 * fault that no longer fires is news the edit caused, and said as the CLI says it.
 *
 * One rule read from the scenario itself, not from how it was opened: the live tab, its share link
 * and its export show the same warnings (a newcomer saw "never fired" on the link only).
 */
import { untouchedPreset } from './parseForRun';
import type { FaultMarker } from '../edit/faultActions';

/** The markers to warn about: those that never fired, none for an untouched library variant. */
export function neverFiredToWarn(
  markers: readonly FaultMarker[],
  scenario: unknown,
): FaultMarker[] {
  const unfired = markers.filter((m) => m.firedEntry < 0);
  if (unfired.length === 0 || untouchedPreset(scenario) !== undefined) return [];
  return unfired;
}
