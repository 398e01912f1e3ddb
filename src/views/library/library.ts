/**
 * The library panel's logic, free of React and the DOM: whether the workspace is still a preset
 * exactly as shipped, and where its question stands (the listing and the story's words:
 * ./libraryListing.ts; the cards' guarantee badges: ./guaranteeBadges.ts). The panel only renders
 * what these return.
 */
import type { ScenarioInput } from '../../engine';
import { canonicalJson } from '../run/compute';
import { parseInHand, validation } from '../run/validationOnDemand';
import { questionVariant } from '../../scenarios/defaultVariant';
import { loadedPreset, loadedPresets } from '../../scenarios/presetCatalog';
import type { Preset, PresetVariant } from '../../scenarios';

/** A preset and variant resolved from a `presetRef`. */
export interface OpenPreset {
  preset: Preset;
  variant: PresetVariant;
  /** `preset-id/variant-id`. */
  ref: string;
}

/** The preset a workspace was opened from, or null (none, or an id this build does not know). */
export function openPreset(presetRef: string | null): OpenPreset | null {
  if (presetRef === null) return null;
  const found = loadedPreset(presetRef);
  return found ? { ...found, ref: `${found.preset.id}/${found.variant.id}` } : null;
}

// Keyed by the scenario object: every edit makes a new one, so a cached answer stays right.
const pristineCache = new WeakMap<object, { ref: string | null; pristine: boolean }>();
const variantJson = new WeakMap<object, string>();

/**
 * Whether `scenario` is the preset variant `presetRef` exactly as shipped (no knob, seed or fault
 * changed). Only then does the URL say `?preset=…`: reloading such a URL must show what was on
 * screen, and an edited workspace is the saved workspace's (or a share link's) to restore.
 * Compares the JSON text, which is what a load (structuredClone) and a storage round trip keep,
 * then the parsed scenarios ({@link sameRun}).
 */
export function isPristinePreset(scenario: ScenarioInput, presetRef: string | null): boolean {
  const cached = pristineCache.get(scenario);
  if (cached && cached.ref === presetRef) return cached.pristine;
  const found = presetRef === null ? undefined : loadedPreset(presetRef);
  // Without zod in hand (an embed of a preset, before any edit) the text alone tells, not cached:
  // asked again once the validation is in (src/views/run/validationOnDemand.ts).
  if (found !== undefined && validation() === null)
    return JSON.stringify(scenario) === jsonOf(found.variant);
  const pristine = found !== undefined && sameRun(scenario, found.variant);
  pristineCache.set(scenario, { ref: presetRef, pristine });
  return pristine;
}

/**
 * Whether `scenario` is variant `v`'s run: the same JSON text, or the same scenario once both are
 * parsed (defaults filled in, keys in one order) — a knob set to another value and back to the one
 * it had ("acks" 1, then all, where the preset left it unset: the default) changed nothing. A
 * scenario without an `expect` block matches the variant without its own: a share link or an
 * export written while the answer was hidden leaves the block out (src/views/edit/pinExpect.ts
 * `outgoingScenario`), and must still open as the preset that asks the question.
 */
function sameRun(
  scenario: ScenarioInput,
  v: PresetVariant,
  canon: () => string | null = () => canonicalRun(scenario),
): boolean {
  if (JSON.stringify(scenario) === jsonOf(v)) return true;
  let shipped = variantCanon.get(v.scenario);
  if (shipped === undefined) {
    shipped = canonicalRun(v.scenario);
    variantCanon.set(v.scenario, shipped);
  }
  if (shipped !== null && canon() === shipped) return true;
  if (scenario.expect !== undefined || v.scenario.expect === undefined) return false;
  let bare = variantBareCanon.get(v.scenario);
  if (bare === undefined) {
    const { expect: _answer, ...rest } = v.scenario;
    bare = canonicalRun(rest);
    variantBareCanon.set(v.scenario, bare);
  }
  return bare !== null && canon() === bare;
}

const variantCanon = new WeakMap<object, string | null>();
/** A variant's canonical run without its `expect` block. */
const variantBareCanon = new WeakMap<object, string | null>();

/** The parsed scenario as canonical JSON (keys sorted), or null when it does not parse. */
function canonicalRun(s: ScenarioInput): string | null {
  const r = parseInHand(s);
  return r?.ok ? canonicalJson(r.scenario) : null;
}

function jsonOf(v: PresetVariant): string {
  let json = variantJson.get(v.scenario);
  if (json === undefined) {
    json = JSON.stringify(v.scenario);
    variantJson.set(v.scenario, json);
  }
  return json;
}

/**
 * The preset variant (`id/variant`) that `scenario` is exactly, as shipped, or null: a share link
 * of an unedited preset opens as that preset — its story and its question — not as a scenario of
 * no name. (The link still carries the scenario itself, so it replays the same run.) Among the
 * presets loaded (src/scenarios/presetCatalog.ts): a caller loads them all first (boot does for a
 * share link, an import awaits `loadAllPresets`).
 */
export function pristinePresetRef(scenario: ScenarioInput): string | null {
  const all = loadedPresets();
  const json = JSON.stringify(scenario);
  for (const p of all) for (const v of p.variants) if (jsonOf(v) === json) return `${p.id}/${v.id}`;
  // Parsed once, for every variant.
  let canon: string | null | undefined;
  const mine = () => (canon === undefined ? (canon = canonicalRun(scenario)) : canon);
  for (const p of all)
    for (const v of p.variants) if (sameRun(scenario, v, mine)) return `${p.id}/${v.id}`;
  return null;
}

/**
 * Whether the cursor stands at the end of the run on screen, and that run is the current
 * scenario's. Reaching it reveals the prediction's answer (the panel latches it: scrubbing back
 * afterwards does not hide the answer again).
 */
export function atRunEnd(opts: {
  /** The run on screen is the current scenario's (status 'ready'), not the previous one's. */
  current: boolean;
  idx: number;
  n: number;
  t: number;
  endTime: number;
}): boolean {
  return opts.current && opts.idx >= opts.n && opts.t >= opts.endTime;
}

// The variant a preset's question is about: its default variant, the one rule
// (src/scenarios/defaultVariant.ts).
export { questionVariant };

/**
 * Where "Predict first" stands for the workspace on screen:
 * - `none`: no preset is open, nothing is asked;
 * - `other-variant`: the question is about another variant of the preset — its answer does not
 *   describe this run, so it is neither asked nor revealed here (the panel offers to open it);
 * - `edited-waiting`: the question's variant, changed since it was opened, and the changed run not
 *   yet played to its end — the answer describes the preset as shipped, so it is not revealed
 *   here, and the changed run's outcome waits for its end like the shipped one's (an edit must not
 *   show what the question asks: the story tells it; undo brings the question back);
 * - `edited`: the same, once the changed run has been played to its end: its outcome shows;
 * - `pending`: asked and not answered yet — everything that gives the outcome away is hidden;
 * - `locked`: answered (locked in); the answer, and the outcome with it, wait for the end of the
 *   run or "Reveal now";
 * - `revealed`: the answer is shown (it stays, even after an edit).
 */
export type PredictionPhase =
  'none' | 'other-variant' | 'edited-waiting' | 'edited' | 'pending' | 'locked' | 'revealed';

/** The {@link PredictionPhase} of an open preset and its prediction. */
export function predictionPhase(o: {
  open: Pick<OpenPreset, 'preset' | 'variant'> | null;
  /** The scenario is the variant as shipped ({@link isPristinePreset}). */
  pristine: boolean;
  locked: boolean;
  revealed: boolean;
  /** The run on screen, changed since it was opened, has been played to its end. */
  endSeen?: boolean;
}): PredictionPhase {
  return subjectPhase(
    o.open && {
      key: o.open.preset.id,
      otherVariant: o.open.variant.id !== questionVariant(o.open.preset),
      pristine: o.pristine,
    },
    o,
  );
}

/**
 * What "Predict first" asks about the workspace on screen, before any answer: on the page, the
 * open preset's question ({@link presetSubject}); in an embedded player, the question it asks of
 * the scenario it was given.
 */
export interface PredictionSubject {
  /**
   * Where its prediction is kept: a preset's id on the page (its variants share one prediction,
   * "same failure, three sinks").
   */
  key: string;
  /** The question is about another variant of the preset: its answer does not describe this run. */
  otherVariant: boolean;
  /** The scenario on screen is the one the answer describes (not edited since it was opened). */
  pristine: boolean;
}

/**
 * The {@link PredictionPhase} of a subject (null: nothing asked) and its prediction.
 * @param p - the prediction; `endSeen`: the scenario on screen, when it is not the subject's as
 *   opened, has had its run played to its end (default false: its outcome still waits).
 */
export function subjectPhase(
  subject: PredictionSubject | null,
  p: { locked: boolean; revealed: boolean; endSeen?: boolean; room?: boolean },
): PredictionPhase {
  if (!subject) return 'none';
  if (subject.otherVariant) return 'other-variant';
  if (p.revealed) return 'revealed';
  if (!subject.pristine) return p.endSeen ? 'edited' : 'edited-waiting';
  // The room's answers stand for the presenter's own (src/ui/room/usePageRoomPrediction.ts).
  return p.locked || p.room ? 'locked' : 'pending';
}

/** The page's subject: the open preset's question (null when no preset is open). */
export function presetSubject(s: {
  scenario: ScenarioInput;
  presetRef: string | null;
}): PredictionSubject | null {
  const open = openPreset(s.presetRef);
  if (!open) return null;
  return {
    key: open.preset.id,
    otherVariant: open.variant.id !== questionVariant(open.preset),
    pristine: isPristinePreset(s.scenario, s.presetRef),
  };
}

/**
 * Whether the page asks the open preset's own question of the run on screen: its question's
 * variant, as shipped. Elsewhere (another variant, an edited story, a scenario of one's own) the
 * preset's answer is not this run's, and only the question any run can be asked is asked — by the
 * page's box ({@link subjectPhase}) and by the room (src/ui/room/currentRoomStep.ts,
 * src/ui/room/usePageRoomPrediction.ts).
 */
export function asksItsOwnQuestion(subject: PredictionSubject | null): boolean {
  return subject !== null && !subject.otherVariant && subject.pristine;
}

/**
 * Whether the panels that give the outcome away (the verdict, the explanations, the ledger's
 * final fates, the story) are hidden: while a prediction is asked and its answer not revealed —
 * locking a prediction in does not show the outcome, watching the run (to its end) or "Reveal
 * now" does — and after an edit, until the changed run has been played to its end. Counters that
 * grow with the cursor stay: they show only what has happened so far.
 */
export function outcomeHidden(phase: PredictionPhase): boolean {
  return phase === 'pending' || phase === 'locked' || phase === 'edited-waiting';
}

/**
 * Whether the outcome is folded: nothing asks for an answer first (the question is revealed, or
 * this is another variant of its preset, which asks none), but the run on screen has not yet been
 * played to its end in this visit (nor "Reveal now" chosen), so the final verdict, the "why" and
 * the final fates wait for the end like the counters do — a replay after "Show the answer", a
 * share link, a preset opened again or any of its other variants starts at t = 0 with nothing
 * given away (issue 24, "the outcome in its time").
 * @param endSeen - this scenario's run was played to its end (or revealed now) since it was opened.
 * @param replay - the scenario on screen was opened from a share link or a file and asks nothing
 *   (`LabState.replay`): its verdict folds the same way.
 */
export function outcomeFolded(phase: PredictionPhase, endSeen: boolean, replay = false): boolean {
  return (
    (phase === 'revealed' || phase === 'other-variant' || (phase === 'none' && replay)) && !endSeen
  );
}
