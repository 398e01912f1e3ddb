/**
 * Guarantee recipes: the knobs that make a pipeline at-most-once, at-least-once or exactly-once,
 * for the pipeline the scenario describes (a consumer loop, a Flink job, a Spark query). Applying
 * one changes only the knobs it lists and sets the claim; any knob can then be changed by hand.
 * {@link recipeDifferences} tells which knobs differ from a recipe — a library preset often
 * ships with some of them set otherwise, to show what breaks the claim.
 *
 * ("Recipe", not "preset": a preset is a scenario of the library.)
 *
 * The recipes follow docs/semantics/guarantees.md#recipes (the chain table): at-most-once = commit before processing and
 * never retry; at-least-once = retry everything and commit after the output; exactly-once = the
 * at-least-once chain made idempotent or atomic end to end (an upsert on the business id, Kafka
 * transactions with read_committed readers, Flink two-phase commit, Delta txnAppId/txnVersion).
 */
import {
  describeFault,
  effectiveIdempotence,
  FaultSchema,
  issueLines,
  parseScenario,
  ScenarioSchema,
  withBatchWorkload,
} from '../engine';
import type { Guarantee, Issue, Scenario, ScenarioInput } from '../engine';
import { getKnob, setKnob } from './knobPaths';
import { guaranteeKnobs, kindOf, type KnobSetting } from './guaranteeRecipes';

export { getKnob, setKnob } from './knobPaths';
export { claimOf } from './claim';
export { guaranteeKnobs, type KnobSetting } from './guaranteeRecipes';

/**
 * Apply a guarantee's recipe: set its knobs and the claim. Faults are never touched: one that
 * cannot happen under the guarantee makes the result invalid, which {@link guaranteeAvailability}
 * tells before anyone applies it.
 */
export function applyGuarantee(s: ScenarioInput, g: Guarantee): ScenarioInput {
  let out = structuredClone(s);
  for (const k of guaranteeKnobs(g, kindOf(s), s)) {
    // Removing a knob that is not there is nothing to do (setKnob would create its parent).
    if (k.value === undefined && getKnob(out, k.path) === undefined) continue;
    out = setKnob(out, k.path, k.value);
  }
  out.claim = g;
  return out;
}

/**
 * Why a Spark query offers no at-most-once: a micro-batch without a commit-log entry runs again
 * after a restart; an idempotent sink makes that exactly-once, a plain one at-least-once.
 */
export const SPARK_NO_AT_MOST_ONCE =
  'Spark Structured Streaming has no at-most-once mode: after a failure it runs a micro-batch that has no commit-log entry again, with the same offsets — a plain write then gives at-least-once, an idempotent one exactly-once';

/**
 * A guarantee the pipeline kind has no setting for at all (not a refused combination: no recipe
 * exists), with the reason; null otherwise. The one place both the switch's availability and
 * the recipe detection ask. Spark: a batch re-runs after a failure whatever the settings
 * (https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#fault-tolerance-semantics).
 */
function noSuchMode(s: ScenarioInput, g: Guarantee): string | null {
  return g === 'at-most-once' && kindOf(s) === 'spark' ? SPARK_NO_AT_MOST_ONCE : null;
}

/** Whether a guarantee can be switched to, and if not, why (see {@link guaranteeAvailability}). */
export type GuaranteeAvailability = { ok: true } | { ok: false; reason: string };

/**
 * Whether switching `s` to guarantee `g` gives a scenario the validator accepts, and if not, why,
 * in words a reader of the picker understands: the fault that cannot exist under `g` and what
 * it needs (`fault "TaskManager crash" crashes at a checkpoint step (after-checkpoint), and
 * at-most-once turns checkpointing off`).
 *
 * Decided by running {@link parseScenario} on {@link applyGuarantee}'s result, so the validator
 * stays the one place the rules live — apart from a guarantee the pipeline kind has no setting
 * for at all ({@link noSuchMode}: Spark's at-most-once). The switch never deletes a fault the
 * user placed: the option is unavailable instead. A scenario that is refused already is not
 * blocked by its own problems — only an issue the switch would add makes `g` unavailable.
 */
export function guaranteeAvailability(s: ScenarioInput, g: Guarantee): GuaranteeAvailability {
  const none = noSuchMode(s, g);
  if (none !== null) return { ok: false, reason: none };
  const after = parseScenario(applyGuarantee(s, g));
  if (after.ok) return { ok: true };
  const before = parseScenario(s);
  const known = new Set(before.ok ? [] : before.issues.map(issueKey));
  const added = after.issues.filter((i) => !known.has(issueKey(i)));
  if (added.length === 0) return { ok: true };
  const reasons = [...new Set(added.map((i) => issueReason(s, g, i)))];
  return { ok: false, reason: reasons.join('; ') };
}

const issueKey = (i: Issue) => `${i.path}\u0000${i.message}`;

// Which crash points are a checkpoint's steps and which a transaction commit's: only to word the
// reason — whether the fault is refused is the validator's call alone.
const CHECKPOINT_POINTS = new Set([
  'before-barrier',
  'after-precommit',
  'after-checkpoint',
  'during-commit',
]);
const TRANSACTION_POINTS = new Set(['before-commit-transaction', 'after-commit-decision']);

/**
 * One refused issue of the switched scenario as a sentence. An issue about a fault (`faults.N.…`)
 * names the fault (its id, or what it does) and what it needs that the guarantee takes away; any
 * other issue is quoted as the validator words it.
 */
function issueReason(s: ScenarioInput, g: Guarantee, issue: Issue): string {
  const m = /^faults\.(\d+)\.(\w+)/.exec(issue.path);
  const raw = m ? s.faults?.[Number(m[1])] : undefined;
  if (!m || raw === undefined)
    return `${g} would leave the scenario refused: ${issueLines([issue]).join('')}`;
  const parsed = FaultSchema.safeParse(raw);
  const f = parsed.success ? parsed.data : undefined;
  // The id the author gave it, else what it does ("a crash of flink"): either names it on the timeline.
  const name = `fault "${raw.id ?? (f ? describeFault(f) : `#${m[1]}`)}"`;
  const point = f && 'point' in f ? f.point : undefined;
  const field = m[2];
  if (field === 'point' && point !== undefined && CHECKPOINT_POINTS.has(point))
    return `${name} crashes at a checkpoint step (${point}), and ${g} turns checkpointing off`;
  if (field === 'point' && point !== undefined && TRANSACTION_POINTS.has(point))
    return `${name} crashes at a transaction commit (${point}), and ${g} uses no transactions`;
  if (field === 'link' && f && 'link' in f && f.link === 'checkpoint')
    return `${name} acts on checkpoint messages, and ${g} turns checkpointing off`;
  if (field === 'kind' && (f?.kind === 'abort-transaction' || f?.kind === 'hang-transaction'))
    return `${name} ${f.kind === 'abort-transaction' ? 'aborts' : 'leaves open'} a transaction of the producer, and ${g} makes the producer non-transactional`;
  return `${name} cannot happen under ${g}: ${issue.message}`;
}

/**
 * The knobs of `g`'s recipe that `s` sets otherwise, in the recipe's order (none: the knobs
 * follow the recipe). A knob left unset counts as its default: a Flink job without
 * checkpointing.mode is in EXACTLY_ONCE mode, as the schema (and Flink) say.
 */
export function recipeDifferences(s: ScenarioInput, g: Guarantee): KnobSetting[] {
  return differences(s, g, valueIn(s));
}

/**
 * A knob's value in `s`, or, unset, the default the schema fills in (or its rule gives). A batch
 * file without `workload` (docs/format.md#batch-jobs) is parsed with its source rows as the
 * workload, as parseScenario does: else its defaults (write.atomic, write.partitionBy) read unset.
 */
function valueIn(s: ScenarioInput): (path: string) => unknown {
  const parsed = ScenarioSchema.safeParse(withBatchWorkload(s));
  return (path) => {
    const v = getKnob(s, path);
    return v === undefined && parsed.success ? knobInEffect(parsed.data, path) : v;
  };
}

/**
 * A knob's value in effect in a validated scenario: as written or defaulted, and for a knob left
 * unset whose default is a rule rather than a value, the rule's outcome — `enable.idempotence`,
 * which Kafka turns on "if no conflicting configurations are set" (acks=all, retries > 0).
 */
export function knobInEffect(s: Scenario, path: string): unknown {
  const v = getKnob(s, path);
  if (v === undefined && path === 'producer.enable.idempotence')
    return effectiveIdempotence(s.producer);
  return v;
}

function differences(
  s: ScenarioInput,
  g: Guarantee,
  valueOf: (path: string) => unknown,
): KnobSetting[] {
  return guaranteeKnobs(g, kindOf(s), s).filter((k) => !sameValue(valueOf(k.path), k.value));
}

/** The guarantee whose recipe the scenario's knobs follow (the claimed one first), or 'custom'. */
export function detectGuarantee(s: ScenarioInput): Guarantee | 'custom' {
  const order: Guarantee[] = ['exactly-once', 'at-least-once', 'at-most-once'];
  const claim = s.claim;
  if (claim) order.sort((a, b) => (a === claim ? -1 : b === claim ? 1 : 0));
  const valueOf = valueIn(s);
  for (const g of order) {
    if (noSuchMode(s, g) !== null) continue; // no such mode: never "its recipe"
    if (differences(s, g, valueOf).length === 0) return g;
  }
  return 'custom';
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // acks may be written as a number.
  if ((a === 0 && b === '0') || (a === 1 && b === '1') || ((a === -1 || a === '-1') && b === 'all'))
    return true;
  return false;
}
