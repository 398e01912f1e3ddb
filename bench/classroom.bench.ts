/**
 * The classroom server under a class: 200 students (ws clients in this process) join one session,
 * the presenter asks a question, every student answers at once, and the time is taken until the
 * presenter's tally counts all 200 — in memory, and with a results file (each answer on disk
 * before it is acknowledged). A figure, never a pass/fail: the issue asks for "within 2 s".
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startClassroomServer } from '../server/classroomServer';
import { createSession, RoomTestClient } from '../server/roomTestClient';

const STUDENTS = 200;

async function classOf(resultsFile?: string): Promise<{ joinMs: number; answerMs: number }> {
  const dist = mkdtempSync(join(tmpdir(), 'classroom-bench-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html>');
  const server = await startClassroomServer({
    host: '127.0.0.1',
    port: 0,
    distDir: dist,
    ...(resultsFile ? { resultsFile } : {}),
  });
  const created = await createSession(server.url);
  const presenter = await RoomTestClient.open(server.url);
  presenter.send({
    type: 'present',
    sessionId: created.sessionId,
    presenterToken: created.presenterToken,
  });
  await presenter.next('presenting');
  presenter.send({
    type: 'publish',
    step: {
      stepIndex: 0,
      title: 'Lost acknowledgement',
      question: { kind: 'number', text: 'How many rows will p-77 have?', unit: 'rows' },
    },
  });
  await presenter.next('tally');

  const t0 = performance.now();
  const students = await Promise.all(
    Array.from({ length: STUDENTS }, async () => {
      const s = await RoomTestClient.open(server.url);
      s.send({ type: 'join', code: created.code });
      await s.next('joined');
      return s;
    }),
  );
  const joinMs = performance.now() - t0;

  const t1 = performance.now();
  students.forEach((s, k) => s.send({ type: 'answer', stepIndex: 0, value: String(k % 3) }));
  for (;;) {
    const { tally } = await presenter.next('tally');
    if (tally.answered === STUDENTS) break;
  }
  const answerMs = performance.now() - t1;
  students.forEach((s) => s.close());
  presenter.close();
  await server.close();
  return { joinMs, answerMs };
}

const memory = await classOf();
console.log(
  `${STUDENTS} students, in memory: all joined in ${memory.joinMs.toFixed(0)} ms; all answers counted ${memory.answerMs.toFixed(0)} ms after they were sent`,
);
const file = join(mkdtempSync(join(tmpdir(), 'classroom-bench-results-')), 'results.json');
const saved = await classOf(file);
console.log(
  `${STUDENTS} students, --results file: all joined in ${saved.joinMs.toFixed(0)} ms; all answers counted ${saved.answerMs.toFixed(0)} ms after they were sent`,
);
