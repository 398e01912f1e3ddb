import { describe, expect, it } from 'vitest';
import { libraryLessons, resolveStep } from '../../scenarios/lessons';
import { RoomStepSchema } from '../../views/room/protocol';
import { lessonRoomReveal, lessonRoomStep } from './currentRoomStep';

describe('a lesson step asked of the room', () => {
  it('gives every step of every shipped lesson a valid room step, numbered by its place', () => {
    for (const lesson of libraryLessons())
      for (const [i] of lesson.steps.entries()) {
        const step = resolveStep(lesson, i);
        const asked = lessonRoomStep(step, i);
        expect(RoomStepSchema.safeParse(asked).success, `${lesson.id} step ${i + 1}`).toBe(true);
        expect(asked.stepIndex).toBe(i);
        expect(asked.title).toBe(step.title);
        // A choice question's reveal names one of its options (the histogram marks it).
        const reveal = lessonRoomReveal(step, 'at-least-once');
        if (asked.question.kind === 'choice' && reveal.correct !== undefined)
          expect(asked.question.options.map((o) => o.id)).toContain(reveal.correct);
      }
  });
});
