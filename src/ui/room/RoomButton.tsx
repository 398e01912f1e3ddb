import { lazy, Suspense, useCallback, useLayoutEffect, useState, type ReactElement } from 'react';
import { createPortal } from 'react-dom';
import { roomSeats, type PresenterSeat } from '../../platform/roomSeats';
import type { RoomSource } from './currentRoomStep';
import { roomTestIds } from './roomTestIds';

// The panel carries the QR code library: loaded when a room starts, not with the page.
const RoomPanel = lazy(() => import('./RoomPanel').then((m) => ({ default: m.RoomPanel })));

/** What the static site says: the room is a feature of the classroom server. */
const NEEDS_SERVER =
  'A room needs the classroom server: run `npm run classroom` and open the page it prints.';

/**
 * "Start a room": on the classroom server, creates a session and shows the room panel; on a static
 * host, says what the feature needs. A presenter's reload finds their session in sessionStorage
 * and opens the panel on it again. In a lesson's presenter view (`source`), the room is asked
 * the step on screen. `panelHost`: where the panel is rendered (the lesson view keeps it outside
 * its `.app`, whose stage cards then stay condensed: src/ui/lesson/LessonApp.tsx). `onLive`:
 * told whether the panel is on screen (the page marks its `.app` with it: `data-room-live`; the
 * lesson view then keeps its speed word for screen readers only).
 */
export function RoomButton({
  source,
  panelHost,
  onLive,
  foldWhileWatching = false,
}: {
  source?: RoomSource;
  panelHost?: Element | null;
  onLive?: (live: boolean) => void;
  /**
   * The page's projector mode: while the room watches the run it predicted (its answers closed,
   * the answer not yet shown), the panel folds away and the page has its whole width for the
   * pipeline, as without a room; it comes back with the answer (or on this button). Beside the
   * panel's 280 px column the story stayed above the pipeline and the uncondensed cards put the
   * stages below the fold at 1280×720: the room watched the counters, not the run.
   */
  foldWhileWatching?: boolean;
} = {}) {
  const [seat, setSeat] = useState<PresenterSeat | null>(() => roomSeats.presenter());
  const [shown, setShown] = useState(true);
  const [watching, setWatching] = useState(false);
  // The students present, as the panel last said: its button says it while the panel is away.
  const [students, setStudents] = useState<number | null>(null);
  // While a question is open, how many answered of whom, as the panel last said: the same.
  const [answered, setAnswered] = useState<{ answered: number; of: number } | null>(null);
  // Shown again on this button while the room watches: it stays, until the next time it watches.
  const [shownWhileWatching, setShownWhileWatching] = useState(false);
  const onWatching = useCallback((w: boolean) => {
    setWatching(w);
    if (!w) setShownWhileWatching(false);
  }, []);
  const folded = foldWhileWatching && watching && !shownWhileWatching;
  const live = seat !== null && shown && !folded;
  // Said on the button while the panel is away (null: the panel on screen says it itself).
  const count = seat !== null && !live ? students : null;
  const answers = seat !== null && !live ? answered : null;
  // What the button counts while the panel is away: the answers to the open question, or who joined.
  const counted =
    answers !== null
      ? { number: answers.answered, words: ` of ${answers.of} answered` }
      : count !== null
        ? { number: count, words: ' joined' }
        : null;
  // Before the paint: the page's layout for a live room and its panel arrive in the same frame.
  useLayoutEffect(() => onLive?.(live), [live, onLive]);
  // Ended (the panel's "End the room"): the panel stays, with the results' CSV, until Close.
  const [ended, setEnded] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const start = async () => {
    if (busy) return;
    if (seat && !ended) {
      setShown(true);
      if (watching) setShownWhileWatching(true);
      return;
    }
    setEnded(false);
    setBusy(true);
    setNote(null);
    try {
      // The room's client (its messages' schemas: zod) loads on the click, not with the page
      // (issue 24); a presenter's seat is read without it (src/platform/roomSeats.ts).
      const { createRoomSession, probeClassroom } = await import('../../platform/roomClient');
      if (!(await probeClassroom())) {
        setNote(NEEDS_SERVER);
        return;
      }
      const c = await createRoomSession();
      const next = {
        sessionId: c.sessionId,
        presenterToken: c.presenterToken,
        code: c.code,
        joinUrl: c.joinUrl,
      };
      roomSeats.setPresenter(next);
      setSeat(next);
      setShown(true);
    } catch (error) {
      setNote(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  // The session is over: a reload no longer finds it, but the panel keeps it for its CSV (the
  // server serves an ended session's results) — the CSV was lost to a presenter who ended first.
  const end = () => {
    roomSeats.setPresenter(null);
    setEnded(true);
  };
  const close = () => {
    setSeat(null);
    setEnded(false);
  };

  return (
    <>
      <button
        type="button"
        data-testid={roomTestIds.start}
        // Counting (its panel away): projector mode keeps it beside More ▾ (present.css).
        data-counting={counted !== null || undefined}
        // Not `disabled` while the session is created: a disabled button loses the focus, and a
        // keyboard presenter's Enter left it on the page's body, Tab starting over from the top.
        aria-disabled={busy || undefined}
        aria-expanded={live}
        // With the count on it: the name says what the number counts (the visible words begin it).
        aria-label={
          seat && answers !== null
            ? `Room ${seat.code}, ${answers.answered} of ${answers.of} ${studentsNoun(answers.of)} answered`
            : seat && count !== null
              ? `Room ${seat.code}, ${count} ${studentsNoun(count)} joined`
              : undefined
        }
        onClick={() => void start()}
        title="Ask the room: students answer on their phones or laptops, you see the histogram"
      >
        {seat && !ended ? (
          <>
            Room{' '}
            {/* Its panel beside the lesson view shows the code at 1.5 rem: the head's button says
                "Room" only, so that the lesson's title has the room to be whole. */}
            <span className={live && panelHost ? 'visually-hidden' : undefined}>{seat.code}</span>
            {/* Hidden (Hide, or folded while the room watches the run), the panel's count of who
                joined went with it: the teacher showing the story lost it. The button says it, its
                number larger and bold (room.css), and its accessible name what it counts. */}
            {/* While a question is open, how many answered instead: the teacher waits for them. */}
            {counted && (
              <span className="room-button-count" data-testid={roomTestIds.buttonCount}>
                {' · '}
                <strong>{counted.number}</strong>
                {counted.words}
              </span>
            )}
          </>
        ) : (
          'Start a room'
        )}
      </button>
      {note && (
        <span className="room-note" role="status" data-testid={roomTestIds.note}>
          {note}
        </span>
      )}
      {seat &&
        inHost(
          <Suspense fallback={null}>
            <RoomPanel
              key={seat.sessionId}
              seat={seat}
              hidden={!live}
              onWatching={onWatching}
              onStudents={setStudents}
              onAnswered={setAnswered}
              onHide={() => setShown(false)}
              onEnd={end}
              ended={ended}
              onClose={close}
              source={source}
            />
          </Suspense>,
          panelHost,
        )}
    </>
  );
}

/** "student" or "students", as `n` counts them. */
const studentsNoun = (n: number) => (n === 1 ? 'student' : 'students');

/** The panel in its host when one is given (a portal: React's events still reach the button). */
function inHost(panel: ReactElement, host: Element | null | undefined) {
  return host ? createPortal(panel, host) : panel;
}
