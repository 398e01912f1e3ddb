/**
 * A lesson step as the presenter plays it: the scenario to run (its pace applied), the preset it
 * came from, what the room reads and is asked (the page's question model, src/views/library/question.ts),
 * and the lanes of its "then flip to".
 */
import type { Challenge, ScenarioInput } from '../../engine';
import { encodeChallengeLink } from '../../views/challenge/challengeLink';
import type { CompareSpec, LaneSpec } from '../../views/compare/compareSpec';
import { genericQuestion, presetQuestion, type AskedQuestion } from '../../views/library/question';
import { questionVariant } from '../defaultVariant';
import { findPreset } from '../index';
import { challengeById, checkChallenge } from '../challenges';
import { LESSON_PANELS, type Lesson, type LessonPanel, type LessonStep } from './schema';

/** One step, ready to play. */
export interface ResolvedStep {
  title: string;
  scenario: ScenarioInput;
  /** `preset-id/variant-id`, or null for an inline scenario. */
  presetRef: string | null;
  /** What the room reads before answering ('' when the step gives none). */
  setup: string;
  /**
   * What the room is asked: the step's own question, else its preset's when the step plays the
   * variant that question is about, else the question any run can be asked (4 choices).
   */
  question: AskedQuestion;
  /** Compare lanes shown after the reveal ("then flip to"), or null. */
  compare: CompareSpec | null;
  panels: readonly LessonPanel[];
  note: string;
  /** What the students then solve on their own laptops, or null. */
  challenge: LessonChallenge | null;
}

/** A step's challenge: a shipped one, or the lesson's own. */
export interface LessonChallenge {
  challenge: Challenge;
  /**
   * The lesson's own challenge, whole, as its link's hash carries it (`ch=…`: the students open
   * `?challenge=<id>#ch=…`); null for a shipped one (`?challenge=<id>` names it).
   */
  carried: string | null;
}

/** The challenge a step names or carries (parseLesson checked that it is valid). */
function stepChallenge(step: LessonStep): LessonChallenge | null {
  if (step.challenge === undefined) return null;
  if (typeof step.challenge === 'string') {
    const shipped = challengeById(step.challenge);
    return shipped ? { challenge: shipped, carried: null } : null;
  }
  const own = checkChallenge(step.challenge);
  return own.ok ? { challenge: own.challenge, carried: encodeChallengeLink(own.challenge) } : null;
}

/** The lane of a "then flip to": a guarantee's recipe, or one knob. */
export function flipLane(flip: NonNullable<LessonStep['thenFlipTo']>): LaneSpec {
  return 'guarantee' in flip
    ? { guarantee: flip.guarantee }
    : { knobs: [{ path: flip.knob, value: flip.value }] };
}

/** The key a step's prediction is kept under: `lesson-id#N` (N from 1). */
function stepKey(lesson: Pick<Lesson, 'id'>, index: number): string {
  return `${lesson.id}#${index + 1}`;
}

/** Resolve step `index` of a validated lesson (parseLesson checked that its preset exists). */
export function resolveStep(lesson: Lesson, index: number): ResolvedStep {
  const step = lesson.steps[index]!;
  const key = stepKey(lesson, index);
  const found = step.preset !== undefined ? findPreset(step.preset) : undefined;
  const base = structuredClone((found ? found.variant.scenario : step.scenario) as ScenarioInput);
  const scenario: ScenarioInput =
    step.pace === undefined ? base : { ...base, display: { ...base.display, pace: step.pace } };
  let question: AskedQuestion;
  if (step.question)
    question = {
      key,
      text: step.question.question,
      answer: step.question.answer,
      choices: false,
      mark: step.question.mark,
    };
  else if (found && questionVariant(found.preset) === found.variant.id)
    question = presetQuestion(key, found.preset);
  else question = genericQuestion(key);
  return {
    title: step.title,
    scenario,
    presetRef: found ? `${found.preset.id}/${found.variant.id}` : null,
    setup: step.setup ?? found?.preset.setup ?? '',
    question,
    compare: step.thenFlipTo ? { lanes: [flipLane(step.thenFlipTo)] } : null,
    panels: step.panels ?? LESSON_PANELS,
    note: step.note ?? '',
    challenge: stepChallenge(step),
  };
}
