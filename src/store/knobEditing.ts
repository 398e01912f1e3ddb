/**
 * The knob table's edit (src/views/edit/knobs.ts `editKnob`: a knob, the knobs it brings along,
 * the notice naming them) as the store's `setKnob` reaches it. The table (docs, notes, editors of
 * every knob, ~10 kB gzip) is not imported here: the lab's page provides it at start-up
 * (src/main.tsx, which renders the Knobs panel anyway; unit tests in src/testSetup.ts), so its
 * `setKnob` stays synchronous; the embedded player, which has no knob editor, imports it only if
 * a knob is ever set (issue 31).
 */
import type { editKnob } from '../views/edit/knobs';

export type EditKnob = typeof editKnob;

let provided: EditKnob | null = null;

/** Give the store the knob table's edit (synchronous `setKnob` from then on). */
export function provideKnobEditing(edit: EditKnob): void {
  provided = edit;
}

/** The knob table's edit if in hand, else null (see {@link loadKnobEditing}). */
export function knobEditing(): EditKnob | null {
  return provided;
}

/** The knob table's edit, imported on first need. */
export function loadKnobEditing(): Promise<EditKnob> {
  return import('../views/edit/knobs').then((m) => (provided ??= m.editKnob));
}
