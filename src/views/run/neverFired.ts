/**
 * Which faults that never fired the page warns about ("⚠ never fired"): only those the user added
 * or changed. A fault a shipped preset comes with (the same id and content) is its lesson —
 * at-most-once keeps the lost acknowledgement of its siblings, which acks=0 gives nothing to lose,
 * and its setup says so — so a warning there only alarms, before an edit elsewhere and after it
 * (a tester saw it appear on opening an atlas placement, which changed a knob, not the fault).
 *
 * Per fault, read from the scenario itself, not from how it was opened: the live tab, its share
 * link and its export show the same warnings (a newcomer saw "never fired" on the link only).
 */
import { isShippedFault } from './parseForRun';
import type { FaultMarker } from '../edit/faultActions';

/** The markers to warn about: those that never fired, but for the faults a preset shipped with. */
export function neverFiredToWarn(
  markers: readonly FaultMarker[],
  scenario: unknown,
): FaultMarker[] {
  const unfired = markers.filter((m) => m.firedEntry < 0);
  if (unfired.length === 0) return [];
  const faults = (scenario as { faults?: unknown } | null)?.faults;
  const written = Array.isArray(faults) ? (faults as unknown[]) : [];
  return unfired.filter((m) => !isShippedFault(written[m.index]));
}
