/**
 * The fault atlas of a batch job, under its table: every single fault its space holds (a crash at
 * each point of each attempt, a clear and re-run of each date, each row arriving late), run and
 * judged on demand, as a heat map — one row per logical date, one column per point, each cell in
 * the stream heat map's colours and glyphs (src/views/atlas/heatCells.ts) — with a summary
 * sentence and "Show me how this breaks" (the minimal counterexample). "Pairs too" runs every pair
 * instead (a first fault, then one in the run it made), each in the cell of its second fault, as
 * `sim --explore --depth 2` tries them. **Fault kinds** (the stream atlas's filter, src/ui/atlas/
 * KindFilter.tsx) narrows them to some kinds, as `--kinds`; the kinds and "Pairs too" are the
 * page's state (undo, the share link). A cell lists its faults;
 * each opens as the workspace with that fault added (one undoable edit). The runs happen in an
 * atlas worker (src/platform/atlasWorkers.ts runBatchAtlasInWorker), with progress and Cancel.
 * View model: src/views/batch/batchAtlas.ts.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type {
  BatchAtlasCell,
  BatchPlacementKind,
  Outcome,
  Scenario,
  ScenarioInput,
} from '../../engine';
import { runBatchAtlasInWorker, type AtlasProgress } from '../../platform/atlasWorkers';
import { useActions, useLab } from '../../store/LabContext';
import { selectParse, type LabState } from '../../store/labStore';
import { OUTCOME_LOOK } from '../../views/atlas/heatCells';
import type { OutcomeCounts } from '../../views/atlas/heatMap';
import { BATCH_ATLAS_KINDS, pageRefusal } from '../../views/atlas/atlasKinds';
import { AtlasLegend } from '../atlas/AtlasLegend';
import { KindFilter } from '../atlas/KindFilter';
import '../atlas/atlas.css';
import { HiddenOutcome } from '../library/HiddenOutcome';
import { usePredictionGate } from '../library/usePredictionGate';
import { useAtlasChoice } from '../atlas/useAtlasChoice';
import { unexplored } from '../../views/atlas/atlasChoice';
import { timeLeftEstimator } from '../../views/atlas/timeLeft';
import {
  BATCH_PAIRS_BOUND,
  BATCH_POINT_LABELS,
  BATCH_POINTS,
  batchHeatMap,
  batchAtlasFindings,
  type BatchPoint,
} from '../../views/batch/batchAtlas';
import { formatCountOf } from '../../views/run/format';
import { useThrottledSay } from '../hooks/useThrottledSay';

const selectPresetRef = (s: LabState) => s.presetRef;
const selectAtlas = (s: LabState) => s.atlas;

export function BatchAtlas({ scenario }: { scenario: ScenarioInput }) {
  const [open, setOpen] = useState(false);
  // "Pairs too", the stream atlas's opt-in (every pair `sim --explore --depth 2` tries), and the
  // kinds ticked: the page's state, as the stream atlas's.
  const { choice, ticked, all, pairs, toggleKind, setPairs } =
    useAtlasChoice<BatchPlacementKind>(BATCH_ATLAS_KINDS);
  // Each "Run the atlas again" (after a Cancel or a failure) is a fresh run.
  const [attempt, setAttempt] = useState(0);
  // What a screen reader hears: the start, the progress every 10 s, the summary at the end.
  const [said, say] = useThrottledSay();
  return (
    <section aria-label="Batch fault atlas">
      <p className="visually-hidden" role="status" data-testid="batch-atlas-said">
        {said}
      </p>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open
          ? 'Hide the fault atlas'
          : `Fault atlas: every ${pairs ? 'pair of faults' : 'single fault'}`}
      </button>{' '}
      <label>
        <input
          type="checkbox"
          checked={pairs}
          data-testid="batch-atlas-pairs"
          onChange={(e) => setPairs(e.target.checked)}
        />{' '}
        Pairs too <span className="muted">({BATCH_PAIRS_BOUND})</span>
      </label>
      <KindFilter
        options={BATCH_ATLAS_KINDS}
        ticked={ticked}
        disabled={false}
        testId="batch-atlas-kinds"
        onToggle={toggleKind}
      />
      {choice.explored && !open && (
        // Explored with this choice before (a shared link's sender): one press runs it again.
        <p className="muted" data-testid="batch-atlas-offer">
          This atlas was explored with these choices (
          {all
            ? 'every kind'
            : BATCH_ATLAS_KINDS.filter((o) => ticked.includes(o.kind))
                .map((o) => o.words)
                .join(', ')}
          {pairs ? ', pairs too' : ''}): the button above runs the same one again.
        </p>
      )}
      {open &&
        (ticked.length === 0 ? (
          <p data-testid="batch-atlas-status">Tick at least one fault kind to explore.</p>
        ) : (
          <AtlasRun
            key={`${attempt}:${pairs}:${ticked.join(',')}`}
            scenario={scenario}
            depth={pairs ? 2 : 1}
            {...(all ? {} : { kinds: ticked })}
            retry={() => setAttempt((n) => n + 1)}
            say={say}
          />
        ))}
    </section>
  );
}

/** The atlas of `scenario` run in a worker: its progress and Cancel, then its heat map. */
function AtlasRun({
  scenario,
  depth,
  kinds,
  retry,
  say,
}: {
  scenario: ScenarioInput;
  depth: 1 | 2;
  /** Only these kinds (the filter's); absent: every kind. */
  kinds?: readonly BatchPlacementKind[];
  retry: () => void;
  /** The atlas's live region (BatchAtlas): progress at most every 10 s, the rest at once. */
  say: (text: string, now?: boolean) => void;
}) {
  const a = useActions();
  const hidden = usePredictionGate().hidden;
  const choice = useLab(selectAtlas);
  const parsed = useLab(selectParse);
  const job = parsed.ok && parsed.scenario.batch ? parsed.scenario : null;
  // The outcome of the run for `of` (an edit starts another: until it ends, its progress shows).
  const [ended, setEnded] = useState<{
    of: Scenario;
    result: { ok: true; cells: BatchAtlasCell[] } | { ok: false; error: string };
  } | null>(null);
  // With "~12 s left" from the runs done per second so far (wall clock: said here only).
  const [progress, setProgress] = useState<{
    of: Scenario;
    p: AtlasProgress;
    left: string | null;
  } | null>(null);
  const cancel = useRef<() => void>(() => {});
  useEffect(() => {
    if (!job) return;
    const pace = timeLeftEstimator();
    const what = depth === 2 ? 'pairs of faults' : 'faults';
    say('Exploring faults…', true);
    let last: AtlasProgress | null = null;
    const run = runBatchAtlasInWorker(job, {
      depth,
      ...(kinds ? { kinds } : {}),
      onProgress: (p) => {
        const left = pace(p.done, p.total, performance.now());
        last = p;
        setProgress({ of: job, p, left });
        say(`${p.done} of ${p.total} ${what} run${left ? `, ${left}` : ''}`);
      },
    });
    cancel.current = run.cancel;
    let live = true;
    void run.promise.then((result) => {
      if (!live) return;
      setEnded({ of: job, result });
      if (!result.ok)
        say(
          result.error !== 'cancelled'
            ? ''
            : last
              ? `Cancelled after ${last.done} of ${last.total} ${what} run; nothing was changed.`
              : 'Cancelled before the first run; nothing was changed.',
          true,
        );
    });
    return () => {
      live = false;
      run.cancel();
    };
    // `kinds` is in the key of this component: a new filter is a new run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [job, depth]);
  // The choice it ran is now explored: a link shared from here offers the same atlas, and the
  // report says what it found (once per finished run).
  const finished = ended?.of === job && ended.result.ok ? ended.result : null;
  const noted = useRef<unknown>(null);
  useEffect(() => {
    if (!finished || noted.current === finished) return;
    noted.current = finished;
    const map = batchHeatMap(scenario, finished.cells);
    a.noteAtlasExplored('error' in map ? undefined : batchAtlasFindings(scenario, choice, map));
    say(
      'error' in map
        ? map.error
        : hidden
          ? 'Fault atlas done: what it found waits for your answer.'
          : `Fault atlas done: ${map.summary}`,
      true,
    );
  }, [finished, scenario, choice, a, say, hidden]);
  if (!job) return <p data-testid="batch-atlas-status">no valid batch job to map</p>;
  const result = ended?.of === job ? ended.result : null;
  const p = progress?.of === job ? progress.p : null;
  if (result?.ok) return <AtlasMap scenario={scenario} cells={result.cells} />;
  const what = depth === 2 ? 'pairs of faults' : 'faults';
  if (result)
    return (
      <p data-testid="batch-atlas-status">
        {result.error !== 'cancelled'
          ? pageRefusal(result.error)
          : p
            ? // What Cancel stopped, as the stream atlas says it.
              `Cancelled after ${p.done} of ${p.total} ${what} run; nothing was changed.`
            : 'Cancelled before the first run; nothing was changed.'}{' '}
        <button type="button" onClick={retry}>
          Run the atlas again
        </button>
      </p>
    );
  const left = progress?.of === job ? progress.left : null;
  return (
    <p data-testid="batch-atlas-status">
      <progress max={p?.total ?? 1} value={p?.done ?? 0} />{' '}
      {p
        ? `${p.done} of ${p.total} ${what} run${left ? `, ${left}` : ''}`
        : 'Starting the atlas worker…'}{' '}
      <button type="button" onClick={() => cancel.current()}>
        Cancel
      </button>
    </p>
  );
}

function AtlasMap({ scenario, cells }: { scenario: ScenarioInput; cells: BatchAtlasCell[] }) {
  const a = useActions();
  const choice = useLab(selectAtlas);
  const presetRef = useLab(selectPresetRef);
  const map = useMemo(() => batchHeatMap(scenario, cells), [scenario, cells]);
  const [picked, setPicked] = useState<{ date: number; point: BatchPoint } | null>(null);
  // Which faults break the claim is the prediction's answer: folded while it waits, as the
  // stream atlas and Compare fold theirs (usePredictionGate).
  const gate = usePredictionGate();
  if (gate.hidden) return <HiddenOutcome gate={gate} what="batch-atlas" />;
  if ('error' in map) return <p>{map.error}</p>;
  // A fault opened as the workspace: the atlas goes on with the same kinds ticked.
  const atlas = unexplored(choice);
  const openRun = (s: ScenarioInput) => a.loadScenario(s, { presetRef, atlas });
  const cell = picked
    ? map.rows[picked.date]?.cells[BATCH_POINTS.indexOf(picked.point)]
    : undefined;
  return (
    <>
      <p data-testid="batch-atlas-summary">{map.summary}</p>
      {map.noFaultNeeded && <p data-testid="batch-atlas-no-fault-needed">{map.noFaultNeeded}</p>}
      {map.counterexample && (
        <p>
          <button
            type="button"
            data-testid="batch-atlas-counterexample"
            onClick={() =>
              a.loadScenario(map.counterexample!.scenario, {
                presetRef,
                atlas,
                notice: `Opened the earliest break: ${map.counterexample!.words} (undo to go back)`,
              })
            }
          >
            Show me how this breaks
          </button>{' '}
          {map.counterexample.words}: {map.counterexample.outcome}
        </p>
      )}
      {/* Wider than a narrow window, the table scrolls in its own box, not the page. */}
      <div className="batch-table-scroll">
        <table className="batch-heat" data-testid="batch-atlas-grid">
          <thead>
            <tr>
              <th scope="col">Logical date</th>
              {BATCH_POINTS.map((p) => (
                <th key={p} scope="col">
                  {BATCH_POINT_LABELS[p]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {map.rows.map((r) => (
              <tr key={r.date}>
                <th scope="row">{r.label}</th>
                {r.cells.map((c, i) => {
                  if (!c) return <td key={i} className="batch-heat-empty" />;
                  const look = OUTCOME_LOOK[c.look];
                  const label = `${r.label}, ${BATCH_POINT_LABELS[c.point]}: ${formatCountOf(c.trials.length, 'fault')}, ${c.broken} break the claim (worst: ${look.label})`;
                  return (
                    <td key={i}>
                      <button
                        type="button"
                        data-testid="batch-atlas-cell"
                        data-look={c.look}
                        aria-label={label}
                        aria-pressed={picked?.date === c.date && picked.point === c.point}
                        title={label}
                        style={{ background: look.colour }}
                        onClick={() => setPicked({ date: c.date, point: c.point })}
                      >
                        {look.glyph} {c.broken}/{c.trials.length}
                      </button>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* The glyphs in words, as under the stream's heat map (they were a title only). */}
      <AtlasLegend totals={trialTotals(map.rows)} outcomes={BATCH_OUTCOMES} />
      {cell && (
        <ul className="batch-heat-trials" aria-label="Faults in this cell">
          {cell.trials.map((t) => (
            <li key={t.words} data-testid="batch-atlas-row" data-held={t.held}>
              {t.words} — {t.outcome}{' '}
              <button type="button" onClick={() => openRun(t.scenario)}>
                Open
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** What a batch fault can end in: no batch run is left stuck (docs/semantics/batch.md "Fates"). */
const BATCH_OUTCOMES: readonly Outcome[] = ['held', 'duplicates', 'losses', 'both'];

/** How many of the map's faults end in each outcome. */
function trialTotals(
  rows: readonly { cells: readonly ({ trials: { look: Outcome }[] } | null | undefined)[] }[],
) {
  const totals: OutcomeCounts = { held: 0, duplicates: 0, losses: 0, both: 0, stuck: 0 };
  for (const r of rows) for (const c of r.cells) for (const t of c?.trials ?? []) totals[t.look]++;
  return totals;
}
