/**
 * A student's answer to a step that is not the one open is refused naming `stepIndex`, in words
 * true of it: a step the room was asked and left ("the presenter moved on"), or one it never was
 * — a message built by hand said "the presenter moved on" of a step nobody had opened.
 */
import { expect, it } from 'vitest';
import { Sessions, resultsOf, tallyOf } from './sessions';
import { ROOM_LIMITS, type RoomStep } from '../src/views/room/protocol';

const step = (stepIndex: number): RoomStep => ({
  stepIndex,
  title: `Step ${stepIndex + 1}`,
  question: { kind: 'number', text: 'How many rows?', unit: 'rows' },
});

it('refuses an answer to a step left, and to one never asked, each in its own words', () => {
  const sessions = new Sessions();
  const created = sessions.create(0);
  if ('reason' in created) throw new Error(created.message);
  const { session } = created;
  sessions.publish(session, step(0), 1, new Set());
  const joined = sessions.join(session.code, 'Ada', undefined, 2);
  if ('reason' in joined) throw new Error(joined.message);
  sessions.publish(session, step(1), 3, new Set([joined.student.id]));
  expect(sessions.answer(session, joined.student, 0, '18')).toMatchObject({
    reason: 'stale-step',
    field: 'stepIndex',
    message: 'that question is closed: the presenter moved on',
  });
  expect(sessions.answer(session, joined.student, 5, '18')).toMatchObject({
    reason: 'stale-step',
    field: 'stepIndex',
    message: 'stepIndex 5 was never asked: the question open is stepIndex 1',
  });
  expect(sessions.answer(session, joined.student, 1, '18')).toEqual({ stepIndex: 1, value: '18' });
});

/**
 * The server's 50 sessions are rooms running at once, not every room a results file has kept: a
 * teacher who reopened the lesson each week with the same `--results` file (as docs/classroom.md
 * says, "a restart with the same file loses no answer") was refused "Start a room" once the file
 * held 50 rooms, ended ones and last week's among them. An ended room, or one whose join code
 * has expired (ROOM_LIMITS.codeTtlMs), no longer counts; the file keeps them all.
 */
it('counts running rooms against the limit, not the ended or expired rooms it keeps', () => {
  const sessions = new Sessions();
  const made = () => {
    const created = sessions.create(0);
    if ('reason' in created) throw new Error(created.message);
    return created.session;
  };
  for (let i = 0; i < ROOM_LIMITS.sessions; i++) sessions.end(made(), 1, new Set());
  // 50 ended rooms: a new one starts, and every room is still kept.
  const running = sessions.create(2);
  expect(running).not.toHaveProperty('reason');
  expect(sessions.all()).toHaveLength(ROOM_LIMITS.sessions + 1);
  // 50 running at once: the 51st is refused, in words that say so.
  for (let i = 1; i < ROOM_LIMITS.sessions; i++) sessions.create(3);
  expect(sessions.create(4)).toMatchObject({
    reason: 'room-full',
    message: `this server already runs ${ROOM_LIMITS.sessions} rooms at once: end one (its answers stay) and start again`,
  });
  // Once their join codes have expired, they no longer count (they are kept, and rejoinable).
  expect(sessions.create(ROOM_LIMITS.codeTtlMs + 4)).not.toHaveProperty('reason');
  expect(sessions.all()).toHaveLength(2 * ROOM_LIMITS.sessions + 1);
});

/**
 * A step's "N of M answered" counts the students it was asked: the end screen said "20 of 21
 * answered" of the first step, asked of 20, a 21st having joined on the second. Each student
 * here stays present (a connection open): M is the students present when the step closed.
 */
it('a closed step’s tally counts the students present when it closed', () => {
  const sessions = new Sessions();
  const created = sessions.create(0);
  if ('reason' in created) throw new Error(created.message);
  const { session } = created;
  const present = new Set<string>();
  const join = (name: string, at: number) => {
    const joined = sessions.join(session.code, name, undefined, at);
    if ('reason' in joined) throw new Error(joined.message);
    present.add(joined.student.id);
    return joined.student;
  };
  sessions.publish(session, step(0), 1, present);
  const ada = join('Ada', 2);
  join('Bob', 3);
  sessions.answer(session, ada, 0, '18');
  sessions.reveal(session, 0, { answer: '18 rows', correct: '18' }, 4, present);
  sessions.publish(session, step(1), 5, present);
  join('Cy', 6);
  // Closed by R only, then revealed: the time of the first close stands.
  sessions.close(session, 1, 7, present);
  join('Di', 8);
  sessions.reveal(session, 1, { answer: '20 rows', correct: '20' }, 9, present);
  const tallies = (now: Set<string>) =>
    resultsOf(session, null, now).map((r) => `${r.tally.answered} of ${r.tally.students}`);
  expect(tallies(present)).toEqual(['1 of 2', '0 of 3']);
  // Closed steps keep their counts whoever is present later (here: nobody).
  expect(tallies(new Set())).toEqual(['1 of 2', '0 of 3']);
  // A step open counts the students present now.
  sessions.publish(session, step(2), 10, present);
  expect(tallyOf(session, present)).toMatchObject({ answered: 0, students: 4 });
  present.delete(ada.id);
  expect(tallyOf(session, present)).toMatchObject({ answered: 0, students: 3 });
});
