/**
 * What the room is asked now, from whatever the presenter has open: the preset's question (its
 * title and its question model), or — for a scenario of one's own — the question any run can be
 * asked. The one place the room reads the page, so a lesson's step can be read here instead.
 */
import type { LabState } from '../../store/labStore';
import type { ScenarioInput } from '../../engine';
import type { Preset } from '../../scenarios';
import { setupAboutWords, setupWrittenFor } from '../../views/library/setupFor';
import type { LessonChallenge, ResolvedStep } from '../../scenarios/lessons';
import { batchObserved } from '../../views/batch/batchObserved';
import { asksItsOwnQuestion, openPreset, presetSubject } from '../../views/library/library';
import { canonicalJson } from '../../views/run/compute';
import type { AskedQuestion } from '../../views/library/question';
import { presetRoomReveal, presetRoomStep } from '../../views/room/presetStep';
import { ROOM_LIMITS, type RoomReveal, type RoomStep } from '../../views/room/protocol';

/** A scenario of one's own asks the question any run can be asked (a `words` mark maps to it). */
const ANY_RUN: Pick<Preset, 'predict'> = {
  predict: { question: '', answer: '', mark: { kind: 'words' }, needs: [] },
};

function openQuestion(s: LabState): {
  title: string;
  setup?: string;
  preset: Pick<Preset, 'predict'>;
} {
  const found = openPreset(s.presetRef);
  if (found) {
    const { preset, variant } = found;
    if (asksItsOwnQuestion(presetSubject(s)))
      return { title: preset.title, setup: preset.setup, preset };
    const about = setupWrittenFor(preset, variant);
    if (about === undefined) {
      // Edited (a fault added, a knob changed): the preset's answer is not this run's (the page
      // keeps it untold: docs/page.md), and the room was told it — at-least-once without its
      // faults ended with 20 rows while the phones marked "24" right. The question any run can be
      // asked, of the run on screen, as on another variant.
      return {
        title: `${preset.title} — edited`,
        setup: `Set up for the story as shipped, not this edited run: ${preset.setup}`,
        preset: ANY_RUN,
      };
    }
    // On another variant the page asks nothing of the preset's question ("This question is about
    // the “idempotence off” variant"), whose answer would not be this run's: the room is asked
    // what any run can be asked, of the run on screen, its setup saying which variant it is for.
    return {
      title: `${preset.title} — ${variant.label}`,
      setup: `${setupAboutWords(about)} ${preset.setup}`,
      preset: ANY_RUN,
    };
  }
  const name = (s.scenario as { name?: unknown }).name;
  return { title: typeof name === 'string' && name ? name : 'This run', preset: ANY_RUN };
}

/** The step to publish now, numbered `stepIndex`. */
export function currentRoomStep(s: LabState, stepIndex: number): RoomStep {
  const { title, setup, preset } = openQuestion(s);
  return presetRoomStep(
    { title: title.slice(0, 200), ...(setup ? { setup } : {}), predict: preset.predict },
    stepIndex,
  );
}

/**
 * The page's ask button ("Ask the story on screen"): the step to publish, or null when the
 * question open now is the one the room is answering (`asked`, not yet revealed) — asked again, it
 * was a new step with no answer, and the room's answers were set aside (a presenter's Space on
 * the focused button, six answers in, put "0 of 6 answered" on the panel and "Send" back on every
 * phone). Steps are numbered in the order asked.
 */
export function pageStepToAsk(
  s: LabState,
  asked: RoomStep | null,
  revealed: boolean,
): RoomStep | null {
  if (asked === null) return currentRoomStep(s, 0);
  const same = currentRoomStep(s, asked.stepIndex);
  if (!revealed && canonicalJson(same) === canonicalJson(asked)) return null;
  return currentRoomStep(s, asked.stepIndex + 1);
}

/**
 * What the run on screen showed (its verdict's observed guarantee), which the four choices are
 * judged against; null while its run is not in. A batch job's, whose run the store does not hold
 * (its view is derived where shown), from the batch engine.
 */
export function observedOnScreen(s: LabState): string | null {
  if (s.viewFor !== s.scenario) return null;
  return s.view ? s.view.verdict.observed : batchObserved(s.scenario);
}

/** The reveal of what is open now: the preset's answer, or what the run showed. */
export function currentRoomReveal(s: LabState): RoomReveal {
  return presetRoomReveal(openQuestion(s).preset, observedOnScreen(s));
}

/**
 * What the room is asked by a presenter view: the lesson's step on screen (`index` from 0, which
 * numbers the room's step too) and, on the reveal, its answer.
 */
export interface RoomSource {
  /** The step on screen (from 0): a new one is asked as the presenter moves to it. */
  index: number;
  /** Whether the presenter pressed R (the run plays): the room's answers close. */
  closed: boolean;
  /** Whether the step's answer shows (the run's end, or "Reveal now"): the room's reveal follows. */
  revealed: boolean;
  /**
   * Reveals the step on screen (the presenter's R): the room panel's Reveal calls it, and the
   * room's reveal follows from `revealed` — one "revealed" for the presenter view, its address
   * and the room.
   */
  revealStep(): void;
  step(): RoomStep;
  reveal(observed: string | null): RoomReveal;
  /** How many times the presenter asked a step again: each new one asks the step afresh. */
  rounds: number;
  /** "Ask again" (A): the step on screen, asked afresh (a lesson deck's round). */
  askAgain(): void;
  /**
   * A revealed step's challenge (`steps[].challenge`), asked of the room as a round of the same
   * step: "Solved it" / "Not yet", the reveal its reference solution's why. Absent before the
   * step's answer shows (the challenge's setup would tell it) and for a step without one.
   */
  challenge?:
    | {
        step(): RoomStep;
        reveal(): RoomReveal;
        of: LessonChallenge;
        /**
         * A student's solution was opened on the projector as this scenario (one undo step): the
         * presenter view folds the step's band while it is on screen.
         */
        opened?(attempt: ScenarioInput): void;
      }
    | undefined;
}

/** A lesson step's question as a preset's `predict` (the room's question model reads that). */
function predictOf(q: AskedQuestion): Pick<Preset, 'predict'> {
  return {
    predict: {
      question: q.text,
      answer: q.answer,
      // The question any run can be asked, or an author's question in words: the four choices.
      mark: q.choices || !q.mark ? { kind: 'words' } : q.mark,
      needs: [],
    },
  };
}

/** The room's step for a lesson's step `index`. */
export function lessonRoomStep(step: ResolvedStep, index: number): RoomStep {
  return presetRoomStep(
    { title: step.title.slice(0, 200), setup: step.setup, ...predictOf(step.question) },
    index,
  );
}

/** The reveal of a lesson's step (`observed`: the run's verdict, for the four choices). */
export function lessonRoomReveal(step: ResolvedStep, observed: string | null): RoomReveal {
  return presetRoomReveal(predictOf(step.question), observed);
}

/**
 * A lesson step's challenge as the room is asked it, numbered as the step (`index`): its title,
 * its intro as the setup (an intro says the goal in its own words: the goal's sentence after it
 * said it twice, docs/challenges.md), and whether the student solved it on their own laptop — the
 * results CSV's `solved` / `not-solved` (docs/workshops.md).
 */
export function lessonChallengeStep(
  { challenge: c, carried }: LessonChallenge,
  index: number,
): RoomStep {
  return {
    stepIndex: index,
    title: `Challenge: ${c.title}`.slice(0, ROOM_LIMITS.titleChars),
    setup: c.intro.slice(0, ROOM_LIMITS.setupChars),
    question: {
      kind: 'challenge',
      text: 'Open the challenge, change the pipeline within its rules and play the run to its end: did the page say Solved?',
      challenge: c.id,
      ...(carried ? { carried } : {}),
    },
  };
}

/** The challenge round's reveal: the reference solution's why (no answer is "right"). */
export function lessonChallengeReveal({ challenge }: LessonChallenge): RoomReveal {
  return { answer: challenge.solution.why.slice(0, ROOM_LIMITS.revealChars) };
}
