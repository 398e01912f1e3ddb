/**
 * A preset's question as the room asks it (the page's question model, src/views/library/question.ts):
 * a multiple-choice question keeps its options; a number question asks its first number (the
 * room's histogram needs one value per student); a question answered by naming events or in
 * words is asked as the question any run can be asked, with its four choices. The reveal carries
 * the preset's answer and, where one value is right, that value.
 */
import type { Preset } from '../../scenarios';
import { GENERIC_QUESTION, numberUnit, PREDICTION_CHOICES } from '../library/question';
import { ROOM_LIMITS, type RoomQuestion, type RoomReveal, type RoomStep } from './protocol';

function presetRoomQuestion(p: Pick<Preset, 'predict'>): RoomQuestion {
  const mark = p.predict.mark;
  if (mark.kind === 'choice')
    return {
      kind: 'choice',
      text: p.predict.question,
      options: mark.options.map((o) => ({ id: o.id, text: o.text })),
    };
  if (mark.kind === 'numbers' && mark.values[0]) {
    const first = mark.values[0];
    const text =
      mark.values.length > 1
        ? `${p.predict.question} (The room answers the first number: ${first.what}.)`
        : p.predict.question;
    return { kind: 'number', text, unit: numberUnit(first) };
  }
  return {
    kind: 'choice',
    text: GENERIC_QUESTION,
    options: PREDICTION_CHOICES.map((c) => ({ id: c.id, text: c.label })),
  };
}

/** The step the room sees for a preset: its title, its setup and its question. */
export function presetRoomStep(
  p: Pick<Preset, 'predict' | 'title'> & { setup?: string },
  stepIndex: number,
): RoomStep {
  const setup = p.setup?.slice(0, ROOM_LIMITS.setupChars);
  return {
    stepIndex,
    title: p.title,
    ...(setup ? { setup } : {}),
    question: presetRoomQuestion(p),
  };
}

/**
 * What the reveal tells the room for a preset. The generic question's right choice depends on
 * the run (`observed`, the verdict's); without it, only the answer in words.
 */
export function presetRoomReveal(p: Pick<Preset, 'predict'>, observed: string | null): RoomReveal {
  const mark = p.predict.mark;
  const answer = p.predict.answer;
  if (mark.kind === 'choice') {
    const right = mark.options.find((o) => o.right);
    return right ? { answer, correct: right.id } : { answer };
  }
  if (mark.kind === 'numbers' && mark.values[0])
    return { answer, correct: String(mark.values[0].value) };
  const shown = PREDICTION_CHOICES.find((c) => c.id === observed);
  return shown
    ? { answer: answer || `The run shows ${shown.shows}.`, correct: shown.id }
    : { answer };
}
