/**
 * The lab's state and actions as the UI sees them: the shapes of the stores (src/store/labStore.ts
 * creates them) and the constants their controls step through.
 */
import type { Guarantee, ScenarioInput } from '../engine';
import type { RunClient, RunProgress } from '../platform/runClient';
import type { StoreApi } from 'zustand/vanilla';
import type { FaultAction, FaultInput, ComponentId } from '../views/edit/faultActions';
import type { RunView } from '../views/run/runView';
import type { CompareSpec } from '../views/compare/compareSpec';
import type { AtlasChoice } from '../views/atlas/atlasChoice';
import type { AtlasFindings } from '../views/atlas/atlasFindings';

/** Where the current scenario's run stands. */
/**
 * `validating`: the scenario asked for is not in hand yet — its preset's module (or, for a
 * scenario of one's own, the validator) is loading (src/scenarios/presetCatalog.ts); it runs next.
 */
type RunStatus = 'idle' | 'validating' | 'running' | 'ready' | 'invalid' | 'error' | 'cancelled';

/** The undo history is capped (each entry is a whole scenario). */
export const HISTORY_LIMIT = 100;

/**
 * What one undo (or redo) step brings back: the scenario and the page's state beside it — the
 * preset it was opened from, Compare's lanes, the fault atlas's choice — as they were when the
 * step was left (issue #23: undo carries the compare state and the atlas choice). The undo
 * history holds these values and nothing else: the one record of them.
 */
export interface UndoStep {
  scenario: ScenarioInput;
  presetRef: string | null;
  compare: CompareSpec | null;
  atlas: AtlasChoice;
  /**
   * The edit's note ("Deleted fault 2", "Guarantee: exactly-once"): in `past`, of the edit made
   * from this step; in `future`, of the edit that leads to it. Undo and Redo say it ("Undone:
   * Deleted fault 2"): a bare "Undone" told a screen-reader user nothing of what came back.
   */
  note?: string;
}

/** Font scale steps of the font-size control (1 = 100 %). */
export const FONT_SCALES = [0.875, 1, 1.125, 1.25, 1.5, 1.75] as const;

/** State and actions of the `app` store. */
export interface LabState {
  /** The scenario as written (defaults not applied): what undo/redo, share and export carry. */
  scenario: ScenarioInput;
  /** `preset-id/variant-id` it was loaded from, or null. */
  presetRef: string | null;
  /** The undo history, oldest first: each step as it was left ({@link UndoStep}). */
  past: UndoStep[];
  /** The redo history, next first. */
  future: UndoStep[];
  /** The view of the last successful run (of this scenario when `status` is 'ready'). */
  view: RunView | null;
  /** Scenario key of `view`. */
  viewKey: string | null;
  /**
   * The scenario object `view` was simulated from. A new scenario is set before its run ends
   * (and before the cursor moves back): `viewFor !== scenario` says the view is the old one.
   */
  viewFor: ScenarioInput | null;
  status: RunStatus;
  progress: RunProgress | null;
  /** Engine error message ('error') — validation issues are derived, see {@link selectParse}. */
  error: string | null;
  playing: boolean;
  /** Virtual ms per real ms. */
  speed: number;
  /** Jump over stretches where nothing happens. */
  skipIdle: boolean;
  /** Selected business event (identity), or -1. */
  selected: number;
  /** Trace entries to highlight (an explanation's citations), or empty. */
  highlight: number[];
  /** Component whose fault menu is open, or null. */
  menu: ComponentId | null;
  /** Index into {@link FONT_SCALES}. */
  fontStep: number;
  /** The details tab shown below the pipeline. */
  tab: DetailsTab;
  /**
   * Projector mode: large text, the pipeline, counters and question on one 1280×720 screen, the
   * secondary panels (ledger, knobs, trace) one key away (`details`). The root carries it as
   * `data-present`; a lesson presenter switches it on with {@link LabActions.setPresent}.
   */
  present: boolean;
  /** Whether the secondary panels show in projector mode (always shown otherwise). */
  details: boolean;
  /** The page's colour scheme: the system's, or one chosen in the page. */
  theme: Theme;
  /** A short message for the status line ("Undid: add fault"), or null. */
  notice: string | null;
  /** Last idle stretch skipped by playback (virtual ms), for the transport's hint. */
  lastSkip: number;
  /**
   * How many scenarios were opened as a page of their own — a preset chosen, a link or a file
   * opened (`loadScenario`'s `opened`) — rather than edited, undone or brought back: the browser
   * history adds an entry for each (src/ui/io/historySync.ts), and Back returns to the one before.
   */
  opened: number;
  /**
   * The scenario opened from a share link or a file without a question of its own, to be played:
   * its final verdict folds until its run reaches its end or "Reveal now" (issue 24: never at
   * t = 0 of a replay; `outcomeFolded`). Compared as a run (./sameRun.ts): a copy of it made by
   * opening Compare or ticking the atlas's kinds is it, an edit of it is not.
   */
  replay: ScenarioInput | null;
  /**
   * The replay whose end was seen — played to it, or "Reveal now" (`PredictionContext`): the
   * saved workspace reopens a replay where it was left only then, else at its start with its
   * outcome folded (src/ui/io/workspace.ts). Compared as a run, as {@link replay} is.
   */
  replaySeen: ScenarioInput | null;
  /**
   * How far the batch view's schedule stood (attempts shown) on a run (./sameRun.ts): view state,
   * neither undo nor the link. A batch view mounted again on the same run — Compare closed, or
   * its opening undone — starts there; a scenario loaded forgets it (src/ui/batch/BatchRun.tsx).
   */
  batchShown: { run: ScenarioInput; attempts: number } | null;
  /**
   * Compare (src/views/compare): the lanes run beside the scenario, or null when Compare is
   * closed. Part of the page's state: undo, the share link and the Markdown report carry it.
   */
  compare: CompareSpec | null;
  /**
   * The fault atlas's kinds ticked and "Pairs too" (src/views/atlas/atlasChoice.ts), for a
   * stream's atlas or a batch job's: part of the page's state as `compare` is — undo and the
   * share link carry it.
   */
  atlas: AtlasChoice;
  /**
   * What the last atlas run to its end on the page found, for the Markdown report (view state:
   * neither undo nor the link; a reload forgets it, and the report then names the choice only).
   */
  atlasFound: AtlasFindings | null;
}

/** The colour scheme chosen in the page ('system': follow `prefers-color-scheme`). */
export type Theme = 'system' | 'light' | 'dark';

/** Tabs of the details panel. */
export type DetailsTab = 'ledger' | 'knobs' | 'sets' | 'trace';

/** The playback cursor. */
export interface CursorState {
  /** Virtual time (ms). */
  t: number;
  /** Trace entries applied (0…n). */
  idx: number;
}

/** Actions on the lab (plain functions over both stores). */
export interface LabActions {
  /** Open a preset (`id` or `id/variant`) as shipped: undoable, and a page of its own (`opened`). */
  loadPreset(ref: string): void;
  /**
   * Replace the scenario (undoable unless `resetHistory`); the cursor goes back to 0. `opened`:
   * the user opened it as a page of its own (a link, a file: see {@link LabState.opened}).
   */
  loadScenario(
    input: ScenarioInput,
    opts?: {
      resetHistory?: boolean;
      presetRef?: string | null;
      opened?: boolean;
      /** The compare state it opens with (a compare link's); default: Compare closed. */
      compare?: CompareSpec | null;
      /** The atlas choice it opens with (a link's `a=`); default: every kind, single faults. */
      atlas?: AtlasChoice;
      /** A shared or imported run, played from t = 0: see {@link LabState.replay}. */
      replay?: boolean;
      /** The status line's message once it is open. */
      notice?: string;
      /**
       * What Undo and Redo call this opening ("Undone: opened Solution 1 of the room"), when the
       * notice says more than its name (default: the notice).
       */
      undoNote?: string;
    },
  ): void;
  /** Open Compare with these lanes, change them, or close it (null): one undoable edit. */
  setCompare(spec: CompareSpec | null, notice?: string): void;
  /** Tick or untick the atlas's kinds, or "Pairs too": one undoable edit, as Compare's. */
  setAtlas(choice: AtlasChoice, notice: string): void;
  /**
   * The atlas of the current choice ran to its end: the choice says so (a link shared now offers
   * it again), and what it found is kept for the report. Not an undo step: nothing the user
   * edited.
   */
  noteAtlasExplored(found?: AtlasFindings): void;
  /**
   * Apply a guarantee's bundle of knobs, as one undoable edit. Refused, with a notice saying why,
   * when the result would not validate (a fault of the scenario that cannot exist under `g`: see
   * guaranteeAvailability).
   * @param o.walk - a step of a walk through the switch with the arrow keys, which checks each
   *   option it passes: the steps in a row are one edit (each applies its recipe to the scenario
   *   from before the walk; back on the guarantee it started from, that scenario as it was). A
   *   click (no `walk`) is an edit of its own, applied to the scenario on screen.
   */
  setGuarantee(g: Guarantee, o?: { walk?: boolean }): void;
  /**
   * Set one knob, with the knobs it must bring along (an XA sink sets statement retries to 0:
   * `KnobMeta.alsoSets`), as one undoable edit; the notice names them. `note` says why this value
   * (a knob turned back on: "its last value").
   */
  setKnob(path: string, value: unknown, note?: string): void;
  /**
   * Set several knobs as {@link setKnob} sets each, as ONE undoable edit (the fault atlas's
   * "Explore with acks=all, …": the knobs that keep the claim only together), the notice naming
   * every one; `note` ends it.
   */
  setKnobs(knobs: readonly { path: string; value: unknown }[], note?: string): void;
  setSeed(seed: number): void;
  /**
   * Name the scenario (what its file, its report, its embed's title and `delivery-lab check`
   * call it), one undoable edit; a name the format refuses (empty, over 200 characters) is not
   * applied.
   */
  renameScenario(name: string): void;
  /** Add a fault, one undoable edit; `notice` says which (default: "Added a fault"). */
  addFault(fault: FaultInput, notice?: string): void;
  applyFaultAction(action: FaultAction): void;
  /** Drop the in-flight message of trace entry `entry` (a clicked token). */
  dropMessage(entry: number): boolean;
  moveFault(index: number, at: number): void;
  deleteFault(index: number): void;
  undo(): void;
  redo(): void;
  /** Play from the cursor (from 0 at the end) — unless the reveal guard says why not. */
  play(): void;
  pause(): void;
  togglePlay(): void;
  /**
   * A view with its own playback (the batch page's schedule) takes play/pause while it is shown:
   * {@link LabActions.togglePlay} — Space, the page's one keyboard map — calls `toggle` instead
   * of moving the stream's cursor. Null: it is gone.
   */
  setOwnPlayback(toggle: (() => void) | null): void;
  setSpeed(speed: number): void;
  setSkipIdle(on: boolean): void;
  /** Back to time 0, paused. */
  restart(): void;
  /**
   * To the end of the run (every entry applied, the clock at its end time), paused — unless the
   * reveal guard says why not (its words become the notice).
   */
  toEnd(): void;
  /**
   * What may keep the run from playing ({@link LabActions.play}) and the cursor from moving
   * forward ({@link LabActions.toEnd}, a seek, step or jump): the view's "Predict first" question,
   * which the counters and tables on their way to the end would answer before it is answered.
   * Its words become the notice. Null: nothing.
   */
  setRevealGuard(guard: (() => string | null) | null): void;
  /**
   * Why the run may not move forward now — the reveal guard's words, which become the notice — or
   * null. For a view with its own playback (the batch page's schedule): it asks the same one rule
   * before it plays or shows its end.
   */
  forwardRefusal(): string | null;
  /** Take `notice` off the status line if it is still the one shown (a refusal that no longer holds). */
  withdrawNotice(notice: string): void;
  /** Move the cursor to time t (ms). */
  seek(t: number): void;
  /**
   * Open the run at time t (ms) as its author asked (an embed's `t=`): part of the setup the
   * reader predicts from, so the reveal guard does not refuse it.
   */
  openAt(t: number): void;
  /** Move the cursor to `idx` entries applied. */
  seekIndex(idx: number): void;
  /** Step one engine event forward (+1) or back (−1). */
  step(delta: number): void;
  /**
   * Jump to the next (+1) or previous (−1) moment — a fault, a commit, a checkpoint, a retry, an
   * anomaly (src/views/run/moments.ts) — paused; the notice says where it landed.
   */
  jump(delta: number): void;
  /** Leave anomalies out of {@link LabActions.jump} (while the outcome is hidden, they tell it). */
  setJumpsHideAnomalies(hide: boolean): void;
  /** Advance playback by one frame of `dtReal` real ms (called by the frame loop). */
  tick(dtReal: number): void;
  select(identity: number): void;
  highlightEntries(entries: number[]): void;
  openMenu(component: ComponentId | null): void;
  setFontStep(step: number): void;
  showTab(tab: DetailsTab): void;
  /** Projector mode on or off (the secondary panels fold away when it turns on). */
  setPresent(on: boolean): void;
  /** Show or fold the secondary panels in projector mode. */
  setDetails(open: boolean): void;
  setTheme(theme: Theme): void;
  cancelRun(): void;
  /** Run the current scenario again (after a cancel). */
  rerun(): void;
  /**
   * Explain the runs from now on: a lab made with `explainLater` (the embed) runs without the
   * verdict's explanations until a "why" is shown or a jump needs one; this runs the scenario
   * on screen again, explained (the same trace), and every later run with them.
   */
  explainRuns(): void;
  /** Resolves once the current run (if any) has settled. */
  settled(): Promise<void>;
}

/** The lab: the stores and the actions. */
export interface Lab {
  app: StoreApi<LabState>;
  /** The playback cursor, every frame. */
  cursor: StoreApi<CursorState>;
  /** The cursor the panels render (throttled while playing, see playback.ts `SHOWN_INTERVAL_MS`). */
  shown: StoreApi<{ idx: number }>;
  actions: LabActions;
}

/** Dependencies of {@link createLab}. */
export interface LabDeps {
  runner: RunClient;
  /** The first scenario; default: the at-least-once preset. */
  initial?: ScenarioInput;
  initialPresetRef?: string | null;
  /**
   * Run without the verdict's explanations until {@link LabActions.explainRuns} (the embed: the
   * explaining code is ~18 kB gzip it loads only to show a "why", issue 31). Default false.
   */
  explainLater?: boolean;
}
