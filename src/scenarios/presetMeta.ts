/**
 * What the first screen knows of a preset before loading it (src/scenarios/parsed/catalog.ts,
 * generated): enough for the scenario menu, `?preset=` and "Start here" — the cards' words and the
 * stories come with the preset's module (src/scenarios/presetCatalog.ts), so this stays small.
 */
import type { Guarantee } from '../engine';
import type { PresetFamily } from './presetFamilies';
import type { PresetGroup } from './types';

export interface PresetMeta {
  id: string;
  title: string;
  group: PresetGroup;
  illustrates: Guarantee | 'none';
  /** The module that holds it (src/scenarios/presetFamilies.ts). */
  family: PresetFamily;
  /**
   * The variant its question is about (`predict.variant`, else the first): its default variant,
   * what a bare `preset-id` opens (src/scenarios/defaultVariant.ts).
   */
  questionVariant: string;
  /** In the library's order (the scenario menu's). */
  variants: readonly { id: string; label: string }[];
}
