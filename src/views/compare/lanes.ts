/**
 * Compare: the same workload and faults run under two or three configurations side by side.
 * Lane 1 is the scenario on screen; each other lane is that scenario with its own configuration —
 * another guarantee (its recipe, src/scenarios/guarantees.ts `applyGuarantee`) and/or knobs
 * changed (`setKnob`). A lane keeps the scenario's faults: an edit of the scenario (a fault added,
 * a knob turned) is an edit of every lane.
 *
 * The compare state ({@link CompareSpec}) is plain data: undo, the share link (`c=`), embeds and
 * the Markdown report carry it, and the same spec on the same scenario gives the same lanes.
 */
import {
  describeFault,
  GuaranteeSchema,
  parseScenario,
  type Guarantee,
  type Scenario,
  type ScenarioInput,
} from '../../engine';
import { applyGuarantee, claimOf, guaranteeAvailability, setKnob } from '../../scenarios';
import type { FaultInput } from '../edit/faultActions';
import { formatKnobValue, knobMeta } from '../edit/knobs';
import { parseKeyText } from '../edit/knobsKey';
import { formatCountOf } from '../run/format';

/** One knob a lane sets otherwise: its dotted path (the Knobs tab's) and its value. */
interface LaneKnob {
  path: string;
  value: unknown;
}

/**
 * What one compared lane changes of the scenario on screen: a guarantee, then knobs, then faults
 * of its own (a placement from the fault atlas, "this run with one more fault" beside the run).
 */
export interface LaneSpec {
  /** Apply this guarantee's recipe (and claim it); absent: the scenario's own knobs. */
  guarantee?: Guarantee;
  /** Knobs set after the recipe, in order. */
  knobs?: LaneKnob[];
  /** Faults this lane adds after the scenario's own (which every lane keeps). */
  faults?: FaultInput[];
}

/** Most faults one lane may add (a link is read from untrusted data). */
const MAX_LANE_FAULTS = 4;

/** The compare state: the lanes beside the scenario on screen (1 or 2 of them). */
export interface CompareSpec {
  lanes: LaneSpec[];
}

/** Lanes in all, the scenario on screen's included. */
export const MAX_LANES = 3;

/** The guarantees in the switch's order. */
export const GUARANTEES: readonly Guarantee[] = ['at-most-once', 'at-least-once', 'exactly-once'];

/**
 * The default offer: the same faults under the other two guarantees (those the pipeline has a
 * setting for and its faults allow — an unavailable one is still offered, and its lane says why).
 */
export function defaultCompare(s: ScenarioInput): CompareSpec {
  const claim = claimOf(s);
  return { lanes: GUARANTEES.filter((g) => g !== claim).map((g) => ({ guarantee: g })) };
}

/** A lane's scenario, or why it cannot be built (the validator's words, or the switch's). */
export type LaneScenario =
  | { ok: true; input: ScenarioInput; scenario: Scenario }
  | { ok: false; input: ScenarioInput | null; reason: string };

/** The scenario of lane `lane` beside `base`: its guarantee's recipe, then its knobs. */
export function laneScenario(base: ScenarioInput, lane: LaneSpec): LaneScenario {
  let input = base;
  if (lane.guarantee !== undefined) {
    const available = guaranteeAvailability(base, lane.guarantee);
    if (!available.ok)
      return {
        ok: false,
        input: null,
        reason: `${lane.guarantee} is unavailable: ${available.reason}`,
      };
    input = applyGuarantee(base, lane.guarantee);
  }
  for (const k of lane.knobs ?? []) input = setKnob(input, k.path, k.value);
  if (lane.faults && lane.faults.length > 0)
    input = { ...input, faults: [...(input.faults ?? []), ...lane.faults] };
  const parsed = parseScenario(input);
  if (!parsed.ok)
    return {
      ok: false,
      input,
      reason: `this lane's configuration is refused: ${parsed.issues
        .map((i) => (i.path ? `${i.path}: ${i.message}` : i.message))
        .join('; ')}`,
    };
  return { ok: true, input, scenario: parsed.scenario };
}

/** Every lane's scenario, the scenario on screen first. */
export function laneScenarios(base: ScenarioInput, spec: CompareSpec): LaneScenario[] {
  const first = parseScenario(base);
  const own: LaneScenario = first.ok
    ? { ok: true, input: base, scenario: first.scenario }
    : { ok: false, input: base, reason: 'the scenario on screen is refused' };
  return [own, ...spec.lanes.map((l) => laneScenario(base, l))];
}

/** How a lane title names the scenario as it is, and joins the changes to it. */
export interface LaneWords {
  asIs: string;
  /** Between `asIs` and the first change. */
  then: string;
}

/** The page's words: lane 1 is what is on screen. */
const PAGE_LANE_WORDS: LaneWords = { asIs: 'as on screen', then: ' · ' };

/**
 * A lane's title: "as on screen (claims exactly-once)" for the scenario itself (null) — its knobs
 * may be its own, so the claim is not what it runs (a newcomer read "exactly-once" over an
 * at-least-once run) — "at-most-once",
 * "as on screen · enable.idempotence = true", "exactly-once · isolation.level = read_uncommitted".
 * `words` names the scenario as it is: the CLI has no screen ("lane 1 with enable.idempotence = true").
 */
export function laneTitle(
  base: ScenarioInput,
  lane: LaneSpec | null,
  words: LaneWords = PAGE_LANE_WORDS,
): string {
  if (lane === null) return `${words.asIs} (claims ${claimOf(base)})`;
  const changes: string[] = [];
  for (const k of lane.knobs ?? []) {
    const meta = knobMeta(k.path);
    changes.push(`${meta?.name ?? k.path} = ${formatKnobValue(meta, k.value)}`);
  }
  const added = lane.faults?.length ?? 0;
  if (added > 0) {
    const built = laneScenario(base, lane);
    if (built.ok)
      for (const f of built.scenario.faults.slice(-added)) changes.push(`+ ${describeFault(f)}`);
    else changes.push(`+ ${formatCountOf(added, 'fault')}`);
  }
  if (lane.guarantee !== undefined) return [lane.guarantee, ...changes].join(' · ');
  if (changes.length === 0) return words.asIs;
  return `${words.asIs}${words.then}${changes.join(' · ')}`;
}

/**
 * A compare spec read from untrusted data (a link, a file), or the reason it is not one, naming
 * the field (`lanes.1.guarantee: expected at-most-once, at-least-once or exactly-once`).
 */
export function parseCompareSpec(
  value: unknown,
): { ok: true; spec: CompareSpec } | { ok: false; reason: string } {
  const fail = (reason: string) => ({ ok: false as const, reason });
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('expected an object with "lanes"');
  const lanes = (value as { lanes?: unknown }).lanes;
  if (!Array.isArray(lanes) || lanes.length < 1 || lanes.length > MAX_LANES - 1)
    return fail(`lanes: expected 1 to ${MAX_LANES - 1} lanes`);
  const out: LaneSpec[] = [];
  for (const [i, raw] of lanes.entries()) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      return fail(`lanes.${i}: expected an object`);
    const { guarantee, knobs, faults, ...rest } = raw as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra !== undefined) return fail(`lanes.${i}.${extra}: unknown field`);
    const lane: LaneSpec = {};
    if (guarantee !== undefined) {
      const g = GuaranteeSchema.safeParse(guarantee);
      if (!g.success) return fail(`lanes.${i}.guarantee: expected ${GUARANTEES.join(', ')}`);
      lane.guarantee = g.data;
    }
    if (knobs !== undefined) {
      if (!Array.isArray(knobs)) return fail(`lanes.${i}.knobs: expected a list`);
      lane.knobs = [];
      for (const [k, kv] of knobs.entries()) {
        const path = (kv as { path?: unknown } | null)?.path;
        if (typeof path !== 'string' || path.length === 0 || path.length > 200)
          return fail(`lanes.${i}.knobs.${k}.path: expected a knob path`);
        lane.knobs.push({ path, value: (kv as { value?: unknown }).value });
      }
    }
    if (faults !== undefined) {
      // Each fault is checked by the scenario's own schema when the lane is built: a bad one
      // makes the lane refused, naming the field, and the other lanes still run.
      if (!Array.isArray(faults) || faults.length > MAX_LANE_FAULTS)
        return fail(`lanes.${i}.faults: expected a list of at most ${MAX_LANE_FAULTS} faults`);
      for (const [k, f] of faults.entries())
        if (typeof f !== 'object' || f === null || Array.isArray(f))
          return fail(`lanes.${i}.faults.${k}: expected a fault object`);
      lane.faults = faults as FaultInput[];
    }
    out.push(lane);
  }
  return { ok: true, spec: { lanes: out } };
}

/**
 * A knob value typed for a lane, read by the knob's editor (src/views/edit/knobs.ts): a number for a
 * number knob, true/false for a switch, one of the options for a choice, a list of numbers for a
 * list; or why not, naming the knob.
 */
export function laneKnobValue(
  path: string,
  text: string,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  const meta = knobMeta(path);
  const t = text.trim();
  if (!meta) return { ok: false, reason: `no knob "${path}"` };
  const e = meta.editor;
  const fail = (what: string) => ({ ok: false as const, reason: `${meta.name}: expected ${what}` });
  switch (e.type) {
    case 'enum':
      return e.options.includes(t) ? { ok: true, value: t } : fail(e.options.join(', '));
    case 'boolean':
    case 'tristate':
      return t === 'true' || t === 'false'
        ? { ok: true, value: t === 'true' }
        : fail('true or false');
    case 'number':
    case 'nullable-number': {
      if (e.type === 'nullable-number' && (t === 'off' || t === 'null'))
        return { ok: true, value: null };
      const n = Number(t);
      return t !== '' && Number.isInteger(n) && n >= e.min && n <= e.max
        ? { ok: true, value: n }
        : fail(`a whole number from ${e.min} to ${e.max}`);
    }
    case 'number-list': {
      const parts = t.split(',').map((x) => Number(x.trim()));
      return t !== '' && parts.every((n) => Number.isInteger(n) && n >= 0)
        ? { ok: true, value: parts }
        : fail('whole numbers, comma-separated');
    }
    case 'text':
      return t === '' ? { ok: true, value: e.nullable ? null : undefined } : { ok: true, value: t };
    case 'key': {
      const key = parseKeyText(t, e.options, e.columns);
      return key !== null
        ? { ok: true, value: key }
        : fail(`${e.options.join(', ')}, or content columns (${e.columns.join(', ')})`);
    }
    default: {
      const never: never = e;
      return never;
    }
  }
}
