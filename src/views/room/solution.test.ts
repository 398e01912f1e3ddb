/**
 * A student's solution as the room's protocol carries it (`answer.solution`) and as the
 * presenter's panel and the CSV put it in a line.
 */
import { describe, expect, it } from 'vitest';
import {
  ClientMessageSchema,
  describeIssue,
  ROOM_LIMITS,
  RoomSolutionSchema,
  type RoomSolution,
} from './protocol';
import { solutionLine } from './solutionLine';

const answer = (solution: unknown) => ({ type: 'answer', stepIndex: 2, value: 'solved', solution });
/** The refusal's field and words, or 'ok'. */
function checked(message: unknown): string {
  const r = ClientMessageSchema.safeParse(message);
  return r.success ? 'ok' : describeIssue(r.error).message;
}

describe('a solution in the protocol', () => {
  it('takes knobs and faults in the challenge format’s terms, and an answer without one', () => {
    expect(checked(answer({ knobs: [{ path: 'producer.acks', value: 'all' }], faults: [] }))).toBe(
      'ok',
    );
    expect(
      checked(
        answer({
          knobs: [],
          faults: [
            { kind: 'drop-response', link: 'produce', at: 120, match: { event: 'p-3', nth: 1 } },
          ],
        }),
      ),
    ).toBe('ok');
    expect(checked({ type: 'answer', stepIndex: 2, value: 'solved' })).toBe('ok');
  });

  it('refuses one malformed, empty or too big, naming the field', () => {
    expect(checked(answer({ knobs: [{ path: 'a b', value: 1 }], faults: [] }))).toBe(
      'solution.knobs.0.path: a dotted knob path, e.g. producer.enable.idempotence',
    );
    expect(checked(answer({ knobs: [{ path: 'producer.acks', value: {} }], faults: [] }))).toMatch(
      /^solution\.knobs\.0\.value: /,
    );
    expect(checked(answer({ knobs: [], faults: [{ target: 'consumer-0' }] }))).toMatch(
      /^solution\.faults\.0\.kind: /,
    );
    expect(checked(answer({ knobs: [], faults: [], from: 's2' }))).toBe(
      'solution.from: not a field of this message',
    );
    expect(checked(answer({ knobs: [], faults: [] }))).toBe(
      'solution: no change from the challenge’s start',
    );
    // 11 knobs: the format's limit is 10 changes.
    const knobs = Array.from({ length: 11 }, (_, k) => ({ path: `producer.k${k}`, value: k }));
    expect(checked(answer({ knobs, faults: [] }))).toMatch(/^solution\.knobs: /);
    const long = 'x'.repeat(ROOM_LIMITS.solutionChars - 40);
    const fits = { knobs: [{ path: 'sink.statement', value: long }], faults: [] };
    // {"knobs":[{"path":"sink.statement","value":"…"}],"faults":[]}: 60 characters around it.
    expect(JSON.stringify(fits).length).toBe(ROOM_LIMITS.solutionChars - 40 + 60);
    expect(checked(answer(fits))).toBe(
      `solution: at most ${ROOM_LIMITS.solutionChars} characters as JSON`,
    );
    const within = { knobs: [{ path: 'sink.statement', value: long.slice(20) }], faults: [] };
    expect(JSON.stringify(within).length).toBe(ROOM_LIMITS.solutionChars);
    expect(RoomSolutionSchema.safeParse(within).success).toBe(true);
  });
});

describe('a solution in a line', () => {
  it('names a client’s knob by its config name, the lab’s by its path, a fault by its fields', () => {
    const s: RoomSolution = {
      knobs: [
        { path: 'producer.enable.idempotence', value: true },
        { path: 'processor.isolation.level', value: 'read_committed' },
        { path: 'sink.statement', value: 'upsert' },
        { path: 'readers.0.isolation.level', value: null },
      ],
      faults: [
        { kind: 'crash', id: 'mine', target: 'consumer-0', point: 'after-commit', at: 0 },
        { kind: 'drop-response', link: 'produce', match: { event: 'p-3' } },
      ],
    };
    expect(solutionLine(s)).toBe(
      'enable.idempotence=true, isolation.level=read_committed, sink.statement=upsert, ' +
        'readers.0.isolation.level=null, crash target=consumer-0 point=after-commit, ' +
        'drop-response link=produce match={"event":"p-3"}',
    );
  });

  it('leaves out the fields the page’s fault menu writes at their defaults', () => {
    // As src/views/edit/faultActions.ts writes them: "Crash after the commit" at the run's start,
    // "Lose the next ack", and "Crash and stay down" at 1.058 s.
    const s: RoomSolution = {
      knobs: [],
      faults: [
        { kind: 'crash', target: 'consumer-0', point: 'after-commit', restartAfterMs: 1000, at: 0 },
        { kind: 'drop-response', link: 'produce', match: { nth: 1 }, at: 0 },
        { kind: 'crash', target: 'consumer-0', point: 'now', restartAfterMs: null, at: 1058 },
      ],
    };
    expect(solutionLine(s)).toBe(
      'crash target=consumer-0 point=after-commit, drop-response link=produce, ' +
        'crash target=consumer-0 restartAfterMs=null at=1058',
    );
    // A fault the format refuses keeps every field as sent (the panel's judge says why).
    const odd: RoomSolution = {
      knobs: [],
      faults: [{ kind: 'crash', at: 0, restartAfterMs: 1000 }],
    };
    expect(solutionLine(odd)).toBe('crash at=0 restartAfterMs=1000');
  });
});
