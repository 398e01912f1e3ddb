import { useValidation } from '../hooks/useValidation';
import type { NumberParse } from '../../views/edit/numberField';
import { Fragment, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { indexAtTime } from '../../views/run/at';
import { markerText, type FaultMarker } from '../../views/edit/faultActions';
import { faultTitle } from '../../views/edit/faultName';
import { formatMs } from '../../views/run/format';
import type { RunView } from '../../views/run/runView';
import { fracOfIndex, timelineCuts, timelineTicks } from '../../views/run/timeline';
import { selectParse, type LabState } from '../../store/labStore';
import { useActions, useLab, useLabInstance } from '../../store/LabContext';
import { focusSoon } from '../hooks/focusSoon';
import { useNumberDraft } from '../hooks/useNumberDraft';
import { useFontScale } from '../hooks/useFontScale';
import { textMeasurer, useElementFont } from '../hooks/textWidth';
import { useWidth } from '../pipeline/useFollow';
import { testIds } from '../testIds';
import { markerKeyAction } from './timelineDrag';
import { useTimelineDrag } from './useTimelineDrag';

const selectScenarioAsWritten = (s: LabState) => s.scenario;

/** A marker's fault at the start of a label: `Fault "lost ack"`, or `Fault 2` without an id. */
const markerTitle = (m: FaultMarker) => faultTitle({ id: m.id ?? undefined }, m.index);

/**
 * The width, px, of the tick label of time `t` in the scale's font. Digits are measured as "0":
 * the scale draws tabular digits, each as wide as the widest, which a canvas does not apply. Plus
 * the tick's 1 px border.
 */
function tickLabelPx(measure: (text: string) => number): (t: number) => number {
  return (t) => Math.ceil(measure(formatMs(t).replace(/\d/g, '0'))) + 2;
}

/**
 * The timeline: one step per engine event (idle stretches take no room — where a long one was cut
 * out, a mark says so), a scale whose ticks carry the virtual time at their own position, fault
 * markers you can drag, nudge with the arrows, select and delete, completed checkpoints as
 * diamonds.
 */
export function Timeline({
  view,
  markers,
  markersReady,
  locked,
}: {
  view: RunView;
  /** The scenario's fault markers on this run (empty while an edit re-runs). */
  markers: FaultMarker[];
  /** False while an edit re-runs: the markers are not the scenario's yet. */
  markersReady: boolean;
  locked: boolean;
}) {
  const lab = useLabInstance();
  const a = lab.actions;
  const checkpoints = useMemo(
    () =>
      view.checkpoints
        .filter((c) => c.completed >= 0)
        .map((c) => ({ id: c.id, entry: c.completed })),
    [view],
  );
  const fill = useRef<HTMLDivElement>(null);
  const head = useRef<HTMLDivElement>(null);
  const scale = useRef<HTMLDivElement>(null);
  const width = useWidth(scale);
  const fontScale = useFontScale();
  const cuts = useMemo(() => timelineCuts(view), [view]);
  // Each label measured in the scale's font, which grows with A+ (and the page's zoom): no two
  // labels overlap, one that would is left out.
  const font = useElementFont(scale, [width, fontScale]);
  const ticks = useMemo(
    () => timelineTicks(view, width || 600, tickLabelPx(textMeasurer(font)), cuts),
    [view, width, cuts, font],
  );
  const [selected, setSelected] = useState<number | null>(null);
  const { track, drag, trackHandlers, markerDown } = useTimelineDrag(view, locked, (index) =>
    setSelected((s) => (s === index ? null : index)),
  );
  const markerBox = useRef<HTMLDivElement>(null);
  /**
   * The focused marker, by fault index. `parked`: it was deleted from the keyboard and the focus
   * waits on the timeline; otherwise it still has the focus — until an edit elsewhere (Ctrl+Z)
   * takes its fault away and the focus falls to the page.
   */
  const focusedMarker = useRef<{ index: number; parked: boolean } | null>(null);

  // A marker that goes takes the focus with it: once the re-run's markers are on screen the focus
  // moves to the marker now at its index (the one that took its place), else the previous one,
  // else the timeline — unless the user has moved it elsewhere since.
  useEffect(() => {
    const m = focusedMarker.current;
    if (m === null || !markersReady) return;
    const active = document.activeElement;
    const lost = m.parked
      ? active === track.current
      : !active || active === document.body || !active.isConnected;
    // Still on its marker: keep watching. A parked focus gets one try.
    if (!lost && !m.parked) return;
    focusedMarker.current = null;
    if (!lost) return;
    const at = (i: number) =>
      markerBox.current?.querySelector<HTMLElement>(`[data-fault-index="${i}"]`);
    (at(m.index) ?? at(m.index - 1) ?? track.current)?.focus();
  }, [markers, markersReady, track]);

  useEffect(() => {
    const paint = () => {
      const { idx, t } = lab.cursor.getState();
      const x = `${fracOfIndex(view, idx) * 100}%`;
      if (fill.current) fill.current.style.width = x;
      if (head.current) head.current.style.left = x;
      const el = track.current;
      if (el) {
        el.setAttribute('aria-valuenow', String(idx));
        el.setAttribute('aria-valuetext', `${formatMs(t)}, event ${idx} of ${view.n}`);
      }
    };
    paint();
    return lab.cursor.subscribe(paint);
  }, [lab, view, track]);

  const markerIdx = (m: FaultMarker) =>
    m.firedEntry >= 0 ? m.firedEntry + 1 : indexAtTime(view, m.at);

  const deleteKeepingFocus = (index: number) => {
    setSelected(null);
    track.current?.focus();
    // After the focus moved: the marker's blur would clear it.
    focusedMarker.current = { index, parked: true };
    a.deleteFault(index);
  };
  const onMarkerKey = (e: KeyboardEvent<HTMLButtonElement>, m: FaultMarker) => {
    // The time as written now (the marker may be a re-run behind). Locked: an embed, or the
    // faults of the last valid run while the scenario is refused.
    const current = selectParse(lab.app.getState());
    const at = current.ok ? (current.scenario.faults[m.index]?.at ?? m.at) : m.at;
    const does = markerKeyAction(view, e.key, {
      shift: e.shiftKey,
      selected: selected === m.index,
      locked,
      at,
    });
    if (!does) return;
    e.preventDefault();
    e.stopPropagation();
    if (does.kind === 'unselect') setSelected(null);
    else if (does.kind === 'delete') deleteKeepingFocus(m.index);
    else if (does.at !== at) a.moveFault(m.index, does.at);
  };
  const sel = selected !== null ? markers.find((m) => m.index === selected) : undefined;

  return (
    <div className="timeline-wrap">
      <div className="timeline-box">
        <div
          ref={track}
          className="timeline"
          role="slider"
          tabIndex={0}
          aria-label="Timeline: one step per engine event (idle stretches cut out); Space plays"
          aria-valuemin={0}
          aria-valuemax={view.n}
          data-testid={testIds.timeline}
          {...trackHandlers}
        >
          <div ref={fill} className="fill" />
          {cuts.map((c) => (
            <span
              key={c.idx}
              className="cut"
              style={{ left: `${c.frac * 100}%` }}
              data-testid={testIds.timelineCut}
            />
          ))}
          {checkpoints.map((c) => (
            <span
              key={c.id}
              className="ckpt"
              style={{ left: `${fracOfIndex(view, c.entry + 1) * 100}%` }}
              title={`checkpoint ${c.id} completed`}
            />
          ))}
          <div ref={head} className="head" />
        </div>
        {/* Markers sit over the slider, not inside it: controls must not nest (axe nested-interactive). */}
        <div
          className="markers"
          ref={markerBox}
          onFocus={(e) => {
            const i = (e.target as HTMLElement).dataset.faultIndex;
            focusedMarker.current = i === undefined ? null : { index: Number(i), parked: false };
          }}
          onBlur={(e) => {
            // Moving elsewhere (not removed from the page, which blurs with no next target).
            if (e.relatedTarget) focusedMarker.current = null;
          }}
        >
          {markers.map((m) => {
            const dragging = drag?.index === m.index;
            const at = dragging ? drag.idx : markerIdx(m);
            // Armed earlier than it fired (a crash at the next commit, say): a line from the
            // time it is armed from to where it fired.
            const armed = fracOfIndex(view, indexAtTime(view, Math.min(m.at, view.endTime)));
            const fired = fracOfIndex(view, at);
            return (
              <Fragment key={m.index}>
                {!dragging && m.firedEntry >= 0 && fired - armed > 0.004 && (
                  <span
                    className="armed"
                    style={{ left: `${armed * 100}%`, width: `${(fired - armed) * 100}%` }}
                  />
                )}
                <button
                  type="button"
                  className={`marker${m.firedEntry < 0 ? ' unfired' : ''}`}
                  // Kept whole inside the bar: at either end (a fault armed after the last
                  // event, or at 0) the centred marker hung half outside and was clipped.
                  style={{ left: `clamp(0.75em, ${fired * 100}%, calc(100% - 0.75em))` }}
                  aria-pressed={selected === m.index}
                  aria-label={`${markerTitle(m)}: ${markerText(m, formatMs)}.${locked ? '' : ' Arrows move the time it is armed from by one engine event (Shift: ten); Delete removes it.'}`}
                  title={`${markerTitle(m)}: ${markerText(m, formatMs)}`}
                  data-testid={testIds.faultMarker}
                  data-fault-index={m.index}
                  data-at={m.at}
                  onPointerDown={(e) => markerDown(e, m.index, markerIdx(m))}
                  onKeyDown={(e) => onMarkerKey(e, m)}
                  onClick={(e) => {
                    // Keyboard activation (pointer clicks are handled on pointer up).
                    if (e.detail === 0) setSelected(selected === m.index ? null : m.index);
                  }}
                >
                  ⚡
                </button>
              </Fragment>
            );
          })}
        </div>
      </div>
      <div className="timeline-scale" data-testid={testIds.timelineScale} ref={scale}>
        {ticks.map((k) => {
          const cut = cuts.find((c) => c.idx === k.idx);
          return (
            <span
              key={k.idx}
              className={`tick${k.align === 'start' ? ' first' : k.align === 'end' ? ' last' : ''}${cut ? ' after-cut' : ''}`}
              style={{ left: `${k.frac * 100}%` }}
              data-t={k.t}
              title={
                cut
                  ? `${formatMs(k.t)}: the ${formatMs(cut.to - cut.from)} before it, where nothing happens, take no room`
                  : `${formatMs(k.t)} at this point of the timeline`
              }
            >
              {formatMs(k.t)}
            </span>
          );
        })}
      </div>
      {sel && (
        <FaultDetails
          key={`${sel.index}:${sel.at}`}
          marker={sel}
          locked={locked}
          onClose={() => {
            // Back to the marker the details belong to (Close and Escape alike).
            setSelected(null);
            focusSoon(() =>
              markerBox.current?.querySelector<HTMLElement>(`[data-fault-index="${sel.index}"]`),
            );
          }}
          onDelete={() => deleteKeepingFocus(sel.index)}
        />
      )}
    </div>
  );
}

/** A selected fault: what it is, when it fired; unless `locked`, its time to edit and a delete. */
function FaultDetails({
  marker,
  locked,
  onClose,
  onDelete,
}: {
  marker: FaultMarker;
  locked: boolean;
  onClose: () => void;
  /** Deletes the fault, closes these details and finds the focus a home. */
  onDelete: () => void;
}) {
  const a = useActions();
  const scenario = useLab(selectScenarioAsWritten);
  // The schema's range for the time: an embed loads the validation as the editor opens.
  const checks = useValidation();
  const judge = (t: string): NumberParse =>
    checks
      ? checks.parseFaultTime(t, `faults.${marker.index}.at`, scenario, 'armed from')
      : { ok: false, problem: 'Checking…' };
  // A time outside the schema's range is refused here, beside the field: applied, it would make
  // the whole scenario invalid (every marker gone, this editor closed).
  const { problem, input } = useNumberDraft(marker.at, judge, (at) =>
    a.moveFault(marker.index, at),
  );
  return (
    <div
      className="fault-details"
      role="group"
      aria-label={markerTitle(marker)}
      data-testid={testIds.faultDetails}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopPropagation();
        onClose();
      }}
    >
      <strong>{markerTitle(marker)}:</strong> <span>{marker.label}</span>
      <span className="muted">
        {marker.firedEntry >= 0 ? `fired at ${formatMs(marker.firedAt)}` : 'never fired'}
      </span>
      {locked ? (
        <span className="muted">armed from {formatMs(marker.at)}</span>
      ) : (
        <>
          <label className="field">
            <span>armed from (ms)</span>
            <input
              type="text"
              inputMode="numeric"
              autoComplete="off"
              spellCheck={false}
              style={{ width: '8em' }}
              data-testid={testIds.faultAt}
              {...input}
              aria-describedby={problem !== null ? `fault-at-error-${marker.index}` : undefined}
            />
          </label>
          {problem !== null && (
            <span
              className="field-error fault-at-error"
              id={`fault-at-error-${marker.index}`}
              role="alert"
              data-testid={testIds.faultAtError}
            >
              Not applied: {problem}.
            </span>
          )}
          <button type="button" data-testid={testIds.faultDelete} onClick={onDelete}>
            ✕ Delete fault
          </button>
        </>
      )}
      <button type="button" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
