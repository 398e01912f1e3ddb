/**
 * `delivery-lab check` on lesson files: each step with an `expect` is run and compared with it;
 * a malformed lesson is refused naming the field.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRun } from './cliTesting';
import { shippedChallenges } from '../scenarios/challenges/shipped';

const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-check-lesson-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// public/scenarios/lost-ack-duplicate.json: by hand (its description) 3 rows, 1 duplicate, sum 40.
const scenario = JSON.parse(readFileSync('public/scenarios/lost-ack-duplicate.json', 'utf8')) as {
  expect: { totals: Record<string, number> };
};
const wrong = structuredClone(scenario);
// The run still has its duplicate: 3 rows, not 2.
wrong.expect.totals = { ...wrong.expect.totals, rows: 2, duplicates: 0 };
const lesson = (steps: unknown[]) =>
  JSON.stringify({ version: 1, id: 'checked', title: 'Checked', steps }, null, 2);

const check = (file: string) => checkRun([file]);

describe('delivery-lab check on a lesson file', { timeout: 60_000 }, () => {
  it('checks each step’s expect: one line each, exit 3 when one differs', () => {
    const file = join(dir, 'lesson.json');
    writeFileSync(
      file,
      lesson([
        { title: 'As pinned', scenario },
        { title: 'Pinned wrong', scenario: wrong },
      ]),
    );
    const r = check(file);
    expect(r.out).toContain('✓ ');
    expect(r.out).toContain('(Checked, step 1: As pinned)');
    expect(r.out).toContain('✗ ');
    expect(r.out).toContain('steps.1: expect mismatch: totals.rows: expected 2, got 3');
    expect(r.out.split('\n').at(-1)).toBe('check: 2 scenarios: 1 passed, 1 failed, 0 malformed');
    expect(r.code).toBe(3);
  });

  it('puts an inline step’s difference at its expect block, with the pin that holds now', () => {
    // The author edited step 2's scenario (the run still has its duplicate): the difference was
    // put at the step's line, with no "to accept what the run shows now" — a scenario file's and
    // an embed's mismatch both give it, at their expect's line.
    const file = join(dir, 'inline-wrong.json');
    const text = lesson([
      { title: 'Library', preset: 'lost-ack-retry/acks-1' },
      { title: 'Pinned wrong', scenario: wrong },
    ]);
    writeFileSync(file, text);
    const at = text.split('\n').findIndex((l) => l.includes('"expect"')) + 1;
    const r = check(file);
    expect(r.out).toContain(
      `${file}:${at}: steps.1: expect mismatch: totals.rows: expected 2, got 3`,
    );
    expect(r.out).toContain(
      `${file}:${at}: to accept what the run shows now: set steps.1.scenario.expect to {"totals":{"rows":3,"duplicates":1,`,
    );
    expect(r.code).toBe(3);
  });

  it('names a step’s fault that never fired beside its ✓, as the text report flags it', () => {
    // My step 2 as I mistyped it: the crash "in the second batch" written nth 5 — a consumer of
    // ten events polling five at a time has two batches, so it never fires, and the pin taken
    // from that run (10 rows, exact) holds. The step passed in silence.
    const never = {
      version: 1,
      name: 'Commit first, five at a time',
      workload: { topic: 'events', generate: { count: 10, startAtMs: 10, intervalMs: 10 } },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        commit: 'before-processing',
        'auto.offset.reset': 'earliest',
        'max.poll.records': 5,
        startAtMs: 1000,
      },
      sink: { type: 'table', name: 'events' },
      faults: [
        {
          id: 'crash',
          kind: 'crash',
          target: 'consumer-0',
          point: 'mid-batch',
          afterRecords: 2,
          nth: 5,
        },
      ],
      expect: { totals: { rows: 10, duplicates: 0, lost: 0, sum: 550 } },
    };
    const file = join(dir, 'never.json');
    writeFileSync(file, lesson([{ title: 'Five at a time', scenario: never }]));
    const r = check(file);
    expect(r.lines.slice(0, 2)).toEqual([
      `✓ ${file}:6 (Checked, step 1: Five at a time)`,
      `    ${file}:6: ⚠ fault "crash", a crash of consumer-0 in its 5th batch after 2 records, never fired: its condition never came`,
    ]);
    expect(r.code).toBe(0);
    // A scenario file, the same.
    const alone = join(dir, 'never.scenario.json');
    writeFileSync(alone, JSON.stringify(never, null, 2));
    expect(check(alone).out).toContain('⚠ fault "crash", a crash of consumer-0 in its 5th batch');
  });

  it('names each step at its line, as a page names each embed at its tag', () => {
    const file = join(dir, 'two-presets.json');
    // Two spaces' indent: `{` 1, version 2, id 3, title 4, "steps": [ 5, step 1's `{` 6, its
    // title 7, preset 8, `},` 9, step 2's `{` 10.
    writeFileSync(
      file,
      lesson([
        { title: 'Acks 1', preset: 'lost-ack-retry/acks-1' },
        { title: 'Idempotence off', preset: 'lost-ack-retry/idempotence-off' },
      ]),
    );
    const r = check(file);
    expect(r.out.split('\n').slice(0, 2)).toEqual([
      `✓ ${file}:6 (Checked, step 1: Acks 1)`,
      `✓ ${file}:10 (Checked, step 2: Idempotence off)`,
    ]);
    expect(r.code).toBe(0);
  });

  it('refuses a malformed lesson naming the field, exit 2', () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, lesson([{ title: 'x', preset: 'no-such-preset' }]));
    const r = check(file);
    expect(r.out).toContain('steps.0.preset: no preset "no-such-preset" in the library');
    expect(r.code).toBe(2);
  });

  it('refuses a step naming a challenge the lab does not ship, at its field, exit 2', () => {
    // Before, `check` passed it (exit 0) and the page's Import accepted it.
    const file = join(dir, 'bad-challenge.json');
    writeFileSync(
      file,
      lesson([{ title: 'x', preset: 'lost-ack-retry', challenge: 'duplicate-with-idempotence' }]),
    );
    const r = check(file);
    expect(r.out).toContain(
      'steps.0.challenge: no challenge "duplicate-with-idempotence" in the lab; known: acks-one-loses, duplicate-with-idempotence-on,',
    );
    expect(r.code).toBe(2);
  });

  it('runs a challenge of the lesson’s own as a challenge file: its count at its line', () => {
    // docs/challenges.md's table: commit-before-crash-point, 10 of 13 placements solve it. The
    // same challenge under an id of its own, then the same with a goal its start already meets.
    const own = {
      ...structuredClone(shippedChallenges.find((c) => c.id === 'commit-before-crash-point')!),
      id: 'our-crash-point',
    };
    const file = join(dir, 'own-challenge.json');
    // Two spaces' indent: `{` 1, version 2, id 3, title 4, "steps": [ 5, step 1's `{` 6, its
    // title 7, preset 8, "challenge": { 9.
    writeFileSync(
      file,
      lesson([{ title: 'Commit first', preset: 'commit-before-process', challenge: own }]),
    );
    const r = check(file);
    expect(r.out.split('\n').slice(0, 2)).toEqual([
      `✓ ${file}:9 (Checked, step 1, challenge our-crash-point: 10 of 13 placements solve it)`,
      `✓ ${file}:6 (Checked, step 1: Commit first)`,
    ]);
    expect(r.code).toBe(0);

    // Every event exactly once: the start, without its faults, already is.
    const met = join(dir, 'own-challenge-met.json');
    writeFileSync(
      met,
      lesson([
        {
          title: 'Commit first',
          preset: 'commit-before-process',
          challenge: { ...own, goal: { kind: 'exact' } },
        },
      ]),
    );
    const m = check(met);
    expect(m.out).toMatch(/✗ .*:9 \(Checked, step 1, challenge our-crash-point: /);
    expect(m.out).toContain('steps.0.challenge.goal: the start already meets it');
    expect(m.code).toBe(3);
  });

  it('a malformed lesson: each step’s problem at its own line', () => {
    const file = join(dir, 'bad-steps.json');
    // By hand: the preset is on line 3, the thenFlipTo on line 4.
    writeFileSync(
      file,
      [
        '{ "version": 1, "id": "bad-steps", "title": "Broken", "steps": [',
        '  { "title": "ok", "preset": "at-most-once" },',
        '  { "title": "bad preset", "preset": "lost-ack" },',
        '  { "title": "bad flip", "preset": "at-least-once", "thenFlipTo": { "knob": "producer.nonsense", "value": 3 } }',
        ']}',
      ].join('\n'),
    );
    const r = check(file);
    expect(r.code).toBe(2);
    const problems = r.out.split('\n').filter((l) => l.startsWith('    '));
    expect(problems.map((l) => l.slice(0, l.indexOf(': ') + 1))).toEqual([
      `    ${file}:3:`,
      `    ${file}:4:`,
    ]);
    expect(problems[0]).toContain(':3: steps.1.preset: no preset "lost-ack"');
    expect(problems[1]).toContain(':4: steps.2.thenFlipTo');
  });
});

describe('delivery-lab check on a lesson with a batch job', { timeout: 60_000 }, () => {
  it('a batch preset step runs on the batch engine: its expect (20 rows, 10 duplicates) holds', () => {
    // airflow-retry-append/append (src/scenarios/library/batch.ts, S21): try 1 appends e1..e10
    // and crashes after its write, the retry appends them again — the preset's own expect, 20
    // rows and 10 duplicates; the streaming engine on its 10 events gave 10 rows, no duplicate.
    const file = join(dir, 'batch-lesson.json');
    writeFileSync(file, lesson([{ title: 'Retry', preset: 'airflow-retry-append/append' }]));
    const r = check(file);
    expect(r.out.split('\n')).toEqual([
      `✓ ${file}:6 (Checked, step 1: Retry)`,
      'check: 1 scenario: 1 passed, 0 failed, 0 malformed',
    ]);
    expect(r.code).toBe(0);
  });
});
