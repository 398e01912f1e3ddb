import {
  Fragment,
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import { timeAtIndex, indexAtTime } from '../views/at';
import { faultMarkers, markerText, type FaultMarker } from '../views/faultActions';
import { faultTitle } from '../views/faultName';
import { parseFaultTime } from '../views/numberField';
import { formatCount, formatMs, formatSpeed, formatSpeedWords } from '../views/format';
import { sliderFromSpeed, speedFromSlider } from '../views/playback';
import type { RunView } from '../views/runView';
import {
  fracOfIndex,
  indexAtFrac,
  nudgeTime,
  timelineCuts,
  timelineTicks,
} from '../views/timeline';
import { selectParse, type LabState } from '../store/labStore';
import { useActions, useLab, useLabInstance, useView } from '../store/LabContext';
import { focusSoon } from './hooks/focusSoon';
import { usePredictionGate } from './library/usePredictionGate';
import { useNumberDraft } from './hooks/useNumberDraft';
import { useFontScale } from './hooks/useFontScale';
import { Icon } from './Icon';
import { textMeasurer, useElementFont } from './hooks/textWidth';
import { useWidth } from './pipeline/useFollow';
import { testIds } from './testIds';
import { neverFiredToWarn } from '../views/neverFired';
import { openPreset } from '../views/library';

const selectPlaying = (s: LabState) => s.playing;
const selectSpeed = (s: LabState) => s.speed;
const selectSkip = (s: LabState) => s.skipIdle;
const selectLastSkip = (s: LabState) => s.lastSkip;
const selectPresetRef = (s: LabState) => s.presetRef;
const selectScenarioAsWritten = (s: LabState) => s.scenario;

/** Why End does not jump while a "Predict first" question is unanswered. */
const END_WAITS =
  'The answer waits: lock in a prediction first (or Show the outcome) — the end of the run would give it away.';

/**
 * Play/pause, step, restart, speed (log scale), the clock — one row whose pieces keep their width
 * whatever the clock says (tabular digits, widths reserved for the longest text of this run), so
 * nothing moves while the run plays — and the timeline on its own row below, the full width.
 */
export function Transport({ locked = false }: { locked?: boolean }) {
  const a = useActions();
  // While "Predict first" waits for an answer, End would show the final counters and tables —
  // the answer — at one key press on a projector: it says so instead of jumping.
  const gate = usePredictionGate();
  const pending = gate.phase === 'pending';
  // While the outcome is hidden, a jump to "the next anomaly" would tell it: jumps skip them.
  useEffect(() => a.setJumpsHideAnomalies(gate.hidden), [a, gate.hidden]);
  useEffect(() => {
    a.setEndGuard(pending ? () => END_WAITS : null);
    return () => {
      a.setEndGuard(null);
      // Answered (or skipped): the refusal no longer holds, so it leaves the status line.
      a.withdrawNotice(END_WAITS);
    };
  }, [a, pending]);
  const playing = useLab(selectPlaying);
  const speed = useLab(selectSpeed);
  const skipIdle = useLab(selectSkip);
  const lastSkip = useLab(selectLastSkip);
  const view = useView();
  const parsed = useLab(selectParse);
  const skipped = skipIdle && lastSkip > 0;
  // Markers are shown once the run on screen has as many faults as the scenario (while an edit
  // re-runs, they are hidden rather than placed from the previous run). While the scenario is
  // refused, the panels show the last valid run: its own faults are shown, read-only.
  const refused = !parsed.ok;
  const markersReady =
    !!view && (refused || parsed.scenario.faults.length === view.scenario.faults.length);
  const markers = useMemo(
    () =>
      markersReady && view ? faultMarkers(view, parsed.ok ? parsed.scenario : view.scenario) : [],
    [markersReady, view, parsed],
  );
  const markersLocked = locked || refused;
  // Scripted faults whose moment never came in this run: said in words, not only by a dashed
  // marker and its tooltip (a crash placed where nothing matches after it simply never happens).
  // Only faults the user added: a shipped preset's are its lesson (src/views/neverFired.ts).
  const presetRef = useLab(selectPresetRef);
  const neverFired = useMemo(
    () =>
      neverFiredToWarn(
        markers,
        parsed.ok ? parsed.scenario.faults : (view?.scenario.faults ?? []),
        openPreset(presetRef)?.variant.scenario ?? null,
      ),
    [markers, parsed, view, presetRef],
  );
  return (
    <div className="transport" role="group" aria-label="Time controls">
      <div className="transport-row">
        <div className="buttons">
          <button
            type="button"
            onClick={a.restart}
            data-testid={testIds.restart}
            aria-label="Restart (Home)"
            title="Restart (Home)"
          >
            ↺
          </button>
          <button
            type="button"
            onClick={() => a.jump(-1)}
            data-testid={testIds.jumpBack}
            aria-label="Previous fault, commit, checkpoint, retry or anomaly (←)"
            title="Previous fault, commit, checkpoint, retry or anomaly (←)"
          >
            «
          </button>
          <button
            type="button"
            onClick={() => a.step(-1)}
            data-testid={testIds.stepBack}
            aria-label="Step back one engine event (Shift+←)"
            title="Step back one engine event (Shift+←)"
          >
            ◀︎|
          </button>
          <button
            type="button"
            className="play"
            onClick={a.togglePlay}
            disabled={!view}
            data-testid={testIds.play}
            aria-pressed={playing}
            title="Play / pause (Space)"
          >
            <span>{playing ? '❚❚ Pause' : '▶ Play'}</span>
          </button>
          <button
            type="button"
            onClick={() => a.step(1)}
            data-testid={testIds.stepForward}
            aria-label="Step forward one engine event (Shift+→)"
            title="Step forward one engine event (Shift+→)"
          >
            |▶︎
          </button>
          <button
            type="button"
            onClick={() => a.jump(1)}
            data-testid={testIds.jumpForward}
            aria-label="Next fault, commit, checkpoint, retry or anomaly (→)"
            title="Next fault, commit, checkpoint, retry or anomaly (→)"
          >
            »
          </button>
          <button
            type="button"
            onClick={a.toEnd}
            disabled={!view}
            data-testid={testIds.toEnd}
            aria-label="To the end of the run (End)"
            title="To the end of the run (End)"
          >
            ⇥
          </button>
        </div>
        <label
          className="field speed"
          title={`Virtual time per real time: ${formatSpeedWords(speed)}`}
        >
          <span>Speed</span>
          <input
            type="range"
            min={0}
            max={1000}
            value={Math.round(sliderFromSpeed(speed) * 1000)}
            onChange={(e) => a.setSpeed(speedFromSlider(Number(e.target.value) / 1000))}
            data-testid={testIds.speed}
            aria-valuetext={formatSpeedWords(speed)}
          />
          <output className="mono">{formatSpeed(speed)}</output>
        </label>
        <label className="field skip-idle" title="Jump over stretches where nothing happens">
          <input
            type="checkbox"
            checked={skipIdle}
            onChange={(e) => a.setSkipIdle(e.target.checked)}
            data-testid={testIds.skipIdle}
          />
          <span>skip idle time</span>
        </label>
        {/* Always there, empty or not: the jump notice must not shift what follows it. */}
        <span
          className="skip-note muted"
          role="status"
          data-testid={testIds.skipNote}
          title={skipped ? `Nothing happened in the ${formatMs(lastSkip)} jumped over` : undefined}
        >
          {skipped && (
            <>
              <Icon name="skip" /> jumped {formatMs(lastSkip)} of idle time
            </>
          )}
        </span>
        <Clock view={view} />
        <span className="timeline-key muted" aria-hidden="true">
          <span className="key-fault">⚡</span> fault
          {markersLocked ? '' : ' (drag or arrows to move)'} · <span className="key-ckpt" />{' '}
          checkpoint · <span className="key-cut" /> idle time cut out
        </span>
        {neverFired.length > 0 && (
          <span
            className={`never-fired${neverFired.length === 1 && neverFired[0]!.why !== null ? ' with-why' : ''}`}
            data-testid={testIds.faultsNeverFired}
            title={neverFired
              .map((m) => `${m.name}, ${m.label}: ${m.why ?? `armed from ${formatMs(m.at)}`}`)
              .join('\n')}
          >
            {/* Its name (id, else number), as everywhere: the whole label ran past the row's end. */}
            ⚠ never fired:{' '}
            {neverFired.length === 1 ? neverFired[0]!.name : `${neverFired.length} faults`}
            {/* A fault that cannot fire here says why (a lost ack with acks=0): it is the lesson. */}
            {neverFired.length === 1 && neverFired[0]!.why !== null && ` — ${neverFired[0]!.why}`}
          </span>
        )}
      </div>
      {view && (
        <Timeline
          view={view}
          markers={markers}
          markersReady={markersReady}
          locked={markersLocked}
        />
      )}
    </div>
  );
}

/** A marker's fault at the start of a label: `Fault "lost ack"`, or `Fault 2` without an id. */
const markerTitle = (m: FaultMarker) => faultTitle({ id: m.id ?? undefined }, m.index);

/** Characters the clock needs at most for this run (its width is reserved: nothing moves). */
function clockChars(view: RunView | null): number {
  if (!view) return 'no run yet'.length;
  const t = Math.max(formatMs(view.endTime).length, view.endTime >= 1000 ? 6 : 0);
  const n = formatCount(view.n).length;
  return `t =  · event  / `.length + t + 2 * n;
}

/** The clock, updated every frame through a ref (no React render per frame). */
function Clock({ view }: { view: RunView | null }) {
  const lab = useLabInstance();
  const ref = useRef<HTMLOutputElement>(null);
  useEffect(() => {
    const paint = () => {
      const { t, idx } = lab.cursor.getState();
      if (!ref.current) return;
      ref.current.textContent = view
        ? `t = ${formatMs(t)} · event ${formatCount(idx)} / ${formatCount(view.n)}`
        : 'no run yet';
    };
    paint();
    return lab.cursor.subscribe(paint);
  }, [lab, view]);
  return (
    <output
      ref={ref}
      className="clock mono"
      data-testid={testIds.clock}
      aria-live="off"
      style={{ minWidth: `${clockChars(view) + 0.5}ch` }}
    />
  );
}

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
function Timeline({
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
  const track = useRef<HTMLDivElement>(null);
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
  const [drag, setDrag] = useState<{ index: number; idx: number; moved: boolean } | null>(null);
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
  }, [markers, markersReady]);

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
  }, [lab, view]);

  const idxAt = (clientX: number) => {
    const r = track.current!.getBoundingClientRect();
    return indexAtFrac(view, (clientX - r.left) / Math.max(1, r.width));
  };
  const markerIdx = (m: FaultMarker) =>
    m.firedEntry >= 0 ? m.firedEntry + 1 : indexAtTime(view, m.at);

  const onTrackDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.target !== track.current && !(e.target as HTMLElement).classList.contains('fill')) return;
    track.current!.setPointerCapture(e.pointerId);
    a.pause();
    a.seekIndex(idxAt(e.clientX));
  };
  const onTrackMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag) {
      setDrag({ ...drag, idx: idxAt(e.clientX), moved: true });
      return;
    }
    if (track.current?.hasPointerCapture(e.pointerId)) a.seekIndex(idxAt(e.clientX));
    else if (e.pointerType === 'mouse' && track.current) {
      // Hovering tells the time under the pointer: the scale is not even in time.
      const i = idxAt(e.clientX);
      track.current.title = `${formatMs(i >= view.n ? view.endTime : timeAtIndex(view, i))} · event ${formatCount(i)}`;
    }
  };
  const onTrackUp = (e: PointerEvent<HTMLDivElement>) => {
    if (drag) {
      if (drag.moved && !locked) a.moveFault(drag.index, timeAtIndex(view, drag.idx));
      else setSelected(selected === drag.index ? null : drag.index);
      setDrag(null);
    }
    if (track.current?.hasPointerCapture(e.pointerId))
      track.current.releasePointerCapture(e.pointerId);
  };
  const onTrackKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const { idx } = lab.cursor.getState();
    const page = Math.max(1, Math.round(view.n / 20));
    const to: Record<string, number> = {
      ArrowLeft: idx - 1,
      ArrowDown: idx - 1,
      ArrowRight: idx + 1,
      ArrowUp: idx + 1,
      PageDown: idx - page,
      PageUp: idx + page,
      Home: 0,
      End: view.n,
    };
    if (e.key in to) {
      e.preventDefault();
      e.stopPropagation();
      a.pause();
      a.seekIndex(to[e.key]!);
    }
  };
  const deleteKeepingFocus = (index: number) => {
    setSelected(null);
    track.current?.focus();
    // After the focus moved: the marker's blur would clear it.
    focusedMarker.current = { index, parked: true };
    a.deleteFault(index);
  };
  const onMarkerKey = (e: KeyboardEvent<HTMLButtonElement>, m: FaultMarker) => {
    if (e.key === 'Escape' && selected === m.index) {
      e.preventDefault();
      e.stopPropagation();
      setSelected(null);
      return;
    }
    // Locked (an embed, or the faults of the last valid run while the scenario is refused).
    if (locked) return;
    if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      e.stopPropagation();
      deleteKeepingFocus(m.index);
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      // Arrows move the time the fault is armed from (its `at`) to the previous / next engine
      // event's time — the timeline's own step; Shift: ten steps. Within [0, end of the run].
      e.preventDefault();
      e.stopPropagation();
      const current = selectParse(lab.app.getState());
      const at = current.ok ? (current.scenario.faults[m.index]?.at ?? m.at) : m.at;
      const next = nudgeTime(view, at, e.key === 'ArrowLeft' ? -1 : 1, e.shiftKey ? 10 : 1);
      if (next !== at) a.moveFault(m.index, next);
    }
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
          onPointerDown={onTrackDown}
          onPointerMove={onTrackMove}
          onPointerUp={onTrackUp}
          onKeyDown={onTrackKey}
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
                  onPointerDown={(e) => {
                    e.stopPropagation();
                    track.current!.setPointerCapture(e.pointerId);
                    setDrag({ index: m.index, idx: markerIdx(m), moved: false });
                  }}
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
  const judge = (t: string) =>
    parseFaultTime(t, `faults.${marker.index}.at`, scenario, 'armed from');
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
