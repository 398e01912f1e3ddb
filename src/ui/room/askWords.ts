/**
 * What the room panel's ask button sends the phones, said on the button and its title: a teacher
 * reads there what the phones will get before pressing it (docs/classroom.md, the join flow).
 */
import type { RoomStep } from '../../views/room/protocol';

/** The ask button's words: its label, and its title (what the phones get). */
export interface AskWords {
  label: string;
  title: string;
}

/** The step's question in quotes, short enough for a tooltip. */
function quoted(step: RoomStep): string {
  const text = step.question.text;
  return `“${text.length > 120 ? `${text.slice(0, 119)}…` : text}”`;
}

/**
 * A lesson's step (`lessonStep`, its own question as the room is asked it): the phones get that
 * question — again, once the room has been asked the step (its challenge's round, say): its
 * answers kept. On the page (`lessonStep` null): the story on screen.
 */
export function askWords(asked: RoomStep | null, lessonStep: RoomStep | null): AskWords {
  if (lessonStep) {
    const n = lessonStep.stepIndex + 1;
    if (asked?.stepIndex === lessonStep.stepIndex)
      return {
        label: `Ask step ${n}’s question again`,
        title: `The phones get step ${n}’s question again, ${quoted(lessonStep)}, with the answers given to it`,
      };
    return {
      label: `Ask step ${n}’s question`,
      title: `The phones get step ${n}’s question, ${quoted(lessonStep)}`,
    };
  }
  if (asked === null)
    return {
      label: 'Ask the room',
      title: 'The phones get the story on screen: its title, its setup and its question',
    };
  return {
    label: 'Ask the story on screen',
    title: `The phones get the story on screen — its title, its setup and its question — in place of “${asked.title}” (the same story, still answered: its answers stand)`,
  };
}

/** Said when the phones already have the lesson step's question open: the press changes nothing. */
export function alreadyAskedWords(lessonStep: RoomStep): string {
  return `The phones have step ${lessonStep.stepIndex + 1}’s question: its answers stand.`;
}
