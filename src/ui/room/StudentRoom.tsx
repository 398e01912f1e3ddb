import { useEffect, useRef, useState } from 'react';
import {
  CHALLENGE_ANSWERS,
  normalizeAnswer,
  ROOM_LIMITS,
  type RoomReveal,
  type RoomSolution,
  type RoomStep,
  type RoomStepResult,
} from '../../views/room/protocol';
import { replaceAddress } from '../../platform/address';
import {
  JOIN_CODE_HINT,
  JOIN_CODE_LENGTH,
  joinAddress,
  normalizeJoinCode,
  wellFormedJoinCode,
} from '../../views/room/joinCode';
import { challengeAddress } from './challengeAddress';
import { Histogram } from './Histogram';
import { Breakable } from '../Breakable';
import { optionLetter } from '../../views/room/optionLetter';
import { solutionLine } from '../../views/room/solutionLine';
import { roomTestIds } from './roomTestIds';
import type { StudentRoomState } from './studentRoomState';
import { useStudentRoom } from './useStudentRoom';
import { useKeptSolution } from './useKeptSolution';
import './room.css';

/**
 * A student's page (`?join=CODE`): join (a name is optional, and only the teacher's results
 * show it), see the step the presenter asks, answer, and see the reveal. Everything shown is text.
 */
export function StudentRoom({ code: addressCode }: { code: string }) {
  // The code the page joins with: the address's, or one typed here when the address has none
  // or a wrong one (a student who could not scan the QR code types the code the projector shows).
  const [code, setCode] = useState(addressCode);
  const { room, online, pending, sentSolution, joining, join, answer } = useStudentRoom(code);
  const [name, setName] = useState('');
  const [typed, setTyped] = useState(addressCode);
  const [typo, setTypo] = useState<string | null>(null);
  const askCode = !wellFormedJoinCode(addressCode) || (room.refusal !== null && !room.joined);
  // A new step (or a new round of it, its challenge) opens at the page's top: a student scrolled
  // down to the answer under the room's bars stayed there, in the middle of the next step's
  // options, its title and setup above the screen. Not on the page's first step (a reload keeps
  // where the student was).
  const round = room.step ? `${room.step.stepIndex}:${room.step.question.kind}` : null;
  const shownRound = useRef(round);
  useEffect(() => {
    if (round === shownRound.current) return;
    if (round !== null && shownRound.current !== null) window.scrollTo(0, 0);
    shownRound.current = round;
  }, [round]);
  if (!joining || (!room.joined && room.refusal))
    return (
      <main className="room-student" data-testid={roomTestIds.student}>
        <h1>{wellFormedJoinCode(code) ? `Join the room ${code}` : 'Join a room'}</h1>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (askCode) {
              const next = normalizeJoinCode(typed);
              if (!wellFormedJoinCode(next)) {
                setTypo(JOIN_CODE_HINT);
                return;
              }
              setTypo(null);
              setCode(next);
              // A reload keeps the room: the code goes into the address, as the QR code's link has it.
              replaceAddress(joinAddress(next));
            }
            join(name);
          }}
        >
          {askCode && (
            <>
              <label className="room-join-field">
                Room code{' '}
                <input
                  data-testid={roomTestIds.studentCode}
                  value={typed}
                  maxLength={JOIN_CODE_LENGTH + 4}
                  autoCapitalize="characters"
                  autoComplete="off"
                  spellCheck={false}
                  aria-invalid={typo !== null || undefined}
                  onChange={(e) => setTyped(e.target.value)}
                />
              </label>{' '}
            </>
          )}
          <label className="room-join-field">
            Your name (optional; only the teacher sees it){' '}
            <input
              data-testid={roomTestIds.studentName}
              value={name}
              maxLength={ROOM_LIMITS.nameChars}
              autoComplete="nickname"
              onChange={(e) => setName(e.target.value)}
            />
          </label>{' '}
          <button type="submit" data-testid={roomTestIds.studentJoin}>
            Join
          </button>
        </form>
        {(typo ?? room.refusal) && (
          <p role="alert" data-testid={roomTestIds.refusal}>
            {typo ?? room.refusal}
          </p>
        )}
      </main>
    );
  if (room.ended)
    return (
      <main className="room-student" data-testid={roomTestIds.student}>
        <p className="room-status" data-status="ended">
          Room {code} · ended
        </p>
        <RoomEnded results={room.ended} />
      </main>
    );
  return (
    <main className="room-student" data-testid={roomTestIds.student}>
      <StudentStatus
        code={code}
        room={room}
        online={online}
        answering={room.step !== null && !room.closed && room.reveal === null}
        answered={room.answer !== null || pending !== null}
      />
      {room.step === null ? (
        <p>Waiting for the first question…</p>
      ) : (
        <section
          aria-label="The question"
          data-testid={roomTestIds.studentStep}
          data-step={room.step.stepIndex}
        >
          <h1>
            <Breakable text={room.step.title} />
          </h1>
          {room.step.setup && (
            <p className="room-setup" data-testid={roomTestIds.studentSetup}>
              <Breakable text={room.step.setup} />
            </p>
          )}
          {room.step.question.kind === 'challenge' && room.step.question.challenge && (
            // On the student's own laptop, in a tab of its own: this page stays in the room.
            <p>
              <a
                data-testid={roomTestIds.studentChallenge}
                href={challengeAddress(room.step.question.challenge, room.step.question.carried)}
                target="_blank"
                rel="noopener"
              >
                Open the challenge ↗
              </a>
            </p>
          )}
          <p className="room-question">
            <Breakable text={room.step.question.text} />
          </p>
          {room.reveal === null && room.closed ? (
            // The presenter's R: the run plays; the answer locked in waits for its end.
            <div data-testid={roomTestIds.studentClosed} aria-live="polite">
              <p>
                Answers are closed.{' '}
                {room.answer === null
                  ? 'You did not answer.'
                  : `Your answer: ${labelOf(room.step, room.answer)}.`}
              </p>
              <p>The answer shows when the run ends.</p>
            </div>
          ) : room.reveal === null ? (
            <AnswerForm
              // A round of the same step with another question (its challenge) starts afresh.
              key={`${room.step.stepIndex}:${room.step.question.kind}`}
              step={room.step}
              answered={room.answer}
              pending={pending}
              sentSolution={sentSolution}
              connected={online && room.status === 'open'}
              onAnswer={answer}
            />
          ) : (
            <div data-testid={roomTestIds.studentReveal} aria-live="polite">
              <p>{yourAnswer(room.step, room.answer, room.reveal)}</p>
              <p className="room-answer">
                <Breakable text={room.reveal.answer} />
              </p>
              {room.tally && (
                <Histogram
                  question={room.step.question}
                  counts={room.tally.counts}
                  reveal={room.reveal}
                />
              )}
            </div>
          )}
        </section>
      )}
      {room.refusal && (
        <p role="alert" data-testid={roomTestIds.refusal}>
          {room.refusal}
        </p>
      )}
    </main>
  );
}

/**
 * What the phone's connection is doing, in a student's words: connected, or — at the top of the
 * screen, as an alert — offline or lost and reconnecting (it was "reconnecting…" in small grey
 * type, and nothing said an answer given meanwhile had not gone).
 */
function StudentStatus({
  code,
  room,
  online,
  answering,
  answered,
}: {
  code: string;
  room: StudentRoomState;
  online: boolean;
  answering: boolean;
  /** The student has an answer (sent, or waiting for the connection). */
  answered: boolean;
}) {
  const lost = !online ? 'offline' : room.status === 'reconnecting' ? 'reconnecting' : null;
  if (lost)
    return (
      <p
        className="room-status"
        role="alert"
        data-status={lost}
        data-testid={roomTestIds.studentStatus}
      >
        {lost === 'offline'
          ? 'You are offline: the page rejoins the room by itself when your phone is back online.'
          : `Connection lost: reconnecting…${
              !answering
                ? ''
                : answered
                  ? ' Your answer is kept, and you can still change it.'
                  : // "Your answer is kept" before any answer was given: kept what?
                    ' You can still answer: it goes when the connection is back.'
            }`}
      </p>
    );
  return (
    <p className="room-status" data-status={room.status} data-testid={roomTestIds.studentStatus}>
      Room {code} ·{' '}
      {room.status === 'connecting'
        ? 'connecting…'
        : room.status === 'closed'
          ? 'closed by the server: reload the page'
          : room.joined
            ? 'connected'
            : 'joining…'}
    </p>
  );
}

/**
 * The room has ended (the presenter's "End the room"): every step it was asked, in order — the
 * question, this student's answer marked against the right one, the answer in words and the
 * room's histogram, as the teacher's results file has them. Nothing more will come.
 */
function RoomEnded({ results }: { results: readonly RoomStepResult[] }) {
  return (
    <section aria-label="The room's results" data-testid={roomTestIds.studentEnded}>
      <h1>The room has ended</h1>
      {results.length === 0 && <p>No question was asked.</p>}
      <ol className="room-results">
        {results.map((r, k) => (
          <li key={k} data-step={r.step.stepIndex}>
            <h2>{r.step.title}</h2>
            <p className="room-question">
              <Breakable text={r.step.question.text} />
            </p>
            <p>{yourAnswer(r.step, r.answer, r.reveal)}</p>
            {r.reveal ? (
              <p className="room-answer">
                <Breakable text={r.reveal.answer} />
              </p>
            ) : (
              <p>The answer was not revealed.</p>
            )}
            <p>
              {r.tally.answered} of {r.tally.students} answered
            </p>
            <Histogram question={r.step.question} counts={r.tally.counts} reveal={r.reveal} />
          </li>
        ))}
      </ol>
    </section>
  );
}

/** This student's answer, marked once the right one is revealed. */
function yourAnswer(step: RoomStep, answer: string | null, reveal: RoomReveal | null): string {
  if (answer === null) return 'You did not answer.';
  const yours = labelOf(step, answer);
  if (reveal?.correct === undefined) return `You answered ${yours}.`;
  return answer === reveal.correct
    ? `You answered ${yours}: right.`
    : `You answered ${yours}; the answer is ${labelOf(step, reveal.correct)}.`;
}

function labelOf(step: RoomStep, value: string): string {
  const q = step.question;
  if (q.kind === 'choice') return `“${q.options.find((o) => o.id === value)?.text ?? value}”`;
  if (q.kind === 'challenge') return CHALLENGE_ANSWERS.find((a) => a.id === value)?.text ?? value;
  return `${value} ${q.unit}`.trim();
}

/**
 * Whether a challenge's "Solved it" took the challenge tab's solution with it: the student
 * pressed it once before solving, then again after, and "Sent: Solved it." read the same both
 * times (docs/classroom.md). Nothing said when this page did not send it (after a reload).
 */
function withSolution(answer: string, sent: RoomSolution | null | undefined): string {
  if (answer !== 'solved' || sent === undefined) return '';
  return sent
    ? ', with your solution'
    : ', without a solution (none solved in the challenge tab yet)';
}

/**
 * The answer: a choice, a number or a challenge's outcome; it may change until the presenter
 * closes the answers (R in a lesson, Play on the page: docs/classroom.md), before the answer shows.
 */
function AnswerForm({
  step,
  answered,
  pending,
  sentSolution,
  connected,
  onAnswer,
}: {
  step: RoomStep;
  /** The answer the room has (accepted by the server). */
  answered: string | null;
  /** An answer given that has not reached the room yet. */
  pending: string | null;
  /** The solution that went with `answered` (null: none; undefined: not known to this page). */
  sentSolution: RoomSolution | null | undefined;
  connected: boolean;
  onAnswer: (value: string, solution?: RoomSolution) => void;
}) {
  const q = step.question;
  const [value, setValue] = useState(answered ?? '');
  // A challenge's round: the solution this browser's challenge tab kept goes with "Solved it".
  const kept = useKeptSolution(q.kind === 'challenge' ? q.challenge : undefined);
  const checked = value === '' ? null : normalizeAnswer(q, value);
  const options =
    q.kind === 'choice' ? q.options : q.kind === 'challenge' ? CHALLENGE_ANSWERS : null;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!checked?.ok) return;
        onAnswer(checked.value, checked.value === 'solved' && kept ? kept : undefined);
        // Sent from the phone's keyboard (its Go): the focus on the button puts the keyboard
        // away, which covered "Sent: 24 rows" under it, and keeps the student's place.
        e.currentTarget.querySelector<HTMLButtonElement>('button[type=submit]')?.focus();
      }}
    >
      {options ? (
        <fieldset>
          <legend>Your answer</legend>
          {options.map((o, k) => (
            <label key={o.id} className="room-option">
              <input
                type="radio"
                name="room-answer"
                value={o.id}
                checked={value === o.id}
                onChange={() => setValue(o.id)}
              />{' '}
              <span>
                {/* Lettered as the projector letters them: "who chose B?" */}
                {q.kind === 'choice' && <span className="room-letter">{optionLetter(k)}</span>}{' '}
                {o.text}
              </span>
            </label>
          ))}
        </fieldset>
      ) : (
        <label>
          Your answer{' '}
          <input
            className="room-number"
            data-testid={roomTestIds.studentAnswer}
            inputMode="decimal"
            maxLength={ROOM_LIMITS.answerChars}
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />{' '}
          {q.kind === 'number' ? q.unit : ''}
        </label>
      )}{' '}
      {q.kind === 'challenge' && (
        // Whether "Solved it" carries the solution this browser's challenge tab kept (outside the
        // fieldset: a fieldset is as wide as its longest word, and a solution's line is long).
        <p className="room-solution-note" data-testid={roomTestIds.studentSolution}>
          {kept
            ? 'Your solution goes with it: '
            : 'Solve it in the challenge tab first to send your solution.'}
          {kept && <code>{solutionLine(kept)}</code>}
        </p>
      )}
      <button type="submit" data-testid={roomTestIds.studentSend} disabled={!checked?.ok}>
        {answered === null && pending === null ? 'Send' : 'Change my answer'}
      </button>
      {checked && !checked.ok && <p role="alert">{checked.message}</p>}
      {(answered !== null || pending !== null) && (
        <p aria-live="polite" data-testid={roomTestIds.studentSent}>
          {pending === null
            ? `Sent: ${labelOf(step, answered!)}${withSolution(answered!, sentSolution)}. You can change it until the answers close.`
            : connected
              ? `Sending: ${labelOf(step, pending)}…`
              : `Not sent yet: ${labelOf(step, pending)}. It goes as soon as the connection is back.`}
        </p>
      )}
    </form>
  );
}
