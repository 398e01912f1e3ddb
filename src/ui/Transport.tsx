import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { timeAtIndex, indexAtTime } from '../views/at';
import { faultMarkers, type FaultMarker } from '../views/faultActions';
import { formatCount, formatMs, formatSpeed } from '../views/format';
import { sliderFromSpeed, speedFromSlider } from '../views/playback';
import type { RunView } from '../views/runView';
import { selectParse, type LabState } from '../store/labStore';
import { useActions, useLab, useLabInstance, useView } from '../store/LabContext';
import { testIds } from './testIds';

const selectPlaying = (s: LabState) => s.playing;
const selectSpeed = (s: LabState) => s.speed;
const selectSkip = (s: LabState) => s.skipIdle;
const selectLastSkip = (s: LabState) => s.lastSkip;

/** Play/pause, step, restart, speed (log scale), the clock, and the timeline. */
export function Transport() {
  const a = useActions();
  const playing = useLab(selectPlaying);
  const speed = useLab(selectSpeed);
  const skipIdle = useLab(selectSkip);
  const lastSkip = useLab(selectLastSkip);
  const view = useView();
  return (
    <>
      <div className="transport" role="group" aria-label="Time controls">
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
            onClick={() => a.step(-1)}
            data-testid={testIds.stepBack}
            aria-label="Step back one engine event (←)"
            title="Step back one engine event (←)"
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
            {playing ? '❚❚ Pause' : '▶ Play'}
          </button>
          <button
            type="button"
            onClick={() => a.step(1)}
            data-testid={testIds.stepForward}
            aria-label="Step forward one engine event (→)"
            title="Step forward one engine event (→)"
          >
            |▶︎
          </button>
        </div>
        <label className="field speed">
          <span>Speed</span>
          <input
            type="range"
            min={0}
            max={1000}
            value={Math.round(sliderFromSpeed(speed) * 1000)}
            onChange={(e) => a.setSpeed(speedFromSlider(Number(e.target.value) / 1000))}
            data-testid={testIds.speed}
            aria-valuetext={`${formatSpeed(speed)}: one virtual millisecond takes ${formatCount(1 / speed)} real ms`}
          />
          <output className="mono">{formatSpeed(speed)}</output>
        </label>
        <label className="field" title="Jump over stretches where nothing happens">
          <input
            type="checkbox"
            checked={skipIdle}
            onChange={(e) => a.setSkipIdle(e.target.checked)}
            data-testid={testIds.skipIdle}
          />
          <span>skip idle time</span>
        </label>
        {skipIdle && lastSkip > 0 && (
          <span className="muted" role="status" title="Nothing happened in between">
            ⏩ jumped {formatMs(lastSkip)} of idle time
          </span>
        )}
        <Clock view={view} />
        {view && <Timeline view={view} />}
      </div>
    </>
  );
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
  return <output ref={ref} className="clock mono" data-testid={testIds.clock} aria-live="off" />;
}

/** Position (0…1) of a cursor index on the timeline. */
const frac = (v: RunView, idx: number) => (v.n === 0 ? 0 : idx / v.n);

/**
 * The timeline: one step per engine event (idle stretches take no room), fault markers you can
 * drag, select and delete, completed checkpoints as diamonds.
 */
function Timeline({ view }: { view: RunView }) {
  const lab = useLabInstance();
  const a = lab.actions;
  const parsed = useLab(selectParse);
  const markers = useMemo(
    () =>
      parsed.ok && parsed.scenario.faults.length === view.scenario.faults.length
        ? faultMarkers(view, parsed.scenario)
        : [],
    [parsed, view],
  );
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
  const [selected, setSelected] = useState<number | null>(null);
  const [drag, setDrag] = useState<{ index: number; idx: number; moved: boolean } | null>(null);

  useEffect(() => {
    const paint = () => {
      const { idx, t } = lab.cursor.getState();
      const x = `${frac(view, idx) * 100}%`;
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
    return Math.round(((clientX - r.left) / Math.max(1, r.width)) * view.n);
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
      setDrag({ ...drag, idx: Math.max(0, Math.min(view.n, idxAt(e.clientX))), moved: true });
      return;
    }
    if (track.current?.hasPointerCapture(e.pointerId)) a.seekIndex(idxAt(e.clientX));
  };
  const onTrackUp = (e: PointerEvent<HTMLDivElement>) => {
    if (drag) {
      if (drag.moved) a.moveFault(drag.index, timeAtIndex(view, drag.idx));
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
  const onMarkerKey = (e: KeyboardEvent<HTMLButtonElement>, m: FaultMarker) => {
    if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      e.stopPropagation();
      setSelected(null);
      a.deleteFault(m.index);
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      // Nudge the fault to the previous / next engine event's time.
      e.preventDefault();
      e.stopPropagation();
      const i = markerIdx(m) + (e.key === 'ArrowLeft' ? -2 : 1);
      a.moveFault(m.index, timeAtIndex(view, Math.max(0, Math.min(view.n, i))));
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
          aria-label="Timeline: one step per engine event"
          aria-valuemin={0}
          aria-valuemax={view.n}
          data-testid={testIds.timeline}
          onPointerDown={onTrackDown}
          onPointerMove={onTrackMove}
          onPointerUp={onTrackUp}
          onKeyDown={onTrackKey}
        >
          <div ref={fill} className="fill" />
          {checkpoints.map((c) => (
            <span
              key={c.id}
              className="ckpt"
              style={{ left: `${frac(view, c.entry + 1) * 100}%` }}
              title={`checkpoint ${c.id} completed`}
            />
          ))}
          <div ref={head} className="head" />
        </div>
        {/* Markers sit over the slider, not inside it: controls must not nest (axe nested-interactive). */}
        <div className="markers">
          {markers.map((m) => {
            const at = drag?.index === m.index ? drag.idx : markerIdx(m);
            return (
              <button
                key={m.index}
                type="button"
                className={`marker${m.firedEntry < 0 ? ' unfired' : ''}`}
                style={{ left: `${frac(view, at) * 100}%` }}
                aria-pressed={selected === m.index}
                aria-label={`Fault ${m.index + 1}: ${m.label}, ${m.firedEntry >= 0 ? `fired at ${formatMs(m.firedAt)}` : `armed from ${formatMs(m.at)}, never fired`}. Delete removes it, arrows move it.`}
                title={m.label}
                data-testid={testIds.faultMarker}
                data-fault-index={m.index}
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
            );
          })}
        </div>
      </div>
      <div className="timeline-legend" aria-hidden="true">
        <span>0</span>
        <span>⚡ fault (drag to move) · ◆ checkpoint</span>
        <span>{formatMs(view.endTime)}</span>
      </div>
      {sel && (
        <FaultDetails
          key={`${sel.index}:${sel.at}`}
          marker={sel}
          onClose={() => setSelected(null)}
        />
      )}
    </div>
  );
}

function FaultDetails({ marker, onClose }: { marker: FaultMarker; onClose: () => void }) {
  const a = useActions();
  return (
    <div
      className="fault-details"
      role="group"
      aria-label={`Fault ${marker.index + 1}`}
      data-testid={testIds.faultDetails}
    >
      <strong>Fault {marker.index + 1}:</strong> <span>{marker.label}</span>
      <span className="muted">
        {marker.firedEntry >= 0 ? `fired at ${formatMs(marker.firedAt)}` : 'never fired'}
      </span>
      <label className="field">
        <span>armed from (ms)</span>
        <input
          type="number"
          min={0}
          defaultValue={marker.at}
          style={{ width: '8em' }}
          data-testid={testIds.faultAt}
          onKeyDown={(e) => {
            if (e.key === 'Enter')
              a.moveFault(marker.index, Number((e.target as HTMLInputElement).value));
          }}
          onBlur={(e) => {
            const n = Number(e.target.value);
            if (n !== marker.at && Number.isFinite(n)) a.moveFault(marker.index, n);
          }}
        />
      </label>
      <button
        type="button"
        data-testid={testIds.faultDelete}
        onClick={() => {
          onClose();
          a.deleteFault(marker.index);
        }}
      >
        ✕ Delete fault
      </button>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
