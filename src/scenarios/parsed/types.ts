/**
 * The shape of a generated module of src/scenarios/parsed/ (scripts/parsedPresets.ts): one preset's
 * variants as `parseScenario` returns them, by variant id.
 */
import type { Guarantee, Scenario } from '../../engine';
import type { KnobSetting } from '../guaranteeRecipes';

export type ParsedVariants = Readonly<Record<string, Scenario>>;

/**
 * What the guarantee switch shows for a variant as shipped, computed with zod by the generator
 * (src/scenarios/guarantees.ts): the knobs of its claim's recipe it sets otherwise
 * (`recipeDifferences`), and each guarantee it cannot be switched to, with why
 * (`guaranteeAvailability`). An embed of the preset reads these instead of loading zod.
 */
export interface SwitchAnswers {
  differences: readonly KnobSetting[];
  refused: Readonly<Partial<Record<Guarantee, string>>>;
}

/** A preset's module: its variants parsed, and their switch answers, by variant id. */
export interface ParsedPresetModule {
  default: ParsedVariants;
  switchAnswers: Readonly<Record<string, SwitchAnswers>>;
}
