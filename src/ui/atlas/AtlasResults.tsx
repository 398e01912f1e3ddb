import { memo } from 'react';
import type { Atlas, FaultSpec } from '../../engine';
import type { LabState } from '../../store/labStore';
import type { AtlasSoFar, CounterexampleSoFar } from '../../views/atlas/atlasSoFar';
import type { HeatMap } from '../../views/atlas/heatMap';
import type { HeatMapSoFar } from '../../views/atlas/heatMapSoFar';
import {
  minimalCounterexampleOf,
  noFaultNeededOf,
  survivesSentence,
} from '../../views/atlas/heatCells';
import { formatCountOf } from '../../views/run/format';
import { AtlasLegend } from './AtlasLegend';
import { AtlasFix } from './AtlasFix';
import type { FixSuggestion } from '../../views/atlas/fixSuggestion';
import { HeatMapGrid } from './HeatMapGrid';
import { atlasTestIds } from './atlasTestIds';

/** A finished atlas, with the scenario (as written) it explored and its heat map. */
export interface Shown {
  atlas: Atlas;
  input: LabState['scenario'];
  map: HeatMap;
  workers: number;
  ms: number;
  /** The knobs set from a fix before it ran ("acks=all"): the summary says it explored with them. */
  fixedWith?: string;
}

/** An atlas while it runs: its trials so far, their heat map and counterexample. View state. */
export interface Live {
  soFar: AtlasSoFar;
  heat: HeatMapSoFar;
  counter: CounterexampleSoFar | null;
  input: LabState['scenario'];
}

/**
 * The atlas's results: the summary, the minimal counterexample (or the news that it survives
 * every fault, or needs none), the legend and the heat map — of the finished atlas (`shown`), or
 * of the trials run so far (`live`), worded as provisional. Both draw the same grid at the same
 * place, so the map the user is walking becomes the final one in place. Memoised: the panel
 * re-renders on every progress message, this only when a chunk or the atlas finishes.
 */
export const AtlasResults = memo(function AtlasResults({
  shown,
  live,
  stale,
  onOpen,
  onCompare,
  suggest,
  onCompareFix,
  onExploreFix,
}: {
  shown: Shown | null;
  live: Live | null;
  /** The scenario on screen is no longer the one explored. */
  stale: boolean;
  onOpen: (faults: FaultSpec[]) => void;
  onCompare: (faults: FaultSpec[]) => void;
  /** What keeps the claim on the counterexample (runs in a worker). */
  suggest: (faults: FaultSpec[]) => Promise<FixSuggestion | null>;
  /** Compare the counterexample's break beside the same fault with `knobs` set. */
  onCompareFix: (faults: FaultSpec[], knobs: FixSuggestion['knobs']) => void;
  /** Set the fix's knobs on the scenario and run the atlas again. */
  onExploreFix: (knobs: FixSuggestion['knobs']) => void;
}) {
  const atlas = shown?.atlas ?? live?.soFar.atlas;
  const map = shown?.map ?? live?.heat.map;
  if (!atlas || !map) return null;
  const survives = shown ? survivesSentence(shown.atlas) : null;
  const counter = shown ? minimalCounterexampleOf(shown.atlas) : live!.counter;
  const noFault = noFaultNeededOf(atlas);
  return (
    <div className="atlas-body">
      {stale && (
        <p className="muted">
          Explored before your last edits (“{atlas.scenario.name}”); a placement opens that scenario
          with its fault added.
        </p>
      )}
      {shown ? (
        // After "Explore with acks=all" it says what changed (focused then: the button is gone).
        <p className="atlas-summary" data-testid={atlasTestIds.summary} tabIndex={-1}>
          {shown.fixedWith && <strong>Explored with {shown.fixedWith}: </strong>}
          {shown.map.summary}
        </p>
      ) : (
        <p
          className="atlas-summary"
          data-testid={atlasTestIds.soFar}
          data-done={live!.soFar.done}
          data-total={live!.soFar.total}
        >
          {live!.heat.summary}
        </p>
      )}
      {shown && (
        <p
          className="muted atlas-speed"
          data-testid={atlasTestIds.speed}
          data-runs={shown.atlas.trials.length}
          data-placements={shown.atlas.placements.length}
          data-ms={Math.round(shown.ms)}
          data-workers={shown.workers}
        >
          {shown.atlas.trials.length.toLocaleString('en-US')} runs in {(shown.ms / 1000).toFixed(1)}{' '}
          s on {formatCountOf(shown.workers, 'worker')}
        </p>
      )}
      {survives && (
        <p className="atlas-survives" data-testid={atlasTestIds.survives}>
          ✓ {survives}
        </p>
      )}
      {counter &&
        (shown || live?.counter?.final ? (
          <p className="atlas-counter">
            <button
              type="button"
              data-testid={atlasTestIds.counterexample}
              onClick={() => onOpen(counter.faults)}
            >
              Show me how this breaks
            </button>{' '}
            <span>
              the earliest, simplest break: {counter.labels.join(' and ')} ({counter.result})
            </span>
          </p>
        ) : (
          // Not offered yet: a placement not run yet may break earlier, or more simply.
          <p className="atlas-counter" data-testid={atlasTestIds.counterexampleSoFar}>
            Provisional: the earliest, simplest break so far is {counter.labels.join(' and ')} (
            {counter.result}); a placement not run yet may still break sooner.
          </p>
        ))}
      {shown && counter && (
        // Keyed by the break: another atlas's counterexample asks afresh.
        <AtlasFix
          key={JSON.stringify(counter.faults)}
          faults={counter.faults}
          suggest={suggest}
          onCompareFix={onCompareFix}
          onExploreFix={onExploreFix}
        />
      )}
      {noFault && (
        // Where "Show me how this breaks" would be: the CLI's word that none is needed.
        <p className="atlas-counter" data-testid={atlasTestIds.noFaultNeeded}>
          {noFault}
        </p>
      )}
      <AtlasLegend
        totals={map.totals}
        {...(live && !shown
          ? { soFar: { notRun: live.heat.notRun, partlyRun: live.heat.partlyRun } }
          : {})}
      />
      <HeatMapGrid
        atlas={atlas}
        map={map}
        {...(live && !shown ? { pending: live.heat.pending } : {})}
        onOpen={onOpen}
        onCompare={onCompare}
      />
    </div>
  );
});
