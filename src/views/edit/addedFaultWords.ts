/**
 * What the status line says of faults added from the fault atlas ("Show me how this breaks", a
 * placement opened): each in the words its timeline marker uses — its name, what it does, which
 * message it picks, the time it is armed from — "Added fault 3: the application sending p-1
 * again — armed from 0 ms". It said "Added a fault": which one, and where, took a look at the
 * timeline (a room watching the projector could not tell).
 */
import type { FaultSpec } from '../../engine';
import { faultName, faultWhat } from './faultName';
import { matchText } from './faultMarkers';

/**
 * @param faults - the faults added, in order.
 * @param first - the 0-based index in the scenario's `faults` of the first of them.
 * @param formatMs - the page's time format (the timeline's).
 */
export function addedFaultWords(
  faults: readonly FaultSpec[],
  first: number,
  formatMs: (ms: number) => string,
): string {
  const each = faults.map(
    (f, k) =>
      `${faultName(f, first + k)}: ${faultWhat(f)}${matchText(f)} — armed from ${formatMs(f.at)}`,
  );
  return `Added ${each.join('; and ')}`;
}
