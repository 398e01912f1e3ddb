/**
 * A pinned fault atlas (`expect.atlas`, docs/format.md#the-fault-atlas-in-expect): "this configuration survives every
 * single fault" pinned with the run's totals and checked by the same command — `check` on a
 * scenario file or a page's embed, and the runner's `--check` — not by a second `--explore
 * --check` line in CI.
 *
 * The counts, from src/cli/explore.test.ts's hand-derived ones: at-most-once's 20 re-sends hold
 * for p-8, p-9 and p-10 (its own two losses and the event after them) and break the claim for the
 * other 17 (`both`: written twice beside the preset's own 2 losses), the earliest a re-send of
 * p-1; effectively-once holds under every one of its 268 placements (so under any of its kinds);
 * the batch job airflow-retry-append/overwrite holds under its 23 placements (docs/cli.md).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { findPreset } from '../scenarios';
import { captured, checkRun } from './cliTesting';
import { main } from './main';

// Whole atlases (20–248 runs each) on a loaded two-core machine.
vi.setConfig({ testTimeout: 120_000 });

const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-atlas-pin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A preset variant written as a scenario file, its `expect` block given the atlas pin `atlas`. */
function pinnedFile(name: string, preset: string, atlas: object): string {
  const scenario = structuredClone(findPreset(preset)!.variant.scenario) as {
    expect?: object;
  };
  scenario.expect = { ...scenario.expect, atlas };
  const file = relative('.', join(dir, name));
  writeFileSync(file, `${JSON.stringify(scenario, null, 2)}\n`);
  return file;
}

const check = (argv: string[]) => checkRun(argv);

describe('expect.atlas', () => {
  it('check: a claim that a fault breaks fails with the count, the earliest break and the pin that holds now', () => {
    const file = pinnedFile('at-most-once.json', 'at-most-once', {
      kinds: ['app-resend'],
      breaks: 0,
    });
    const r = check([file]);
    expect(r.code).toBe(3);
    const lines = r.out.split('\n');
    expect(lines[1]).toMatch(
      /: expect mismatch: atlas\.breaks: expected 0, got 17 \(the earliest: the application sends p-1 again, as a new record\)$/,
    );
    // The same kinds, the count the atlas shows now.
    expect(lines[2]).toContain('"atlas":{"kinds":["app-resend"],"breaks":17}}');
    expect(lines.at(-1)).toBe('check: 1 scenario: 0 passed, 1 failed, 0 malformed');
  });

  it('check: a pin of the counts per outcome passes, and one that differs names the outcome', () => {
    const held = pinnedFile('counts.json', 'at-most-once', {
      kinds: ['app-resend'],
      breaks: 17,
      outcomes: { held: 3, both: 17, duplicates: 0 },
    });
    expect(check([held]).code).toBe(0);
    const off = pinnedFile('counts-off.json', 'at-most-once', {
      kinds: ['app-resend'],
      outcomes: { held: 20 },
    });
    const r = check([off]);
    expect(r.code).toBe(3);
    expect(r.out).toContain('expect mismatch: atlas.outcomes.held: expected 20, got 3');
    expect(r.out).toContain('"atlas":{"kinds":["app-resend"],"outcomes":{"held":3}}');
  });

  it('the runner: --check runs the pinned atlas after the run (exit 0 held, 3 broken)', () => {
    const survives = pinnedFile('effectively-once.json', 'effectively-once/default', {
      kinds: ['drop-response', 'crash'],
      breaks: 0,
    });
    const ok = captured(main, [survives, '--check']);
    expect([ok.code, ok.err]).toEqual([0, 'check: the run matches the "expect" block']);
    const broken = captured(main, [
      pinnedFile('broken.json', 'at-most-once', { kinds: ['app-resend'], breaks: 0 }),
      '--check',
    ]);
    expect(broken.code).toBe(3);
    expect(broken.err.split('\n')[0]).toBe(
      'expect mismatch: atlas.breaks: expected 0, got 17 (the earliest: the application sends p-1 again, as a new record)',
    );
  });

  it("a batch job's pin runs the batch atlas, with the batch kinds", () => {
    const job = pinnedFile('overwrite.json', 'airflow-retry-append/overwrite', {
      breaks: 0,
      outcomes: { held: 23 },
    });
    expect(check([job]).code).toBe(0);
    expect(captured(main, [job, '--check']).code).toBe(0);
    const wrongKind = pinnedFile('overwrite-kind.json', 'airflow-retry-append/overwrite', {
      kinds: ['crash', 'drop-request'],
      breaks: 0,
    });
    const r = check([wrongKind]);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(
      /overwrite-kind\.json:\d+: expect\.atlas\.kinds\.1: expected crash, clear or late-row, got "drop-request"/,
    );
  });

  it('a misspelt kind is refused at its line, with the kind meant', () => {
    const file = pinnedFile('typo.json', 'at-most-once', { kinds: ['app-resnd'], breaks: 0 });
    const r = check([file]);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(
      /typo\.json:\d+: expect\.atlas\.kinds\.0: expected drop-request, .+, got "app-resnd" \(did you mean app-resend\?\)/,
    );
  });

  it('a depth other than 1 or 2 is refused at its line, saying which depths there are', () => {
    const file = pinnedFile('depth.json', 'at-most-once', { depth: 3, breaks: 0 });
    const r = check([file]);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(
      /depth\.json:\d+: expect\.atlas\.depth: got 3; depth is 1 \(every single fault\) or 2 \(every pair of faults\), as --explore --depth takes it/,
    );
  });

  it("a page's embed: its pin's atlas is checked beside the run's totals, at the pin's line", () => {
    const page = relative('.', join(dir, 'page.md'));
    writeFileSync(
      page,
      [
        '# At most once',
        '',
        '<delivery-lab-embed preset="at-most-once"',
        `  expect='{"totals":{"lost":2},"atlas":{"kinds":["app-resend"],"breaks":0}}'></delivery-lab-embed>`,
        '',
        '<delivery-lab-embed preset="at-most-once"',
        `  expect='{"atlas":{"kinds":["app-resent"]}}'></delivery-lab-embed>`,
        '',
      ].join('\n'),
    );
    const r = check([page]);
    expect(r.code).toBe(2);
    expect(r.out).toContain(
      `${page}:4: expect mismatch: atlas.breaks: expected 0, got 17 (the earliest: the application sends p-1 again, as a new record)`,
    );
    expect(r.out).toMatch(
      new RegExp(
        `${page.replace(/[.]/g, '\\.')}:7: expect: atlas\\.kinds\\.0: expected drop-request, .+, got "app-resent" \\(did you mean app-resend\\?\\)`,
      ),
    );
  });
});
