/**
 * The lab's fault edits: pure functions of the scenario, and the lab's actions that make each an
 * undoable edit (src/store/labStore.ts spreads them into its actions).
 */
import type { StoreApi } from 'zustand/vanilla';
import type { ScenarioInput } from '../engine';
import { dropMessageFault, type FaultInput } from '../views/edit/faultActions';
import { faultName, faultTitle } from '../views/edit/faultName';
import { formatMs } from '../views/run/format';
import type { LabActions, LabState } from './labState';

/** A copy of the scenario's faults. */
const faultsOf = (s: ScenarioInput): FaultInput[] => [...(s.faults ?? [])];

/**
 * The faults with one more: a label already taken gets a number ("ack of e1 dropped 2"), so an
 * explanation naming a fault names one.
 */
function withFault(s: ScenarioInput, fault: FaultInput): FaultInput[] {
  const faults = faultsOf(s);
  if (fault.id !== undefined) {
    const taken = new Set(faults.map((f) => f.id));
    let id = fault.id;
    for (let n = 2; taken.has(id); n++) id = `${fault.id} ${n}`;
    if (id !== fault.id) fault = { ...fault, id };
  }
  return [...faults, fault];
}

/** Whether `f` waits for a message or a named point after the time it is armed from. */
function waitsForMoment(f: FaultInput): boolean {
  return (
    f.kind === 'drop-request' ||
    f.kind === 'drop-response' ||
    f.kind === 'delay-response' ||
    (f.kind === 'crash' && f.point !== undefined && f.point !== 'now')
  );
}

/**
 * The notice of a fault chosen from a component's menu. It is armed from the time on screen: at
 * the run's end (where a newcomer who played the run to its end chose "Crash mid-batch") one that
 * waits for a moment never fires, and the counts alone read as if it changed nothing.
 */
function chosenFaultNotice(label: string, f: FaultInput, endTime: number | null): string {
  const at = f.at ?? 0;
  if (endTime === null || at < endTime || !waitsForMoment(f)) return `Fault: ${label}`;
  return `Fault: ${label} — armed from ${formatMs(at)}, the run’s end: it never fires there. Drag its marker earlier, or add it from the start (Home)`;
}

/**
 * The notice of fault `f` (at `index`) moved to `armed` ms. A fault that waits for a message or a
 * named point is only armed there: say where it will fire, or a marker that stays put after a
 * drag looks like a move that failed.
 */
function movedFaultNotice(f: FaultInput, index: number, armed: number): string {
  return waitsForMoment(f)
    ? `${faultTitle(f, index)} is armed from ${formatMs(armed)}: it fires at the first matching moment after that`
    : `${faultTitle(f, index)} moved to ${formatMs(armed)}`;
}

/** The fault actions of a lab: each an undoable `edit` of its scenario. */
export function faultEditActions(
  app: StoreApi<LabState>,
  edit: (next: ScenarioInput, notice: string) => void,
): Pick<LabActions, 'addFault' | 'applyFaultAction' | 'dropMessage' | 'moveFault' | 'deleteFault'> {
  return {
    addFault(fault, notice = 'Added a fault') {
      const s = app.getState().scenario;
      edit({ ...s, faults: withFault(s, fault) }, notice);
    },
    applyFaultAction(action) {
      const s = app.getState().scenario;
      app.setState({ menu: null });
      if (action.effect.type === 'add') {
        const endTime = app.getState().view?.endTime ?? null;
        edit(
          { ...s, faults: withFault(s, action.effect.fault) },
          chosenFaultNotice(action.label, action.effect.fault, endTime),
        );
      } else {
        const faults = faultsOf(s);
        faults[action.effect.index] = action.effect.fault;
        edit({ ...s, faults }, `Fault: ${action.label}`);
      }
    },
    dropMessage(entry) {
      const v = app.getState().view;
      if (!v) return false;
      const fault = dropMessageFault(v, entry);
      if (!fault) return false;
      const s = app.getState().scenario;
      const faults = withFault(s, fault);
      edit({ ...s, faults }, `Dropped: ${faults.at(-1)!.id ?? 'a message'}`);
      return true;
    },
    moveFault(index, at) {
      const s = app.getState().scenario;
      const faults = faultsOf(s);
      const f = faults[index];
      if (!f) return;
      const armed = Math.max(0, Math.round(at));
      faults[index] = { ...f, at: armed } as FaultInput;
      edit({ ...s, faults }, movedFaultNotice(f, index, armed));
    },
    deleteFault(index) {
      const s = app.getState().scenario;
      const faults = faultsOf(s);
      const f = faults[index];
      if (!f) return;
      faults.splice(index, 1);
      edit({ ...s, faults }, `Deleted ${faultName(f, index)}`);
    },
  };
}
