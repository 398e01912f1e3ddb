/**
 * The lab's fault edits as pure functions of the scenario (src/store/labStore.ts makes each an
 * undoable edit).
 */
import type { ScenarioInput } from '../engine';
import type { FaultInput } from '../views/edit/faultActions';
import { faultTitle } from '../views/edit/faultName';
import { formatMs } from '../views/run/format';

/** A copy of the scenario's faults. */
export const faultsOf = (s: ScenarioInput): FaultInput[] => [...(s.faults ?? [])];

/**
 * The faults with one more: a label already taken gets a number ("ack of e1 dropped 2"), so an
 * explanation naming a fault names one.
 */
export function withFault(s: ScenarioInput, fault: FaultInput): FaultInput[] {
  const faults = faultsOf(s);
  if (fault.id !== undefined) {
    const taken = new Set(faults.map((f) => f.id));
    let id = fault.id;
    for (let n = 2; taken.has(id); n++) id = `${fault.id} ${n}`;
    if (id !== fault.id) fault = { ...fault, id };
  }
  return [...faults, fault];
}

/**
 * The notice of fault `f` (at `index`) moved to `armed` ms. A fault that waits for a message or a
 * named point is only armed there: say where it will fire, or a marker that stays put after a
 * drag looks like a move that failed.
 */
export function movedFaultNotice(f: FaultInput, index: number, armed: number): string {
  const waits =
    f.kind === 'drop-request' ||
    f.kind === 'drop-response' ||
    f.kind === 'delay-response' ||
    (f.kind === 'crash' && f.point !== undefined && f.point !== 'now');
  return waits
    ? `${faultTitle(f, index)} is armed from ${formatMs(armed)}: it fires at the first matching moment after that`
    : `${faultTitle(f, index)} moved to ${formatMs(armed)}`;
}
