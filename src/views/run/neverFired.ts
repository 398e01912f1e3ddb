/**
 * Which faults that never fired the page warns about ("⚠ never fired"): every one, but a fault a
 * library preset ships with — the same id and content — that never fires in the preset's own run
 * either (`PresetVariant.neverFires`, checked against every variant's run by ./neverFired.test.ts).
 * at-most-once keeps its siblings' lost acknowledgement, which acks=0 gives nothing to lose, and
 * its setup says so: a warning about it, before an edit elsewhere or after one, only alarms about
 * a fault the user never added. A shipped fault that fires in its preset's run and no longer does
 * after an edit (at-least-once's consumer crash, once consumer-0 crashed at 0 ms) is news the
 * edit caused, and said, as the CLI says it.
 *
 * One rule read from the scenario itself, not from how it was opened: the live tab, its share link
 * and its export show the same warnings (a newcomer saw "never fired" on the link only).
 */
import { shipsNeverFiring } from './parseForRun';
import type { FaultMarker } from '../edit/faultActions';

/** The markers to warn about: those that never fired, but for a shipped fault that never does. */
export function neverFiredToWarn(
  markers: readonly FaultMarker[],
  scenario: unknown,
): FaultMarker[] {
  const unfired = markers.filter((m) => m.firedEntry < 0);
  if (unfired.length === 0) return [];
  const faults = (scenario as { faults?: unknown } | null)?.faults;
  const written: readonly unknown[] = Array.isArray(faults) ? faults : [];
  return unfired.filter((m) => !shipsNeverFiring(written[m.index]));
}
