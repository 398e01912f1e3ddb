/**
 * A batch job's setup in words, shown before Play (the projector's first screen): the schedule,
 * the window, the write, the dedupe store, each logical date's source rows and what is planned.
 * The words follow docs/semantics/batch.md; the presets are src/scenarios/library/batch*.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../engine';
import { findPreset } from '../../scenarios';
import { batchPageView } from './batchView';
import { durationWords } from './batchSetup';

const setupOf = (ref: string) => {
  const v = batchPageView(parseScenario(findPreset(ref)!.variant.scenario));
  if ('error' in v) throw new Error(v.error);
  return v.setup;
};

describe('a batch job’s setup before Play', () => {
  it('clear-rerun-window: the clock window, the overwrite, three dates’ rows and the planned clear', () => {
    const s = setupOf('clear-rerun-window/clock-overwrite');
    expect(s.facts).toEqual([
      {
        what: 'Schedule',
        words: '@daily from 2024-03-10, 3 logical dates; each runs when its interval ends',
      },
      { what: 'Task', words: 'retries 0' },
      {
        what: 'Reads',
        words: "WHERE event_date = current_date() - 1: the clock's date when it runs",
      },
      { what: 'Writes', words: "INSERT OVERWRITE the logical date's partition, one commit" },
    ]);
    expect(s.sources.map((x) => x.rows)).toEqual([['e1', 'e2', 'e3'], [], ['f1', 'f2']]);
    expect(s.planned).toEqual(['clear and re-run 2024-03-10 at 2024-03-13 01:00']);
  });

  it('an hourly job reads its hour, not a {{ ds }} shared by the 24 runs of a day', () => {
    // {{ ds }} is "the DAG run's logical date as YYYY-MM-DD"
    // (https://airflow.apache.org/docs/apache-airflow/stable/templates-ref.html).
    const reads = (window: 'pinned' | 'clock') => {
      const v = batchPageView(
        parseScenario({
          version: 1,
          name: 'hourly',
          batch: {
            schedule: 'hourly',
            window,
            write: { partitionBy: 'clock' },
            source: [{ id: 'h1', date: '2024-03-10', hour: 0 }],
          },
        }),
      );
      if ('error' in v) throw new Error(v.error);
      return v.setup.facts
        .filter((f) => f.what === 'Reads' || f.what === 'Writes')
        .map((f) => f.words);
    };
    expect(reads('pinned')).toEqual([
      "WHERE event_date = '{{ ds }}' AND event_hour = {{ logical_date.hour }}: its own logical hour ({{ ts }}), whenever it runs",
      "INSERT INTO the clock's hour's partition (date_trunc('hour', now()) - interval '1 hour') (append), one commit",
    ]);
    expect(reads('clock')[0]).toBe(
      "WHERE the event's hour = date_trunc('hour', now()) - interval '1 hour': the clock's hour when it runs",
    );
  });

  it('behind a dedupe store the write is row by row, not "one commit" (write.atomic does not apply)', () => {
    // redis-claim-order/claim-then-write: a crash after 4 rows leaves e1..e4 written once — each
    // row its own INSERT after its SET NX (src/engine/batch/writePlan.ts).
    expect(setupOf('redis-claim-order/claim-then-write').facts[3]).toEqual({
      what: 'Writes',
      words:
        "INSERT INTO the logical date's partition (append), row by row, each its own statement beside its claim",
    });
    expect(setupOf('redis-claim-order/one-transaction').facts[3]!.words).toBe(
      "INSERT INTO the logical date's partition (append), row by row, each in one transaction with its claim",
    );
  });

  it('redis-claim-order: the store’s command with its TTL in seconds, the order, the crash', () => {
    const s = setupOf('redis-claim-order/claim-then-write');
    // SET key value NX EX seconds (https://redis.io/docs/latest/commands/set/): 86,400 s = 1 day.
    expect(s.facts.find((f) => f.what === 'Dedupe')!.words).toBe(
      'Redis SET dedupe:{key} 1 NX EX 86400, key the event id: claim, then write',
    );
    expect(s.facts.find((f) => f.what === 'Task')!.words).toBe('retries 1, retry_delay 5 min');
    expect(s.planned).toEqual(['try 1 of 2024-03-10 crashes mid-write after 4 rows']);
  });

  it('dbt and content keys: unique_key named by its columns; a backfill planned beside production', () => {
    expect(
      setupOf('dbt-incremental-unique-key/unique-key').facts.find((f) => f.what === 'Writes')!
        .words,
    ).toMatch(/^dbt incremental, unique_key the event id, strategy merge, into/);
    expect(
      setupOf('content-key-false-merge/content-key-store').facts.find((f) => f.what === 'Dedupe')!
        .words,
    ).toContain('key (time, user, item, amount)');
    expect(setupOf('backfill-beside-production/append').planned).toEqual([
      'backfill 2024-03-10..2024-03-13 from 2024-03-13 23:57, beside the scheduled runs',
    ]);
  });

  it('durations as a setting reads', () => {
    expect(durationWords(300_000)).toBe('5 min');
    expect(durationWords(7 * 86_400_000)).toBe('7 days');
    expect(durationWords(1500)).toBe('1500 ms');
  });
});
