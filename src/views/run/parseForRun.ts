/**
 * A scenario as written, validated for a run: one of our presets, untouched, comes parsed from its
 * generated module (src/scenarios/parsed/, the zod parse done ahead) — no zod on the first run's
 * path; anything else (an edit, a link, a file) is validated by zod, imported on first need
 * (docs/ARCHITECTURE.md, "Our presets without zod").
 */
import type { ParseResult } from '../../engine';
import { loadedPresets } from '../../scenarios/presetCatalog';
import { presetScenario } from '../../scenarios/presetScenarios';
import { canonicalJson } from './compute';

/**
 * The loaded presets' variants by their scenario as written (canonical JSON), grown as families
 * load (src/scenarios/presetCatalog.ts): the text itself, not a digest of it, so no hash is
 * computed and no two scenarios can share an entry. A scenario equal to a variant of a family not
 * loaded is not recognised: the page and the embed load the family of every preset they open
 * (src/ui/io/firstPresets.ts), and a share link loads them all; the run worker loads none (it
 * runs scenarios of more than 3,000 events, and no preset has as many) and validates with zod.
 */
const refByJson = new Map<string, string>();
/** The loaded variants' faults that never fire in their own run (`neverFires`), as written. */
const neverFiringJson = new Set<string>();
const indexed = new WeakSet<object>();

function indexLoaded(): void {
  for (const p of loadedPresets())
    if (!indexed.has(p)) {
      indexed.add(p);
      for (const v of p.variants) {
        refByJson.set(canonicalJson(v.scenario), `${p.id}/${v.id}`);
        for (const f of v.scenario.faults ?? [])
          if (f.id !== undefined && v.neverFires?.includes(f.id))
            neverFiringJson.add(canonicalJson(f));
      }
    }
}

/**
 * The preset variant (`preset-id/variant-id`) whose scenario as written `input` is, unchanged
 * (the same canonical JSON), among the presets loaded; undefined for any other scenario.
 */
export function untouchedPreset(input: unknown): string | undefined {
  indexLoaded();
  if (refByJson.size === 0 || input === null || typeof input !== 'object') return undefined;
  return refByJson.get(canonicalJson(input));
}

/**
 * Whether `fault` (as written) is one a loaded variant ships with — the same id and content — and
 * which never fires in that variant's own run either (`PresetVariant.neverFires`).
 */
export function shipsNeverFiring(fault: unknown): boolean {
  indexLoaded();
  return fault !== null && typeof fault === 'object' && neverFiringJson.has(canonicalJson(fault));
}

/** `parseScenario(input)`, without zod for an untouched preset. */
export async function parseForRun(input: unknown): Promise<ParseResult> {
  const ref = untouchedPreset(input);
  const scenario = ref === undefined ? undefined : await presetScenario(ref);
  if (scenario !== undefined) return { ok: true, scenario };
  const { parseScenario } = await import('../../engine/scenario/validate');
  return parseScenario(input);
}
