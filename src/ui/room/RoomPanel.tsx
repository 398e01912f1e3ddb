import { useEffect, useRef, useState } from 'react';
import { fetchResultsCsv, type PresenterSeat } from '../../platform/roomClient';
import { downloadText } from '../../platform/download';
import { useLabInstance } from '../../store/LabContext';
import {
  currentRoomReveal,
  observedOnScreen,
  pageStepToAsk,
  type RoomSource,
} from './currentRoomStep';
import { alreadyAskedWords, askWords } from './askWords';
import { isLessonStepOpen } from './lessonStepOpen';
import { Histogram } from './Histogram';
import { JoinLarge, studentNoun, useJoinLargeKey } from './JoinLarge';
import { QrCode } from './QrCode';
import { SolutionsSent } from './SolutionsSent';
import { roomTestIds } from './roomTestIds';
import { usePageRoomPrediction } from './usePageRoomPrediction';
import { usePresenterRoom } from './usePresenterRoom';
import { pointerClickFreesKeys } from './pointerClickFreesKeys';
import { useAnswerInSight } from './useAnswerInSight';
import { useRoomKey } from './useRoomKey';
import { BreakableUrl } from '../BreakableUrl';
import './room.css';

/** The key of "Ask again", named on its button. */
const ASK_AGAIN_KEY = 'a';

const STATUS = {
  connecting: 'connecting…',
  open: 'live',
  reconnecting: 'reconnecting…',
  closed: 'closed',
} as const;

/** Why the server refused this page's seat, said once: the panel no longer reconnects. */
const LOST = {
  'bad-token': 'The server no longer knows this room (restarted without its results file?).',
  ended: 'This room has ended (in another tab?): its phones show its results.',
} as const;

/**
 * The presenter's room: the join code, URL and QR code to put on the projector; "Ask the room"
 * publishes what is open now; the live histogram and how many answered; Reveal sends the answer
 * to every student. Loaded on demand (it carries the QR code library).
 */
export function RoomPanel({
  seat,
  hidden = false,
  onWatching,
  onStudents,
  onAnswered,
  onHide,
  onEnd,
  ended = false,
  onClose = onEnd,
  source,
}: {
  seat: PresenterSeat;
  /**
   * Hidden (its Hide: the page gets its column back), the room goes on: its connection, what it
   * was asked and the run's close and reveal of it. Unmounted, the phones never got the reveal.
   */
  hidden?: boolean;
  /**
   * Told whether the room watches the run it predicted: its answers closed, the answer not yet
   * shown (the page's projector mode folds the panel meanwhile: RoomButton).
   */
  onWatching?: (watching: boolean) => void;
  /**
   * Told the students present now (null: not known, or the room gone): the Room button says it
   * while the panel is hidden.
   */
  onStudents?: (students: number | null) => void;
  /**
   * Told, while a question is open to answers, how many answered of the students asked (null: no
   * question open): the Room button says it while the panel is hidden.
   */
  onAnswered?: (answered: { answered: number; of: number } | null) => void;
  onHide: () => void;
  onEnd: () => void;
  /** The room was ended: the panel says so and keeps its results' CSV until `onClose`. */
  ended?: boolean;
  onClose?: () => void;
  /** What is asked, when not the page's open preset (a lesson's step). */
  source?: RoomSource | undefined;
}) {
  const lab = useLabInstance();
  const { room, publish, close, reveal, end } = usePresenterRoom(seat);
  const [exportNote, setExportNote] = useState<string | null>(null);
  // The join code and the QR code large (Q, or a click on the QR code): for the back row.
  const [large, setLarge] = useState(false);
  useJoinLargeKey(hidden ? null : setLarge);
  const step = room.step;
  const panelBox = useRef<HTMLElement>(null);
  const answerLine = useRef<HTMLParagraphElement>(null);
  // Hidden (folded while the room watches the run), it is placed once shown again.
  useAnswerInSight(panelBox, answerLine, hidden ? null : (room.reveal?.answer ?? null));
  const tally = room.tally;
  const watching = !ended && !room.lost && step !== null && room.closed && room.reveal === null;
  useEffect(() => onWatching?.(watching), [watching, onWatching]);
  const students = ended || room.lost ? null : room.students;
  useEffect(() => onStudents?.(students), [students, onStudents]);
  const answering = !ended && !room.lost && step !== null && !room.closed && room.reveal === null;
  const answered = answering ? (tally?.answered ?? 0) : null;
  const asked = answering ? (tally?.students ?? 0) : null;
  useEffect(
    () => onAnswered?.(answered === null ? null : { answered, of: asked ?? 0 }),
    [answered, asked, onAnswered],
  );

  // On the page (no lesson), the room predicts the page's question once asked.
  const pageRoom = usePageRoomPrediction(room, { close, reveal }, !source);
  // Said when the ask button finds the room already answering what it would send: about the round
  // it was said on (the room moved, it is gone).
  const round = step ? `${step.stepIndex}:${step.question.kind}` : '';
  const [said, setAskNote] = useState<{ text: string; round: string } | null>(null);
  const askNote = said?.round === round ? said.text : null;
  // What the ask button sends the phones, said on it: a lesson's step, its own question (from its
  // challenge's round, back to it), or the story on screen.
  const lessonStep = source ? source.step() : null;
  // The room's open step, by its number — -1 when it is not the lesson's step on screen under
  // that number (a room carried from the page's story or another lesson: lessonStepOpen.ts).
  const onStep = step !== null && (!source || isLessonStepOpen(step, source)) ? step.stepIndex : -1;
  const words = askWords(onStep === -1 ? null : step, lessonStep);
  const ask = () => {
    if (source && lessonStep) {
      // The phones have it open: sent again, the server keeps it as it is (nothing to see).
      if (onStep === source.index && step?.question.kind !== 'challenge')
        return setAskNote({ text: alreadyAskedWords(lessonStep), round });
      setAskNote(null);
      return publish(lessonStep);
    }
    // Steps are numbered in the order asked; a lesson's steps by their place in the lesson.
    const next = pageStepToAsk(lab.app.getState(), step, room.reveal !== null);
    if (next === null) {
      setAskNote({ text: 'The room is answering this question: its answers stand.', round });
      return;
    }
    setAskNote(null);
    publish(next);
    pageRoom.asked(next.stepIndex);
  };
  const observed = () => observedOnScreen(lab.app.getState());
  // A lesson's room follows the presenter: each step moved to is asked, and R reveals it there too.
  // (`rounds`: the deck's "Ask again" presses already followed — none at mount, nor a reload's.)
  const sent = useRef({ asked: -1, closed: -1, revealed: -1, rounds: source?.rounds ?? 0 });
  const open = room.status === 'open' && room.presented && !room.lost;
  const shownReveal = room.reveal !== null;
  // The room is asked the step's challenge (a round of the same step, its own question): the
  // step's close and reveal are not its — the panel's Reveal reveals it.
  const onChallenge = step?.question.kind === 'challenge';
  useEffect(() => {
    if (!source || !open || ended) return;
    if (source.rounds !== sent.current.rounds) {
      // "Ask again": the step on screen, a new round with no answer.
      sent.current = { asked: source.index, closed: -1, revealed: -1, rounds: source.rounds };
      publish(source.step(), true);
    } else if (onStep !== source.index && sent.current.asked !== source.index) {
      sent.current.asked = source.index;
      publish(source.step());
    } else if (onChallenge) {
      // The challenge's round: revealed by the panel's Reveal only.
    } else if (
      source.closed &&
      !source.revealed &&
      onStep === source.index &&
      !room.closed &&
      sent.current.closed !== source.index
    ) {
      sent.current.closed = source.index;
      close();
    } else if (
      source.revealed &&
      onStep === source.index &&
      !shownReveal &&
      sent.current.revealed !== source.index
    ) {
      sent.current.revealed = source.index;
      reveal(source.reveal(observed()));
    }
  });
  // A step the room answered and saw revealed, opened again (PageUp) and not yet played again:
  // its answers stand, and the presenter may ask it again (A).
  const canAskAgain =
    source !== undefined && open && onStep === source.index && shownReveal && !source.closed;
  useRoomKey(ASK_AGAIN_KEY, canAskAgain && !hidden ? source.askAgain : null);
  const endRoom = () => {
    end();
    onEnd();
  };
  // One state with the presenter view's head: after R the answers are closed and Reveal reads
  // "Reveal now" on both; once the answer shows, both are spent.
  // (The challenge's round is closed by its own Reveal, not the step's R.)
  const closed = room.reveal === null && (room.closed || (source?.closed === true && !onChallenge));
  const exportCsv = async () => {
    try {
      const csv = await fetchResultsCsv(seat.sessionId, seat.presenterToken);
      downloadText(csv, `room-${seat.code}.csv`, 'text/csv');
      setExportNote(null);
    } catch (error) {
      setExportNote(error instanceof Error ? error.message : String(error));
    }
  };

  // Offered while the room is live and once it has ended (until Close).
  const exportButton = (
    <button type="button" data-testid={roomTestIds.exportCsv} onClick={() => void exportCsv()}>
      Export results (CSV)
    </button>
  );

  if (ended)
    return (
      <aside
        className="room-panel"
        aria-label="Room"
        data-testid={roomTestIds.panel}
        hidden={hidden}
        onClick={pointerClickFreesKeys}
      >
        <header>
          <h2>Room</h2>
          <span className="room-status" data-status="ended">
            ended
          </span>
        </header>
        <p role="status">
          The room {seat.code} has ended: every phone shows its results. Its answers stay on the
          server for the CSV.
        </p>
        <div className="room-actions">
          {exportButton}
          <button type="button" data-testid={roomTestIds.close} onClick={onClose}>
            Close
          </button>
        </div>
        {exportNote && <p role="alert">{exportNote}</p>}
      </aside>
    );
  return (
    <aside
      className="room-panel"
      aria-label="Room"
      data-testid={roomTestIds.panel}
      hidden={hidden}
      onClick={pointerClickFreesKeys}
      ref={panelBox}
    >
      <header>
        <h2>Room</h2>
        <span className="room-status" data-status={room.status}>
          {STATUS[room.status]}
        </span>
        <button type="button" data-testid={roomTestIds.hide} onClick={onHide}>
          Hide
        </button>
      </header>
      {room.lost ? (
        <p role="alert">
          {LOST[room.lost]}{' '}
          <button
            type="button"
            onClick={() => {
              onEnd();
              onClose();
            }}
          >
            Start a new room
          </button>
        </p>
      ) : (
        <>
          <p className="room-join">
            Join at{' '}
            <strong data-testid={roomTestIds.joinUrl}>
              <BreakableUrl url={seat.joinUrl} />
            </strong>{' '}
            with the code
          </p>
          <p
            className="room-code"
            data-testid={roomTestIds.code}
            aria-label={`Join code ${seat.code}`}
          >
            {seat.code}
          </p>
          <button
            type="button"
            className="room-qr-button"
            data-testid={roomTestIds.qrButton}
            onClick={() => setLarge(true)}
            title="Show the code and the QR code large (Q)"
            aria-haspopup="dialog"
          >
            <QrCode text={seat.joinUrl} />
            <span className="visually-hidden">Show the code and the QR code large (Q)</span>
          </button>
          {large && (
            <JoinLarge
              seat={seat}
              students={step === null ? room.students : null}
              onClose={() => setLarge(false)}
            />
          )}
          {step === null && room.students !== null && (
            // The room joining, before its first question: how many phones are in, large for the
            // back row and live as they join and leave (asked, "N of M answered" counts them).
            <p className="room-joined" data-testid={roomTestIds.joined} aria-live="polite">
              <strong>{room.students}</strong> {studentNoun(room.students)} joined
            </p>
          )}
          <div className="room-actions">
            <button
              type="button"
              data-testid={roomTestIds.publish}
              onClick={ask}
              title={words.title}
            >
              {words.label}
            </button>
            <button
              type="button"
              data-testid={roomTestIds.reveal}
              disabled={
                step === null ||
                room.reveal !== null ||
                (source?.revealed === true && !(onChallenge && source.challenge))
              }
              title={
                closed
                  ? 'Answers are closed: reveal the answer now (it shows at the run’s end)'
                  : undefined
              }
              onClick={() =>
                // A lesson's step is revealed on the presenter view (its answer, its run, its
                // address); the room's reveal follows it (the effect above).
                onChallenge && source?.challenge
                  ? reveal(source.challenge.reveal())
                  : source
                    ? source.revealStep()
                    : (reveal(currentRoomReveal(lab.app.getState())), pageRoom.revealHere())
              }
            >
              {closed ? 'Reveal now' : 'Reveal'}
            </button>
            {source?.challenge && open && onStep === source.index && !onChallenge && (
              <button
                type="button"
                data-testid={roomTestIds.askChallenge}
                onClick={() => source.challenge && publish(source.challenge.step())}
                title="Ask the room the step’s challenge: each student says whether they solved it"
              >
                Ask the challenge
              </button>
            )}
            {canAskAgain && (
              <button
                type="button"
                data-testid={roomTestIds.askAgain}
                onClick={source.askAgain}
                aria-keyshortcuts="A"
                title="Ask this step again: a new round, the answers afresh (this round stays in the results)"
              >
                Ask again <kbd>A</kbd>
              </button>
            )}
          </div>
          {askNote && (source !== undefined || room.reveal === null) && (
            <p role="status" data-testid={roomTestIds.askNote}>
              {askNote}
            </p>
          )}
          {step && (
            <section aria-label="Answers">
              <h3 className="room-step-title" data-testid={roomTestIds.stepTitle}>
                {step.title}
              </h3>
              <p className="room-question">{step.question.text}</p>
              <p data-testid={roomTestIds.answered} aria-live="polite">
                {tally?.answered ?? 0} of {tally?.students ?? 0} answered
              </p>
              <Histogram
                question={step.question}
                counts={tally?.counts ?? {}}
                reveal={room.reveal}
              />
              {room.reveal && (
                // Kept: revealed in an earlier visit of the step (a lesson's band folds its own).
                <p className="room-answer" data-kept={canAskAgain || undefined} ref={answerLine}>
                  {room.reveal.answer}
                </p>
              )}
            </section>
          )}
          {onChallenge && source?.challenge && (
            <SolutionsSent
              of={source.challenge.of}
              solutions={room.solutions}
              onOpened={source.challenge.opened}
            />
          )}
          {room.refusal && <p role="alert">{room.refusal}</p>}
          <div className="room-actions room-end-actions">
            {exportButton}
            <button
              type="button"
              data-testid={roomTestIds.end}
              onClick={endRoom}
              title="End the room: every phone shows the room’s results and its own answers"
            >
              End the room
            </button>
          </div>
          {exportNote && <p role="alert">{exportNote}</p>}
        </>
      )}
    </aside>
  );
}
