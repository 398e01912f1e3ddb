/**
 * What a fault is called, the same way in every view: by its own `id` when the scenario gives it
 * one — the name the CLI and the checker's explanations use (`fault "lost ack"`) — else by its
 * number in the scenario's `faults`, counted from 1 as people count (`fault 2`).
 */
import { describeFault, type FaultSpec } from '../../engine';

/** Anything with a fault's optional id: a fault as written (`FaultInput`) or validated. */
interface Named {
  id?: string | undefined;
}

/**
 * `fault "lost ack"`, or `fault 2` for the second fault when it has no id.
 * @param f - the fault (scenario as written or validated); undefined names it by number.
 * @param index - its 0-based index in `faults`.
 */
export function faultName(f: Named | undefined, index: number): string {
  return f?.id !== undefined && f.id !== '' ? `fault "${f.id}"` : `fault ${index + 1}`;
}

/** {@link faultName} at the start of a sentence or as a heading: `Fault "lost ack"`, `Fault 2`. */
export function faultTitle(f: Named | undefined, index: number): string {
  const name = faultName(f, index);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * What a fault does, without its id — for a line that names it already:
 * `fault "lost ack", a lost acknowledgement` rather than `… a lost acknowledgement "lost ack"`.
 */
export function faultWhat(f: FaultSpec): string {
  if (f.id === undefined) return describeFault(f);
  const anonymous = { ...f };
  delete anonymous.id;
  return describeFault(anonymous);
}
