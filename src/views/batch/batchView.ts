/**
 * The batch job's view model in the lab's page (src/ui/batch/BatchRun.tsx): a batch scenario run through the batch
 * engine, as a calendar strip of logical dates with each attempt (its execution time, the window it
 * read, how it ended), the target table grouped by partition with misplaced rows marked, and the
 * stories. Clicks become scenario edits here too (a fault, a clear), so the page only renders.
 */
import type { ScenarioInput } from '../../engine';
import { periodLabel } from '../../engine/batch/calendar';
import { runBatch } from '../../engine/batch/run';
import {
  attemptOutcomeWords,
  attemptWords,
  backfillSkips,
  batchFaultsNeverFired,
  batchTimeLabel,
  neverFiredWords,
  windowWords,
  type BatchExplanation,
} from '../../engine/explain/batch';
import type { ParseResult } from '../../engine/scenario/validate';
import { LIMITS } from '../../engine/scenario/limits';
import { groupDigits } from '../../engine/groupDigits';
import { batchSetupView, type BatchSetupView } from './batchSetup';
import { batchTotalsWords } from './observedWords';

export interface AttemptView {
  id: number;
  logicalDate: number;
  /** Airflow's try number of the attempt (1 for the first), and when it ended (ms). */
  tryNumber: number;
  endAt: number;
  words: string;
  startLabel: string;
  windowLabel: string;
  window: string;
  outcome: string;
  rowsRead: number;
  /** Why "Clear and re-run" cannot be offered for this attempt, or null (see {@link clearAndRerun}). */
  clearRefusal: string | null;
}

export interface BatchPageView {
  name: string;
  /**
   * Each logical date: its attempts, and the backfill runs it did not get (a backfill skips a
   * date whose latest run is queued or running), each shown once `afterAttempts` attempts are.
   */
  dates: {
    label: string;
    attempts: AttemptView[];
    skips: { afterAttempts: number; words: string }[];
  }[];
  /** Attempts in start order (the order Play reveals them). */
  attempts: AttemptView[];
  /** Each row: its event, whether it sits under another date's partition, and which copy of its
   *  event it is in the table by write order (1 for the first, 2 for a duplicate…). */
  partitions: { label: string; rows: { event: string; wrong: boolean; copy: number }[] }[];
  explanations: BatchExplanation[];
  /** The job's faults no attempt took, each a line (as the CLI's ⚠ lines). */
  unfired: string[];
  summary: string;
  /** The job's setup, shown before Play (./batchSetup.ts). */
  setup: BatchSetupView;
}

/**
 * The view of a batch scenario as parsed (`parseScenario`'s result: the page's player reads the
 * store's parse, `selectParse`, which needs no zod for one of our presets untouched).
 */
export function batchPageView(parsed: ParseResult): BatchPageView | { error: string } {
  if (!parsed.ok) return { error: parsed.issues.map((i) => `${i.path}: ${i.message}`).join('; ') };
  if (!parsed.scenario.batch) return { error: 'this scenario has no batch part' };
  const r = runBatch(parsed.scenario);
  const cal = r.run.calendar;
  const attempts: AttemptView[] = r.run.attempts.map((a, i) => ({
    id: i,
    logicalDate: r.run.runs[a.run]!.logicalDate,
    tryNumber: a.tryNumber,
    endAt: a.endAt,
    words: attemptWords(r.run, i),
    startLabel: batchTimeLabel(r.run, a.startAt),
    windowLabel: windowWords(r.run, i),
    window: periodLabel(cal, a.window),
    outcome: attemptOutcomeWords(a),
    rowsRead: a.read.length,
    clearRefusal:
      a.endAt + CLEAR_AFTER_MS > LIMITS.timeMs
        ? `an hour after this attempt is past the ${LIMITS.timeMs / 86_400_000} days the lab’s clock runs (${groupDigits(LIMITS.timeMs)} ms)`
        : null,
  }));
  const skips = backfillSkips(r.run);
  const dates = Array.from({ length: r.run.config.periods }, (_, d) => ({
    label: periodLabel(cal, d),
    attempts: attempts.filter((a) => a.logicalDate === d),
    skips: skips
      .filter((x) => x.logicalDate === d)
      .map(({ afterAttempts, words }) => ({ afterAttempts, words })),
  }));
  const own = new Map(r.verdict.events.map((e) => [e.id, e.partition]));
  const parts = [...new Set(r.run.table.rows.map((x) => x.partition))].sort((a, b) => a - b);
  // Which copy of its event each row is, in the order the rows were written (as the stream
  // sink's table numbers a second copy), whichever partition holds it.
  const seen = new Map<string, number>();
  const copy = r.run.table.rows.map((x) => {
    const n = (seen.get(x.eventId) ?? 0) + 1;
    seen.set(x.eventId, n);
    return n;
  });
  return {
    name: parsed.scenario.name,
    dates,
    attempts: [...attempts].sort((a, b) => a.id - b.id),
    partitions: parts.map((p) => ({
      label: periodLabel(cal, p),
      rows: r.run.table.rows.flatMap((x, i) =>
        x.partition === p
          ? [{ event: x.eventId, wrong: own.get(x.eventId) !== p, copy: copy[i]! }]
          : [],
      ),
    })),
    explanations: r.explanations,
    unfired: batchFaultsNeverFired(r.run).map(neverFiredWords),
    setup: batchSetupView(r.run),
    // The claim's fate after the totals, as the stream verdict's "Observed …, claimed …: broken"
    // (src/ui/Counters.tsx): the batch page and embed had no word of the claim.
    summary: `${batchTotalsWords(r.verdict)}, claimed ${r.verdict.claimed}: ${r.verdict.held ? 'held' : 'broken'}`,
  };
}

type BatchInput = NonNullable<ScenarioInput['batch']>;

/** "Clear and re-run": an hour after the attempt ended. */
const CLEAR_AFTER_MS = 3_600_000;

/**
 * A click on one attempt as an edit of the batch job: `edit` gets the job and the attempt (as
 * `view`, `input`'s {@link batchPageView}, shows it: what the edit needs of the run is in it, so a
 * click parses nothing) and returns the job changed; a scenario with no batch job is left as it is.
 */
function editAttempt(
  input: ScenarioInput,
  view: BatchPageView,
  attempt: number,
  edit: (batch: BatchInput, a: AttemptView) => BatchInput,
): ScenarioInput {
  const batch = input.batch;
  if (!batch) return input;
  return { ...input, batch: edit(batch, view.attempts[attempt]!) };
}

/** "Fail this attempt mid-write": a crash after half the rows it read (see {@link editAttempt}). */
export function failMidWrite(
  input: ScenarioInput,
  view: BatchPageView,
  attempt: number,
): ScenarioInput {
  return editAttempt(input, view, attempt, (batch, a) => {
    const fault = {
      logicalDate: a.logicalDate,
      tryNumber: a.tryNumber,
      point: 'mid-write' as const,
      afterRows: Math.floor(a.rowsRead / 2),
    };
    // One fault per try: this one replaces any the same try had.
    const others = (batch.faults ?? []).filter(
      (f) => !(f.logicalDate === fault.logicalDate && (f.tryNumber ?? 1) === fault.tryNumber),
    );
    return { ...batch, faults: [...others, fault] };
  });
}

/**
 * "Clear and re-run": the attempt's logical date runs again one hour after it ended (see
 * {@link editAttempt}).
 */
export function clearAndRerun(
  input: ScenarioInput,
  view: BatchPageView,
  attempt: number,
): ScenarioInput {
  return editAttempt(input, view, attempt, (batch, a) => {
    const clear = { logicalDate: a.logicalDate, atMs: a.endAt + CLEAR_AFTER_MS };
    return { ...batch, clears: [...(batch.clears ?? []), clear] };
  });
}
