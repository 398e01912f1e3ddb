import { describe, expect, it } from 'vitest';
import type { RoomStep } from '../../views/room/protocol';
import { INITIAL_STUDENT_ROOM, reduceStudentRoom } from './studentRoomState';

const step = (stepIndex: number): RoomStep => ({
  stepIndex,
  title: `Step ${stepIndex + 1}`,
  question: { kind: 'number', text: 'How many rows?', unit: 'rows' },
});

describe('a student’s room', () => {
  it('takes a reveal of the step open only', () => {
    const onStep2 = reduceStudentRoom(
      { ...INITIAL_STUDENT_ROOM, joined: true, status: 'open' },
      { type: 'step', step: step(1) },
    );
    const tally = { counts: { '24': 1 }, answered: 1, students: 1 };
    // Step 1's reveal, late: step 2 stays open, unrevealed.
    const late = reduceStudentRoom(onStep2, {
      type: 'reveal',
      reveal: { answer: '24 rows.', correct: '24' },
      tally: { stepIndex: 0, ...tally },
    });
    expect(late).toBe(onStep2);
    // Its own reveal closes and reveals it.
    const own = reduceStudentRoom(onStep2, {
      type: 'reveal',
      reveal: { answer: '20 rows.', correct: '20' },
      tally: { stepIndex: 1, ...tally },
    });
    expect(own).toMatchObject({ closed: true, reveal: { answer: '20 rows.', correct: '20' } });
  });

  it('rejoining a revealed step keeps the room’s bars (a reload showed the answer without them)', () => {
    const tally = { stepIndex: 0, counts: { '24': 2, '20': 1 }, answered: 3, students: 4 };
    const back = reduceStudentRoom(INITIAL_STUDENT_ROOM, {
      type: 'joined',
      sessionId: 'session-1',
      studentToken: 'a-student-token-0123',
      step: step(0),
      answer: '20',
      closed: true,
      reveal: { answer: '24 rows.', correct: '24' },
      tally,
    });
    expect(back).toMatchObject({ joined: true, answer: '20', closed: true, tally });
  });
});
