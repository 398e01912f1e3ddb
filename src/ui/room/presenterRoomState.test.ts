import { describe, expect, it } from 'vitest';
import type { RoomStep } from '../../views/room/protocol';
import { INITIAL_ROOM, publishedRoom, reduceRoom, type PresenterRoom } from './presenterRoomState';

const step = (stepIndex: number): RoomStep => ({
  stepIndex,
  title: `Step ${stepIndex + 1}`,
  question: { kind: 'number', text: 'How many rows?', unit: 'rows' },
});
const tally = (stepIndex: number, counts: Record<string, number>, students = 3) => ({
  stepIndex,
  counts,
  answered: Object.values(counts).reduce((a, b) => a + b, 0),
  students,
});

/** The server's `presenting` for a room with nothing asked yet and `students` present. */
function presentingWith(students: number) {
  return {
    type: 'presenting',
    sessionId: 'session-1',
    code: 'ABC234',
    joinUrl: 'http://127.0.0.1/?join=ABC234',
    codeExpiresAt: 0,
    step: null,
    tally: null,
    closed: false,
    reveal: null,
    students,
  } as const;
}

/** A presenter who asked step 1, saw two answers come in, and moved on to step 2. */
function movedOn(): PresenterRoom {
  let r = reduceRoom(INITIAL_ROOM, presentingWith(3));
  r = publishedRoom(r, step(0), false);
  r = reduceRoom(r, { type: 'tally', tally: tally(0, { '21': 1, '24': 1 }) });
  r = reduceRoom(r, { type: 'closed', stepIndex: 0 });
  return publishedRoom(r, step(1), false);
}

describe("the presenter's room while the server has not answered", () => {
  it('shows a new step open and empty, the students still counted', () => {
    const r = movedOn();
    expect(r.step).toEqual(step(1));
    expect(r.tally).toEqual(tally(1, {}));
    expect(r.closed).toBe(false);
    expect(r.reveal).toBeNull();
  });

  it('shows a step opened again with its last known tally and state, not an empty histogram', () => {
    // One more student joined meanwhile (the server's tally of step 2 says 4).
    let r = reduceRoom(movedOn(), { type: 'tally', tally: tally(1, {}, 4) });
    r = publishedRoom(r, step(0), false);
    expect(r.tally).toEqual(tally(0, { '21': 1, '24': 1 }, 4));
    expect(r.closed).toBe(true);
    expect(r.reveal).toBeNull();
  });

  it('shows a revealed step opened again revealed; asked again, open and empty', () => {
    let r = publishedRoom(movedOn(), step(0), false);
    const reveal = { answer: '24 rows', correct: '24' };
    r = reduceRoom(r, { type: 'reveal', reveal, tally: tally(0, { '21': 1, '24': 1 }) });
    r = publishedRoom(publishedRoom(r, step(1), false), step(0), false);
    expect(r.reveal).toEqual(reveal);
    expect(r.tally?.answered).toBe(2);
    r = publishedRoom(r, step(0), true);
    expect(r.reveal).toBeNull();
    expect(r.closed).toBe(false);
    expect(r.tally).toEqual(tally(0, {}));
  });

  it('ignores a reveal of the step before, answered once the presenter had moved on', () => {
    const r = reduceRoom(movedOn(), {
      type: 'reveal',
      reveal: { answer: '24: p-4 twice and p-5..p-7 twice.', correct: '24' },
      tally: tally(0, { '21': 1, '24': 1 }),
    });
    expect(r.reveal).toBeNull();
    expect(r.closed).toBe(false);
    expect(r.tally).toEqual(tally(1, {}));
  });

  it('ignores a tally of another step than the one open', () => {
    const r = reduceRoom(movedOn(), { type: 'tally', tally: tally(0, { '21': 3 }) });
    expect(r.tally).toEqual(tally(1, {}));
    expect(publishedRoom(r, step(0), false).tally?.counts).toEqual({ '21': 1, '24': 1 });
  });
});

describe('the students present, before any question and after', () => {
  it('reads them from presenting, then from each attendance; nothing until the server says', () => {
    expect(INITIAL_ROOM.students).toBeNull();
    let r = reduceRoom(INITIAL_ROOM, presentingWith(0));
    expect(r.students).toBe(0);
    r = reduceRoom(r, { type: 'attendance', students: 1 });
    r = reduceRoom(r, { type: 'attendance', students: 2 });
    expect(r.students).toBe(2);
    r = reduceRoom(r, { type: 'attendance', students: 1 });
    expect(r.students).toBe(1);
    expect(r.step).toBeNull();
  });
});

describe('the first question asked', () => {
  it('counts the students present at once (0 of 2), before the server’s tally', () => {
    // It showed "0 of 0 answered" until the server's tally came: no tally before a first step.
    const r = reduceRoom(INITIAL_ROOM, presentingWith(2));
    expect(publishedRoom(r, step(0), false).tally).toEqual(tally(0, {}, 2));
  });
});

describe("the presenter's seat refused", () => {
  it('is lost for good on a refused present (bad token or an ended room), its link closed', () => {
    const open = { ...INITIAL_ROOM, status: 'open' as const };
    for (const reason of ['bad-token', 'ended'] as const) {
      const r = reduceRoom(open, { type: 'refused', reason, message: 'no' });
      expect(r).toMatchObject({ lost: reason, status: 'closed', presented: false, refusal: null });
    }
  });

  it('keeps its seat on any other refusal, saying it', () => {
    const r = reduceRoom(INITIAL_ROOM, {
      type: 'refused',
      reason: 'stale-step',
      message: 'that step is no longer open',
    });
    expect(r).toMatchObject({ lost: null, refusal: 'that step is no longer open' });
  });
});

describe('a challenge round’s solutions', () => {
  const round: RoomStep = {
    stepIndex: 0,
    title: 'Challenge: Find the crash point',
    question: { kind: 'challenge', text: 'Solved?', challenge: 'commit-before-crash-point' },
  };
  const sent = [
    { solution: { knobs: [{ path: 'sink.statement', value: 'upsert' }], faults: [] }, students: 2 },
  ];

  it('lists the solutions of the round open, and none of another round', () => {
    let r = publishedRoom(reduceRoom(INITIAL_ROOM, presentingWith(3)), round, false);
    expect(r.solutions).toEqual([]);
    r = reduceRoom(r, { type: 'solutions', stepIndex: 0, solutions: sent });
    expect(r.solutions).toEqual(sent);
    // A late list for another step (the room moved on) is not this round's.
    expect(reduceRoom(r, { type: 'solutions', stepIndex: 1, solutions: [] }).solutions).toEqual(
      sent,
    );
    // The step's own question (its round before the challenge's): no solution shows with it.
    const back = publishedRoom(r, step(0), false);
    expect(back.solutions).toEqual([]);
    expect(
      reduceRoom(back, { type: 'solutions', stepIndex: 0, solutions: sent }).solutions,
    ).toEqual([]);
  });

  it('a presenter who reloads gets the round’s solutions with the room', () => {
    const r = reduceRoom(INITIAL_ROOM, {
      ...presentingWith(3),
      step: round,
      tally: tally(0, { solved: 2 }),
      solutions: sent,
    });
    expect(r.solutions).toEqual(sent);
  });
});
