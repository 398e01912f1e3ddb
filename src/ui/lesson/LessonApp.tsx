import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { Lab, LabState } from '../../store/labStore';
import { LabProvider, useActions, useLab, useView } from '../../store/LabContext';
import {
  currentLessonStep,
  LESSON_ATTEMPT_MS,
  LESSON_WAITS_TITLE,
  stepOf,
  type LessonDeck,
} from '../../store/lessonDeck';
import { Breakable } from '../Breakable';
import { ComparePanel } from '../compare/ComparePanel';
import { Counters } from '../Counters';
import { useFocusableWhenScrolls } from '../hooks/useFocusableWhenScrolls';
import { usePlaybackLoop } from '../hooks/usePlaybackLoop';
import { NoticeBar } from '../io/NoticeBar';
import { PageProvider, type PageServices } from '../io/PageContext';
import { CondensedCardsContext } from '../pipeline/condensedCards';
import { Pipeline } from '../pipeline/Pipeline';
import { Transport } from '../Transport';
import { RoomButton } from '../room/RoomButton';
import {
  lessonChallengeReveal,
  lessonChallengeStep,
  lessonRoomReveal,
  lessonRoomStep,
  type RoomSource,
} from '../room/currentRoomStep';
import { LessonChallengeLine } from './LessonChallengeLine';
import { LessonOutcome } from './LessonOutcome';
import { LessonQuestion } from './LessonQuestion';
import { LessonStatus } from './LessonStatus';
import { LessonTools } from './LessonTools';
import { lessonTestIds } from './lessonTestIds';
import { useDeckKeys } from './useDeckKeys';
import { useSolutionOnScreen } from './useSolutionOnScreen';
import '../styles.css';
import '../io/io.css';
import '../io/tools.css';
import '../present/present.css';
import '../present/condensedCards.css';
import './lesson.css';
import './lessonRoom.css';
import './lessonCompare.css';

// A batch job's step shows the page's batch view (its schedule, its table) in place of the
// stream's pipeline: a lazy chunk, as on the page (src/ui/App.tsx).
const BatchRun = lazy(() => import('../batch/BatchRun').then((m) => ({ default: m.BatchRun })));

const selectComparing = (s: LabState) => s.compare !== null;
const selectBatch = (s: LabState) => s.scenario.batch !== undefined;
const selectReady = (s: LabState) => s.status === 'ready';
const selectDetails = (s: LabState) => s.details;

/**
 * The presenter view (`?lesson=<id>`): full-screen, projector type (the page's projector mode,
 * `data-present`, for the pipeline and the playback), one step at a time. The step's setup and
 * question are on screen while its run waits at its start; R reveals the answer, plays the run,
 * shows the counters and the "then flip to" lanes. Keys: src/ui/lesson/useDeckKeys.ts.
 */
export function LessonApp({ lab, page, deck }: { lab: Lab; page: PageServices; deck: LessonDeck }) {
  usePlaybackLoop(lab);
  // End on a batch job's step: its schedule's end (BatchRun's own playback), once revealed.
  const [scheduleEnds, setScheduleEnds] = useState(0);
  const keys = useMemo(
    () => ({
      ...deck.actions,
      toEnd: () => {
        if (lab.app.getState().scenario.batch === undefined) lab.actions.toEnd();
        else if (lab.actions.forwardRefusal() === null) setScheduleEnds((n) => n + 1);
      },
      details: () => lab.actions.setDetails(!lab.app.getState().details),
      undo: lab.actions.undo,
      redo: lab.actions.redo,
    }),
    [deck, lab],
  );
  useDeckKeys(keys);
  return (
    <LabProvider lab={lab}>
      <PageProvider page={page}>
        <LessonOutcome deck={deck}>
          <Presenter deck={deck} scheduleEnds={scheduleEnds} />
        </LessonOutcome>
      </PageProvider>
    </LabProvider>
  );
}

function Presenter({ deck, scheduleEnds }: { deck: LessonDeck; scheduleEnds: number }) {
  const state = useStore(deck.store);
  const info = currentLessonStep(state);
  const step = stepOf(state.lesson, state.index);
  // Revealed, the setup scrolls in its own box (lesson.css): a tab stop then.
  const setupBox = useRef<HTMLParagraphElement>(null);
  useFocusableWhenScrolls(setupBox, 'Setup', state.index);
  const comparing = useLab(selectComparing);
  const ready = useLab(selectReady);
  const batch = useLab(selectBatch);
  // The schedule plays once R is pressed (a reload on a revealed step too), End shows its end;
  // locked: the attempts take no click (the step plays its preset as shipped); no "why" panel
  // (the band tells the answer; its paragraphs pushed the table past 720 px with a room live).
  const batchEmbed = useMemo(
    () => ({
      locked: true,
      // One attempt each 2.5 s, time to read it out (the page's 300 ms played the Airflow
      // retry's two attempts and put its answer up 0.6 s after R, where a stream step plays
      // about 30 s); a presenter in a hurry has Reveal now and End.
      attemptMs: LESSON_ATTEMPT_MS,
      autoplay: info.revealed,
      why: false,
      requests: { play: 0, restart: 0, end: scheduleEnds },
    }),
    [info.revealed, scheduleEnds],
  );
  const view = useView();
  const details = useLab(selectDetails);
  const panels = new Set(step.panels);
  const [roomHost, setRoomHost] = useState<HTMLDivElement | null>(null);
  // With a room live, the playback's row is narrower (lesson.css): the speed's word goes.
  const [roomLive, setRoomLive] = useState(false);
  const own = step.challenge;
  const challenge = own?.challenge;
  // The step whose challenge round the room panel's Reveal revealed: its reference solution's why
  // shows on the projector too, for the discussion (it went to the phones only).
  const [challengeShown, setChallengeShown] = useState<number | null>(null);
  // A student's solution opened from the room's panel: the step's band gives its run the screen.
  const { solutionOnScreen, opened } = useSolutionOnScreen(info.index);
  const roomSource: RoomSource = {
    index: info.index,
    // R closes the room's answers at once: the room watches the run it predicted (issue: a
    // student changed their answer while the counters played).
    closed: info.revealed,
    // The room's reveal (the answer on the phones) follows the band's answer, at the run's end.
    revealed: info.answered,
    revealStep: deck.actions.reveal,
    step: () => lessonRoomStep(step, info.index),
    reveal: (observed) => lessonRoomReveal(step, observed),
    rounds: state.rounds,
    askAgain: deck.actions.askAgain,
    // Once the step's answer shows: its challenge, for the room to say whether they solved it.
    challenge:
      own && info.answered
        ? {
            of: own,
            step: () => lessonChallengeStep(own, info.index),
            reveal: () => {
              setChallengeShown(info.index);
              return lessonChallengeReveal(own);
            },
            opened,
          }
        : undefined,
  };
  // The room's panel lives beside the view, not in it (a column the view makes room for,
  // lesson.css), and the view sets no `data-room-live`: that mark is the page's own room, whose
  // column takes the story's place once its answer shows (src/ui/room/room.css); the lesson's
  // cards stay condensed with a room live (issue 24), as the page's do.
  return (
    <>
      <div
        className="lesson-present app"
        data-present="true"
        data-testid={lessonTestIds.presenter}
        data-step={info.index + 1}
        data-revealed={info.revealed || undefined}
        data-comparing={comparing || undefined}
        data-solution-open={solutionOnScreen || undefined}
        // Projector mode's details (D, lab state `details`): folded, the stage cards are condensed
        // to one screen (src/ui/present/condensedCards.css); unfolded, whole, in a box that scrolls.
        data-details={details}
        data-condensed={!details || undefined}
      >
        <header className="lesson-head">
          <h1 className="lesson-title">{state.lesson.title}</h1>
          <span className="lesson-count" data-testid={lessonTestIds.stepCount}>
            Step {info.index + 1} of {info.count}
          </span>
          {/* A step moved to (PageDown, PageUp, ◀ ▶) is said with its title: the count and the
              title changed with nothing read out. */}
          <span className="visually-hidden" role="status" data-testid={lessonTestIds.stepSaid}>
            Step {info.index + 1} of {info.count}: {step.title}
          </span>
          <span className="spacer" />
          <button
            type="button"
            data-testid={lessonTestIds.previous}
            onClick={deck.actions.previous}
            disabled={info.index === 0}
            title="Previous step (PageUp)"
            aria-label="Previous step"
            aria-keyshortcuts="PageUp"
          >
            ◀
          </button>
          <button
            type="button"
            data-testid={lessonTestIds.reveal}
            onClick={deck.actions.reveal}
            disabled={info.answered}
            title={
              info.revealed
                ? 'Reveal the answer now (R): it shows at the run’s end'
                : 'Reveal (R): the run plays, the answer shows at its end'
            }
          >
            {info.revealed ? 'Reveal now' : 'Reveal'}
          </button>
          <button
            type="button"
            data-testid={lessonTestIds.next}
            onClick={deck.actions.next}
            disabled={info.index === info.count - 1}
            title="Next step (PageDown)"
            aria-label="Next step"
            aria-keyshortcuts="PageDown"
          >
            ▶
          </button>
          <DetailsButton details={details} />
          <LessonTools lesson={state.lesson} />
          <RoomButton source={roomSource} panelHost={roomHost} onLive={setRoomLive} />
        </header>
        <NoticeBar />
        {/* The band, as the page's projector layout asks a question: the title and the whole setup
          beside the question, read together above the pipeline (lesson.css). */}
        <div className="lesson-band">
          <h2 className="lesson-step-title" data-testid={lessonTestIds.stepTitle}>
            {step.title}
          </h2>
          {step.setup && (
            <p className="lesson-setup" ref={setupBox} data-testid={lessonTestIds.setup}>
              <Breakable text={step.setup} />
            </p>
          )}
          <LessonQuestion step={step} revealed={info.answered} view={ready ? view : null} />
        </div>
        {challenge && info.answered && challengeShown === info.index ? (
          // In place of the address, once the room has said whether it solved it: the reference
          // solution, its sources' addresses left to the phones and the notes (they took a line
          // the pipeline's cards need at 1280×720).
          <p className="lesson-challenge" data-testid={lessonTestIds.challengeWhy}>
            <strong>{challenge.title}:</strong>{' '}
            <Breakable text={withoutAddresses(challenge.solution.why)} />
          </p>
        ) : (
          own &&
          info.answered && (
            // Its title, and the address the students open (a room's phones link to it too) —
            // once the answer shows: while the run plays, a title such as "A duplicate with
            // idempotence on" would tell the step's outcome before its end.
            <LessonChallengeLine of={own} />
          )
        )}
        <LessonStatus />
        {/* A batch job plays its schedule in its own view (the stream's timeline is not its). */}
        {panels.has('transport') && !batch && (
          <section aria-label="Playback">
            {/* Play and End greyed until the reveal, as the page's are while its question waits. */}
            <Transport
              waitsFor={info.revealed ? null : LESSON_WAITS_TITLE}
              speedWordHidden={roomLive}
            />
          </section>
        )}
        {batch ? (
          <Suspense fallback={<p className="muted">Loading the batch job…</p>}>
            {/* One visit of a step, one schedule: it opens at its start, hidden. */}
            <BatchRun key={info.index} embed={batchEmbed} />
          </Suspense>
        ) : comparing ? (
          <ComparePanel />
        ) : (
          <>
            {/* The counters would answer the question: they wait for the reveal. */}
            {panels.has('counters') && info.revealed && <Counters />}
            {panels.has('pipeline') && (
              // The room's panel sits outside this view: the cards stay condensed with it.
              <CondensedCardsContext.Provider value={!details}>
                <Pipeline />
              </CondensedCardsContext.Provider>
            )}
          </>
        )}
      </div>
      <div className="lesson-room" ref={setRoomHost} />
    </>
  );
}

/** D's button: the condensed cards' folded details (and the timeline), one click away too. */
function DetailsButton({ details }: { details: boolean }) {
  const a = useActions();
  return (
    <button
      type="button"
      className="lesson-details"
      data-testid={lessonTestIds.details}
      aria-pressed={details}
      onClick={() => a.setDetails(!details)}
      title={
        details
          ? 'Fold the stage cards back to one screen (D)'
          : 'Unfold the stage cards and the timeline (D)'
      }
    >
      Details
    </button>
  );
}

/** A text without its sources' addresses: "(https://…)" goes, "(its socketTimeout: https://…)" keeps its words. */
function withoutAddresses(text: string): string {
  return text.replace(/\s*\(https?:\/\/[^\s)]+\)/g, '').replace(/:\s*https?:\/\/[^\s)]+/g, '');
}
