/**
 * `sim <batch scenario> --explore`: the batch fault atlas's placements counted by hand on small
 * jobs, the minimal counterexample as a scenario edit, pairs within their bound, --check's exit 3
 * and the kinds a batch job accepts. Rules: docs/semantics/batch.md#faults (Airflow's retries,
 * https://airflow.apache.org/docs/apache-airflow/stable/core-concepts/dag-run.html).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from './main';
import type { ExploreReport } from './explore';
import { captured } from './cliTesting';

// Whole runs on a loaded two-core machine: this file's slowest test (the bound, ~70 first runs
// each enumerated again) took 2.1 s; 15 s each is ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 15_000 });

const cli = (argv: string[]) => captured(main, argv, { join: '' });

/** A daily append job over `n` events of 2024-03-10, retries=1, atomic write, no fault. */
function jobFile(n: number): string {
  const file = join(mkdtempSync(join(tmpdir(), 'batch-explore-')), 'job.json');
  const source = Array.from({ length: n }, (_, k) => ({ id: `e${k + 1}`, date: '2024-03-10' }));
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      name: 'small job',
      claim: 'exactly-once',
      batch: { task: { retries: 1 }, write: { mode: 'append' }, source },
    }),
  );
  return file;
}
const json = (r: { out: string }) => JSON.parse(r.out) as ExploreReport;

describe('sim <batch scenario> --explore', () => {
  it('depth 1: every placement of a two-event job, counted by hand; --check exits 3', () => {
    // Try 1 of 2024-03-10 starts at 2024-03-11 00:00 (86,400,000 ms), reads e1, e2, writes at
    // +60 s, one commit after 2 rows. Its placements (7):
    // - crash before-write, mid-write after 0 and 1 rows (nothing committed; try 2 writes both):
    //   3 held; after-write (committed, try 2 appends again): duplicates;
    // - a clear of 2024-03-10, 1 h after the run: its re-run appends again: duplicates;
    // - e1 or e2 landing 1 ms after try 1 started: nothing reads it again: 2 losses.
    const r = cli([jobFile(2), '--explore', '--format', 'json', '--check']);
    expect(r.code).toBe(3);
    const report = json(r);
    expect([report.placements, report.trials]).toEqual([7, 7]);
    expect(report.base).toEqual({ outcome: 'held', duplicated: 0, lost: 0 });
    expect(report.outcomes).toEqual({ held: 3, duplicates: 2, losses: 2, both: 0, stuck: 0 });
    expect(report.byKind).toEqual({
      crash: { held: 3, duplicates: 1, losses: 0, both: 0, stuck: 0 },
      clear: { held: 0, duplicates: 1, losses: 0, both: 0, stuck: 0 },
      'late-row': { held: 0, duplicates: 0, losses: 2, both: 0, stuck: 0 },
    });
    // Earliest strike: e1 landing at 86,400,001, before the write at 86,460,000.
    expect(report.counterexample).toMatchObject({
      faults: [{ field: 'batch.source', value: { id: 'e1', addedAtMs: 86_400_001 } }],
      labels: [
        'e1 lands late, at 2024-03-11 00:00, 1 ms after try 1 of 2024-03-10 started reading',
      ],
      timeMs: 86_400_001,
      outcome: 'losses',
      lost: 1,
    });
    expect(report.counterexample!.explanation[0]).toMatch(
      /^No attempt read e1 \(dated 2024-03-10\)/,
    );
    // Every trial that breaks the claim, in trial order (crash, clear, late-row), as edits: the
    // after-write crash when the write commits (read at 86,400,000, written 60 s later, 2 rows at
    // 1 s: 86,462,000); the clear 1 h after the run's end (90,062,000); each row landing late.
    expect(
      report.breaking.map((b) => [b.faults, b.timeMs, b.outcome, b.duplicated, b.lost]),
    ).toEqual([
      [
        [
          {
            field: 'batch.faults',
            value: { logicalDate: 0, tryNumber: 1, point: 'after-write', afterRows: 0 },
          },
        ],
        86_462_000,
        'duplicates',
        2,
        0,
      ],
      [
        [{ field: 'batch.clears', value: { logicalDate: 0, atMs: 90_062_000 } }],
        90_062_000,
        'duplicates',
        2,
        0,
      ],
      [
        [{ field: 'batch.source', value: { id: 'e1', addedAtMs: 86_400_001 } }],
        86_400_001,
        'losses',
        0,
        1,
      ],
      [
        [{ field: 'batch.source', value: { id: 'e2', addedAtMs: 86_400_001 } }],
        86_400_001,
        'losses',
        0,
        1,
      ],
    ]);
    expect(r.err).toBe('check: a placement breaks the claim (see the minimal counterexample)');
  });

  it('depth 2: a crash of try 1, then each crash of the retry it causes (9 pairs)', () => {
    // One event. Try 1's crash points: before-write, mid-write after 0, after-write (3); each
    // makes a try 2 with the same 3 points: 9 pairs. No commit in either try (2 × 2): e1 lost,
    // retries exhausted; exactly one try commits (2 + 2): held; both commit (1): duplicates.
    const r = cli([
      jobFile(1),
      '--explore',
      '--depth',
      '2',
      '--kinds',
      'crash',
      '--format',
      'json',
    ]);
    expect(r.code).toBe(0);
    const report = json(r);
    expect([report.placements, report.trials]).toEqual([3, 9]);
    expect(report.outcomes).toEqual({ held: 4, duplicates: 1, losses: 4, both: 0, stuck: 0 });
    // Try 1 fails at its write (86,460,000), try 2 starts 5 min later (retry_delay) and fails at
    // its own write, 86,820,000: the earliest loss, before-write twice (first of its ties).
    expect(report.counterexample).toMatchObject({
      faults: [
        { field: 'batch.faults', value: { logicalDate: 0, tryNumber: 1, point: 'before-write' } },
        { field: 'batch.faults', value: { logicalDate: 0, tryNumber: 2, point: 'before-write' } },
      ],
      timeMs: 86_820_000,
      outcome: 'losses',
    });
  });

  it('prints the counts per kind and the counterexample as an edit of the scenario', () => {
    const r = cli([jobFile(2), '--explore', '--kinds', 'crash,clear']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      '5 placements: 3 held, 2 duplicate — 1 of the 2 duplicates comes from a crash after the write, as many from a clear and re-run.',
    );
    expect(r.out).toMatch(/\ncrash +3 +1 +0 +0 +0 +4\nclear +0 +1 +0 +0 +0 +1\n/);
    expect(r.out).toContain(
      'add to "batch.faults": {"logicalDate":0,"tryNumber":1,"point":"after-write","afterRows":0}',
    );
  });

  it('a job that holds under every single fault: --check exits 0; a pair breaks it', () => {
    // S21's overwrite variant: every attempt replaces the logical date's partition (23 placements,
    // src/engine/batch/atlas.test.ts).
    const r = cli(['airflow-retry-append/overwrite', '--explore', '--format', 'json', '--check']);
    expect(r.code).toBe(0);
    expect(json(r).outcomes.held).toBe(23);
    expect(r.err).toBe('check: no placement breaks the claim');
    // Pairs: try 1 commits (its after-write fault) then try 2 — the last, retries=1 — runs. With
    // e1 landing after try 1 read, and try 2 crashing before its write (try 1 commits at
    // 86,470,000, try 2 starts 5 min later and writes at 86,830,000), e1 is never written.
    const pairs = cli(['airflow-retry-append/overwrite', '--explore', '--depth', '2', '--check']);
    expect(pairs.code).toBe(3);
    // Every losing pair holds a row landing late; the summary names it, not the cell of each
    // pair's later fault (it said "100 of the 110 come from a crash mid-write").
    expect(pairs.out).toContain(
      '221 pairs of placements: 111 held, 110 lose — every loss comes from a pair with a late-arriving row.',
    );
    expect(pairs.out).toContain(
      [
        'Minimal counterexample (losses: 1 lost, 0 duplicated), edit the scenario:',
        '  try 2 of 2024-03-10 crashes before-write',
        '  add to "batch.faults": {"logicalDate":0,"tryNumber":2,"point":"before-write","afterRows":0}',
        '  e1 lands late, at 2024-03-11 00:00, 1 ms after try 1 of 2024-03-10 started reading',
        '  set on its row of "batch.source": {"id":"e1","addedAtMs":86400001}',
      ].join('\n'),
    );
  });

  it('depth 2: a pair whose earlier fault breaks the claim alone gives that fault by itself', () => {
    // jobFile(2): e1 landing 1 ms after try 1 started (86,400,001) loses e1 on its own (depth
    // 1's counterexample). The earliest breaking pair is e1 late, then e2 late (both at
    // 86,400,001); docs/cli.md: "its counterexample is a pair only when neither of the pair's
    // faults breaks the claim alone (the one that does is given by itself)" — e1 alone, 1 lost.
    const r = cli([jobFile(2), '--explore', '--depth', '2', '--format', 'json']);
    expect(json(r).counterexample).toMatchObject({
      faults: [{ field: 'batch.source', value: { id: 'e1', addedAtMs: 86_400_001 } }],
      timeMs: 86_400_001,
      outcome: 'losses',
      lost: 1,
      duplicated: 0,
    });
  });

  it('refuses a streaming kind, and pairs past the bound, naming the option', () => {
    const file = jobFile(2);
    const wrongKind = cli([file, '--explore', '--kinds', 'crash,rebalance']);
    expect(wrongKind.code).toBe(2);
    expect(wrongKind.err).toBe(
      '--kinds (a comma-separated list): expected crash, clear or late-row, got "rebalance" for a batch job',
    );
    // 150 events: 152 crash points, 1 clear, 150 late rows; each first placement's run has about
    // as many again, so the pairs pass 20,000 after some 70 of them.
    const big = cli([jobFile(150), '--explore', '--depth', '2']);
    expect(big.code).toBe(2);
    expect(big.err).toBe(
      '--depth 2: 303 placements make more than 20,000 pairs, the bound of runs: narrow them with --kinds',
    );
  });
});
