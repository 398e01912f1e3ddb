import { useEffect, useRef } from 'react';
import type { LabState } from '../store/labStore';
import { selectIssues } from '../store/labStore';
import { useActions, useLab, useLabInstance, useView } from '../store/LabContext';
import { describeEntry } from '../views/diagrams/describe';
import { formatCount, formatMs } from '../views/run/format';
import { testIds } from './testIds';
import { FontSize } from './TopBar';
import { PresentControls } from './present/PresentControls';

const selectStatus = (s: LabState) => s.status;
const selectProgress = (s: LabState) => s.progress;
const selectError = (s: LabState) => s.error;
const selectNotice = (s: LabState) => s.notice;
const selectCanUndo = (s: LabState) => s.past.length > 0;
const selectBatch = (s: LabState) => s.scenario.batch !== undefined;

const PHASES = {
  queued: 'starting the worker',
  simulating: 'simulating',
  deriving: 'preparing the views',
  transferring: 'almost there',
} as const;

/**
 * What the run is doing: simulating (with a cancel button), invalid (each issue names its
 * field), failed, or the last edit's note — plus the text-size control. The panels keep showing
 * the last good run meanwhile.
 */
export function StatusLine() {
  const a = useActions();
  const status = useLab(selectStatus);
  const progress = useLab(selectProgress);
  const error = useLab(selectError);
  const notice = useLab(selectNotice);
  const canUndo = useLab(selectCanUndo);
  const issues = useLab(selectIssues);
  const batch = useLab(selectBatch);
  let body;
  let alert = false;
  if (status === 'invalid') {
    alert = true;
    body = (
      <>
        <strong>✕ This scenario is refused</strong>
        <span>— the panels show the last valid run. Undo (Ctrl+Z) or fix:</span>
        <ul data-testid={testIds.issues}>
          {issues.map((i) => (
            <li key={`${i.path}:${i.message}`}>
              <code>{i.path || '(scenario)'}</code>: {i.message}
            </li>
          ))}
        </ul>
      </>
    );
  } else if (status === 'error') {
    alert = true;
    body = (
      <>
        <strong>✕ The engine failed:</strong> <span>{error}</span>
        <span className="muted">
          (a bug in Delivery Lab: Export › Scenario (JSON) saves a file that reproduces it)
        </span>
      </>
    );
  } else if (status === 'validating') {
    body = <strong>Checking…</strong>;
  } else if (status === 'running' && progress?.inWorker) {
    body = (
      <>
        <strong>Simulating {progress.events.toLocaleString('en-US')} events…</strong>
        <progress aria-label="Run progress" />
        <span>{PHASES[progress.phase]}</span>
        <button type="button" onClick={a.cancelRun} data-testid={testIds.runCancel}>
          Cancel
        </button>
      </>
    );
  } else if (status === 'cancelled') {
    body = (
      <>
        <strong>Run cancelled.</strong>{' '}
        <span>The panels show the previous run; the scenario above is the one not run.</span>
        <button type="button" onClick={a.rerun}>
          Run it
        </button>
        {/* The edit that asked for the run (an import, a switch) is one Undo away. */}
        {canUndo && (
          <button type="button" onClick={a.undo}>
            Undo (Ctrl+Z)
          </button>
        )}
      </>
    );
  } else if (notice !== null) {
    body = <span className="muted">{notice}</span>;
  } else if (batch) {
    body = <span className="muted">{BATCH_HINT}</span>;
  } else {
    body = <CurrentEvent />;
  }
  return (
    <div className={`status-line ${status}`} data-testid={testIds.runStatus} data-status={status}>
      {/* The live region holds the message only: the text-size buttons beside it are no part of
          what is announced. */}
      <div className="status-body" role={alert ? 'alert' : 'status'}>
        {body}
      </div>
      {!batch && <EventSaid />}
      <FontSize />
      <PresentControls />
    </div>
  );
}

// As short as the stream's HINT: in projector mode (18 px) the line shares its row with A−/A+,
// Projector, Details and Colours at 1280 px, and a longer one was cut with an ellipsis.
const BATCH_HINT = 'Click an attempt to fail it mid-write, or to clear and re-run its date.';

const HINT = 'Click a component for its faults, or a moving record or ack to drop it.';

/** "event 20 at 1.102 s: broker-1 appends e1 at offset 1", or null at the start. */
function eventWords(view: ReturnType<typeof useView>, idx: number): string | null {
  return view && idx > 0 && idx <= view.n
    ? `event ${formatCount(idx)} at ${formatMs(view.cols.time[idx - 1]!)}: ${describeEntry(view, idx - 1)}`
    : null;
}

/** How long the cursor rests before the event it stands on is said (a held arrow key says one). */
const SAY_EVENT_AFTER_MS = 250;

/**
 * What a screen reader hears of the cursor: the event it stands on after a step, a jump, Home,
 * End or a move of the timeline — once it rests for a quarter second, so that a held arrow key
 * says where it stopped, not each event on the way — and where playback paused ("Paused: event
 * 41 at …"). Nothing while it plays (every event would be read out). The visible line
 * ({@link CurrentEvent}) is painted on every frame and is not announced; stepping told a
 * screen-reader user nothing but the slider's time.
 */
function EventSaid() {
  const lab = useLabInstance();
  const view = useView();
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = lab.cursor.getState().idx;
    let wasPlaying = lab.app.getState().playing;
    const say = (prefix: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        // A jump's notice ("Next commit — event 20 at …") is the status line's, said there.
        if (lab.app.getState().notice !== null) return;
        const { idx } = lab.cursor.getState();
        const words = eventWords(view, idx);
        // Play stops by itself at the run's end: its last event says so, not "Paused".
        const said = view && idx >= view.n ? words : `${prefix}${words}`;
        if (ref.current) ref.current.textContent = words ? said : 'At the start';
      }, SAY_EVENT_AFTER_MS);
    };
    const moved = () => {
      const { idx } = lab.cursor.getState();
      if (idx === last) return;
      last = idx;
      if (!lab.app.getState().playing) say('');
    };
    const paused = () => {
      const { playing } = lab.app.getState();
      if (playing === wasPlaying) return;
      wasPlaying = playing;
      if (playing) clearTimeout(timer);
      else say('Paused: ');
    };
    const offCursor = lab.cursor.subscribe(moved);
    const offApp = lab.app.subscribe(paused);
    return () => {
      clearTimeout(timer);
      offCursor();
      offApp();
    };
  }, [lab, view]);
  return (
    <span className="visually-hidden" role="status" ref={ref} data-testid={testIds.eventSaid} />
  );
}

/**
 * Where the cursor stands, in words: "event 20 at 1.102 s: broker-1 appends e1 at offset 1" —
 * the last event applied, as the Event trace tab says it — so stepping with the arrow keys tells
 * what happened without looking away from the pipeline. At the start, the hint. Painted through a
 * ref on every cursor move (no React render per frame while playing), and not announced (the
 * status line's live region would read every frame out): the timeline's slider says the time.
 */
function CurrentEvent() {
  const lab = useLabInstance();
  const view = useView();
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const paint = () => {
      const { idx } = lab.cursor.getState();
      if (!ref.current) return;
      ref.current.textContent = eventWords(view, idx) ?? HINT;
    };
    paint();
    return lab.cursor.subscribe(paint);
  }, [lab, view]);
  return <span className="muted" ref={ref} aria-live="off" data-testid={testIds.currentEvent} />;
}
