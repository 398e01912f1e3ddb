/**
 * The shape of a generated module of src/scenarios/parsed/ (scripts/parsedPresets.ts): one preset's
 * variants as `parseScenario` returns them, by variant id.
 */
import type { Scenario } from '../../engine';

export type ParsedVariants = Readonly<Record<string, Scenario>>;
