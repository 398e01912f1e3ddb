/**
 * A challenge round's solutions, over real sockets on a free loopback port: a student's "Solved
 * it" carries the solution their challenge tab kept; the server checks it, keeps it with the
 * answer (the results file, the CSV) and relays it to the presenter only. Counts are exact: each
 * student is a client this test made, each solution one it sent.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ROOM_LIMITS,
  type RoomSolution,
  type RoomStep,
  type ServerMessage,
} from '../src/views/room/protocol';
import { startClassroomServer, type ClassroomServer } from './classroomServer';
import { createSession, RoomTestClient } from './roomTestClient';

vi.setConfig({ testTimeout: 10_000 });

const CHALLENGE_STEP: RoomStep = {
  stepIndex: 3,
  title: 'Challenge: Keep every payment once',
  question: { kind: 'challenge', text: 'Did the page say Solved?', challenge: 'fix-at-least-once' },
};
const IDEMPOTENT: RoomSolution = {
  knobs: [{ path: 'producer.enable.idempotence', value: true }],
  faults: [],
};
const CRASH: RoomSolution = {
  knobs: [],
  faults: [{ kind: 'crash', target: 'consumer-0', point: 'after-commit', at: 0 }],
};

const dist = mkdtempSync(join(tmpdir(), 'classroom-dist-'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>lab</title>');

let running: ClassroomServer[] = [];
const clients: RoomTestClient[] = [];
afterEach(async () => {
  clients.splice(0).forEach((c) => c.close());
  await Promise.all(running.map((s) => s.close()));
  running = [];
});

async function start(resultsFile?: string) {
  const server = await startClassroomServer({
    host: '127.0.0.1',
    port: 0,
    distDir: dist,
    ...(resultsFile ? { resultsFile } : {}),
  });
  running.push(server);
  return server;
}
async function client(server: ClassroomServer) {
  const c = await RoomTestClient.open(server.url);
  clients.push(c);
  return c;
}
/** A presenter on a new session with the challenge's round open, and `names` joined. */
async function room(server: ClassroomServer, names: string[]) {
  const created = await createSession(server.url);
  const presenter = await client(server);
  presenter.send({
    type: 'present',
    sessionId: created.sessionId,
    presenterToken: created.presenterToken,
  });
  await presenter.next('presenting');
  presenter.send({ type: 'publish', step: CHALLENGE_STEP });
  await presenter.next('tally');
  const students: RoomTestClient[] = [];
  for (const name of names) {
    const s = await client(server);
    s.send({ type: 'join', code: created.code, name });
    await s.next('joined');
    students.push(s);
  }
  return { created, presenter, students };
}
const solvedWith = (solution?: RoomSolution) => ({
  type: 'answer' as const,
  stepIndex: CHALLENGE_STEP.stepIndex,
  value: 'solved',
  ...(solution ? { solution } : {}),
});
/** Whether a message a student received carries any solution's text. */
const mentionsSolution = (m: ServerMessage) =>
  /idempotence|consumer-0|solution/.test(JSON.stringify(m));

describe('classroom server: a challenge round’s solutions', () => {
  it('relays a solution to the presenter only, anonymous, the same changes counted once', async () => {
    const server = await start();
    const { created, presenter, students } = await room(server, ['Ada', 'Bo', 'Cy', 'Di']);
    const [ada, bo, cy, di] = students as [
      RoomTestClient,
      RoomTestClient,
      RoomTestClient,
      RoomTestClient,
    ];

    ada.send(solvedWith(IDEMPOTENT));
    // Her own acknowledgement is the answer's, as ever: no solution in it.
    expect(await ada.next('accepted')).toEqual({ type: 'accepted', stepIndex: 3, value: 'solved' });
    expect(await presenter.next('solutions')).toEqual({
      type: 'solutions',
      stepIndex: 3,
      solutions: [{ solution: IDEMPOTENT, students: 1 }],
    });
    // Bo sends the same changes, Cy a crash: two solutions, the first sent by 2 students.
    bo.send(solvedWith(IDEMPOTENT));
    await bo.next('accepted');
    expect((await presenter.next('solutions')).solutions).toEqual([
      { solution: IDEMPOTENT, students: 2 },
    ]);
    cy.send(solvedWith(CRASH));
    await cy.next('accepted');
    const listed = await presenter.next('solutions');
    expect(listed.solutions).toEqual([
      { solution: IDEMPOTENT, students: 2 },
      { solution: CRASH, students: 1 },
    ]);
    // No name nor student id goes with them, even to the presenter.
    expect(JSON.stringify(listed)).not.toMatch(/Ada|Bo|Cy|"s\d"/);
    // Di solved it without a kept solution: counted as ever, no solution listed.
    di.send(solvedWith());
    await di.next('accepted');
    expect((await presenter.next('solutions')).solutions).toHaveLength(2);

    // A presenter who reloads gets them with the room.
    const reloaded = await client(server);
    reloaded.send({
      type: 'present',
      sessionId: created.sessionId,
      presenterToken: created.presenterToken,
    });
    expect((await reloaded.next('presenting')).solutions).toEqual(listed.solutions);
    reloaded.close();

    // Cy takes it back ("Not yet"): the crash is no longer a solution sent.
    cy.send({ type: 'answer', stepIndex: 3, value: 'not-solved' });
    await cy.next('accepted');
    expect((await presenter.next('solutions')).solutions).toEqual([
      { solution: IDEMPOTENT, students: 2 },
    ]);
    // The tally counts the answers as ever: Ada, Bo and Di solved it, Cy not yet.
    let tally = (await presenter.next('tally')).tally;
    while (tally.counts['not-solved'] !== 1) tally = (await presenter.next('tally')).tally;
    expect(tally.counts).toEqual({ solved: 3, 'not-solved': 1 });

    // No student ever saw a solution, their own or another's.
    for (const s of students) expect(s.received.filter(mentionsSolution)).toEqual([]);
  });

  it('refuses a malformed or too big solution, or one with another answer, naming the field', async () => {
    const server = await start();
    const { presenter, students } = await room(server, ['Ada']);
    const ada = students[0]!;
    const refusedFor = async (message: unknown) => {
      ada.send(JSON.stringify(message));
      const r = await ada.next('refused');
      return `${r.field ?? ''} | ${r.message}`;
    };
    expect(
      await refusedFor(solvedWith({ knobs: [{ path: 'producer acks', value: 1 }], faults: [] })),
    ).toBe(
      'solution.knobs.0.path | solution.knobs.0.path: a dotted knob path, e.g. producer.enable.idempotence',
    );
    expect(
      await refusedFor({ ...solvedWith(IDEMPOTENT), solution: { ...IDEMPOTENT, by: 's2' } }),
    ).toBe('solution.by | solution.by: not a field of this message');
    expect(await refusedFor(solvedWith({ knobs: [], faults: [] }))).toBe(
      'solution | solution: no change from the challenge’s start',
    );
    // Within the 4 KB a message may be, beyond the 1,500 characters a solution may be.
    const big: RoomSolution = {
      knobs: [{ path: 'sink.statement', value: 'x'.repeat(ROOM_LIMITS.solutionChars) }],
      faults: [],
    };
    expect(JSON.stringify(solvedWith(big)).length).toBeLessThan(ROOM_LIMITS.messageBytes);
    expect(await refusedFor(solvedWith(big))).toBe(
      `solution | solution: at most ${ROOM_LIMITS.solutionChars} characters as JSON`,
    );
    expect(
      await refusedFor({ type: 'answer', stepIndex: 3, value: 'not-solved', solution: CRASH }),
    ).toBe('solution | a solution goes only with a challenge’s "solved" answer');
    // Nothing reached the presenter, and Ada keeps her place: her next answer is taken.
    ada.send(solvedWith(CRASH));
    await ada.next('accepted');
    expect((await presenter.next('solutions')).solutions).toEqual([
      { solution: CRASH, students: 1 },
    ]);
    expect(presenter.received.filter((m) => m.type === 'solutions')).toHaveLength(1);

    // A question that is no challenge takes no solution, even for an option whose id is "solved".
    presenter.send({
      type: 'publish',
      step: {
        stepIndex: 4,
        title: 'Did it work?',
        question: {
          kind: 'choice',
          text: 'Did it work?',
          options: [
            { id: 'solved', text: 'Yes' },
            { id: 'no', text: 'No' },
          ],
        },
      },
    });
    await ada.next('step');
    expect(await refusedFor({ ...solvedWith(CRASH), stepIndex: 4 })).toBe(
      'solution | a solution goes only with a challenge’s "solved" answer',
    );
  });

  it('keeps each solution with its answer in the results file (version 3) and the CSV', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'classroom-solutions-')), 'results.json');
    const server = await start(file);
    const { created, presenter, students } = await room(server, ['Ada', 'Bo']);
    const [ada, bo] = students as [RoomTestClient, RoomTestClient];
    ada.send(solvedWith(IDEMPOTENT));
    await ada.next('accepted');
    bo.send(solvedWith());
    await bo.next('accepted');
    await presenter.next('solutions');

    const written = JSON.parse(readFileSync(file, 'utf8')) as {
      version: number;
      sessions: { steps: { answers: object; solutions?: object }[] }[];
    };
    expect(written.version).toBe(3);
    expect(written.sessions[0]!.steps[0]).toMatchObject({
      answers: { s1: 'solved', s2: 'solved' },
      solutions: { s1: IDEMPOTENT },
    });

    const csv = await fetch(`${server.url}api/sessions/${created.sessionId}/results.csv`, {
      headers: { authorization: `Bearer ${created.presenterToken}` },
    }).then((r) => r.text());
    const [header, ...lines] = csv.trimEnd().split('\r\n');
    expect(header!.split(',').at(-1)).toBe('solution');
    expect(
      lines.map((l) => l.split(',').slice(5, 8).concat(l.split(',').at(-1)!).join(' ')),
    ).toEqual(['s1 Ada solved enable.idempotence=true', 's2 Bo solved ']);

    // A restart with the file keeps it: the presenter's room lists it again.
    await server.close();
    running = running.filter((s) => s !== server);
    const restarted = await start(file);
    const back = await client(restarted);
    back.send({
      type: 'present',
      sessionId: created.sessionId,
      presenterToken: created.presenterToken,
    });
    expect((await back.next('presenting')).solutions).toEqual([
      { solution: IDEMPOTENT, students: 1 },
    ]);
  });
});
