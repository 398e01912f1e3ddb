/**
 * Validation (zod, ./validationParts.ts) in hand or on demand, and the parse of a scenario
 * without it where the answer is known already: one of our presets, untouched, comes parsed from
 * its generated module (src/scenarios/parsed/, see ./parseForRun.ts). Unit tests provide the
 * parts at start-up (src/testSetup.ts), so their readers stay synchronous. Neither page loads
 * them to open a preset untouched: both do for a `#s=` link, an edit or a fault menu; the lab's
 * page also before it reads a saved workspace, and once idle after its first verdict (issues 31
 * and 24, docs/ARCHITECTURE.md "Our presets without zod").
 */
import type { ParseResult } from '../../engine';
import { loadedPresetScenario } from '../../scenarios/presetScenarios';
import { untouchedPreset } from './parseForRun';
import type { validationParts } from './validationParts';

export type ValidationParts = typeof validationParts;

let provided: ValidationParts | null = null;
let loading: Promise<ValidationParts> | null = null;

/** Give the readers the validation (synchronous from then on). */
export function provideValidation(parts: ValidationParts): void {
  provided = parts;
}

/** The validation if in hand, else null (see {@link loadValidation}). */
export function validation(): ValidationParts | null {
  return provided;
}

/** The validation, imported on first need; a failed download is tried again by the next call. */
export function loadValidation(): Promise<ValidationParts> {
  if (provided) return Promise.resolve(provided);
  loading ??= import('./validationParts').then(
    (m) => (provided ??= m.validationParts),
    (e: unknown) => {
      loading = null;
      throw e;
    },
  );
  return loading;
}

const knownCache = new WeakMap<object, { ref: string; result: ParseResult } | null>();

/** `input`'s preset variant and parse, if it is one of our presets untouched, its module loaded. */
function known(input: unknown): { ref: string; result: ParseResult } | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  let k = knownCache.get(input);
  if (k === undefined) {
    const ref = untouchedPreset(input);
    const scenario = ref === undefined ? undefined : loadedPresetScenario(ref);
    // A preset whose parsed module is not in yet is asked again later; anything else is not ours.
    if (ref !== undefined && scenario === undefined) return undefined;
    k =
      ref === undefined || scenario === undefined ? null : { ref, result: { ok: true, scenario } };
    knownCache.set(input, k);
  }
  return k ?? undefined;
}

/**
 * `input` parsed without zod: one of our presets untouched, its parsed module loaded
 * (src/scenarios/presetScenarios.ts); undefined for anything else. Cached per object.
 */
export function knownParse(input: unknown): ParseResult | undefined {
  return known(input)?.result;
}

/** The preset variant (`preset-id/variant-id`) `input` is untouched, as {@link knownParse} knows it. */
export function knownPresetRef(input: unknown): string | undefined {
  return known(input)?.ref;
}

/**
 * `parseScenario(input)` as far as it can be answered now: by zod when in hand (every answer the
 * same as before), else for one of our presets untouched; undefined otherwise (the caller loads
 * the validation, {@link loadValidation}, and asks again).
 */
export function parseInHand(input: unknown): ParseResult | undefined {
  return provided ? provided.parseScenario(input) : knownParse(input);
}
