/**
 * The lab's state: the scenario being edited (with undo/redo), the playback cursor, and what the
 * user selected. The run and every view model are derived: the run client turns the scenario into
 * a RunView (cached per scenario), and `src/views` turns that into what the panels show.
 *
 * Two vanilla zustand stores, on purpose:
 * - `app`: everything that changes on a user action (scenario, history, run status, selection).
 * - `cursor`: `{ t, idx }`, advanced 60 times a second while playing. Keeping it apart means a
 *   frame only notifies the cursor's subscribers (the token layer through refs, and components
 *   that select `idx`, which re-render only when an engine event is crossed) — never the whole
 *   store (zustand README, "Transient updates").
 *
 * A third store, `shown`, is the cursor the panels render: while playing it follows `cursor` at
 * most every `SHOWN_INTERVAL_MS`; on a seek, a step or a pause it follows at once. The cursor, `shown`
 * and the actions that move them are ./playback.ts; the fault edits are ./faultEdits.ts.
 *
 * The run client is injected (docs/ARCHITECTURE.md#layers: store imports only the types of platform/), so tests pass an inline
 * one and the page a worker-backed one. The stores' shapes are ./labState.ts, their selectors
 * ./selectors.ts.
 */
import { createStore } from 'zustand/vanilla';
import type { Guarantee, ScenarioInput } from '../engine';
import { judgeScenarioName } from '../views/edit/scenarioName';
import type { RunJob } from '../platform/runClient';
import { claimOf } from '../scenarios/claim';
import {
  DEFAULT_PRESET_REF,
  mayBePreset,
  loadedPreset,
  loadPreset as loadPresetModule,
} from '../scenarios/presetCatalog';
import { loadPresetScenarios } from '../scenarios/presetScenarios';
import { indexAtTime } from '../views/run/at';
import { loadValidation, validation, type ValidationParts } from '../views/run/validationOnDemand';
import { knobEditing, loadKnobEditing, type EditKnob } from './knobEditing';
import { paceOf } from '../views/run/pace';
import { SPEED_DEFAULT } from '../views/run/playback';
import { DEFAULT_ATLAS_CHOICE } from '../views/atlas/atlasChoice';
import {
  FONT_SCALES,
  HISTORY_LIMIT,
  type Lab,
  type LabActions,
  type LabDeps,
  type LabState,
  type UndoStep,
} from './labState';
import { PARSE_PENDING, selectParse, selectRecipeDifferences } from './selectors';
import { faultEditActions } from './faultEdits';
import { createPlayback } from './playback';
import { copyOfSameRun } from './sameRun';

// The lab's shapes and selectors, where its users have always imported them from.
export * from './labState';
export * from './selectors';

/** The default preset, which the page loads before it creates its lab (src/ui/io/firstPresets.ts). */
function defaultPreset(): NonNullable<ReturnType<typeof loadedPreset>> {
  const p = loadedPreset(DEFAULT_PRESET_REF);
  if (!p) throw new Error(`createLab: the default preset ${DEFAULT_PRESET_REF} is not loaded yet`);
  return p;
}

/**
 * The step the lab is on, as the undo history keeps it: undo and redo bring back the preset a
 * scenario was opened from (the story beside the pipeline and the URL's `?preset=` follow it),
 * the lanes it was compared with and the atlas kinds ticked on it, all with the scenario.
 */
export function undoStepOf(s: LabState): UndoStep {
  return { scenario: s.scenario, presetRef: s.presetRef, compare: s.compare, atlas: s.atlas };
}

/** The undo step of `s` with the note of the edit made from it (or leading to it: `future`). */
function noted(s: LabState, note: string | null | undefined): UndoStep {
  return note ? { ...undoStepOf(s), note } : undoStepOf(s);
}

/** Create a lab (one per page, per embedded player, per test). */
export function createLab(deps: LabDeps): Lab {
  const initialRef = deps.initialPresetRef ?? (deps.initial ? null : DEFAULT_PRESET_REF);
  const initial = deps.initial ?? structuredClone(defaultPreset().variant.scenario);
  const app = createStore<LabState>()(() => ({
    scenario: initial,
    presetRef: initialRef,
    past: [],
    future: [],
    view: null,
    viewKey: null,
    viewFor: null,
    status: 'idle',
    progress: null,
    error: null,
    playing: false,
    speed: SPEED_DEFAULT,
    skipIdle: true,
    selected: -1,
    highlight: [],
    menu: null,
    fontStep: 1,
    tab: 'ledger',
    present: false,
    details: false,
    theme: 'system',
    notice: null,
    lastSkip: 0,
    opened: 0,
    replay: null,
    replaySeen: null,
    batchShown: null,
    compare: null,
    atlas: DEFAULT_ATLAS_CHOICE,
    atlasFound: null,
  }));
  const playback = createPlayback(
    app,
    () => {
      paceFor = null;
      speedChosen = true;
    },
    (delta) => actions.jump(delta),
  );
  const { cursor, shown } = playback;
  let job: RunJob | null = null;
  /** Whether runs come with the verdict's explanations (see LabDeps.explainLater). */
  let explaining = deps.explainLater !== true;
  let pending: Promise<void> = Promise.resolve();
  /**
   * The scenario opened (the first, a preset, a link, a file) whose run sets the speed to its pace
   * when it arrives (src/views/run/pace.ts); an edit keeps the speed the user chose (see
   * `speedChosen`).
   */
  let paceFor: ScenarioInput | null = initial;
  /**
   * Whether the user set the speed since the scenario was opened. Until then the speed is the run's
   * own pace, recomputed after an edit too: the live tab and its share link (which opens the
   * edited scenario afresh) play at the same default speed.
   */
  let speedChosen = false;

  /** Run the current scenario (unless invalid); keep the cursor's time across the new view. */
  const requestRun = () => {
    job?.cancel();
    // Each scenario's own pace until the user sets a speed: an edit, an undo, a redo included.
    if (!speedChosen) paceFor = app.getState().scenario;
    job = null;
    const s = app.getState();
    const parsed = selectParse(s);
    if (parsed === PARSE_PENDING) {
      // Not one of our presets as shipped, and zod not in hand (an embed's first edit): the
      // status line says "Checking…" until the validation is in, then the scenario runs.
      app.setState({ status: 'validating', progress: null });
      const waiting = s.scenario;
      pending = withValidation(() => {
        if (app.getState().scenario === waiting) requestRun();
      });
      return;
    }
    if (!parsed.ok) {
      app.setState({ status: 'invalid', progress: null, playing: false });
      return;
    }
    const scenario = s.scenario;
    // A batch job's run is the batch engine's, derived where it is shown (src/views/batch): no
    // stream run of its source rows in the background, nor its view in the panels or exports.
    if (parsed.scenario.batch) {
      app.setState({
        view: null,
        viewKey: null,
        viewFor: scenario,
        status: 'ready',
        progress: null,
        error: null,
        playing: false,
      });
      cursor.setState({ t: 0, idx: 0 });
      if (paceFor === scenario) paceFor = null;
      return;
    }
    const thisJob = deps.runner.run(
      scenario,
      (progress) => {
        if (app.getState().scenario === scenario) app.setState({ progress });
      },
      { explain: explaining },
    );
    job = thisJob;
    app.setState({ status: 'running', error: null });
    pending = thisJob.promise.then((r) => {
      if (job !== thisJob) return;
      job = null;
      if (r.ok) {
        const { t, idx: before } = cursor.getState();
        const view = r.view;
        const tt = Math.min(t, view.endTime);
        // A cursor at the very start (nothing applied, as Restart leaves it) stays there: by time
        // alone it would land after the entries at 0 ms ("event 1"), unlike Restart.
        const idx = tt === 0 && before === 0 ? 0 : indexAtTime(view, tt);
        app.setState({
          view,
          viewKey: r.key,
          viewFor: scenario,
          status: 'ready',
          progress: null,
          error: null,
          ...(paceFor === scenario ? { speed: paceOf(scenario, view) } : {}),
        });
        if (paceFor === scenario) paceFor = null;
        cursor.setState({ t: tt, idx });
        const sel = app.getState().selected;
        if (sel >= view.events.identities) app.setState({ selected: -1 });
        // End, a jump or a step asked for while this run was on its way: made in it now.
        playback.runArrived();
      } else if ('issues' in r) app.setState({ status: 'invalid', progress: null });
      else if (r.error === 'cancelled')
        app.setState({ status: 'cancelled', progress: null, playing: false });
      else app.setState({ status: 'error', error: r.error, progress: null, playing: false });
    });
  };

  /**
   * Do `then` with the validation (zod, src/views/run/validationOnDemand.ts): at once where it is
   * in hand (the lab's page), after its download in an embed; a failed download is said.
   */
  const withValidation = (then: (v: ValidationParts) => void): Promise<void> => {
    const v = validation();
    if (v) {
      then(v);
      return Promise.resolve();
    }
    return loadValidation().then(then, () => {
      app.setState({
        status: 'error',
        error: 'The validation could not be loaded; reload the page to try again.',
      });
    });
  };

  /** The arrow-key walk through the guarantee switch (see setGuarantee): its start, its end. */
  let burst: { before: ScenarioInput; claim: Guarantee | null; at: ScenarioInput } | null = null;

  /** Replace the scenario as one undoable edit, then re-simulate. */
  const edit = (next: ScenarioInput, notice: string | null = null) => {
    const s = app.getState();
    app.setState({
      scenario: next,
      past: [...s.past, noted(s, notice)].slice(-HISTORY_LIMIT),
      future: [],
      notice,
    });
    requestRun();
  };

  /** The history with its last step's note replaced: a walk of the switch is one step. */
  const renoted = (note: string): UndoStep[] => {
    const { past } = app.getState();
    const top = past[past.length - 1];
    return top ? [...past.slice(0, -1), { ...top, note }] : past;
  };

  /** The preset last asked for: a slower load of an earlier one does not replace it. */
  let presetAsked: string | null = null;

  const actions: LabActions = {
    loadPreset(ref) {
      if (!mayBePreset(ref)) {
        app.setState({ notice: `No preset "${ref}"` });
        return;
      }
      const open = (p: NonNullable<ReturnType<typeof loadedPreset>>) =>
        actions.loadScenario(structuredClone(p.variant.scenario), {
          presetRef: `${p.preset.id}/${p.variant.id}`,
          opened: true,
        });
      presetAsked = ref;
      // Its run reads the preset's parsed variants (src/views/run/parseForRun.ts): their download
      // starts beside its family's, not after it (issue 24: preset switch ≤ 300 ms).
      loadPresetScenarios(ref).catch(() => false);
      const p = loadedPreset(ref);
      if (p) return open(p);
      // Its family's module first (src/scenarios/presetCatalog.ts), the status line saying so;
      // a later choice wins. `settled()` waits for it, then for the run it starts.
      const before = app.getState().status;
      app.setState({ status: 'validating' });
      pending = loadPresetModule(ref).then(
        (loaded) => {
          if (presetAsked !== ref) return;
          if (loaded) open(loaded);
          // A ref its family's part of the catalog did not know after all (an embed's).
          else app.setState({ status: before, notice: `No preset "${ref}"` });
        },
        () => {
          if (presetAsked !== ref) return;
          presetAsked = null;
          app.setState({
            status: before,
            notice: `The preset "${ref}" could not be loaded; try again.`,
          });
        },
      );
    },
    loadScenario(input, opts = {}) {
      presetAsked = null;
      const s = app.getState();
      app.setState({
        scenario: input,
        presetRef: opts.presetRef ?? null,
        past: opts.resetHistory
          ? []
          : [...s.past, noted(s, opts.undoNote ?? opts.notice)].slice(-HISTORY_LIMIT),
        future: [],
        playing: false,
        selected: -1,
        highlight: [],
        menu: null,
        notice: opts.notice ?? null,
        compare: opts.compare ?? null,
        atlas: opts.atlas ?? DEFAULT_ATLAS_CHOICE,
        batchShown: null,
        lastSkip: 0,
        ...(opts.opened ? { opened: s.opened + 1 } : {}),
        ...(opts.replay ? { replay: input } : {}),
      });
      paceFor = input;
      speedChosen = false;
      cursor.setState({ t: 0, idx: 0 });
      requestRun();
    },
    setGuarantee(g, o = {}) {
      // The recipe is applied with the schema's keys, and checked by the validator: an embed
      // loads them now.
      if (!validation()) {
        pending = withValidation(() => actions.setGuarantee(g, o));
        return;
      }
      const { applyGuarantee, guaranteeAvailability } = validation()!;
      const current = app.getState().scenario;
      // Choosing the claimed guarantee again applies its recipe where the knobs differ from it;
      // where they follow it already there is nothing to apply (and nothing to undo).
      if (g === claimOf(current) && selectRecipeDifferences(app.getState()).length === 0) return;
      // Steps of an arrow-key walk in a row are one edit: each applies its recipe to the scenario
      // from before the first, one Ctrl+Z undoes them all, and walking back to the guarantee the
      // run started from gives that scenario back as it was. A click is a choice, not a step
      // on the way to one: an undo step of its own.
      if (!o.walk) burst = null;
      const inBurst = burst !== null && burst.at === current;
      const s = inBurst ? burst!.before : current;
      if (inBurst && g === burst!.claim) {
        const note = `Guarantee: ${g} (as it was)`;
        app.setState({ scenario: s, future: [], notice: note, past: renoted(note) });
        burst!.at = s;
        requestRun();
        return;
      }
      // The picker disables such an option; any other caller gets the same answer: a switch that
      // would turn the scenario into one the validator refuses (a fault that cannot exist under
      // g) is not made, and the notice says why.
      const available = guaranteeAvailability(s, g);
      if (!available.ok) {
        app.setState({ notice: `${g} is unavailable: ${available.reason}` });
        return;
      }
      // Show what the switch just set.
      app.setState({ tab: 'sets' });
      const next = applyGuarantee(s, g);
      if (inBurst) {
        const note = `Guarantee: ${g}`;
        app.setState({ scenario: next, future: [], notice: note, past: renoted(note) });
        burst!.at = next;
        requestRun();
        return;
      }
      edit(next, `Guarantee: ${g}`);
      // A re-applied claim has no 'as it was' to walk back to.
      if (o.walk) burst = { before: s, claim: g === claimOf(s) ? null : claimOf(s), at: next };
    },
    setCompare(spec, notice) {
      // A step of its own in the undo history: the same scenario (a copy: what watches the
      // scenario sees a change — the share link in the address, written for the lanes before,
      // goes) with the compare state changed. The copy is the same run (./sameRun.ts): a replay's
      // verdict not yet reached stays folded in every lane, one already seen stays shown.
      const s = app.getState();
      const note = notice ?? (spec ? 'Compare' : 'Closed Compare');
      app.setState({
        scenario: copyOfSameRun(s.scenario),
        compare: spec,
        past: [...s.past, noted(s, note)].slice(-HISTORY_LIMIT),
        future: [],
        notice: note,
      });
      requestRun();
    },
    setAtlas(choice, notice) {
      // As setCompare: the same scenario (a copy of the same run, seen as a change), the choice
      // changed.
      const s = app.getState();
      app.setState({
        scenario: copyOfSameRun(s.scenario),
        atlas: choice,
        past: [...s.past, noted(s, notice)].slice(-HISTORY_LIMIT),
        future: [],
        notice,
      });
      requestRun();
    },
    noteAtlasExplored(found) {
      const { atlas } = app.getState();
      if (!atlas.explored) app.setState({ atlas: { ...atlas, explored: true } });
      if (found) app.setState({ atlasFound: found });
    },
    setKnob(path, value, note) {
      const apply = (editKnob: EditKnob) => {
        const { scenario, notice } = editKnob(app.getState().scenario, path, value, note);
        edit(scenario, notice);
      };
      // The knob table is in hand on the lab's page; the embed loads it now (./knobEditing.ts).
      const loaded = knobEditing();
      if (loaded) apply(loaded);
      else void loadKnobEditing().then(apply);
    },
    setKnobs(knobs, note) {
      const apply = (editKnob: EditKnob) => {
        let scenario = app.getState().scenario;
        const notices: string[] = [];
        for (const k of knobs) {
          const e = editKnob(scenario, k.path, k.value);
          scenario = e.scenario;
          notices.push(e.notice);
        }
        edit(scenario, [...notices, ...(note ? [note] : [])].join('; '));
      };
      const loaded = knobEditing();
      if (loaded) apply(loaded);
      else void loadKnobEditing().then(apply);
    },
    setSeed(seed) {
      if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) return;
      edit({ ...app.getState().scenario, seed }, `Seed ${seed}`);
    },
    renameScenario(typed) {
      const scenario = app.getState().scenario;
      const name = judgeScenarioName(typed);
      if (!name.ok || name.value === scenario.name) return;
      edit({ ...scenario, name: name.value }, `Named “${name.value}”`);
    },
    ...faultEditActions(app, edit),
    undo() {
      const s = app.getState();
      const prev = s.past[s.past.length - 1];
      // Said, not silent: Ctrl+Z on a fresh page seemed to do nothing at all (a newcomer's note).
      if (!prev) return app.setState({ notice: 'Nothing to undo' });
      const { note, ...step } = prev;
      app.setState({
        ...step,
        past: s.past.slice(0, -1),
        future: [noted(s, note), ...s.future],
        notice: note ? `Undone: ${note}` : 'Undone',
      });
      requestRun();
    },
    redo() {
      const s = app.getState();
      const next = s.future[0];
      if (!next) return app.setState({ notice: 'Nothing to redo' });
      const { note, ...step } = next;
      app.setState({
        ...step,
        past: [...s.past, noted(s, note)].slice(-HISTORY_LIMIT),
        future: s.future.slice(1),
        notice: note ? `Redone: ${note}` : 'Redone',
      });
      requestRun();
    },
    ...playback.actions,
    jump(delta) {
      // A jump onto an anomaly needs the explanations (src/views/run/moments.ts): run again
      // with them first, then jump.
      if (app.getState().view?.verdict.unexplained && playback.jumpsNeedExplanations()) {
        actions.explainRuns();
        void actions.settled().then(() => playback.actions.jump(delta));
        return;
      }
      playback.actions.jump(delta);
    },
    withdrawNotice(notice) {
      if (app.getState().notice === notice) app.setState({ notice: null });
    },
    select(identity) {
      app.setState({ selected: identity, highlight: [] });
    },
    highlightEntries(entries) {
      app.setState({ highlight: entries });
    },
    openMenu(component) {
      // The fault menu offers only the faults the validator accepts: loaded first if not in.
      if (component !== null && !validation()) {
        // Said at once: on a slow network the download takes seconds, and a click that shows
        // nothing reads as a click that missed.
        const waiting = 'Opening the fault menu…';
        app.setState({ notice: waiting });
        pending = withValidation(() => {
          if (app.getState().notice === waiting) app.setState({ notice: null });
          actions.openMenu(component);
        });
        return;
      }
      app.setState({ menu: component });
    },
    setFontStep(step) {
      app.setState({ fontStep: Math.max(0, Math.min(FONT_SCALES.length - 1, step)) });
    },
    showTab(tab) {
      app.setState({ tab });
    },
    setPresent(on) {
      app.setState({ present: on, details: false });
    },
    setDetails(open) {
      app.setState({ details: open });
    },
    setTheme(theme) {
      app.setState({ theme });
    },
    cancelRun() {
      job?.cancel();
    },
    rerun() {
      requestRun();
    },
    explainRuns() {
      if (explaining) return;
      explaining = true;
      if (app.getState().view?.verdict.unexplained) requestRun();
    },
    async settled() {
      // A run may be superseded while we wait: wait for the latest one.
      for (;;) {
        const p = pending;
        await p;
        if (p === pending) return;
      }
    },
  };

  requestRun();
  return { app, cursor, shown, actions };
}
