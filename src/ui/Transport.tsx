import { useEffect, useMemo, useRef } from 'react';
import { faultMarkers } from '../views/edit/faultActions';
import { formatCount, formatMs, formatSpeedShown, formatSpeedWords } from '../views/run/format';
import { sliderFromSpeed, speedFromSlider } from '../views/run/playback';
import type { RunView } from '../views/run/runView';
import { selectParse, type LabState } from '../store/labStore';
import { useActions, useLab, useLabInstance, useView } from '../store/LabContext';
import { usePredictionGate } from './library/usePredictionGate';
import { REVEAL_WAITS_TITLE } from './library/revealGuard';
import { Icon } from './Icon';
import { Timeline } from './timeline/Timeline';
import { testIds } from './testIds';
import { neverFiredToWarn } from '../views/run/neverFired';

const selectPlaying = (s: LabState) => s.playing;
const selectSpeed = (s: LabState) => s.speed;
const selectSkip = (s: LabState) => s.skipIdle;
const selectLastSkip = (s: LabState) => s.lastSkip;
const selectScenario = (s: LabState) => s.scenario;

/**
 * Play/pause, step, restart, speed (log scale), the clock — one row whose pieces keep their width
 * whatever the clock says (tabular digits, widths reserved for the longest text of this run), so
 * nothing moves while the run plays — and the timeline on its own row below, the full width.
 */
export function Transport({
  locked = false,
  waitsFor = null,
  speedWordHidden = false,
}: {
  locked?: boolean;
  /**
   * Why the run waits, from a guard of the view's own (the lesson's reveal, src/store/lessonDeck.ts
   * `LESSON_WAITS_TITLE`): Play and End look and say so as they do for a pending prediction.
   */
  waitsFor?: string | null;
  /** The speed's word for screen readers only (it names the slider): a row short of room. */
  speedWordHidden?: boolean;
}) {
  const a = useActions();
  // While "Predict first" waits for an answer, Play and End would show the final counters and
  // tables — the answer — at one key press on a projector: the store refuses them and says why
  // (library/revealGuard.ts); the buttons say so beforehand, still focusable.
  const gate = usePredictionGate();
  const waitsTitle = waitsFor ?? (gate.phase === 'pending' ? REVEAL_WAITS_TITLE : null);
  const waits = waitsTitle !== null;
  // While the outcome is hidden, a jump to "the next anomaly" would tell it: jumps skip them.
  useEffect(() => a.setJumpsHideAnomalies(gate.hidden), [a, gate.hidden]);
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
  // None for a shipped fault that never fires in its preset's own run (src/views/run/neverFired.ts).
  const scenario = useLab(selectScenario);
  const neverFired = useMemo(() => neverFiredToWarn(markers, scenario), [markers, scenario]);
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
            aria-disabled={waits || undefined}
            title={waits ? `${waitsTitle} (Space)` : 'Play / pause (Space)'}
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
            aria-disabled={waits || undefined}
            title={waits ? `${waitsTitle} (End)` : 'To the end of the run (End)'}
          >
            ⇥
          </button>
        </div>
        <label
          className="field speed"
          title={`Virtual time per real time: ${formatSpeedWords(speed)}`}
        >
          <span className={speedWordHidden ? 'visually-hidden' : undefined}>Speed</span>
          <input
            type="range"
            min={0}
            max={1000}
            value={Math.round(sliderFromSpeed(speed) * 1000)}
            onChange={(e) => a.setSpeed(speedFromSlider(Number(e.target.value) / 1000))}
            data-testid={testIds.speed}
            aria-valuetext={formatSpeedWords(speed)}
          />
          {/* What the speed means, on screen (a title is out of a room's reach): "1 s in 1.3 min";
              for screen readers only, as the word, where the row is short of room (the room's
              column beside a projector: the clock would wrap to a line of its own). */}
          <output
            data-testid={testIds.speedShown}
            className={speedWordHidden ? 'visually-hidden' : undefined}
          >
            {formatSpeedShown(speed)}
          </output>
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
              {/* In projector mode the words around the time go (present.css): the note's room
                  there is what the row leaves, and "⏭ jumped 29.20…" was cut (issue 24). */}
              <Icon name="skip" /> <span className="skip-note-word">jumped </span>
              {formatMs(lastSkip)}
              <span className="skip-note-word"> of idle time</span>
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
