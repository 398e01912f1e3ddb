/**
 * `delivery-lab check` on a challenge file (docs/challenges.md, "Pin a challenge in CI"): it was
 * read as a scenario, and refused with eleven problems for a file in the documented format
 * (`name: required`, `workload: required`, `id: unknown key` …). Now it is validated as the page
 * validates a shipped one, and run as scripts/challenge-counts.ts runs one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRun } from './cliTesting';
import { shippedChallenges } from '../scenarios/challenges/shipped';

const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-check-challenge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The challenge the author wrote (commit before the writes, a crash 2 records into batch 2).
const mine = structuredClone(shippedChallenges.find((c) => c.id === 'commit-first-exactly-once')!);

function file(name: string, value: unknown): { path: string; text: string } {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  const path = join(dir, name);
  writeFileSync(path, text);
  return { path, text };
}

/** The 1-based line of the first line of `text` that holds `words`. */
const lineOf = (text: string, words: string) =>
  text.split('\n').findIndex((l) => l.includes(words)) + 1;

describe('delivery-lab check on a challenge file', { timeout: 120_000 }, () => {
  it('passes a solvable challenge, with its count', () => {
    const { path } = file('mine.challenge.json', { $schema: './challenge.schema.json', ...mine });
    const r = checkRun([path]);
    expect(r.lines).toEqual([
      `✓ ${path} (challenge commit-first-exactly-once: 7 of 264 settings solve it)`,
      'check: 1 scenario: 1 passed, 0 failed, 0 malformed',
    ]);
    expect(r.code).toBe(0);
  });

  it('fails a challenge that is no exercise, each problem at its field’s line', () => {
    // The start loses e8..e10: "lose at least one" holds before any change (exit 3).
    const { path, text } = file('met.challenge.json', {
      ...mine,
      goal: { kind: 'lose', atLeast: 1 },
    });
    const r = checkRun([path]);
    expect(r.lines[1]).toBe(
      `    ${path}:${lineOf(text, '"goal"')}: goal: the start already meets it (lose at least 1 event), before any change: nothing is left for the student to do`,
    );
    expect(r.code).toBe(3);
  });

  it('refuses a misspelt field or lock as malformed, naming its line (exit 2)', () => {
    const { goal: _, ...rest } = mine;
    const typo = file('typo.challenge.json', { ...rest, gaol: mine.goal });
    const r = checkRun([typo.path]);
    expect(r.out).toContain(
      `${typo.path}:${lineOf(typo.text, '"gaol"')}: gaol: unknown key "gaol": not a field here (misspelt, or a field of another kind); did you mean "goal"?`,
    );
    // Read as a challenge, not as a scenario missing its workload.
    expect(r.out).not.toContain('workload');
    expect(r.code).toBe(2);
    const lock = file('lock.challenge.json', {
      ...mine,
      allow: { faults: { max: 0 }, knobs: { max: 2, locked: ['procesor.commit'] } },
    });
    const l = checkRun([lock.path]);
    expect(l.out).toContain(
      `${lock.path}:${lineOf(lock.text, '"procesor.commit"')}: allow.knobs.locked.0: procesor.commit names no knob of the start, so it would lock nothing`,
    );
    expect(l.code).toBe(2);
  });

  it('finds a challenge file under a directory, beside a package.json it passes over', () => {
    const sub = join(dir, 'workshop');
    mkdirSync(sub);
    writeFileSync(join(sub, 'package.json'), '{"name": "workshop", "version": "1.0.0"}\n');
    writeFileSync(join(sub, 'mine.json'), JSON.stringify(mine));
    const r = checkRun([sub]);
    expect(r.lines.at(-1)).toBe('check: 1 scenario: 1 passed, 0 failed, 0 malformed');
  });
});
