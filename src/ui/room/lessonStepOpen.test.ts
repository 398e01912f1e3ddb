/**
 * Whether the room's open step is the lesson's step on screen: by its number, its title and its
 * question (a room carried from the page's story or another lesson numbered its steps from 0 too).
 */
import { describe, expect, it } from 'vitest';
import type { RoomStep } from '../../views/room/protocol';
import type { RoomSource } from './currentRoomStep';
import { isLessonStepOpen } from './lessonStepOpen';

const number = (stepIndex: number, title: string, text: string): RoomStep => ({
  stepIndex,
  title,
  question: { kind: 'number', text, unit: 'rows' },
});
const challengeRound = (title: string): RoomStep => ({
  stepIndex: 0,
  title,
  question: { kind: 'challenge', text: 'Solved?', challenge: 'fix-at-least-once' },
});
const ROUND = challengeRound('Challenge: Make the sink exact with at most two knobs');
const STEP = number(0, 'At-most-once: commit first, never retry', 'How many reach the table?');
/** The lesson's step 1 on screen, revealed with its challenge or not. */
const source = (withChallenge: boolean): RoomSource => ({
  index: 0,
  closed: false,
  revealed: withChallenge,
  revealStep: () => {},
  step: () => STEP,
  reveal: () => ({ answer: '18' }),
  rounds: 0,
  askAgain: () => {},
  challenge: withChallenge
    ? { step: () => ROUND, reveal: () => ({ answer: 'One knob' }), of: null as never }
    : undefined,
});

describe('isLessonStepOpen', () => {
  it('is the step as the lesson sent it (a presenter’s reload finds it)', () => {
    expect(isLessonStepOpen(structuredClone(STEP), source(false))).toBe(true);
  });

  it('is not the page’s story, nor another lesson’s step, numbered 0 too', () => {
    const warmUp = number(0, 'A lost acknowledgement, retried', 'How many rows?');
    expect(isLessonStepOpen(warmUp, source(false))).toBe(false);
    // The same title with another question (an edited copy of the lesson) is another step.
    expect(isLessonStepOpen(number(0, STEP.title, 'How many rows?'), source(false))).toBe(false);
    expect(isLessonStepOpen({ ...STEP, stepIndex: 1 }, source(false))).toBe(false);
    expect(isLessonStepOpen(null, source(false))).toBe(false);
  });

  it('is its challenge’s round, and not another lesson’s challenge round', () => {
    expect(isLessonStepOpen(ROUND, source(true))).toBe(true);
    expect(isLessonStepOpen(challengeRound('Challenge: Find the crash point'), source(true))).toBe(
      false,
    );
  });
});
