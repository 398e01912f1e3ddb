/**
 * Compare: the same workload and faults run under two or three configurations side by side.
 * Lane 1 is the scenario on screen; each other lane is that scenario with its own configuration —
 * another guarantee (its recipe, src/scenarios/guarantees.ts `applyGuarantee`) and/or knobs
 * changed (`setKnob`). A lane keeps the scenario's faults: an edit of the scenario (a fault added,
 * a knob turned) is an edit of every lane.
 *
 * The compare state ({@link CompareSpec}) is plain data: undo, the share link (`c=`), embeds and
 * the Markdown report carry it, and the same spec on the same scenario gives the same lanes. It
 * and its reading from a link are ./compareSpec.ts, without zod (the lab's first load reads a
 * link's lanes and offers Compare; issue 24); the lanes built here validate.
 */
export {
  defaultCompare,
  GUARANTEES,
  MAX_LANES,
  parseCompareSpec,
  type CompareSpec,
  type LaneSpec,
} from './compareSpec';
import {
  clipEcho,
  describeFault,
  notOneOf,
  parseScenario,
  type Scenario,
  type ScenarioInput,
} from '../../engine';
import { applyGuarantee, claimOf, guaranteeAvailability, setKnob } from '../../scenarios';
import type { CompareSpec, LaneSpec } from './compareSpec';
import { formatKnobValue, knobMeta } from '../edit/knobs';
import { parseKeyText } from '../edit/knobsKey';
import { formatCountOf } from '../run/format';

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
  // A lane from configuration files is named by them: What differs lists their knobs' values.
  if (lane.from !== undefined)
    changes.push(`${lane.from} (${formatCountOf(lane.knobs?.length ?? 0, 'knob')})`);
  else
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

/** `lane` with the knob (or a batch job's field) at `path` set to `value`, replacing its earlier value. */
export function withLaneKnob(lane: LaneSpec, path: string, value: unknown): LaneSpec {
  const rest = (lane.knobs ?? []).filter((k) => k.path !== path);
  return { ...lane, knobs: [...rest, { path, value }] };
}

/** `lane` without the knob at `path` (and with no `knobs` when none is left). */
export function withoutLaneKnob(lane: LaneSpec, path: string): LaneSpec {
  const knobs = (lane.knobs ?? []).filter((k) => k.path !== path);
  const next: LaneSpec = { ...lane };
  if (knobs.length > 0) next.knobs = knobs;
  else {
    // Its files' knobs all gone: nothing of them is left to name.
    delete next.knobs;
    delete next.from;
  }
  return next;
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
      return e.options.includes(t)
        ? { ok: true, value: t }
        : { ok: false, reason: `${meta.name}: ${notOneOf(e.options, `"${clipEcho(t)}"`)}` };
    case 'boolean':
    case 'tristate':
      return t === 'true' || t === 'false'
        ? { ok: true, value: t === 'true' }
        : { ok: false, reason: `${meta.name}: ${notOneOf(['true', 'false'], `"${clipEcho(t)}"`)}` };
    case 'number':
    case 'nullable-number': {
      if (e.type === 'nullable-number' && (t === 'off' || t === 'null'))
        return { ok: true, value: e.offIs === 'unset' ? undefined : null };
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

/**
 * A value typed for a lane's knob or job field, as the CLI's `--compare knob=value` and the batch
 * lane's field editor read it: by the knob's editor where the Knobs tab has the knob (`off` for a
 * knob that can be off), else JSON where it reads as JSON (`true`, `3`, `null`, a key's list),
 * else the text (`all`, `read_committed`, `append`) — the lane's validation then judges it.
 */
export function laneTypedValue(path: string, text: string): unknown {
  const read = laneKnobValue(path, text);
  if (read.ok) return read.value;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
