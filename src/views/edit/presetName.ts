/**
 * The one name of a library scenario: the scenario picker's entry, the scenario's own `name` —
 * which the export, the diagrams' titles, the exported file names and the CLI show — all the
 * same. A preset with several variants: "A lost acknowledgement, retried — idempotence off"; with
 * one: its title.
 */
import type { PresetVariant } from '../../scenarios';

/** The name of variant `v` of preset `p`, as the picker lists it and its scenario is named. */
export function presetName(
  p: { title: string; variants: readonly unknown[] },
  v: Pick<PresetVariant, 'label'>,
): string {
  return p.variants.length > 1 ? `${p.title} — ${v.label}` : p.title;
}
