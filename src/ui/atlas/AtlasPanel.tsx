import { useEffect, useRef, useState } from 'react';
import type { Atlas, FaultSpec, PlacementKind } from '../../engine';
import { runAtlasInWorkers, type AtlasJob, type AtlasProgress } from '../../platform/atlasWorkers';
import { selectParse, type LabState } from '../../store/labStore';
import { useActions, useLab, useLabInstance } from '../../store/LabContext';
import { MAX_LANES } from '../../views/compare/compareSpec';
import type { FaultInput } from '../../views/edit/faultActions';
import { heatMap, type HeatMap } from '../../views/atlas/heatMap';
import {
  minimalCounterexampleOf,
  noFaultNeededOf,
  PAIRS_BOUND,
  survivesSentence,
} from '../../views/atlas/heatCells';
import { ATLAS_KINDS, pageRefusal } from '../../views/atlas/atlasKinds';
import { unexplored } from '../../views/atlas/atlasChoice';
import { timeLeftWords } from '../../views/atlas/timeLeft';
import { HeatMapGrid } from './HeatMapGrid';
import { KindFilter } from './KindFilter';
import { useAtlasChoice } from './useAtlasChoice';
import { useAtlasWarmUp } from './useAtlasWarmUp';
import { AtlasLegend } from './AtlasLegend';
import { HiddenOutcome } from '../library/HiddenOutcome';
import { usePredictionGate } from '../library/usePredictionGate';
import { atlasTestIds } from './atlasTestIds';
import './atlas.css';
import { formatCountOf } from '../../views/run/format';

/** A finished atlas, with the scenario (as written) it explored and its heat map. */
interface Shown {
  atlas: Atlas;
  input: LabState['scenario'];
  map: HeatMap;
  workers: number;
  ms: number;
}

const selectScenario = (s: LabState) => s.scenario;

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
 * counterexample ("Show me how this breaks") or the plain news that it survives every one. A
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
  // "~12 s left" from the runs done per second so far (wall clock: said here only).
  const [timeLeft, setTimeLeft] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // What Cancel stopped, said until the next Explore: the panel otherwise looked as if nothing
  // had been asked (a tester's report).
  const [cancelled, setCancelled] = useState<string | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const job = useRef<AtlasJob | null>(null);
  const exploreButton = useRef<HTMLButtonElement>(null);
  // Its workers warm up on the scenario on screen before the first Explore (./useAtlasWarmUp.ts).
  const warmUp = useAtlasWarmUp();
  useEffect(() => () => job.current?.cancel(), []);

  const start = () => {
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
    setError(null);
    setCancelled(null);
    setShown(null);
    setRunning(true);
    setProgress(null);
    setTimeLeft(null);
    const j = runAtlasInWorkers(parsed.scenario, {
      depth: pairs ? 2 : 1,
      ...(all ? {} : { kinds }),
      onProgress: (p) => {
        setProgress(p);
        setTimeLeft(timeLeftWords(p.done, p.total, performance.now() - t0));
      },
    });
    job.current = j;
    void j.promise.then((r) => {
      if (job.current !== j) return;
      job.current = null;
      setRunning(false);
      setProgress(null);
      // The choice it ran is now explored (unless an undo changed it meanwhile).
      if (r.ok && lab.app.getState().atlas === choice) actions.noteAtlasExplored();
      if (r.ok)
        setShown({
          atlas: r.atlas,
          input,
          map: heatMap(r.atlas, 24, 'steps'),
          workers: r.workers,
          ms: performance.now() - t0,
        });
      else if (r.error !== 'cancelled') setError(pageRefusal(r.error));
    });
  };
  const cancel = () => {
    job.current?.cancel();
    job.current = null;
    setCancelled(
      progress
        ? `Cancelled after ${progress.done.toLocaleString('en-US')} of ${progress.total.toLocaleString('en-US')} runs; nothing was changed.`
        : 'Cancelled before the first run; nothing was changed.',
    );
    setRunning(false);
    setProgress(null);
    exploreButton.current?.focus();
  };

  /** Open the explored scenario with `faults` added: one undo step. */
  const open = (faults: FaultSpec[]) => {
    if (!shown) return;
    const added = faults as FaultInput[];
    if (sameScenario(lab.app.getState().scenario, shown.input) && added.length === 1) {
      actions.addFault(added[0]!);
    } else {
      const base = shown.input;
      actions.loadScenario(
        { ...base, faults: [...(base.faults ?? []), ...added] },
        // The atlas goes on with the same kinds ticked.
        { presetRef: lab.app.getState().presetRef, atlas: unexplored(choice) },
      );
    }
  };

  /**
   * Run the explored scenario with `faults` added beside the scenario itself, as a Compare lane
   * (a third lane when Compare already shows one other): the placement's fate next to the run's.
   */
  const compareWith = (faults: FaultSpec[]) => {
    if (!shown) return;
    if (!sameScenario(lab.app.getState().scenario, shown.input))
      actions.loadScenario(shown.input, {
        presetRef: lab.app.getState().presetRef,
        atlas: unexplored(choice),
      });
    const lane = { faults: faults as FaultInput[] };
    const current = lab.app.getState().compare;
    const lanes =
      current && current.lanes.length < MAX_LANES - 1 ? [...current.lanes, lane] : [lane];
    actions.setCompare({ lanes }, 'Compare: the run with this placement beside it');
  };

  const stale = shown !== null && !sameScenario(shown.input, scenario);
  const survives = shown ? survivesSentence(shown.atlas) : null;
  const counter = shown ? minimalCounterexampleOf(shown.atlas) : null;
  const noFault = shown ? noFaultNeededOf(shown.atlas) : null;
  return (
    <section className="card atlas" aria-label="Fault atlas" data-testid={atlasTestIds.panel}>
      <div className="atlas-head">
        <h2>Fault atlas</h2>
        <span className="muted">every single fault, everywhere it can strike, each run once</span>
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
          <button type="button" data-testid={atlasTestIds.cancel} onClick={cancel}>
            Cancel
          </button>
        ) : (
          <button
            type="button"
            ref={exploreButton}
            data-testid={atlasTestIds.explore}
            onPointerEnter={warmUp}
            onFocus={warmUp}
            onClick={start}
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
        <div className="atlas-progress" role="status">
          <progress
            data-testid={atlasTestIds.progress}
            aria-label="Fault atlas progress"
            max={progress?.total ?? 1}
            value={progress?.done ?? 0}
          />{' '}
          {progress
            ? `${progress.done.toLocaleString('en-US')} of ${progress.total.toLocaleString('en-US')} runs on ${formatCountOf(progress.workers, 'worker')}`
            : 'Finding every placement…'}
          {progress && timeLeft && <span data-testid={atlasTestIds.timeLeft}>, {timeLeft}</span>}
        </div>
      )}
      {cancelled && !running && (
        <p className="muted" role="status" data-testid={atlasTestIds.cancelled}>
          {cancelled}
        </p>
      )}
      {error && (
        <p className="atlas-error" role="alert" data-testid={atlasTestIds.error}>
          {error}
        </p>
      )}
      {shown && gate.hidden && <HiddenOutcome gate={gate} what="atlas" />}
      {shown && !gate.hidden && (
        <div className="atlas-body">
          {stale && (
            <p className="muted">
              Explored before your last edits (“{shown.atlas.scenario.name}”); a placement opens
              that scenario with its fault added.
            </p>
          )}
          <p className="atlas-summary" data-testid={atlasTestIds.summary}>
            {shown.map.summary}
          </p>
          <p
            className="muted atlas-speed"
            data-testid={atlasTestIds.speed}
            data-runs={shown.atlas.trials.length}
            data-placements={shown.atlas.placements.length}
            data-ms={Math.round(shown.ms)}
            data-workers={shown.workers}
          >
            {shown.atlas.trials.length.toLocaleString('en-US')} runs in{' '}
            {(shown.ms / 1000).toFixed(1)} s on {formatCountOf(shown.workers, 'worker')}
          </p>
          {survives && (
            <p className="atlas-survives" data-testid={atlasTestIds.survives}>
              ✓ {survives}
            </p>
          )}
          {counter && (
            <p className="atlas-counter">
              <button
                type="button"
                data-testid={atlasTestIds.counterexample}
                onClick={() => open(counter.faults)}
              >
                Show me how this breaks
              </button>{' '}
              <span>
                the earliest, simplest break: {counter.labels.join(' and ')} ({counter.result})
              </span>
            </p>
          )}
          {noFault && (
            // Where "Show me how this breaks" would be: the CLI's word that none is needed.
            <p className="atlas-counter" data-testid={atlasTestIds.noFaultNeeded}>
              {noFault}
            </p>
          )}
          <AtlasLegend totals={shown.map.totals} />
          <HeatMapGrid atlas={shown.atlas} map={shown.map} onOpen={open} onCompare={compareWith} />
        </div>
      )}
    </section>
  );
}
