/**
 * A scenario as written, validated for a run: one of our presets, untouched, comes parsed from its
 * generated module (src/scenarios/parsed/, the zod parse done ahead) — no zod on the first run's
 * path; anything else (an edit, a link, a file) is validated by zod, imported on first need
 * (docs/ARCHITECTURE.md, "Our presets without zod").
 */
import type { ParseResult } from '../../engine';
import { PRESET_BY_INPUT_KEY } from '../../scenarios/parsed';
import { presetScenario } from '../../scenarios/presetScenarios';
import { scenarioKey } from './compute';

/**
 * The preset variant (`preset-id/variant-id`) whose scenario as written `input` is, unchanged
 * (the same canonical JSON, by its {@link scenarioKey}); undefined for any other scenario.
 */
export function untouchedPreset(input: unknown, key = scenarioKey(input)): string | undefined {
  return Object.hasOwn(PRESET_BY_INPUT_KEY, key) ? PRESET_BY_INPUT_KEY[key] : undefined;
}

/** `parseScenario(input)`, without zod for an untouched preset. */
export async function parseForRun(input: unknown, key = scenarioKey(input)): Promise<ParseResult> {
  const ref = untouchedPreset(input, key);
  const scenario = ref === undefined ? undefined : await presetScenario(ref);
  if (scenario !== undefined) return { ok: true, scenario };
  const { parseScenario } = await import('../../engine/scenario/validate');
  return parseScenario(input);
}
