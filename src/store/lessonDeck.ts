/**
 * The presenter's deck: which step of a lesson is on screen and whether its answer is revealed —
 * the state the presenter view, its notes window and (through {@link currentLessonStep}) the
 * classroom follow. Moving to a step opens its scenario in the lab at its start, the answer
 * hidden, with an undo history of its own: Undo works as on the page within the step (a fault
 * clicked, the flip's Compare) and never goes back to the step before's run, which it showed
 * under this step's title and question; revealing plays the run at its pace and, once the run has
 * reached its end, opens its "then flip to" lanes in Compare (an undoable edit).
 *
 * The room predicts from the setup, then watches (docs/workshops.md: each step is "predicted by
 * the room before it plays"): until the reveal the run stays at its start — the lab's reveal
 * guard (src/store/playback.ts `setRevealGuard`, the page's rule for a pending question) refuses
 * Play, steps, jumps and the timeline with {@link LESSON_WAITS}; any later moment shows the sink
 * table and the reader on their way to the answer (issue 24).
 *
 * A step opened again (PageUp) starts its run at t = 0, the outcome folded, even when it was
 * revealed before; the room keeps that step's answers and reveal, if any (server/sessions.ts
 * `publish`) until the presenter asks it again ({@link LessonDeckActions.askAgain}): a new round.
 *
 * A vanilla store of its own beside the lab's: a deck exists only in the presenter view, and the
 * lab knows nothing of lessons.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { resolveStep, type Lesson, type ResolvedStep } from '../scenarios/lessons';
import type { Lab } from './labStore';

/**
 * Real ms between two attempts of a batch step's schedule once revealed (docs/workshops.md): time
 * to read each out, where the page's 300 ms told the Airflow retry's two attempts and its answer
 * 0.6 s after R.
 */
export const LESSON_ATTEMPT_MS = 2_500;

export interface LessonDeckState {
  lesson: Lesson;
  /** The step on screen (from 0). */
  index: number;
  /** Whether its run was started (the presenter pressed R). */
  revealed: boolean;
  /**
   * Whether its answer is shown: once the revealed run has reached its end, or at once on a
   * second R ("Reveal now", docs/workshops.md) — never before its time (issue 24).
   */
  answered: boolean;
  /**
   * How many times the presenter asked a step again ("Ask again", A): each one is a new round of
   * the step on screen for the room, its answers afresh (the room follows the count).
   */
  rounds: number;
}

/** What a follower (the notes window, the classroom) needs of the step on screen. */
export interface LessonStepInfo {
  lessonId: string;
  /** From 0. */
  index: number;
  count: number;
  title: string;
  question: string;
  revealed: boolean;
  answered: boolean;
}

interface LessonDeckActions {
  /** Open step `index` (clamped to the lesson), its answer hidden. */
  goTo(index: number): void;
  next(): void;
  previous(): void;
  /**
   * Play the run; its answer (and the "then flip to" lanes) at its end. Again before the end:
   * show the answer now.
   */
  reveal(): void;
  /**
   * A view with its own playback — a batch job's schedule (src/ui/batch/BatchRun.tsx), which the
   * lab's cursor does not play — reached the revealed step's end: its answer shows.
   */
  reachedEnd(): void;
  /**
   * "Ask again": the step on screen is asked afresh — a new round for the room (`rounds`), and
   * its run back at its start, waiting for the room's answer, if it was revealed.
   */
  askAgain(): void;
}

export interface LessonDeck {
  store: StoreApi<LessonDeckState>;
  actions: LessonDeckActions;
}

/** What the status line says when the presenter tries to move the run before the reveal. */
export const LESSON_WAITS =
  'The run waits for the room’s answer: reveal it (R) to play the run — playing it first would give the answer away.';

/** Play's and End's title until the reveal (they stay focusable: a press says why, as on the page). */
export const LESSON_WAITS_TITLE = 'Waits for the room’s answer: reveal it (R)';

const resolved = new WeakMap<Lesson, ResolvedStep[]>();

/** Step `index` of `lesson`, resolved once per lesson. */
export function stepOf(lesson: Lesson, index: number): ResolvedStep {
  let steps = resolved.get(lesson);
  if (!steps) resolved.set(lesson, (steps = []));
  return (steps[index] ??= resolveStep(lesson, index));
}

const infoCache = new WeakMap<Lesson, Map<string, LessonStepInfo>>();

/**
 * The step on screen, for followers: the same object while it does not change (a stable
 * selector output, zustand v5).
 */
export function currentLessonStep(s: LessonDeckState): LessonStepInfo {
  let byKey = infoCache.get(s.lesson);
  if (!byKey) infoCache.set(s.lesson, (byKey = new Map()));
  const key = `${s.index}:${s.revealed}:${s.answered}`;
  let info = byKey.get(key);
  if (!info) {
    const step = stepOf(s.lesson, s.index);
    info = {
      lessonId: s.lesson.id,
      index: s.index,
      count: s.lesson.steps.length,
      title: step.title,
      question: step.question.text,
      revealed: s.revealed,
      answered: s.answered,
    };
    byKey.set(key, info);
  }
  return info;
}

/**
 * A deck over `lab`, opening step `start.index` (revealed when `start.revealed`: a reload resumes
 * where the presenter was).
 */
export function createLessonDeck(
  lab: Lab,
  lesson: Lesson,
  start: { index: number; revealed: boolean } = { index: 0, revealed: false },
): LessonDeck {
  const clamp = (i: number) => Math.max(0, Math.min(lesson.steps.length - 1, i));
  const store = createStore<LessonDeckState>()(() => ({
    lesson,
    index: clamp(start.index),
    revealed: false,
    answered: false,
    rounds: 0,
  }));
  // Read live: a reveal followed at once by Play is not refused.
  lab.actions.setRevealGuard(() => (store.getState().revealed ? null : LESSON_WAITS));
  /** Whether the deck is still on step `index`, revealed, its run `scenario` on screen. */
  const stillOn = (index: number, scenario: unknown) => {
    const deck = store.getState();
    return deck.index === index && deck.revealed && lab.app.getState().scenario === scenario;
  };
  /** Stops waiting for the run's end to flip (see flipAtEnd). */
  let stopWaitingForEnd = () => {};
  /**
   * The answer shows, and a step's "then flip to" opens Compare, once its run has reached its end
   * — played there, or by End — so that the room watches the run it predicted first (it used to
   * show the answer and replace the pipeline the moment R was pressed). Not when the presenter
   * moved on meanwhile.
   */
  const answerAtEnd = (index: number, flip: ResolvedStep['compare']) => {
    stopWaitingForEnd();
    const scenario = lab.app.getState().scenario;
    const check = () => {
      if (!stillOn(index, scenario)) return stopWaitingForEnd();
      const { view, playing } = lab.app.getState();
      if (!view || playing || lab.cursor.getState().idx < view.n) return;
      stopWaitingForEnd();
      store.setState({ answered: true });
      if (flip) lab.actions.setCompare(flip, 'Then flipped: the same run beside it.');
    };
    const offApp = lab.app.subscribe(check);
    const offCursor = lab.cursor.subscribe(check);
    stopWaitingForEnd = () => {
      offApp();
      offCursor();
      stopWaitingForEnd = () => {};
    };
  };
  /**
   * The revealed run plays at its pace from its start once it is ready — unless the presenter
   * moved on meanwhile, or moved its cursor: an End, a jump or the timeline used while the run was
   * on its way is made once it arrives (src/store/playback.ts), and stands (it was lost, and the
   * run played from its start: CI saw "1 / 10 sent", playing, after an End).
   */
  const playWhenReady = () => {
    const { index } = store.getState();
    const scenario = lab.app.getState().scenario;
    void lab.actions.settled().then(() => {
      const s = lab.app.getState();
      if (!stillOn(index, scenario)) return;
      const { t, idx } = lab.cursor.getState();
      if (s.status === 'ready' && !s.playing && t === 0 && idx === 0) lab.actions.play();
    });
  };
  const open = (index: number) => {
    const step = stepOf(lesson, index);
    stopWaitingForEnd();
    store.setState({ index, revealed: false, answered: false });
    // Whatever the previous step's run said ("waits for the room's answer") was about that run.
    lab.actions.withdrawNotice(LESSON_WAITS);
    // Each step's run starts its own undo history: Undo never goes back before the step (the
    // deck's index would stay, the step before's pipeline under this step's question: Ctrl+Z on
    // step 2 of a Flink lesson showed step 1's plain INSERT under "The same replay into an
    // upsert"), nor, on the first, before the lesson. The load puts the cursor at the run's start,
    // where it waits for the reveal.
    lab.actions.loadScenario(step.scenario, { presetRef: step.presetRef, resetHistory: true });
  };
  const actions: LessonDeckActions = {
    goTo(index) {
      const i = clamp(index);
      if (i !== store.getState().index) open(i);
    },
    next() {
      actions.goTo(store.getState().index + 1);
    },
    previous() {
      actions.goTo(store.getState().index - 1);
    },
    reveal() {
      const s = store.getState();
      if (s.answered) return;
      if (s.revealed) {
        // "Reveal now": the answer at once; the lanes still wait for the run's end.
        store.setState({ answered: true });
        return;
      }
      store.setState({ revealed: true });
      lab.actions.withdrawNotice(LESSON_WAITS);
      // A batch job plays its schedule in its own view, which tells its end (reachedEnd).
      if (stepOf(lesson, s.index).scenario.batch !== undefined) return;
      answerAtEnd(s.index, stepOf(lesson, s.index).compare);
      playWhenReady();
    },
    reachedEnd() {
      const s = store.getState();
      if (s.revealed && !s.answered) store.setState({ answered: true });
    },
    askAgain() {
      const s = store.getState();
      if (s.revealed) open(s.index);
      store.setState({ rounds: s.rounds + 1 });
    },
  };
  open(clamp(start.index));
  if (start.revealed) actions.reveal();
  return { store, actions };
}
