/**
 * Batch stories: for each event of a batch run that is not in its own partition exactly once,
 * one plain sentence built from the batch trace (which attempts read and wrote it, what window
 * they read, what the write did), grouped by story. Kept apart from ./explain.ts (the streaming
 * stories) so it can move with it. Semantics: docs/semantics/batch.md.
 */
import { DAY_MS, dateOf, periodLabel } from '../batch/calendar';
import type { BatchFate, BatchVerdict } from '../batch/checker';
import type { BatchRun } from '../batch/simulateBatch';
import { writeKind } from '../batch/writePlan';
import { dedupeKeyOf, storeKeyName } from '../dedupe/dedupeStore';

export interface BatchExplanation {
  fate: Exclude<BatchFate, 'once'>;
  events: string[];
  /** The sentence about the first event. */
  sentence: string;
  /** The same with `{id}` where the event id goes. */
  template: string;
  /** Batch trace entries the sentence rests on. */
  entries: number[];
}

/** Virtual time as a wall-clock label: `2024-03-11 00:05`. */
export function batchTimeLabel(run: BatchRun, t: number): string {
  const day = Math.floor(t / DAY_MS);
  const minutes = Math.floor((t - day * DAY_MS) / 60_000);
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${dateOf(run.calendar.startDay + day)} ${hh}:${mm}`;
}

/** A duration as Airflow's settings read: `5 min`, `1 day`, `90 s` (a TTL, a retry_delay). */
export function durationWords(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1000, 's'],
  ];
  for (const [size, unit] of units)
    if (ms >= size && ms % size === 0) {
      const n = ms / size;
      return unit === 'day' ? `${n} ${n === 1 ? 'day' : 'days'}` : `${n} ${unit}`;
    }
  return `${ms} ms`;
}

/** "try 2 of 2024-03-10 (retry)" — an attempt in words. */
export function attemptWords(run: BatchRun, a: number): string {
  const at = run.attempts[a]!;
  const r = run.runs[at.run]!;
  const how =
    r.attempts[0] !== a
      ? 'a retry'
      : r.kind === 'clear'
        ? 'cleared and re-run'
        : r.kind === 'backfill'
          ? 'a backfill'
          : 'the scheduled run';
  return `try ${at.tryNumber} of ${periodLabel(run.calendar, r.logicalDate)} (${how}, started ${batchTimeLabel(run, at.startAt)})`;
}

/** A backfill's date that got no run, in words: when, and what its latest run was doing. */
export interface BackfillSkip {
  at: number;
  logicalDate: number;
  /** The attempts started at or before the skip: Play shows it once that many are shown. */
  afterAttempts: number;
  words: string;
}

/**
 * Each `backfill-skipped` entry of the trace in words: "backfill of 2024-03-13 skipped at
 * 2024-03-14 00:00: try 1 of 2024-03-13 (the scheduled run, …) was still running". Airflow's
 * backfill: "If the latest run is still running or is queued, we do not create another run"
 * (https://airflow.apache.org/docs/apache-airflow/stable/core-concepts/backfill.html).
 */
export function backfillSkips(run: BatchRun): BackfillSkip[] {
  return run.trace.flatMap((e) => {
    if (e.kind !== 'backfill-skipped') return [];
    const r = run.runs[e.run]!;
    const started = r.attempts.filter((a) => run.attempts[a]!.startAt <= e.at);
    const last = started.at(-1);
    const doing =
      last === undefined
        ? `its ${r.kind === 'scheduled' ? 'scheduled run' : r.kind === 'clear' ? 'clear and re-run' : 'run of another backfill'} was queued`
        : run.attempts[last]!.endAt > e.at
          ? `${attemptWords(run, last)} was still running`
          : `${attemptWords(run, last)} had crashed and its retry was waiting`;
    const day = periodLabel(run.calendar, r.logicalDate);
    return [
      {
        at: e.at,
        logicalDate: r.logicalDate,
        afterAttempts: run.attempts.filter((a) => a.startAt <= e.at).length,
        words: `backfill of ${day} skipped at ${batchTimeLabel(run, e.at)}: ${doing} (a backfill creates no second run of a date whose latest run is queued or running)`,
      },
    ];
  });
}

/** A fault of the job that never struck an attempt, as the stream's report gives them. */
export interface BatchFaultNeverFired {
  /** Its index in `batch.faults`. */
  index: number;
  /** The fault in words: "mid-write after 3 rows on try 2 of 2024-03-11". */
  fault: string;
  /** Why no attempt took it: how many tries its date had, or that another fault took the try. */
  why: string;
}

/**
 * The job's faults no attempt took: a try its date never reached (a try 3 where try 2 succeeded,
 * retries used up), or a try another fault already names (the first one listed strikes it). A
 * stream's report flags its unfired faults with ⚠; a batch job's did not, and the run read as
 * tested against a crash that never happened.
 */
export function batchFaultsNeverFired(run: BatchRun): BatchFaultNeverFired[] {
  const faults = run.config.faults;
  const fired = new Set(run.attempts.flatMap((a) => (a.crash ? [a.crash] : [])));
  return faults.flatMap((f, index) => {
    if (fired.has(f)) return [];
    const day = periodLabel(run.calendar, f.logicalDate);
    const tries = run.attempts.filter((a) => run.runs[a.run]!.logicalDate === f.logicalDate).length;
    const first = faults.findIndex(
      (g) => g.logicalDate === f.logicalDate && g.tryNumber === f.tryNumber,
    );
    const unfired = run.attempts.find((a) => a.unfired?.fault === f)?.unfired;
    const killed = run.attempts.find(
      (a) =>
        a.outcome === 'killed' &&
        a.tryNumber === f.tryNumber &&
        run.runs[a.run]!.logicalDate === f.logicalDate,
    );
    const why =
      first !== index
        ? `fault ${first} strikes that try first (one fault per try)`
        : unfired !== undefined
          ? `that try wrote ${unfired.rows} row${unfired.rows === 1 ? '' : 's'}`
          : killed !== undefined
            ? `a clear of ${day} killed that try at ${batchTimeLabel(run, killed.endAt)}, before it`
            : tries === 0
              ? `no run of ${day} ran`
              : `${day} had ${tries === 1 ? '1 try' : `${tries} tries`}`;
    const point =
      f.point === 'mid-write'
        ? `mid-write after ${f.afterRows} row${f.afterRows === 1 ? '' : 's'}`
        : f.point;
    return [{ index, fault: `${point} on try ${f.tryNumber} of ${day}`, why }];
  });
}

/**
 * How an attempt ended, in words: "success", "crashed (after-write)", "killed: its date was
 * cleared while it ran", or "failed: its MERGE failed: … (21000)" — a write statement the database
 * refused (docs/semantics/batch.md#writes).
 */
export function attemptOutcomeWords(a: BatchRun['attempts'][number]): string {
  if (a.failure !== undefined) return `failed: ${a.failure}`;
  if (a.outcome === 'killed') return 'killed: its date was cleared while it ran';
  return a.outcome === 'crashed' && a.crash ? `crashed (${a.crash.point})` : a.outcome;
}

/** A fault that never fired, in one line: "fault 2, before-write on try 3 of …, never fired: …". */
export function neverFiredWords(f: BatchFaultNeverFired): string {
  return `fault ${f.index}, ${f.fault}, never fired: ${f.why}`;
}

/**
 * The template a pinned window reads: `{{ ds }}`, "the DAG run's logical date as YYYY-MM-DD" — the
 * same for every hour of a day, so an hourly job pins its hour with `{{ ts }}`, the logical
 * date-time (https://airflow.apache.org/docs/apache-airflow/stable/templates-ref.html).
 */
export function pinnedTemplate(hourly: boolean): string {
  return hourly ? '{{ ts }}' : '{{ ds }}';
}

/** The clock window's expression: `current_date() - 1`, or for an hourly job the hour now less n. */
export function clockExpression(hourly: boolean, offset: number): string {
  return hourly
    ? `date_trunc('hour', now()) - interval '${offset} hour${offset === 1 ? '' : 's'}'`
    : `current_date() - ${offset}`;
}

/** The read window of an attempt in words, naming the clock when it came from the clock. */
export function windowWords(run: BatchRun, a: number): string {
  const at = run.attempts[a]!;
  const day = periodLabel(run.calendar, at.window);
  const c = run.config;
  return c.window === 'pinned'
    ? `its window pinned to the logical date (${pinnedTemplate(run.calendar.hourly)} = ${run.calendar.hourly ? `${day}:00:00+00:00` : day})`
    : `its window read from the clock (${clockExpression(run.calendar.hourly, c.clockOffset)} = ${day} at ${batchTimeLabel(run, at.startAt)})`;
}

const WRITE_WORDS = {
  insert: 'an append INSERT adds its rows again on every attempt',
  overwrite: 'an overwrite replaces the whole partition it targets',
  merge: 'MERGE updates the row with the same key',
  'delete-keys': 'delete+insert replaces the rows with the same key',
} as const;

/** "try 2", as a sentence names an attempt of the same date a second time. */
const tryWords = (run: BatchRun, a: number) => `try ${run.attempts[a]!.tryNumber}`;

/**
 * Why a dedupe store let event `id` be written again by the last of `wrote`: the claim an earlier
 * attempt made had expired before that attempt claimed it again (Redis `EX`: "Set the specified
 * expire time", https://redis.io/docs/latest/commands/set/; a dedupe table's retention), with the
 * times; else, write then claim, the earlier attempt wrote the row and crashed before its claim.
 */
function storeLetThrough(run: BatchRun, id: string, wrote: number[], ttlMs: number): string {
  const again = wrote[wrote.length - 1]!;
  const claims = run.trace.filter((e) => e.kind === 'claim' && e.events?.includes(id));
  const later = claims.find((e) => e.attempt === again);
  // The claim it outlived: the last one before the later claim, by another attempt.
  const first = [...claims]
    .reverse()
    .find((e) => e.attempt !== again && later !== undefined && e.at < later.at);
  if (first && later)
    return `its claim in the dedupe store, made by ${tryWords(run, first.attempt)} at ${batchTimeLabel(run, first.at)}, expired at ${batchTimeLabel(run, first.at + ttlMs)} (TTL ${durationWords(ttlMs)}), before ${tryWords(run, again)} claimed it again at ${batchTimeLabel(run, later.at)}`;
  return 'the row was written but its key not yet claimed in the dedupe store when the task crashed, so the retry found no claim (write then claim duplicates an event on a crash between the two)';
}

/**
 * Why a pinned window never read a date: the job has no such logical date (past `periods`, or
 * before `startDate`), or catchup is off and the DAG, switched on later, never ran it — "only the
 * latest completed interval" then the schedule
 * (https://airflow.apache.org/docs/apache-airflow/stable/core-concepts/dag-run.html#catchup);
 * else the row landed after its date's runs read.
 */
function noRunWords(run: BatchRun, date: number): string {
  const c = run.config;
  const label = (p: number) => periodLabel(run.calendar, p);
  if (date < 0 || date >= c.periods)
    return `the job has no logical date ${label(date)} — periods ${c.periods} gives ${label(0)} to ${label(c.periods - 1)}`;
  const ran = run.runs.filter((r) => r.kind === 'scheduled').map((r) => r.logicalDate);
  if (
    !run.runs.some((r) => r.logicalDate === date) &&
    !c.catchup &&
    ran.length > 0 &&
    date < Math.min(...ran)
  )
    return `no run of ${label(date)} was made — catchup is off and the DAG was switched on at ${batchTimeLabel(run, c.deployedAtMs)}, so its runs start with the latest completed interval, ${label(Math.min(...ran))}`;
  return 'no run read its date after it landed';
}

export function explainBatch(run: BatchRun, v: BatchVerdict): BatchExplanation[] {
  const groups = new Map<string, BatchExplanation>();
  const entryOf = (kind: string, attempt: number) =>
    run.trace.findIndex((e) => e.kind === kind && e.attempt === attempt);
  const writers = (id: string) => [
    ...new Set(
      run.statements
        .filter((s) => s.rows.includes(id) && s.kind !== 'delete-keys')
        .map((s) => s.attempt),
    ),
  ];
  const kind = writeKind(run.config.write);
  for (const l of v.events) {
    if (l.fate === 'once') continue;
    const row = run.config.source.find((r) => r.id === l.id)!;
    const own = periodLabel(run.calendar, l.partition);
    const wrote = writers(l.id);
    const readers = run.attempts.flatMap((a, i) => (a.read.includes(l.id) ? [i] : []));
    let template: string;
    let entries: number[] = [];
    switch (l.fate) {
      case 'duplicated':
      case 'wrong-partition': {
        const steps = wrote.map((a) => `${attemptWords(run, a)}, with ${windowWords(run, a)}`);
        const misplaced = [...l.wrongRows.keys()].map((p) => periodLabel(run.calendar, p));
        // Behind a dedupe store, a second write means the key was not there to stop it: an
        // earlier attempt's claim had expired, or (write then claim) was never made.
        const store = run.config.dedupe;
        // A partial write: the first writer crashed mid-write with its rows committed one by one.
        const first = run.attempts[wrote[0]!]!;
        const partial =
          !run.config.write.atomic && first.crash?.point === 'mid-write'
            ? `; ${tryWords(run, wrote[0]!)} crashed mid-write, its rows committed one by one (write.atomic false), {id} among them`
            : '';
        const why = !store
          ? `${WRITE_WORDS[kind]}${partial}`
          : storeLetThrough(run, l.id, wrote, store.ttlMs);
        template =
          `{id} (dated ${own}) was written by ${steps.join('; then by ')}: ${why}` +
          (misplaced.length > 0
            ? `; its row under ${misplaced.join(', ')} is under the wrong partition, because the ${run.config.write.partitionBy === 'clock' ? 'target partition' : 'window'} came from the clock, not from the logical date`
            : '') +
          '.';
        entries = wrote.map((a) => entryOf('statement', a));
        break;
      }
      case 'false-merge': {
        const key = dedupeKeyOf(row, run.config.dedupeKey);
        const by = run.skippedBy.has(l.id)
          ? `the dedupe store held ${storeKeyName(key)} for ${l.mergedInto}, so {id} was skipped`
          : kind === 'delete-keys'
            ? `delete+insert deleted {id}'s row for ${l.mergedInto}'s, which has the same key`
            : `the ${kind === 'merge' ? 'MERGE' : 'write'} took it for ${l.mergedInto} (DISTINCT ON / matched row) and kept one row`;
        template = `{id} and ${l.mergedInto} are two real events with the same dedupe key (${key}): ${by}. A key coarser than the event id merges distinct events.`;
        entries = run.trace.flatMap((e, i) =>
          e.events?.includes(l.id) && e.kind === 'claim-skipped' ? [i] : [],
        );
        break;
      }
      case 'lost': {
        const skipped = run.trace.findIndex(
          (e) => e.kind === 'claim-skipped' && e.events?.includes(l.id),
        );
        const claimedBy = run.trace.findIndex(
          (e) => e.kind === 'claim' && e.events?.includes(l.id),
        );
        // A claim whose attempt wrote the row did protect it once: the row went later (an
        // overwrite that left the claimed row out), not in a crash between claim and write.
        const claimerWrote = claimedBy >= 0 && wrote.includes(run.trace[claimedBy]!.attempt);
        if (
          skipped >= 0 &&
          claimedBy >= 0 &&
          !claimerWrote &&
          run.config.dedupe?.order === 'claim-then-write'
        ) {
          template = `{id}'s key was claimed in the dedupe store by ${attemptWords(run, run.trace[claimedBy]!.attempt)}, which crashed before writing the row; the retry found the claim and skipped {id} (claim then write loses an event on a crash between the two).`;
          entries = [claimedBy, skipped];
        } else if (readers.length === 0) {
          const late =
            row.addedAtMs !== undefined
              ? `; it landed in the source at ${batchTimeLabel(run, row.addedAtMs)}, a late-arriving row`
              : '';
          template = `No attempt read {id} (dated ${own}): ${run.config.window === 'clock' ? 'the runs of its date read their window from the clock, which pointed at another day' : noRunWords(run, l.partition)}${late}.`;
        } else if (wrote.length > 0) {
          const deleter = run.statements.find(
            (s) =>
              (s.kind === 'delete-partition' ||
                s.kind === 'insert-overwrite' ||
                s.kind === 'replace-where') &&
              s.partitions.includes(l.partition) &&
              s.attempt > Math.max(...wrote),
          );
          // Behind a dedupe store, the overwrite's rows are those whose claim succeeded: a row
          // still claimed is skipped, and the overwrite empties its partition of it.
          const leftOut =
            deleter !== undefined && skipped >= 0 && run.trace[skipped]!.attempt === deleter.attempt
              ? `: the dedupe store still held {id}'s claim, so ${tryWords(run, deleter.attempt)} skipped {id} and its overwrite left it out`
              : '';
          template = deleter
            ? `{id} was written by ${attemptWords(run, wrote[0]!)}, then ${attemptWords(run, deleter.attempt)} overwrote partition ${own} with ${windowWords(run, deleter.attempt)}, so {id}'s row is gone${leftOut}.`
            : `{id} was written and then removed.`;
          if (deleter) entries = [entryOf('statement', deleter.attempt)];
        } else {
          const last = readers[readers.length - 1]!;
          const failure = run.attempts[last]!.failure;
          template = `{id} was read by ${attemptWords(run, last)} but never committed: ${failure !== undefined ? `${failure}, and no retry was left` : 'the task crashed before its write committed and no retry was left'}.`;
        }
        break;
      }
    }
    const existing = groups.get(template);
    if (existing) existing.events.push(l.id);
    else
      groups.set(template, {
        fate: l.fate,
        events: [l.id],
        template,
        sentence: template.replaceAll('{id}', l.id),
        entries,
      });
  }
  return [...groups.values()];
}
