/**
 * `sim <batch job> --compare <lane>`: the lanes run on the batch engine and are compared as the
 * page's batch Compare compares them (src/views/batch/batchCompare.ts), in text and JSON, whatever
 * names lane 2 (a guarantee, a knob, a preset, a share link, a scenario file); a stream beside a
 * batch job, or a batch job beside a stream, is refused (exit 2).
 *
 * The numbers, by hand (src/scenarios/library/batch.ts, S21): airflow-retry-append/append —
 * retries=1, try 1 of 2024-03-10 appends e1..e10 and crashes after its write, try 2 appends them
 * again: 20 rows, each event twice (duplicated), claimed exactly-once, broken. /overwrite — the
 * retry overwrites partition 2024-03-10: 10 rows, each once. The at-most-once recipe runs no retry
 * (batch.task.retries 0): try 1's 10 rows, once each; at-least-once retries twice (2), and the
 * append's one retry already succeeds: 20 rows as lane 1. The streaming engine run on the same
 * 10 events gave "10 rows, 0 of 10 events differ" — the defect these pin.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findPreset } from '../scenarios';
import { encodeShare } from '../views/io/shareLink';
import { captured } from './cliTesting';
import { main } from './main';

const cli = (argv: string[]) => captured(main, argv);
const APPEND = 'airflow-retry-append/append';
const OVERWRITE = 'airflow-retry-append/overwrite';
const TWICE_THEN_ONCE = Array.from(
  { length: 10 },
  (_, i) => `  e${i + 1}: 2 rows, duplicated | 1 row, once`,
);

const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-compare-batch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The diff lines of a text compare: the events that differ, one a line. */
const diffLines = (out: string) =>
  out
    .slice(out.indexOf('── per-event diff'))
    .split('\n')
    .filter((l) => /^ {2}\S/.test(l));

describe('sim --compare on a batch job', { timeout: 60_000 }, () => {
  it('a guarantee lane: the batch lanes, 10 of 10 events differ, batch.task.retries 1 | 0 | 2', () => {
    const r = cli([APPEND, '--compare', 'at-most-once', '--compare', 'at-least-once']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Rows 20, sum 1100 of 550; duplicates 10, lost 0');
    expect(r.out).toContain('Rows 10, sum 550 of 550; duplicates 0, lost 0');
    expect(r.out).toContain('  claim (the verdict): exactly-once | at-most-once | at-least-once');
    expect(r.out).toContain('  batch.task.retries (batch job): 1 | 0 | 2');
    expect(r.out).toContain('── per-event diff: 10 of 10 events differ (lanes 1 | 2 | 3)');
    expect(diffLines(r.out)).toEqual(TWICE_THEN_ONCE.map((l) => `${l} | 2 rows, duplicated`));
    expect(r.out).not.toContain('identical traces');
  });

  it('a preset lane, a share link lane, an exported scenario file lane: the batch runs each', () => {
    const overwrite = findPreset(OVERWRITE)!.variant.scenario;
    const file = join(dir, 'overwrite.scenario.json');
    writeFileSync(file, JSON.stringify(overwrite, null, 2));
    for (const lane of [OVERWRITE, `http://localhost:5173/#${encodeShare(overwrite)}`, file]) {
      const r = cli([APPEND, '--compare', lane]);
      expect(r.code, lane).toBe(0);
      expect(r.out, lane).toContain('── per-event diff: 10 of 10 events differ (lanes 1 | 2)');
      expect(diffLines(r.out), lane).toEqual(TWICE_THEN_ONCE);
      expect(r.out, lane).toContain(
        '  batch.write.mode (batch job): "append" | "overwrite-partition"',
      );
    }
    // A share link of the batch job as lane 1.
    const link = `#${encodeShare(findPreset(APPEND)!.variant.scenario)}`;
    const r = cli([link, '--compare', 'at-most-once']);
    expect(r.code).toBe(0);
    expect(diffLines(r.out)).toEqual(TWICE_THEN_ONCE);
  });

  it('--format json: { lanes, refused, diff, knobs }, each lane the batch report', () => {
    const r = cli([APPEND, '--compare', 'at-most-once', '--format', 'json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as {
      lanes: { lane: string; totals: { sinkRows: number }; guarantee: { held: boolean } }[];
      refused: unknown[];
      diff: { id: string; fates: { count: number; fate: string; why?: string }[] }[];
      knobs: { path: string; values: string[] }[];
    };
    expect(j.lanes.map((l) => [l.lane, l.totals.sinkRows, l.guarantee.held])).toEqual([
      [APPEND, 20, false],
      ['at-most-once', 10, true],
    ]);
    expect(j.refused).toEqual([]);
    expect(j.diff.map((d) => d.id)).toEqual(Array.from({ length: 10 }, (_, i) => `e${i + 1}`));
    expect(j.diff[6]!.fates.map((f) => [f.count, f.fate])).toEqual([
      [2, 'duplicated'],
      [1, 'once'],
    ]);
    expect(j.diff[6]!.fates[0]!.why).toMatch(/^e7 \(dated 2024-03-10\) was written by try 1/);
    expect(j.knobs).toContainEqual({
      path: 'batch.task.retries',
      name: 'batch.task.retries',
      values: ['1', '0'],
    });
  });

  it('--format markdown: the batch report, then the batch Compare section', () => {
    const r = cli([APPEND, '--compare', 'at-most-once', '--format', 'markdown']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^## Airflow retry — append\n/);
    const compare = r.out.slice(r.out.indexOf('### Compare'));
    expect(compare).toContain('10 of 10 events differ between the lanes.');
    expect(compare).toContain('| e7 | 2 rows, duplicated | 1 row, once |');
    // Not the streaming engine's section (10 rows, identical traces).
    expect(r.out).not.toContain('identical traces');
  });

  it('a batch field as a knob lane, by its path', () => {
    const r = cli([APPEND, '--compare', 'batch.task.retries=0']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('  batch.task.retries (batch job): 1 | 0');
    expect(diffLines(r.out)).toEqual(TWICE_THEN_ONCE);
  });

  it('a stream lane beside a batch job, or a batch lane beside a stream: exit 2, saying why', () => {
    expect(cli([APPEND, '--compare', 'lost-ack-retry/acks-1'])).toEqual({
      code: 2,
      out: '',
      err: '--compare "lost-ack-retry/acks-1": lane 2 is a streaming scenario and lane 1 a batch job: lanes run on one engine, a stream\'s and a batch job\'s cannot be compared',
    });
    expect(cli(['lost-ack-retry/acks-1', '--compare', APPEND])).toEqual({
      code: 2,
      out: '',
      err: `--compare "${APPEND}": lane 2 is a batch job and lane 1 a streaming scenario: lanes run on one engine, a stream's and a batch job's cannot be compared`,
    });
  });
});
