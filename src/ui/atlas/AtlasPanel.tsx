import { useCallback, useEffect, useRef, useState } from 'react';
import type { FaultSpec, PlacementKind, Scenario } from '../../engine';
import {
  runAtlasInWorkers,
  suggestFixInWorker,
  type AtlasChunks,
  type AtlasJob,
  type AtlasProgress,
} from '../../platform/atlasWorkers';
import { PARSE_PENDING, selectParse, type LabState } from '../../store/labStore';
import { useActions, useLab, useLabInstance } from '../../store/LabContext';
import { MAX_LANES, type LaneSpec } from '../../views/compare/compareSpec';
import type { FaultInput } from '../../views/edit/faultActions';
import { editKnob } from '../../views/edit/knobs';
import type { FixSuggestion } from '../../views/atlas/fixSuggestion';
import { heatMap } from '../../views/atlas/heatMap';
import { streamAtlasFindings } from '../../views/atlas/atlasFindings';
import { PAIRS_BOUND } from '../../views/atlas/heatCells';
import { atlasSoFar, counterexampleSoFar } from '../../views/atlas/atlasSoFar';
import { heatMapSoFar } from '../../views/atlas/heatMapSoFar';
import { ATLAS_KINDS, pageRefusal } from '../../views/atlas/atlasKinds';
import { unexplored } from '../../views/atlas/atlasChoice';
import { timeLeftEstimator } from '../../views/atlas/timeLeft';
import { KindFilter } from './KindFilter';
import { useAtlasChoice } from './useAtlasChoice';
import { useAtlasWarmUp } from './useAtlasWarmUp';
import { AtlasResults, type Live, type Shown } from './AtlasResults';
import { HiddenOutcome } from '../library/HiddenOutcome';
import { focusSoon } from '../hooks/focusSoon';
import { useThrottledSay } from '../hooks/useThrottledSay';
import { usePredictionGate } from '../library/usePredictionGate';
import { atlasTestIds } from './atlasTestIds';
import './atlas.css';
import { formatCountOf, formatMs } from '../../views/run/format';
import { addedFaultWords } from '../../views/edit/addedFaultWords';
import { showOpenedRun } from './showOpenedRun';

const selectScenario = (s: LabState) => s.scenario;

/** The heat map's columns: time steps, at most 24 (the final map's and the one so far). */
const COLUMNS = 24;

/** A running atlas's results so far, from its chunks: recomputed once per finished chunk. */
function liveOf(s: Scenario, input: LabState['scenario'], c: AtlasChunks): Live {
  const soFar = atlasSoFar(s, c.plan, c.chunks, c.results);
  const heat = heatMapSoFar(soFar, COLUMNS, 'steps');
  return { soFar, heat, counter: counterexampleSoFar(soFar), input };
}

/** "Cancelled after 1,204 of 2,858 runs", or before the first one. */
function stoppedWords(verb: string, p: AtlasProgress | null): string {
  return p
    ? `${verb} after ${p.done.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} runs`
    : `${verb} before the first run`;
}

/** "1,204 of 2,858 runs on 2 workers". */
function runsWords(p: AtlasProgress): string {
  return `${p.done.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} runs on ${formatCountOf(p.workers, 'worker')}`;
}

/** "every kind", "1 kind", "3 kinds". */
function kindsWords(all: boolean, n: number): string {
  return all ? 'every kind' : formatCountOf(n, 'kind');
}

/**
 * Whether `a` is the scenario `b` as written: a change of the atlas's kinds or of Compare is an
 * undo step that copies the scenario (src/store/labStore.ts), the same scenario still.
 */
function sameScenario(a: LabState['scenario'], b: LabState['scenario']): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The fault atlas of the scenario on screen: every single-fault placement (or every pair, opt-in)
 * run in Web Workers, shown as a heat map of components × time with the summary, the minimal
 * counterexample ("Show me how this breaks") or the plain news that it survives every one — and,
 * while it runs, what the finished chunks tell so far (./AtlasResults.tsx). A
 * placement opens as the run with its fault added: one undo step. The kinds ticked and "Pairs too"
 * are the page's state (./useAtlasChoice.ts): undo and the share link carry them, and a link
 * whose sender had explored them offers the same atlas.
 */
export function AtlasPanel() {
  const lab = useLabInstance();
  const actions = useActions();
  const scenario = useLab(selectScenario);
  // Which placements break the claim is the prediction's answer: while "Predict first" waits,
  // the results fold behind the page's one note, as Compare's lanes do (usePredictionGate).
  const gate = usePredictionGate();
  // The kinds ticked (the CLI's --kinds, as checkboxes: pairs of every kind may pass the bound)
  // and "Pairs too", in the page's state.
  const {
    choice,
    ticked: kinds,
    all,
    pairs,
    toggleKind,
    setPairs,
  } = useAtlasChoice<PlacementKind>(ATLAS_KINDS);
  const [progress, setProgress] = useState<AtlasProgress | null>(null);
  // The last progress, for handlers that must not change with every message (see `open`).
  const lastProgress = useRef<AtlasProgress | null>(null);
  // "~12 s left" from the runs done per second of late (wall clock: said here only).
  const [timeLeft, setTimeLeft] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // What Cancel stopped, said until the next Explore: the panel otherwise looked as if nothing
  // had been asked (a tester's report).
  const [cancelled, setCancelled] = useState<string | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  // While it runs, what the finished chunks tell (view state only: not undo, not the link).
  const [live, setLive] = useState<Live | null>(null);
  const job = useRef<AtlasJob | null>(null);
  const exploreButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  // Its workers warm up on the scenario on screen before the first Explore (./useAtlasWarmUp.ts).
  const warmUp = useAtlasWarmUp();
  // What a screen reader hears: the start, the progress every 10 s, the summary at the end.
  const [said, say] = useThrottledSay();
  // Read when the atlas ends: a summary folded behind the question is not said either.
  const hidden = useRef(gate.hidden);
  useEffect(() => {
    hidden.current = gate.hidden;
  }, [gate.hidden]);
  useEffect(() => () => job.current?.cancel(), []);

  /**
   * Run the atlas of the scenario on screen; `fixedWith` names the knobs just set from a fix
   * ("acks=all"), which the summary then says it explored with.
   */
  const start = (fixedWith?: string) => {
    const parsed = selectParse(lab.app.getState());
    if (!parsed.ok) {
      setError('The scenario has problems to fix first (see its issues).');
      return;
    }
    // Said before anything starts: with no kind ticked there is nothing to run (nor to cancel).
    if (kinds.length === 0) {
      setError('Tick at least one fault kind to explore.');
      return;
    }
    const input = lab.app.getState().scenario;
    const t0 = performance.now();
    const pace = timeLeftEstimator();
    setError(null);
    setCancelled(null);
    setShown(null);
    setLive(null);
    setRunning(true);
    setProgress(null);
    lastProgress.current = null;
    setTimeLeft(null);
    say('Exploring faults…', true);
    const j = runAtlasInWorkers(parsed.scenario, {
      depth: pairs ? 2 : 1,
      ...(all ? {} : { kinds }),
      onProgress: (p) => {
        lastProgress.current = p;
        setProgress(p);
        const left = pace(p.done, p.total, performance.now());
        setTimeLeft(left);
        say(`${runsWords(p)}${left ? `, ${left}` : ''}`);
      },
      onChunk: (c) => {
        if (job.current === j) setLive(liveOf(parsed.scenario, input, c));
      },
    });
    job.current = j;
    void j.promise.then((r) => {
      if (job.current !== j) return;
      job.current = null;
      setRunning(false);
      setProgress(null);
      setLive(null);
      if (!r.ok) {
        if (r.error !== 'cancelled') {
          setError(pageRefusal(r.error));
          say('', true);
        }
        return;
      }
      const map = heatMap(r.atlas, COLUMNS, 'steps');
      // The choice it ran is now explored (unless an undo changed it meanwhile), and what it
      // found goes in the report.
      if (lab.app.getState().atlas === choice)
        actions.noteAtlasExplored(streamAtlasFindings(input, choice, r.atlas, map.summary));
      setShown({
        atlas: r.atlas,
        input,
        map,
        workers: r.workers,
        ms: performance.now() - t0,
        ...(fixedWith ? { fixedWith } : {}),
      });
      say(
        hidden.current
          ? 'Fault atlas done: what it found waits for your answer.'
          : `Fault atlas done: ${fixedWith ? `explored with ${fixedWith}: ` : ''}${map.summary}`,
        true,
      );
    });
  };
  // After "Explore with …" the button pressed went with the first atlas, and its run ends on
  // Explore (Cancel's button, drawn again): once its results are drawn, the focus goes to what
  // it found, which says what changed.
  useEffect(() => {
    if (shown?.fixedWith)
      panel.current?.querySelector<HTMLElement>(`[data-testid="${atlasTestIds.summary}"]`)?.focus();
  }, [shown]);
  // The latest `start`, for the memoised results' handler (./AtlasResults.tsx re-renders only
  // when a chunk or the atlas finishes, not on every progress message).
  const startLatest = useRef(start);
  useEffect(() => {
    startLatest.current = start;
  });
  /** Stop the running atlas, saying so: its workers, its progress and its map so far go. */
  const stop = useCallback(
    (words: string) => {
      job.current?.cancel();
      job.current = null;
      setCancelled(words);
      say(words, true);
      setRunning(false);
      setProgress(null);
      setLive(null);
    },
    [say],
  );
  const cancel = () => {
    stop(`${stoppedWords('Cancelled', lastProgress.current)}; nothing was changed.`);
    exploreButton.current?.focus();
  };

  // The scenario explored: the finished atlas's, or the running one's.
  const explored = shown?.input ?? live?.input ?? null;
  /**
   * Before a placement opens mid-run, the atlas stops: the run opened is what was asked for next,
   * and the atlas's workers hold every core its verdict needs (seconds on 2 cores), for a map of
   * a scenario no longer on screen. (Disabling the buttons until the end would hide the way in.)
   */
  const stopToOpen = useCallback(() => {
    if (!job.current) return;
    stop(
      `${stoppedWords('Stopped', lastProgress.current)} to open that placement; Explore runs the atlas again.`,
    );
    // Its button went with the map: the focus goes to Explore, as after Cancel.
    focusSoon(() => exploreButton.current);
  }, [stop]);

  /** Open the explored scenario with `faults` added: one undo step. */
  const open = useCallback(
    (faults: FaultSpec[]) => {
      if (!explored) return;
      stopToOpen();
      const added = faults as FaultInput[];
      // Said as the timeline's markers say them: which fault, on what, armed from when.
      const notice = addedFaultWords(faults, explored.faults?.length ?? 0, formatMs);
      if (sameScenario(lab.app.getState().scenario, explored) && added.length === 1) {
        actions.addFault(added[0]!, notice);
      } else {
        actions.loadScenario(
          { ...explored, faults: [...(explored.faults ?? []), ...added] },
          // The atlas goes on with the same kinds ticked.
          { presetRef: lab.app.getState().presetRef, atlas: unexplored(choice), notice },
        );
      }
      showOpenedRun(lab.app.getState().compare ? 'compare-view' : 'pipeline');
    },
    [explored, stopToOpen, lab, actions, choice],
  );

  /**
   * Compare `lanes` on the explored scenario (opened again if an edit came since, the atlas's
   * kinds kept), the page brought to them: a placement's lane, or the break beside its fix.
   */
  const compareOnExplored = useCallback(
    (lanes: (current: LabState['compare']) => LaneSpec[], label: string) => {
      if (!explored) return;
      stopToOpen();
      if (!sameScenario(lab.app.getState().scenario, explored))
        actions.loadScenario(explored, {
          presetRef: lab.app.getState().presetRef,
          atlas: unexplored(choice),
        });
      actions.setCompare({ lanes: lanes(lab.app.getState().compare) }, label);
      showOpenedRun('compare-view');
    },
    [explored, stopToOpen, lab, actions, choice],
  );

  /**
   * Run the explored scenario with `faults` added beside the scenario itself, as a Compare lane
   * (a third lane when Compare already shows one other): the placement's fate next to the run's.
   */
  const compareWith = useCallback(
    (faults: FaultSpec[]) =>
      compareOnExplored((current) => {
        const lane = { faults: faults as FaultInput[] };
        return current && current.lanes.length < MAX_LANES - 1 ? [...current.lanes, lane] : [lane];
      }, 'Compare: the run with this placement beside it'),
    [compareOnExplored],
  );

  /** What keeps the claim on the explored scenario's counterexample: a few runs in a worker. */
  const suggest = useCallback(
    (faults: FaultSpec[]) =>
      explored ? suggestFixInWorker(explored, faults) : Promise.resolve(null),
    [explored],
  );

  /**
   * Compare the counterexample's break beside the same fault with the knobs that keep the claim
   * set: the break and its fix, lane by lane, event by event.
   */
  const compareFix = useCallback(
    (faults: FaultSpec[], knobs: FixSuggestion['knobs']) => {
      const added = faults as FaultInput[];
      compareOnExplored(
        () => [
          { faults: added },
          { faults: added, knobs: knobs.map((k) => ({ path: k.path, value: k.value })) },
        ],
        `Compare: the break, and the same fault with ${knobs.map((k) => k.text).join(', ')}`,
      );
    },
    [compareOnExplored],
  );

  /**
   * "Explore with acks=all": the engineer's next question after what keeps the claim on one fault
   * — does it survive every one? The knobs are set on the explored scenario as one undo step (the
   * ordinary knob edit: the share link, export and embed carry it) and the atlas runs again at
   * once, with the same kinds.
   */
  const exploreFix = useCallback(
    (knobs: FixSuggestion['knobs']) => {
      if (!explored) return;
      const words = knobs.map((k) => k.text).join(', ');
      const set = knobs.map((k) => ({ path: k.path, value: k.value }));
      const note = 'from the fault atlas, to explore with it';
      if (sameScenario(lab.app.getState().scenario, explored)) actions.setKnobs(set, note);
      else {
        // Edited since: the scenario explored, with the knobs set, opened again as one step.
        let withKnobs = explored;
        const notices: string[] = [];
        for (const k of set) {
          const e = editKnob(withKnobs, k.path, k.value);
          withKnobs = e.scenario;
          notices.push(e.notice);
        }
        actions.loadScenario(withKnobs, {
          presetRef: lab.app.getState().presetRef,
          atlas: choice,
          notice: [...notices, note].join('; '),
        });
      }
      // The run's validation is in hand on the lab's page; if not yet, the atlas waits for it.
      if (selectParse(lab.app.getState()) === PARSE_PENDING)
        void actions.settled().then(() => startLatest.current(words));
      else startLatest.current(words);
      focusSoon(() => cancelButton.current);
    },
    [explored, lab, actions, choice],
  );

  const stale = explored !== null && !sameScenario(explored, scenario);
  return (
    <section
      className="card atlas"
      aria-label="Fault atlas"
      data-testid={atlasTestIds.panel}
      ref={panel}
    >
      <div className="atlas-head">
        <h2>Fault atlas</h2>
        <span className="muted">
          {pairs
            ? 'every pair of faults, wherever they strike, each pair run once'
            : 'every single fault, everywhere it can strike, each run once'}
        </span>
        <span className="spacer" />
        <label className="atlas-pairs">
          <input
            type="checkbox"
            checked={pairs}
            disabled={running}
            data-testid={atlasTestIds.pairs}
            onChange={(e) => setPairs(e.target.checked)}
          />{' '}
          Pairs too <span className="muted">({PAIRS_BOUND})</span>
        </label>
        {running ? (
          <button
            type="button"
            ref={cancelButton}
            data-testid={atlasTestIds.cancel}
            onClick={cancel}
          >
            Cancel
          </button>
        ) : (
          <button
            type="button"
            ref={exploreButton}
            data-testid={atlasTestIds.explore}
            onPointerEnter={warmUp}
            onFocus={warmUp}
            onClick={() => start()}
          >
            {pairs ? 'Explore pairs of faults' : 'Explore faults'}
          </button>
        )}
      </div>
      <KindFilter
        options={ATLAS_KINDS}
        ticked={kinds}
        disabled={running}
        testId={atlasTestIds.kinds}
        onToggle={toggleKind}
      />
      {choice.explored && !shown && !running && !error && (
        // Explored with this choice before (a shared link's sender, or before a reload of the
        // panel): the same atlas is one press away.
        <p className="muted" data-testid={atlasTestIds.offer}>
          This atlas was explored with these choices ({kindsWords(all, kinds.length)}
          {pairs ? ', pairs too' : ''}): “{pairs ? 'Explore pairs of faults' : 'Explore faults'}”
          runs the same one again.
        </p>
      )}
      {running && (
        <div className="atlas-progress">
          <progress
            data-testid={atlasTestIds.progress}
            aria-label="Fault atlas progress"
            max={progress?.total ?? 1}
            value={progress?.done ?? 0}
          />{' '}
          {progress ? runsWords(progress) : 'Finding every placement…'}
          {progress && timeLeft && <span data-testid={atlasTestIds.timeLeft}>, {timeLeft}</span>}
        </div>
      )}
      {cancelled && !running && (
        <p className="muted" data-testid={atlasTestIds.cancelled}>
          {cancelled}
        </p>
      )}
      {error && (
        <p className="atlas-error" role="alert" data-testid={atlasTestIds.error}>
          {error}
        </p>
      )}
      <p className="visually-hidden" role="status" data-testid={atlasTestIds.said}>
        {said}
      </p>
      {(shown || live) && gate.hidden && <HiddenOutcome gate={gate} what="atlas" />}
      {(shown || live) && !gate.hidden && (
        <AtlasResults
          shown={shown}
          live={live}
          stale={stale}
          onOpen={open}
          onCompare={compareWith}
          suggest={suggest}
          onCompareFix={compareFix}
          onExploreFix={exploreFix}
        />
      )}
    </section>
  );
}
