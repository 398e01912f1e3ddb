/**
 * Compare's state as plain data (./lanes.ts builds and runs the lanes): what each lane changes,
 * the default offer, and a spec read from a link or a file. Without zod: the lab's first load
 * reads a link's lanes (./compareLink.ts) and offers Compare (issue 24); each lane's faults are
 * validated when its scenario is built (./lanes.ts `laneScenario`).
 */
import type { Guarantee, ScenarioInput } from '../../engine';
import { echoValue, notOneOf } from '../../engine/scenario/echo';
import { CLAIMS, claimOf } from '../../scenarios/claim';
import type { FaultInput } from '../edit/faultActions';

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
  /**
   * The configuration files its knobs were read from ("producer.properties + rc.properties"): a
   * name for its title. The knobs themselves are the configuration, so a link replays the lane
   * without the files (./laneFromConfig.ts).
   */
  from?: string;
}

/** The longest `from` a link may carry. */
const MAX_FROM_CHARS = 200;

/** Most faults one lane may add (a link is read from untrusted data). */
const MAX_LANE_FAULTS = 4;

/** The compare state: the lanes beside the scenario on screen (1 or 2 of them). */
export interface CompareSpec {
  lanes: LaneSpec[];
}

/** Lanes in all, the scenario on screen's included. */
export const MAX_LANES = 3;

/** The guarantees in the switch's order: the claims the schema accepts (claim.test.ts pins them). */
export const GUARANTEES: readonly Guarantee[] = CLAIMS;

/**
 * The default offer: the same faults under the other two guarantees (those the pipeline has a
 * setting for and its faults allow — an unavailable one is still offered, and its lane says why).
 * When the scenario's knobs are not its claim's recipe (`claimDiffers`: an imported configuration,
 * a preset's variant that breaks its claim), the claim's recipe is one of the two — what that
 * guarantee would change on these same faults — beside the strongest other guarantee; the lanes
 * in the switch's order.
 */
export function defaultCompare(s: ScenarioInput, claimDiffers = false): CompareSpec {
  const claim = claimOf(s);
  const other: Guarantee = claim === 'exactly-once' ? 'at-least-once' : 'exactly-once';
  const offered = claimDiffers
    ? GUARANTEES.filter((g) => g === claim || g === other)
    : GUARANTEES.filter((g) => g !== claim);
  return { lanes: offered.map((g) => ({ guarantee: g })) };
}

/** The undo step's words for opening Compare on `spec`'s guarantees (the default offer's). */
export function compareOpenedLabel(spec: CompareSpec): string {
  const names = spec.lanes.map((l) => l.guarantee ?? 'its own knobs');
  return `Compare: the same faults under ${names.join(' and ')}`;
}

/**
 * A compare spec read from untrusted data (a link, a file), or the reason it is not one, naming
 * the field (`lanes.1.guarantee: expected at-most-once, at-least-once or exactly-once, got "once"`).
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
    const { guarantee, knobs, faults, from, ...rest } = raw as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra !== undefined) return fail(`lanes.${i}.${extra}: unknown field`);
    const lane: LaneSpec = {};
    if (guarantee !== undefined) {
      if (!GUARANTEES.includes(guarantee as Guarantee))
        return fail(`lanes.${i}.guarantee: ${notOneOf(GUARANTEES, echoValue(guarantee))}`);
      lane.guarantee = guarantee as Guarantee;
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
    if (from !== undefined) {
      if (typeof from !== 'string' || from.length === 0 || from.length > MAX_FROM_CHARS)
        return fail(
          `lanes.${i}.from: expected the files' names (1 to ${MAX_FROM_CHARS} characters)`,
        );
      lane.from = from;
    }
    out.push(lane);
  }
  return { ok: true, spec: { lanes: out } };
}
