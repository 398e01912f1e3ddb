/**
 * The CLI on batch scenarios: a batch preset id runs through the batch engine, its table shows
 * rows under the wrong partition, and `--check` compares with `expect` (exit 3 on a mismatch).
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { parseScenario, runBatch } from '../engine';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The parts and presets the executable imports per run, all imported (main is synchronous).
import './cliTesting';
import { main } from './main';
// The runner's optional parts (--format markdown's among them), as the executable imports them.
import './cliTesting';
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
  it('a backfill that skips a date says so under the runs, in text, JSON and Markdown', () => {
    // backfill-beside-production/append (src/scenarios/library/batch.ts): the backfill reaches
    // 2024-03-13 at 2024-03-14 00:00:03 while its scheduled run (00:00 to 00:01:02) is running:
    // "If the latest run is still running or is queued, we do not create another run"
    // (https://airflow.apache.org/docs/apache-airflow/stable/core-concepts/backfill.html).
    const words =
      'backfill of 2024-03-13 skipped at 2024-03-14 00:00: try 1 of 2024-03-13 (the scheduled run, started 2024-03-14 00:00) was still running (a backfill creates no second run of a date whose latest run is queued or running)';
    const text = cli(['backfill-beside-production/append']).stdout;
    expect(text).toContain(`  ${words}\n`);
    // One row read: "1 row", not "1 rows".
    expect(text).toContain(
      '(a backfill, started 2024-03-13 23:57): success, its window pinned to the logical date ({{ ds }} = 2024-03-10), read 1 row\n',
    );
    const json = JSON.parse(
      cli(['backfill-beside-production/append', '--format', 'json']).stdout,
    ) as {
      backfillSkips: unknown[];
    };
    expect(json.backfillSkips).toEqual([
      { at: 4 * 86_400_000 + 3_000, logicalDate: 3, afterAttempts: 7, words },
    ]);
    const md = cli(['backfill-beside-production/append', '--format', 'markdown']).stdout;
    expect(md).toContain(`- ${words}\n`);
    expect(md).toContain('read 1 row\n');
  }, 60_000);
  it('a fault no attempt took is flagged with ⚠ under the runs, in text, JSON and Markdown', () => {
    // retries 0: try 1 of 2024-03-10 is the date's only try. Fault 0 strikes it (after its
    // write); fault 1 names the same try (the first listed takes it); fault 2 a try 3 that never
    // comes. The table: e1 once (the write committed before the crash).
    const file = join(mkdtempSync(join(tmpdir(), 'batch-')), 'unfired.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        name: 'unfired faults',
        batch: {
          source: [{ id: 'e1', date: '2024-03-10' }],
          faults: [
            { logicalDate: 0, tryNumber: 1, point: 'after-write' },
            { logicalDate: 0, tryNumber: 1, point: 'before-write' },
            { logicalDate: 0, tryNumber: 3, point: 'mid-write', afterRows: 1 },
          ],
        },
      }),
    );
    const text = cli([file]).stdout;
    expect(text).toContain(
      '  ⚠ fault 1, before-write on try 1 of 2024-03-10, never fired: fault 0 strikes that try first (one fault per try)\n  ⚠ fault 2, mid-write after 1 row on try 3 of 2024-03-10, never fired: 2024-03-10 had 1 try\n',
    );
    const json = JSON.parse(cli([file, '--format', 'json']).stdout) as {
      faultsNeverFired: unknown[];
    };
    expect(json.faultsNeverFired).toEqual([
      {
        index: 1,
        fault: 'before-write on try 1 of 2024-03-10',
        why: 'fault 0 strikes that try first (one fault per try)',
      },
      {
        index: 2,
        fault: 'mid-write after 1 row on try 3 of 2024-03-10',
        why: '2024-03-10 had 1 try',
      },
    ]);
    expect(cli([file, '--format', 'markdown']).stdout).toContain(
      '- ⚠ fault 2, mid-write after 1 row on try 3 of 2024-03-10, never fired: 2024-03-10 had 1 try\n',
    );
  }, 60_000);
  it("the text report opens with the job's setup, as the page shows it before Play", () => {
    // redis-claim-order/claim-then-write (src/scenarios/library/batchDedupe.ts): its store, its
    // order and its planned crash were said nowhere in the text report.
    const text = cli(['redis-claim-order/claim-then-write']).stdout;
    const job = text.slice(text.indexOf('Job:\n'), text.indexOf('\nRuns:\n'));
    expect(job.split('\n').map((l) => l.split(':')[0])).toEqual([
      'Job',
      '  Schedule',
      '  Task',
      '  Reads',
      '  Writes',
      '  Dedupe',
      '  Planned',
      '',
    ]);
    expect(job).toContain('  Dedupe: Redis SET dedupe:{key} 1 NX EX ');
    // The Markdown report (the page's Export) has it too.
    expect(cli(['redis-claim-order/claim-then-write', '--format', 'markdown']).stdout).toContain(
      '### Job\n\n- Schedule: @daily from 2024-03-10, 1 logical date; each runs when its interval ends\n',
    );
  }, 60_000);
  it('--check exits 3 on a mismatch, naming the field', () => {
    const scenario = structuredClone(findBatchPreset('airflow-retry-append')!.variant.scenario);
    scenario.expect = { totals: { rows: 10 } };
    const file = join(mkdtempSync(join(tmpdir(), 'batch-')), 'retry.json');
    writeFileSync(file, JSON.stringify(scenario));
    const r = cli([file, '--check']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('expect mismatch: totals.rows: expected 10, got 20');
    // The file's pin with the batch run's 20 rows (the retry appended the day's 10 again).
    expect(r.stderr).toContain(
      'to accept what the run shows now: set its "expect" block to {"totals":{"rows":20}}',
    );
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

describe('--format markdown on a batch scenario: the batch report, not the text one', () => {
  it('clear-rerun-window: the rows under the wrong partition and the clock window, as Markdown', () => {
    // The clear of 2024-03-10 at 2024-03-13 01:00 reads current_date() - 1 = 2024-03-12 (f1, f2)
    // and overwrites partition 2024-03-10 with them: e1..e3 lost, f1 and f2 twice, once under the
    // wrong partition (docs/semantics/batch.md#expected-counts).
    const r = cli(['clear-rerun-window', '--format', 'markdown', '--heading-level', '1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# Re-run — clock window, overwrite\n/);
    expect(r.stdout).toContain(
      '4 rows, sum 600 of 360; 2 duplicates, 3 lost (0 false merges), 2 rows under the wrong partition.',
    );
    expect(r.stdout).toContain('- 2024-03-10: f1 (**wrong partition**), f2 (**wrong partition**)');
  }, 60_000);

  it('content-key-false-merge: p2 lost to p1’s content key, named a false merge', () => {
    // p1 and p2 have the same time, user, item and amount (09:15, u1, tea, 5): the dedupe store's
    // SET dedupe:{key} NX finds p1's claim and p2 is skipped (https://redis.io/docs/latest/commands/set/).
    const r = cli(['content-key-false-merge/content-key-store', '--format', 'markdown']);
    expect(r.stdout).toContain('3 rows, sum 18 of 23; 0 duplicates, 1 lost (1 false merge),');
    expect(r.stdout).toContain('- **false-merge** p2: p2 and p1 are two real events');
  }, 60_000);
});

describe('a batch job through every format: the batch engine, or a refusal naming the option', () => {
  // By hand (src/scenarios/library/batch.ts, S21): append with retries=1, try 1 appends e1..e10
  // and crashes after its write, try 2 appends them again: 20 rows, sum 1,100 of 550, each event
  // twice. The streaming engine on its 10 events gave 10 rows, sum 550: what these pin against.
  it('--format json: the contract fields (scenario, seed, traceHash, totals, guarantee) beside the batch ones', () => {
    const r = cli(['airflow-retry-append/append', '--format', 'json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as Record<string, unknown> & {
      traceHash: string;
      hash: string;
      guarantee: { explanations: { fate: string; events: string[] }[] };
    };
    expect(j.scenario).toBe('Airflow retry — append');
    expect(j.preset).toBe('airflow-retry-append/append');
    expect(j.seed).toBe(1);
    expect(j.totals).toEqual({
      events: 10,
      sinkRows: 20,
      duplicates: 10,
      lost: 0,
      expectedSum: 550,
      observedSum: 1100,
      doubleCounted: 10,
    });
    expect(j.guarantee).toMatchObject({
      claimed: 'exactly-once',
      observed: 'at-least-once',
      held: false,
    });
    expect(j.guarantee.explanations.map((x) => [x.fate, x.events.length])).toEqual([
      ['duplicated', 10],
    ]);
    // traceHash: SHA-256 of the batch trace's JSON lines, the bytes its short `hash` digests.
    const parsed = parseScenario(findBatchPreset('airflow-retry-append')!.variant.scenario);
    if (!parsed.ok) throw new Error('the preset parses');
    const trace = runBatch(parsed.scenario);
    const sha = createHash('sha256')
      .update(trace.run.trace.map((e) => JSON.stringify(e)).join('\n'))
      .digest('hex');
    expect(j.traceHash).toBe(sha);
    expect(j.hash).toBe(trace.run.hash);
    expect(j.hash).toMatch(/^[0-9a-f]{16}$/);
    // The batch fields stay.
    expect(Object.keys(j)).toEqual(
      expect.arrayContaining(['attempts', 'statements', 'partitions', 'verdict', 'explanations']),
    );
  }, 60_000);

  it('--format sql: the SQL the job ran (two appends of e1..e10), not the stream sink’s', () => {
    const r = cli(['airflow-retry-append/append', '--format', 'sql']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^-- Airflow retry — append: the SQL the batch job's writes ran, in commit order\./,
    );
    expect(
      r.stdout.match(/^INSERT INTO target \(event_id, event_date, amount, ds\)$/gm),
    ).toHaveLength(2);
    expect(r.stdout).not.toContain('sum 550');
  }, 60_000);

  it('--format mermaid and --diagram on a batch job: exit 2 naming the option', () => {
    const mermaid = cli(['airflow-retry-append/append', '--format', 'mermaid']);
    expect(mermaid.code).toBe(2);
    expect(mermaid.stdout).toBe('');
    expect(mermaid.stderr).toMatch(/^--format mermaid is not available for batch jobs/);
    const diagram = cli([
      'airflow-retry-append/append',
      '--format',
      'markdown',
      '--diagram',
      'flow',
    ]);
    expect(diagram.code).toBe(2);
    expect(diagram.stderr).toMatch(/^--diagram is not available for batch jobs/);
  }, 60_000);
});
