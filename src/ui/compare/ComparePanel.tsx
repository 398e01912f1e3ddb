import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { createRunClient, type RunClient } from '../../platform/runClient';
import {
  createCompareLanes,
  type CompareLanes,
  type CompareLanesState,
} from '../../store/compareLanes';
import { selectParse, type LabState } from '../../store/labStore';
import { useActions, useIdx, useLab, useLabInstance } from '../../store/LabContext';
import { claimOf } from '../../scenarios';
import { compareModel, type LaneRun } from '../../views/compare/compareModel';
import { laneIndexAt } from '../../views/compare/laneAt';
import { unfiredFaults } from '../../views/compare/laneFaults';
import {
  laneTitle,
  MAX_LANES,
  GUARANTEES,
  type CompareSpec,
  type LaneSpec,
} from '../../views/compare/lanes';
import { Breakable } from '../Breakable';
import { testIds } from '../testIds';
import { HiddenOutcome } from '../library/HiddenOutcome';
import { usePredictionGate } from '../library/usePredictionGate';
import { CompareDiff } from './CompareDiff';
import { compareTestIds } from './compareTestIds';
import { LaneColumn } from './LaneColumn';
import { LaneHeader } from './LaneHeader';
import './compare.css';

const selectCompare = (s: LabState) => s.compare;
const selectScenario = (s: LabState) => s.scenario;
const selectView = (s: LabState) => (s.status === 'ready' ? s.view : null);
const selectLanes = (s: CompareLanesState) => s.lanes;
/** Every lane of the compare state run, or refused: the panel shows all it will. */
const selectSettled = (s: CompareLanesState) =>
  s.of !== null && s.lanes.every((l) => l.status !== 'running');

/**
 * The lanes' runs, while the panel is open: a run client of their own (the lab's one worker job
 * at a time would cancel the main run), disposed with the panel.
 * @param makeRunner - tests pass an inline one.
 */
function useCompareLanes(makeRunner: () => RunClient): CompareLanes {
  const lab = useLabInstance();
  const [runner] = useState(makeRunner);
  const [lanes] = useState(() => createCompareLanes(lab, runner));
  useEffect(() => {
    const stop = lanes.start();
    return () => {
      stop();
      // Its worker goes with the panel (a later run makes a new one).
      runner.dispose();
    };
  }, [lanes, runner]);
  return lanes;
}

/**
 * Compare: two or three lanes of the same workload and faults, each with its own configuration,
 * on one clock (the transport's), then what differs and the per-event diff.
 */
export function ComparePanel({
  makeRunner = createRunClient,
  locked = false,
  embedded = false,
  onSettled,
}: {
  makeRunner?: () => RunClient;
  /** The lanes shown, not edited (an embed's `lock=1`). */
  locked?: boolean;
  /** In an embedded player: no Close (its `panels=` decides). */
  embedded?: boolean;
  /** Told once every lane has its run (or its reason): the embed measures its height then. */
  onSettled?: () => void;
}) {
  const spec = useLab(selectCompare);
  const scenario = useLab(selectScenario);
  const parsed = useLab(selectParse);
  const base = useLab(selectView);
  const a = useActions();
  const idx = useIdx();
  const lanesRunner = useCompareLanes(makeRunner);
  const lanes = useStore(lanesRunner.store, selectLanes);
  const settled = useStore(lanesRunner.store, selectSettled);
  useEffect(() => {
    if (settled) onSettled?.();
  }, [settled, onSettled]);
  const gate = usePredictionGate();
  // Told, its end not yet reached: each lane's verdict waits for the clock to reach that lane's end.
  const folded = gate.folded ? gate.revealNow : null;
  const ran: LaneRun[] = useMemo(() => {
    if (!base) return [];
    const out: LaneRun[] = [{ title: laneTitle(scenario, null), view: base }];
    for (const l of lanes) if (l.view) out.push({ title: l.title, view: l.view });
    return out;
  }, [base, lanes, scenario]);
  const numbers = useMemo(() => [1, ...lanes.flatMap((l, i) => (l.view ? [i + 2] : []))], [lanes]);
  const model = useMemo(() => (ran.length >= 2 ? compareModel(ran) : null), [ran]);
  // A button that removes itself (a lane's Remove, Add a lane at the last lane) must not leave the
  // focus on the page's start: it goes to Add a lane, else to the last lane's guarantee.
  const panelRef = useRef<HTMLElement>(null);
  const refocus = useRef(false);
  const laneCount = spec?.lanes.length;
  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    const p = panelRef.current;
    const to =
      p?.querySelector<HTMLElement>(`[data-testid="${compareTestIds.addLane}"]`) ??
      [
        ...(p?.querySelectorAll<HTMLElement>(`[data-testid="${compareTestIds.laneGuarantee}"]`) ??
          []),
      ].at(-1);
    to?.focus();
  }, [laneCount]);
  if (!spec) return null;
  const change = (i: number, lane: LaneSpec) => {
    const next: CompareSpec = { lanes: spec.lanes.map((l, k) => (k === i ? lane : l)) };
    a.setCompare(next, `Compare: lane ${i + 2} is ${laneTitle(scenario, lane)}`);
  };
  const remove = (i: number) => {
    refocus.current = true;
    a.setCompare({ lanes: spec.lanes.filter((_, k) => k !== i) }, `Compare: removed lane ${i + 2}`);
  };
  const close = () => {
    a.setCompare(null);
    // The panel goes with the focus in it: back to Compare (behind More in projector mode).
    const by = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
    (by(compareTestIds.toggle) ?? by(testIds.moreTools))?.focus();
  };
  const add = () => {
    refocus.current = spec.lanes.length + 1 >= MAX_LANES - 1;
    const used = new Set(spec.lanes.map((l) => l.guarantee));
    const g = GUARANTEES.find((x) => !used.has(x) && x !== claimOf(scenario)) ?? GUARANTEES[0]!;
    a.setCompare(
      { lanes: [...spec.lanes, { guarantee: g }] },
      `Compare: added lane ${spec.lanes.length + 2}`,
    );
  };
  const unfired = (n: number) => {
    const v = n === 1 ? base : (lanes[n - 2]?.view ?? null);
    return v ? unfiredFaults(v) : [];
  };
  return (
    <section
      ref={panelRef}
      className="compare-panel"
      aria-labelledby="compare-h"
      data-testid={compareTestIds.panel}
    >
      <div className="compare-bar">
        <h2 id="compare-h">Compare</h2>
        <p className="muted">
          The same workload and faults in every lane, on one clock: play, step and scrub move them
          together.
        </p>
        {!locked && spec.lanes.length < MAX_LANES - 1 && (
          <button type="button" data-testid={compareTestIds.addLane} onClick={add}>
            Add a lane
          </button>
        )}
        {!embedded && (
          <button type="button" data-testid={compareTestIds.close} onClick={close}>
            Close Compare
          </button>
        )}
      </div>
      <div
        className="compare-lanes"
        style={{ ['--lanes' as string]: String(spec.lanes.length + 1) }}
      >
        <div className="lane" role="group" aria-labelledby="compare-lane-1">
          <h3 id="compare-lane-1" className="lane-title" data-testid={compareTestIds.laneTitle}>
            <span className="lane-number">1</span> <Breakable text={laneTitle(scenario, null)} />
          </h3>
          {!embedded && <p className="muted lane-note">Change it with the page’s own controls.</p>}
          {base ? (
            <LaneColumn
              number={1}
              view={base}
              idx={idx}
              unfired={unfired(1)}
              hidden={gate.hidden}
              folded={folded}
            />
          ) : (
            <p className="muted lane-running">running…</p>
          )}
        </div>
        {spec.lanes.map((lane, i) => {
          const n = i + 2;
          const st = lanes[i];
          return (
            <div className="lane" role="group" aria-labelledby={`compare-lane-${n}`} key={i}>
              <h3
                id={`compare-lane-${n}`}
                className="lane-title"
                data-testid={compareTestIds.laneTitle}
              >
                <span className="lane-number">{n}</span>{' '}
                <Breakable text={laneTitle(scenario, lane)} />
              </h3>
              {!locked && (
                <LaneHeader
                  number={n}
                  lane={lane}
                  scenario={parsed.ok ? parsed.scenario : null}
                  onScreen={scenario}
                  onChange={(l) => change(i, l)}
                  onRemove={spec.lanes.length > 1 ? () => remove(i) : null}
                />
              )}
              {st?.status === 'refused' || st?.status === 'error' ? (
                <p className="lane-refused" role="note" data-testid={compareTestIds.laneRefused}>
                  <span aria-hidden="true">⚠ </span>
                  {st.reason}
                </p>
              ) : st?.view && base ? (
                <LaneColumn
                  number={n}
                  view={st.view}
                  idx={laneIndexAt(base, idx, st.view)}
                  unfired={unfired(n)}
                  hidden={gate.hidden}
                  folded={folded}
                />
              ) : (
                <p className="muted lane-running">running…</p>
              )}
            </div>
          );
        })}
      </div>
      {gate.hidden ? (
        <HiddenOutcome gate={gate} what="compare" />
      ) : (
        model && <CompareDiff model={model} lanes={numbers} onSeek={(t) => a.seek(t)} />
      )}
    </section>
  );
}
