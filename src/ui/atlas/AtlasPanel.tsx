import { useEffect, useRef, useState } from 'react';
import type { Atlas, FaultSpec, PlacementKind } from '../../engine';
import {
  runAtlasInWorkers,
  warmAtlasWorkers,
  type AtlasJob,
  type AtlasProgress,
} from '../../platform/atlasWorkers';
import { selectParse, type LabState } from '../../store/labStore';
import { useActions, useLab, useLabInstance } from '../../store/LabContext';
import { MAX_LANES } from '../../views/compare/lanes';
import type { FaultInput } from '../../views/edit/faultActions';
import { heatMap, type HeatMap } from '../../views/atlas/heatMap';
import {
  minimalCounterexampleOf,
  PAIRS_BOUND,
  survivesSentence,
} from '../../views/atlas/heatCells';
import { ATLAS_KINDS, kindsTicked, pageRefusal } from '../../views/atlas/atlasKinds';
import { HeatMapGrid } from './HeatMapGrid';
import { AtlasLegend } from './AtlasLegend';
import { atlasTestIds } from './atlasTestIds';
import './atlas.css';

/** A finished atlas, with the scenario (as written) it explored and its heat map. */
interface Shown {
  atlas: Atlas;
  input: LabState['scenario'];
  map: HeatMap;
  workers: number;
  ms: number;
}

const selectScenario = (s: LabState) => s.scenario;

/**
 * The fault atlas of the scenario on screen: every single-fault placement (or every pair, opt-in)
 * run in Web Workers, shown as a heat map of components × time with the summary, the minimal
 * counterexample ("Show me how this breaks") or the plain news that it survives every one. A
 * placement opens as the run with its fault added: one undo step.
 */
export function AtlasPanel() {
  const lab = useLabInstance();
  const actions = useActions();
  const scenario = useLab(selectScenario);
  const [pairs, setPairs] = useState(false);
  // The kinds left out (the CLI's --kinds, as checkboxes): pairs of every kind may pass the bound.
  const [off, setOff] = useState<ReadonlySet<PlacementKind>>(new Set());
  const kinds = kindsTicked(off);
  const toggleKind = (kind: PlacementKind, on: boolean) => {
    const next = new Set(off);
    if (on) next.delete(kind);
    else next.add(kind);
    setOff(next);
  };
  const [progress, setProgress] = useState<AtlasProgress | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const job = useRef<AtlasJob | null>(null);
  const exploreButton = useRef<HTMLButtonElement>(null);
  useEffect(() => () => job.current?.cancel(), []);

  const start = () => {
    const parsed = selectParse(lab.app.getState());
    if (!parsed.ok) {
      setError('The scenario has problems to fix first (see its issues).');
      return;
    }
    const input = lab.app.getState().scenario;
    const t0 = performance.now();
    setError(null);
    setShown(null);
    setRunning(true);
    setProgress(null);
    if (kinds.length === 0) {
      setError('Tick at least one fault kind to explore.');
      return;
    }
    const j = runAtlasInWorkers(parsed.scenario, {
      depth: pairs ? 2 : 1,
      ...(off.size > 0 ? { kinds } : {}),
      onProgress: setProgress,
    });
    job.current = j;
    void j.promise.then((r) => {
      if (job.current !== j) return;
      job.current = null;
      setRunning(false);
      setProgress(null);
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
    setRunning(false);
    setProgress(null);
    exploreButton.current?.focus();
  };

  /** Open the explored scenario with `faults` added: one undo step. */
  const open = (faults: FaultSpec[]) => {
    if (!shown) return;
    const added = faults as FaultInput[];
    if (lab.app.getState().scenario === shown.input && added.length === 1) {
      actions.addFault(added[0]!);
    } else {
      const base = shown.input;
      actions.loadScenario(
        { ...base, faults: [...(base.faults ?? []), ...added] },
        { presetRef: lab.app.getState().presetRef },
      );
    }
  };

  /**
   * Run the explored scenario with `faults` added beside the scenario itself, as a Compare lane
   * (a third lane when Compare already shows one other): the placement's fate next to the run's.
   */
  const compareWith = (faults: FaultSpec[]) => {
    if (!shown) return;
    if (lab.app.getState().scenario !== shown.input)
      actions.loadScenario(shown.input, { presetRef: lab.app.getState().presetRef });
    const lane = { faults: faults as FaultInput[] };
    const current = lab.app.getState().compare;
    const lanes =
      current && current.lanes.length < MAX_LANES - 1 ? [...current.lanes, lane] : [lane];
    actions.setCompare({ lanes }, 'Compare: the run with this placement beside it');
  };

  const stale = shown !== null && shown.input !== scenario;
  const survives = shown ? survivesSentence(shown.atlas) : null;
  const counter = shown ? minimalCounterexampleOf(shown.atlas) : null;
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
            onPointerEnter={warmAtlasWorkers}
            onFocus={warmAtlasWorkers}
            onClick={start}
          >
            {pairs ? 'Explore pairs of faults' : 'Explore faults'}
          </button>
        )}
      </div>
      <fieldset className="atlas-kinds" data-testid={atlasTestIds.kinds} disabled={running}>
        <legend>Fault kinds</legend>
        {ATLAS_KINDS.map(({ kind, words }) => (
          <label key={kind} title={kind}>
            <input
              type="checkbox"
              checked={!off.has(kind)}
              data-kind={kind}
              onChange={(e) => toggleKind(kind, e.target.checked)}
            />{' '}
            {words}
          </label>
        ))}
      </fieldset>
      {running && (
        <div className="atlas-progress" role="status">
          <progress
            data-testid={atlasTestIds.progress}
            aria-label="Fault atlas progress"
            max={progress?.total ?? 1}
            value={progress?.done ?? 0}
          />{' '}
          {progress
            ? `${progress.done.toLocaleString('en-US')} of ${progress.total.toLocaleString('en-US')} runs on ${progress.workers} worker${progress.workers === 1 ? '' : 's'}`
            : 'Finding every placement…'}
        </div>
      )}
      {error && (
        <p className="atlas-error" role="alert" data-testid={atlasTestIds.error}>
          {error}
        </p>
      )}
      {shown && (
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
            {(shown.ms / 1000).toFixed(1)} s on {shown.workers} worker
            {shown.workers === 1 ? '' : 's'}
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
          <AtlasLegend totals={shown.map.totals} />
          <HeatMapGrid atlas={shown.atlas} map={shown.map} onOpen={open} onCompare={compareWith} />
        </div>
      )}
    </section>
  );
}
