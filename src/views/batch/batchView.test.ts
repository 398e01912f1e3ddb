/**
 * The batch page's view model: the calendar strip, the table by partition (wrong-partition rows
 * marked) and the edits a click makes, on the clear-rerun-window preset (derivation in
 * src/scenarios/library/batch.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../engine';
import { batchPageView, clearAndRerun, failMidWrite, type BatchPageView } from './batchView';
import { findBatchPreset } from '../../scenarios/library/batch';

const input = findBatchPreset('clear-rerun-window')!.variant.scenario;
const view = (s = input) => batchPageView(parseScenario(s)) as BatchPageView;

describe('batchPageView', () => {
  it('draws 3 dates, 4 attempts, and f1, f2 under the wrong partition 2024-03-10', () => {
    const v = view();
    expect(v.dates.map((d) => [d.label, d.attempts.length])).toEqual([
      ['2024-03-10', 2],
      ['2024-03-11', 1],
      ['2024-03-12', 1],
    ]);
    expect(v.partitions[0]).toEqual({
      label: '2024-03-10',
      rows: [
        // The re-run of 2024-03-10 (2024-03-13) wrote f1, f2 after 2024-03-12's own run had:
        // the wrong partition holds their second copies.
        { event: 'f1', wrong: true, copy: 2 },
        { event: 'f2', wrong: true, copy: 2 },
      ],
    });
    // e1..e3 lost and f1, f2 twice: neither at-most- nor at-least-once, against an exactly-once claim.
    expect(v.summary).toBe(
      '4 rows · 2 duplicates · 3 lost · 2 under the wrong partition · observed no guarantee (events lost and applied twice), claimed exactly-once: broken',
    );
    expect(v.partitions[1]).toEqual({
      label: '2024-03-12',
      rows: [
        { event: 'f1', wrong: false, copy: 1 },
        { event: 'f2', wrong: false, copy: 1 },
      ],
    });
  });
  it('backfill-beside-production: the date the backfill skipped says so, under its column', () => {
    // src/scenarios/library/batch.ts: the backfill of 03-10..03-13 starts at 2024-03-13 23:57, its
    // runs take 61 s each (60 s read, 1 row), so it reaches 03-13 at 2024-03-14 00:00:03, while
    // the scheduled run of 03-13 (from 00:00, 60 s read + 2 rows: until 00:01:02) is running.
    // Attempts started by then: 4 scheduled + 3 backfill = 7, all of them.
    const v = view(findBatchPreset('backfill-beside-production')!.variant.scenario);
    expect(v.dates.map((d) => d.skips.length)).toEqual([0, 0, 0, 1]);
    expect(v.dates[3]!.skips).toEqual([
      {
        afterAttempts: 7,
        words:
          'backfill of 2024-03-13 skipped at 2024-03-14 00:00: try 1 of 2024-03-13 (the scheduled run, started 2024-03-14 00:00) was still running (a backfill creates no second run of a date whose latest run is queued or running)',
      },
    ]);
  });
  it('a fault no attempt took is listed, in the words of the CLI', () => {
    // clear-rerun-window: retries 0, one try per date until the clear; a try 2 of 2024-03-11
    // never comes.
    const v = view({
      ...input,
      batch: { ...input.batch!, faults: [{ logicalDate: 1, tryNumber: 2, point: 'before-write' }] },
    });
    expect(v.unfired).toEqual([
      'fault 0, before-write on try 2 of 2024-03-11, never fired: 2024-03-11 had 1 try',
    ]);
    expect(view().unfired).toEqual([]);
  });
  it('failing the run of 2024-03-12 mid-write (atomic) leaves f1, f2 only under 2024-03-10', () => {
    const v = view(failMidWrite(input, view(), 2));
    expect(v.attempts[2]!.outcome).toBe('crashed (mid-write)');
    expect(v.partitions.map((p) => p.label)).toEqual(['2024-03-10']);
  });
  it("marks each event's later copies by write order: airflow-retry-append's retry appends e1..e10 again", () => {
    // Try 1 crashes after its write (e1..e10 in), try 2 appends the same ten: 20 rows in one
    // partition, the last ten the second copies.
    const v = view(findBatchPreset('airflow-retry-append')!.variant.scenario);
    expect(v.partitions).toHaveLength(1);
    const rows = v.partitions[0]!.rows;
    const ids = Array.from({ length: 10 }, (_, i) => `e${i + 1}`);
    expect(rows.map((r) => `${r.event}×${r.copy}`)).toEqual([
      ...ids.map((id) => `${id}×1`),
      ...ids.map((id) => `${id}×2`),
    ]);
  });
  it('clear and re-run adds a fifth attempt', () => {
    expect(view(clearAndRerun(input, view(), 1)).attempts).toHaveLength(5);
  });
});
