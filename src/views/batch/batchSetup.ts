/**
 * A batch job's setup in words, for the page before Play (the projector's screen would otherwise
 * hold empty date cards until the run starts, where a stream shows its pipeline): the schedule,
 * the read window, the write, the dedupe store, the source rows of each logical date and what is
 * planned to go wrong. Words for the write and the window follow docs/semantics/batch.md; the
 * faults and clears are the batch atlas's placements in words (./batchAtlas.ts).
 */
import { periodLabel, periodOfRow } from '../../engine/batch/calendar';
import type { BatchConfig, DedupeKey } from '../../engine/batch/schema';
import type { BatchRun } from '../../engine/batch/simulateBatch';
import {
  batchTimeLabel,
  clockExpression,
  durationWords,
  pinnedTemplate,
} from '../../engine/explain/batch';

export { durationWords } from '../../engine/explain/batch';
import { formatCountOf } from '../run/format';
import { placementWords } from './placementWords';

export interface BatchSetupView {
  /** The job, one fact a line: schedule, task, window, write, dedupe. */
  facts: { what: string; words: string }[];
  /** Per logical date (the strip's order): the source rows of that date, by event id. */
  sources: { rows: string[]; late: string[] }[];
  /** The faults, clears, late rows and backfills the scenario plans, in time order. */
  planned: string[];
  /**
   * The key the job's dedupe mechanisms use (its dedupe store, MERGE, dbt's unique_key), or null
   * when none dedupes (an append, an overwrite): what the page's key editor sets.
   */
  dedupeKey: DedupeKey | null;
}

/** Whether any of the job's dedupe mechanisms reads the dedupe key. */
function usesDedupeKey(b: BatchConfig): boolean {
  const w = b.write;
  return (
    b.dedupe !== undefined ||
    w.mode === 'merge' ||
    (w.mode === 'dbt-incremental' && w.uniqueKey && w.strategy !== 'insert_overwrite')
  );
}

/** `(time, amount)`, or `event id`. */
function keyWords(key: DedupeKey): string {
  return key === 'event-id' ? 'the event id' : `(${key.join(', ')})`;
}

/** The write statement as the job's SQL (or dbt config) would say it. */
function writeWords(b: BatchConfig): string {
  const w = b.write;
  const target =
    w.partitionBy === 'logical-date'
      ? "the logical date's partition"
      : w.partitionBy === 'clock'
        ? `the clock's ${b.schedule === 'hourly' ? 'hour' : 'date'}'s partition (${clockExpression(b.schedule === 'hourly', b.clockOffset)})`
        : "each row's own date's partition";
  // Behind a dedupe store each row is claimed and written on its own statement (per-row), or the
  // claimed rows go in one statement after every claim (batch): write.atomic does not apply
  // (src/engine/batch/writePlan.ts, docs/semantics/batch.md#dedupe-stores).
  const commit = b.dedupe
    ? b.dedupe.write === 'batch'
      ? 'one statement of the rows whose claim succeeded, after every claim'
      : b.dedupe.order === 'one-transaction'
        ? 'row by row, each in one transaction with its claim'
        : 'row by row, each its own statement beside its claim'
    : w.atomic
      ? 'one commit'
      : 'row by row, each committed';
  switch (w.mode) {
    case 'append':
      return `INSERT INTO ${target} (append), ${commit}`;
    case 'overwrite-partition': {
      const how = {
        'insert-overwrite': 'INSERT OVERWRITE',
        'replace-where': 'Delta replaceWhere on',
        'delete-insert': 'DELETE + INSERT of',
      }[w.as];
      return `${how} ${target}, ${commit}`;
    }
    case 'merge':
      return `MERGE ON ${keyWords(b.dedupeKey)} into ${target}, ${commit}`;
    case 'dbt-incremental':
      if (w.strategy === 'insert_overwrite')
        return `dbt incremental, insert_overwrite of ${target}, ${commit}`;
      return w.uniqueKey
        ? `dbt incremental, unique_key ${keyWords(b.dedupeKey)}, strategy ${w.strategy}, into ${target}, ${commit}`
        : `dbt incremental without unique_key (append) into ${target}, ${commit}`;
  }
}

/** The dedupe store in front of the write, or null. */
function dedupeWords(b: BatchConfig): string | null {
  const d = b.dedupe;
  if (!d) return null;
  const store =
    d.store === 'redis'
      ? `Redis SET dedupe:{key} 1 NX ${d.ttlMs % 1000 === 0 ? `EX ${d.ttlMs / 1000}` : `PX ${d.ttlMs}`}`
      : `a dedupe table, claims kept ${durationWords(d.ttlMs)}`;
  const order = {
    'claim-then-write': 'claim, then write',
    'write-then-claim': 'write, then claim',
    'one-transaction': 'claim and write in one transaction',
  }[d.order];
  return `${store}, key ${keyWords(b.dedupeKey)}: ${order}${d.write === 'batch' ? ' (all claims, then one write)' : ''}`;
}

/** The setup of a batch job, from its config and its run (for the calendar). */
export function batchSetupView(run: BatchRun): BatchSetupView {
  const b = run.config;
  const cal = run.calendar;
  const t = b.task;
  const facts = [
    {
      what: 'Schedule',
      words: `@${b.schedule} from ${b.startDate}, ${formatCountOf(b.periods, 'logical date')}; each runs when its interval ends${b.deployedAtMs > 0 ? `; switched on ${batchTimeLabel(run, b.deployedAtMs)}, catchup ${b.catchup ? 'on' : 'off'}` : ''}`,
    },
    {
      what: 'Task',
      words: `retries ${t.retries}${t.retries > 0 ? `, retry_delay ${durationWords(t.retryDelayMs)}` : ''}`,
    },
    {
      what: 'Reads',
      words:
        b.window === 'pinned'
          ? b.schedule === 'hourly'
            ? `WHERE event_date = '{{ ds }}' AND event_hour = {{ logical_date.hour }}: its own logical hour (${pinnedTemplate(true)}), whenever it runs`
            : `WHERE event_date = '${pinnedTemplate(false)}': its own logical date, whenever it runs`
          : b.schedule === 'hourly'
            ? `WHERE the event's hour = ${clockExpression(true, b.clockOffset)}: the clock's hour when it runs`
            : `WHERE event_date = ${clockExpression(false, b.clockOffset)}: the clock's date when it runs`,
    },
    { what: 'Writes', words: writeWords(b) },
  ];
  const dedupe = dedupeWords(b);
  if (dedupe) facts.push({ what: 'Dedupe', words: dedupe });
  const isLate = (row: BatchConfig['source'][number]) =>
    row.addedAtMs !== undefined && row.addedAtMs > (periodOfRow(cal, row) + 1) * cal.periodMs;
  const sources = Array.from({ length: b.periods }, () => ({
    rows: [] as string[],
    late: [] as string[],
  }));
  for (const row of b.source) {
    const s = sources[periodOfRow(cal, row)];
    if (!s) continue;
    s.rows.push(row.id);
    // Late: it lands after its date's scheduled run has read (docs/semantics/batch.md#windows).
    if (isLate(row)) s.late.push(row.id);
  }
  const planned: { at: number; words: string }[] = [
    ...b.faults.map((fault) => ({
      // A crash comes with its attempt: after the date's interval ends.
      at: (fault.logicalDate + 1) * cal.periodMs,
      words: placementWords(run, { kind: 'crash', fault }),
    })),
    ...b.clears.map((c) => ({
      at: c.atMs,
      words: placementWords(run, { kind: 'clear', logicalDate: c.logicalDate, atMs: c.atMs }),
    })),
    ...b.backfills.map((f) => ({
      at: f.atMs,
      words: `backfill ${periodLabel(cal, f.from)}..${periodLabel(cal, f.to)} from ${batchTimeLabel(run, f.atMs)}, beside the scheduled runs`,
    })),
    ...b.source.flatMap((row) =>
      row.addedAtMs === undefined || !isLate(row)
        ? []
        : [
            {
              at: row.addedAtMs,
              words: placementWords(run, {
                kind: 'late-row',
                id: row.id,
                addedAtMs: row.addedAtMs,
              }),
            },
          ],
    ),
  ];
  // Stable: equal times keep the order above (faults, clears, backfills, late rows).
  planned.sort((x, y) => x.at - y.at);
  return {
    facts,
    sources,
    planned: planned.map((p) => p.words),
    dedupeKey: usesDedupeKey(b) ? b.dedupeKey : null,
  };
}
