/**
 * A student's answer to a step that is not the one open is refused naming `stepIndex`, in words
 * true of it: a step the room was asked and left ("the presenter moved on"), or one it never was
 * — a message built by hand said "the presenter moved on" of a step nobody had opened.
 */
import { expect, it } from 'vitest';
import { Sessions } from './sessions';
import type { RoomStep } from '../src/views/room/protocol';

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
  sessions.publish(session, step(0), 1);
  const joined = sessions.join(session.code, 'Ada', undefined, 2);
  if ('reason' in joined) throw new Error(joined.message);
  sessions.publish(session, step(1), 3);
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
