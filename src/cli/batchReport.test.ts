/**
 * The CLI on batch scenarios: a batch preset id runs through the batch engine, its table shows
 * rows under the wrong partition, and `--check` compares with `expect` (exit 3 on a mismatch).
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The parts and presets the executable imports per run, all imported (main is synchronous).
import './cliTesting';
import { main } from './main';
import { findBatchPreset } from '../scenarios/library/batch';

function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = main(
    args,
    (s) => (stdout += s),
    (s) => (stderr += s),
  );
  return { code, stdout, stderr };
}

describe('batch scenarios on the command line', () => {
  it('a batch preset: the re-run read the clock, f1 and f2 sit under 2024-03-10', () => {
    const r = cli(['clear-rerun-window', '--check']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('2024-03-10: f1! f2!');
    expect(r.stdout).toContain('current_date() - 1 = 2024-03-12 at 2024-03-13 01:00');
    expect(r.stderr).toContain('check: the run matches');
  }, 60_000);
  it('--check exits 3 on a mismatch, naming the field', () => {
    const scenario = structuredClone(findBatchPreset('airflow-retry-append')!.variant.scenario);
    scenario.expect = { totals: { rows: 10 } };
    const file = join(mkdtempSync(join(tmpdir(), 'batch-')), 'retry.json');
    writeFileSync(file, JSON.stringify(scenario));
    const r = cli([file, '--check']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('expect mismatch: totals.rows: expected 10, got 20');
  }, 60_000);
  it('--format json carries the statements as data', () => {
    const r = cli(['airflow-retry-append', '--format', 'json']);
    const json = JSON.parse(r.stdout) as {
      statements: { kind: string; partitions: number[]; rows: string[] }[];
    };
    expect(json.statements.map((s) => s.kind)).toEqual(['insert', 'insert']);
    expect(json.statements[0]!.rows).toHaveLength(10);
  }, 60_000);
});
