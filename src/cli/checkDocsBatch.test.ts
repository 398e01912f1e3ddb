/**
 * `delivery-lab check` on pages: a batch job's embed is run on the batch engine, as `check` runs a
 * batch scenario file (src/cli/scenarioEngine.ts, one rule for both); and each difference of a
 * multi-line inline `expect` is reported at its own field's line.
 *
 * The numbers, by hand: airflow-retry-append/append (src/scenarios/library/batch.ts, S21) — try 1
 * of 2024-03-10 appends e1..e10 and crashes after its write, its retry appends them again: 20
 * rows, 10 duplicates, sum 2 × 550 = 1,100. The streaming engine, on the same 10 events, gives 10
 * rows and no duplicate: what the old check judged. lost-ack-retry/acks-1: 11 rows, 1 duplicate.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findPreset } from '../scenarios';
import { pinExpect } from '../views/edit/pinExpect';
import { checkRun } from './cliTesting';

const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-check-batch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BATCH = 'airflow-retry-append/append';
const STREAM = 'lost-ack-retry/acks-1';

const write = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return relative('.', join(dir, name));
};

// The page's Export → "Scenario for docs CI": the scenario with its run pinned (pinExpect), and
// the same job without a workload (a batch file may leave it out: its source rows are its events).
const exported = pinExpect(findPreset(BATCH)!.variant.scenario, null);
write('pinned.json', JSON.stringify(exported, null, 2));
const { workload: _w, ...bare } = exported;
write('bare.json', JSON.stringify(bare, null, 2));

const check = (argv: string[]) => checkRun(argv);

describe('delivery-lab check: batch embeds and multi-line pins', { timeout: 60_000 }, () => {
  it('a batch preset embed pinned inline is judged by the batch engine: 20 rows, 10 duplicates', () => {
    const page = write(
      'inline.md',
      [
        `<delivery-lab-embed preset="${BATCH}" expect='{"totals":{"rows":20,"duplicates":10}}'></delivery-lab-embed>`,
        '',
        `<delivery-lab-embed preset="${BATCH}" expect='{"totals":{"rows":10,"sum":550}}'></delivery-lab-embed>`,
      ].join('\n'),
    );
    const r = check([page]);
    expect(r.lines).toEqual([
      `✓ ${page}:1 (<delivery-lab-embed>, preset ${BATCH}, pinned by expect)`,
      `✗ ${page}:3 (<delivery-lab-embed>, preset ${BATCH}, pinned by expect)`,
      `    ${page}:3: expect mismatch: totals.rows: expected 10, got 20`,
      `    ${page}:3: expect mismatch: totals.sum: expected 550, got 1100`,
      // The pin with the run's values, to accept the batch engine's 20 rows and $1,100.
      `    ${page}:3: to accept what the run shows now: expect='{"totals":{"rows":20,"sum":1100}}'`,
      'check: 2 scenarios: 1 passed, 1 failed, 0 malformed',
    ]);
    expect(r.code).toBe(3);
  });

  it('the page’s "Scenario for docs CI" export as a sidecar pins the batch embed, as check pins the file', () => {
    expect(exported.expect?.totals).toEqual({ rows: 20, duplicates: 10, lost: 0, sum: 1100 });
    const page = write(
      'sidecar.md',
      [
        `<delivery-lab-embed preset="${BATCH}" expect-file="pinned.json"></delivery-lab-embed>`,
        `<delivery-lab-embed preset="${BATCH}" expect-file="bare.json"></delivery-lab-embed>`,
      ].join('\n'),
    );
    const r = check([page, join(dir, 'pinned.json')]);
    expect(r.lines).toEqual([
      `✓ ${page}:1 (<delivery-lab-embed>, preset ${BATCH}, pinned by pinned.json)`,
      `✓ ${page}:2 (<delivery-lab-embed>, preset ${BATCH}, pinned by bare.json)`,
      `✓ ${join(dir, 'pinned.json')} (${exported.name})`,
      'check: 3 scenarios: 3 passed, 0 failed, 0 malformed',
    ]);
    expect(r.code).toBe(0);
  });

  it('each difference of a multi-line inline expect at its own field’s line', () => {
    const page = write(
      'lines.md',
      [
        `<delivery-lab-embed preset="${STREAM}"`, //     1: the tag
        `  expect='{"totals": {`, //                     2: the attribute
        '    "rows": 12,', //                            3: 11, not 12
        '    "duplicates": 3', //                        4: 1, not 3
        "  }}'></delivery-lab-embed>",
      ].join('\n'),
    );
    const r = check([page]);
    expect(r.lines).toEqual([
      `✗ ${page}:1 (<delivery-lab-embed>, preset ${STREAM}, pinned by expect)`,
      `    ${page}:3: expect mismatch: totals.rows: expected 12, got 11`,
      `    ${page}:4: expect mismatch: totals.duplicates: expected 3, got 1`,
      // At the attribute's line (2), where the pin to paste goes.
      `    ${page}:2: to accept what the run shows now: expect='{"totals":{"rows":11,"duplicates":1}}'`,
      'check: 1 scenario: 0 passed, 1 failed, 0 malformed',
    ]);
    expect(r.code).toBe(3);
  });
});
