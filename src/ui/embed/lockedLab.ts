/**
 * A lab whose knobs are locked (the embed's `lock` option): every action that would change the
 * scenario does nothing, so no click, key or drag can — playback, selection and seeking still
 * work. Enforced on the actions every component and shortcut goes through, not just hidden.
 */
import type { Lab, LabActions } from '../../store/labStore';

const EDITS = [
  'loadPreset',
  'loadScenario',
  'setGuarantee',
  'setKnob',
  'setSeed',
  'setCompare',
  'addFault',
  'applyFaultAction',
  'moveFault',
  'deleteFault',
  'undo',
  'redo',
] as const satisfies readonly (keyof LabActions)[];

/** The same lab, its editing actions disabled. */
export function lockedLab(lab: Lab): Lab {
  const actions: LabActions = { ...lab.actions };
  for (const k of EDITS) (actions as unknown as Record<string, () => void>)[k] = () => {};
  actions.dropMessage = () => false;
  // No fault menu opens: there would be nothing it could do.
  actions.openMenu = () => {};
  return { ...lab, actions };
}
