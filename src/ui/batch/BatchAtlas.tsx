/**
 * The fault atlas of a batch job, under its table: every single fault its space holds (a crash at
 * each point of each attempt, a clear and re-run of each date, each row arriving late), run and
 * judged on demand, as a heat map — one row per logical date, one column per point, each cell in
 * the stream heat map's colours and glyphs (src/views/atlas/heatCells.ts) — with a summary
 * sentence and "Show me how this breaks" (the minimal counterexample). "Pairs too" runs every pair
 * instead (a first fault, then one in the run it made), each in the cell of its second fault, as
 * `sim --explore --depth 2` tries them. A cell lists its faults;
 * each opens as the workspace with that fault added (one undoable edit). The runs happen in an
 * atlas worker (src/platform/atlasWorkers.ts runBatchAtlasInWorker), with progress and Cancel.
 * View model: src/views/batch/batchAtlas.ts.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { BatchAtlasCell, Scenario, ScenarioInput } from '../../engine';
import { runBatchAtlasInWorker, type AtlasProgress } from '../../platform/atlasWorkers';
import { useActions, useLab } from '../../store/LabContext';
import { selectParse, type LabState } from '../../store/labStore';
import { OUTCOME_LOOK } from '../../views/atlas/heatCells';
import {
  BATCH_PAIRS_BOUND,
  BATCH_POINT_LABELS,
  BATCH_POINTS,
  batchHeatMap,
  type BatchPoint,
} from '../../views/batch/batchAtlas';

const selectPresetRef = (s: LabState) => s.presetRef;

export function BatchAtlas({ scenario }: { scenario: ScenarioInput }) {
  const [open, setOpen] = useState(false);
  // "Pairs too", the stream atlas's opt-in: every pair `sim --explore --depth 2` tries.
  const [pairs, setPairs] = useState(false);
  // Each "Run the atlas again" (after a Cancel or a failure) is a fresh run.
  const [attempt, setAttempt] = useState(0);
  return (
    <section aria-label="Batch fault atlas">
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
      {open && (
        <AtlasRun
          key={`${attempt}:${pairs}`}
          scenario={scenario}
          depth={pairs ? 2 : 1}
          retry={() => setAttempt((n) => n + 1)}
        />
      )}
    </section>
  );
}

/** The atlas of `scenario` run in a worker: its progress and Cancel, then its heat map. */
function AtlasRun({
  scenario,
  depth,
  retry,
}: {
  scenario: ScenarioInput;
  depth: 1 | 2;
  retry: () => void;
}) {
  const parsed = useLab(selectParse);
  const job = parsed.ok && parsed.scenario.batch ? parsed.scenario : null;
  // The outcome of the run for `of` (an edit starts another: until it ends, its progress shows).
  const [ended, setEnded] = useState<{
    of: Scenario;
    result: { ok: true; cells: BatchAtlasCell[] } | { ok: false; error: string };
  } | null>(null);
  const [progress, setProgress] = useState<{ of: Scenario; p: AtlasProgress } | null>(null);
  const cancel = useRef<() => void>(() => {});
  useEffect(() => {
    if (!job) return;
    const run = runBatchAtlasInWorker(job, {
      depth,
      onProgress: (p) => setProgress({ of: job, p }),
    });
    cancel.current = run.cancel;
    let live = true;
    void run.promise.then((result) => {
      if (live) setEnded({ of: job, result });
    });
    return () => {
      live = false;
      run.cancel();
    };
  }, [job, depth]);
  if (!job) return <p data-testid="batch-atlas-status">no valid batch job to map</p>;
  const result = ended?.of === job ? ended.result : null;
  if (result?.ok) return <AtlasMap scenario={scenario} cells={result.cells} />;
  if (result)
    return (
      <p data-testid="batch-atlas-status">
        {result.error === 'cancelled' ? 'Cancelled: nothing was changed.' : result.error}{' '}
        <button type="button" onClick={retry}>
          Run the atlas again
        </button>
      </p>
    );
  const p = progress?.of === job ? progress.p : null;
  return (
    <p data-testid="batch-atlas-status" aria-live="polite">
      <progress max={p?.total ?? 1} value={p?.done ?? 0} />{' '}
      {p
        ? `${p.done} of ${p.total} ${depth === 2 ? 'pairs of faults' : 'faults'} run`
        : 'Starting the atlas worker…'}{' '}
      <button type="button" onClick={() => cancel.current()}>
        Cancel
      </button>
    </p>
  );
}

function AtlasMap({ scenario, cells }: { scenario: ScenarioInput; cells: BatchAtlasCell[] }) {
  const a = useActions();
  const presetRef = useLab(selectPresetRef);
  const map = useMemo(() => batchHeatMap(scenario, cells), [scenario, cells]);
  const [picked, setPicked] = useState<{ date: number; point: BatchPoint } | null>(null);
  if ('error' in map) return <p>{map.error}</p>;
  const openRun = (s: ScenarioInput) => a.loadScenario(s, { presetRef });
  const cell = picked
    ? map.rows[picked.date]?.cells[BATCH_POINTS.indexOf(picked.point)]
    : undefined;
  return (
    <>
      <p data-testid="batch-atlas-summary">{map.summary}</p>
      {map.counterexample && (
        <p>
          <button
            type="button"
            data-testid="batch-atlas-counterexample"
            onClick={() =>
              a.loadScenario(map.counterexample!.scenario, {
                presetRef,
                notice: `Opened the earliest break: ${map.counterexample!.words} (undo to go back)`,
              })
            }
          >
            Show me how this breaks
          </button>{' '}
          {map.counterexample.words}: {map.counterexample.outcome}
        </p>
      )}
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
                const label = `${r.label}, ${BATCH_POINT_LABELS[c.point]}: ${c.trials.length} fault${
                  c.trials.length === 1 ? '' : 's'
                }, ${c.broken} break the claim (worst: ${look.label})`;
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
