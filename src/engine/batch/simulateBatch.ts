/**
 * `simulateBatch(config) → run`: the scheduler and the job of a batch pipeline, on the virtual
 * clock. A pure function of its input: the same config gives the same trace, byte for byte.
 *
 * The scheduler (Airflow's model, https://airflow.apache.org/docs/apache-airflow/stable/core-concepts/dag-run.html):
 * a run per logical date, started when its data interval ends (or at deployment: all completed
 * intervals with `catchup`, the latest one without); a crashed attempt is retried after
 * `retry_delay` while `retries` last; a cleared date runs again (try_number goes on counting),
 * its run still in flight killed first;
 * a backfill runs its dates one after another, beside the scheduled runs.
 * The job reads one period (its window) and writes it (see ./table.ts and ./writePlan.ts).
 * docs/semantics/batch.md tells the whole model in words.
 */
import { calendarOf, periodAt, periodOfRow, type Calendar } from './calendar';
import type { BatchConfig, BatchFault, SourceRow } from './schema';
import { PartitionedTable, type Statement } from './table';
import { DedupeStore } from '../dedupe/dedupeStore';
import { batchTraceHash, type BatchEntry } from './trace';
import { planWrite, type WriteOp } from './writePlan';

export type RunKind = 'scheduled' | 'clear' | 'backfill';

/** A DAG run (scheduled, cleared again, or a backfill's). */
export interface DagRun {
  kind: RunKind;
  logicalDate: number;
  queuedAt: number;
  attempts: number[];
  /** `cleared`: a clear of its date ended it while queued, running or waiting for a retry. */
  state: 'queued' | 'running' | 'success' | 'failed' | 'cleared';
  /** Backfill runs: the next date of the same backfill, started when this run ends. */
  nextInBackfill: number | null;
}

/** One attempt (task instance try) of a run. */
export interface Attempt {
  run: number;
  /** Airflow's try_number for the logical date, counting every run of that date. */
  tryNumber: number;
  startAt: number;
  /** The period its read window covered, evaluated at `startAt`. */
  window: number;
  /** Event ids it read. */
  read: string[];
  /** Target partitions it wrote to. */
  partitions: number[];
  endAt: number;
  /** `killed`: a clear of its date stopped it while it ran (Airflow kills a cleared running task). */
  outcome: 'success' | 'crashed' | 'killed';
  crash: BatchFault | null;
  /** Its write failed (a dbt MERGE two new rows match one target row with): why, in words. */
  failure?: string;
  /** A fault on this try whose condition never came (mid-write after more rows than it wrote). */
  unfired?: { fault: BatchFault; rows: number };
}

export interface BatchRun {
  config: BatchConfig;
  calendar: Calendar;
  runs: DagRun[];
  attempts: Attempt[];
  table: PartitionedTable;
  statements: Statement[];
  /**
   * The statements the database refused (a dbt MERGE two new rows match one target row with),
   * in the order of the trace's `statement-failed` entries: nothing of them applied.
   */
  failedStatements: Statement[];
  /** Events a dedupe store skipped because another event held their key: `skipped → holder`. */
  skippedBy: Map<string, string>;
  trace: BatchEntry[];
  endTime: number;
  hash: string;
}

interface Step {
  at: number;
  seq: number;
  run: () => void;
}

/** When a row lands in the source table: its own `addedAtMs`, or the start of its period. */
export function landsAt(cal: Calendar, row: SourceRow): number {
  return row.addedAtMs ?? Math.max(0, periodOfRow(cal, row) * cal.periodMs);
}

export function simulateBatch(config: BatchConfig): BatchRun {
  const cal = calendarOf(config.schedule, config.startDate);
  const P = cal.periodMs;
  const runs: DagRun[] = [];
  const attempts: Attempt[] = [];
  const table = new PartitionedTable();
  const statements: Statement[] = [];
  const failedStatements: Statement[] = [];
  const store = config.dedupe ? new DedupeStore(config.dedupe.ttlMs) : null;
  const skippedBy = new Map<string, string>();
  const trace: BatchEntry[] = [];
  const tries = new Map<number, number>();
  /** Attempts started and not yet ended, by id: what a clear kills. */
  const inFlight = new Set<number>();
  /**
   * Attempts whose write waits for another's open transaction (a claim row of the same key,
   * see DedupeStore.openClaim): the attempt waited on, since when, and the steps held back
   * meanwhile (the one that waits first). Once that transaction ends they go on, and every later
   * step of the attempt runs as late as the waits lasted (`lateBy`).
   */
  const waits = new Map<number, { on: number; since: number; held: (() => void)[] }>();
  const lateBy = new Map<number, number>();
  /**
   * A step of attempt `id` planned at `at` (its op returns true when it must wait): held back
   * while the attempt waits, run as late as its waits have made it.
   */
  const step = (id: number, at: number, run: () => boolean | void) => {
    const go = () => {
      const w = waits.get(id);
      if (w) w.held.push(go);
      else if (now < at + (lateBy.get(id) ?? 0)) schedule(at + lateBy.get(id)!, go);
      else if (run() === true) waits.get(id)!.held.push(go);
    };
    return go;
  };
  /** Attempt `id`'s transaction ended: its uncommitted claim rows go, and its waiters go on. */
  const endTransaction = (id: number, commit: boolean) => {
    store?.endTransaction(id, commit, now);
    for (const [waiting, w] of [...waits]) {
      if (w.on !== id) continue;
      waits.delete(waiting);
      lateBy.set(waiting, (lateBy.get(waiting) ?? 0) + now - w.since);
      for (const h of w.held) schedule(now, h);
    }
  };
  /** Would attempt `id` waiting on `on` close a cycle of waits (a deadlock)? */
  const waitsOn = (on: number, id: number): boolean => {
    for (let x: number | undefined = on; x !== undefined; x = waits.get(x)?.on)
      if (x === id) return true;
    return false;
  };
  const queue: Step[] = [];
  let seq = 0;
  let now = 0;

  const schedule = (at: number, run: () => void) => {
    const step = { at, seq: seq++, run };
    let i = queue.length;
    while (
      i > 0 &&
      (queue[i - 1]!.at > at || (queue[i - 1]!.at === at && queue[i - 1]!.seq > step.seq))
    )
      i--;
    queue.splice(i, 0, step);
  };

  const queueRun = (kind: RunKind, logicalDate: number, at: number, next: number | null) => {
    const id = runs.length;
    runs.push({
      kind,
      logicalDate,
      queuedAt: at,
      attempts: [],
      state: 'queued',
      nextInBackfill: next,
    });
    schedule(at, () => startAttempt(id));
  };

  /**
   * A backfill's next run, from `from`: Airflow's backfill creates a run per date ("All Runs",
   * reprocessing completed and failed dates too), but "if the latest run is still running or is
   * queued, we do not create another run" for that date
   * (https://airflow.apache.org/docs/apache-airflow/stable/core-concepts/backfill.html).
   */
  const backfillFrom = (from: number, to: number) => {
    for (let d = from; d <= to; d++) {
      let busy = runs.length - 1;
      while (busy >= 0 && runs[busy]!.logicalDate !== d) busy--;
      const state = busy < 0 ? null : runs[busy]!.state;
      if (state !== 'queued' && state !== 'running') return queueRun('backfill', d, now, to);
      trace.push({ at: now, kind: 'backfill-skipped', run: busy, attempt: -1 });
    }
  };

  const endRun = (id: number, state: 'success' | 'failed') => {
    const r = runs[id]!;
    r.state = state;
    const to = r.nextInBackfill;
    if (r.kind === 'backfill' && to !== null && r.logicalDate < to)
      backfillFrom(r.logicalDate + 1, to);
  };

  const startAttempt = (runId: number) => {
    const r = runs[runId]!;
    // Cleared while queued or waiting for its retry: that start is dropped with the run.
    if (r.state === 'cleared') return;
    r.state = 'running';
    const tryNumber = (tries.get(r.logicalDate) ?? 0) + 1;
    tries.set(r.logicalDate, tryNumber);
    // `{{ ds }}` is the run's logical date; `current_date() - n` is read from the clock now.
    const clockDate = periodAt(cal, now) - config.clockOffset;
    const window = config.window === 'pinned' ? r.logicalDate : clockDate;
    const rows = config.source.filter(
      (row) => periodOfRow(cal, row) === window && landsAt(cal, row) <= now,
    );
    const target =
      config.write.partitionBy === 'logical-date'
        ? r.logicalDate
        : config.write.partitionBy === 'clock'
          ? clockDate
          : null;
    const crash =
      config.faults.find((f) => f.logicalDate === r.logicalDate && f.tryNumber === tryNumber) ??
      null;
    const id = attempts.length;
    r.attempts.push(id);
    const attempt: Attempt = {
      run: runId,
      tryNumber,
      startAt: now,
      window,
      read: rows.map((x) => x.id),
      partitions: [],
      endAt: now,
      outcome: 'success',
      crash,
    };
    attempts.push(attempt);
    inFlight.add(id);
    trace.push({ at: now, kind: 'attempt-start', run: runId, attempt: id });
    trace.push({ at: now, kind: 'read', run: runId, attempt: id, window, events: attempt.read });
    const plan = planWrite({
      config,
      cal,
      rows,
      target,
      attempt: id,
      writeAt: now + config.task.readMs,
      crash,
      table,
      store,
    });
    attempt.partitions = plan.partitions;
    if (crash !== null && plan.crashed === null) {
      attempt.crash = null;
      attempt.unfired = { fault: crash, rows: plan.rows };
    }
    for (const op of plan.ops)
      schedule(
        op.at,
        step(id, op.at, () => applyOp(op, runId, id)),
      );
    schedule(
      plan.endAt,
      step(id, plan.endAt, () => finish(runId, id, plan.crashed)),
    );
  };

  /** Apply a write op of attempt `id`; true when it waits for another transaction (run it again). */
  const applyOp = (op: WriteOp, runId: number, id: number): boolean => {
    // A killed try writes nothing more; a failed statement ends the try's writes: the task fails.
    if (!inFlight.has(id) || attempts[id]!.failure !== undefined) return false;
    let out = op.apply(now);
    if (out.waits !== undefined) {
      const { on, heldBy } = out.waits;
      if (!waitsOn(on, id)) {
        waits.set(id, { on, since: now, held: [] });
        trace.push({ at: now, kind: 'claim-wait', run: runId, attempt: id, heldBy });
        return true;
      }
      // Each waits for the other: PostgreSQL detects the deadlock and fails this statement
      // (https://www.postgresql.org/docs/current/explicit-locking.html#LOCKING-DEADLOCKS).
      const statement: Statement = {
        kind: 'insert',
        partitions: [],
        rows: [],
        attempt: id,
        at: now,
      };
      out = {
        statements: [],
        claims: [],
        skipped: [],
        failed: { why: 'deadlock detected (40P01)', statement },
      };
    }
    if (out.failed !== undefined) {
      attempts[id]!.failure = out.failed.why;
      failedStatements.push(out.failed.statement);
      trace.push({ at: now, kind: 'statement-failed', run: runId, attempt: id });
      // Its transaction rolls back now, not when the task notices.
      endTransaction(id, false);
    }
    for (const s of out.statements) {
      statements.push(s);
      trace.push({
        at: now,
        kind: 'statement',
        run: runId,
        attempt: id,
        statement: s.kind,
        partitions: s.partitions,
        events: s.rows,
      });
    }
    for (const c of out.claims)
      trace.push({ at: now, kind: 'claim', run: runId, attempt: id, events: [c] });
    for (const [skipped, holder] of out.skipped) {
      skippedBy.set(skipped, holder);
      trace.push({
        at: now,
        kind: 'claim-skipped',
        run: runId,
        attempt: id,
        events: [skipped],
        heldBy: holder,
      });
    }
    return false;
  };

  const finish = (runId: number, id: number, crashed: BatchFault | null) => {
    if (!inFlight.delete(id)) return;
    // A crash rolls its open transaction back; a commit has already ended it.
    endTransaction(id, false);
    const a = attempts[id]!;
    a.endAt = now;
    if (crashed === null && a.failure === undefined) {
      trace.push({ at: now, kind: 'success', run: runId, attempt: id });
      endRun(runId, 'success');
      return;
    }
    a.outcome = 'crashed';
    if (crashed !== null)
      trace.push({ at: now, kind: 'crash', run: runId, attempt: id, point: crashed.point });
    if (runs[runId]!.attempts.length <= config.task.retries) {
      trace.push({ at: now, kind: 'retry-scheduled', run: runId, attempt: id });
      schedule(now + config.task.retryDelayMs, () => startAttempt(runId));
    } else {
      trace.push({ at: now, kind: 'run-failed', run: runId, attempt: id });
      endRun(runId, 'failed');
    }
  };

  // Scheduled runs: interval d ends at (d+1)·P; at deployment, catchup runs every completed
  // interval, no catchup only the latest completed one.
  const firstDate = config.catchup ? 0 : Math.max(0, Math.floor(config.deployedAtMs / P) - 1);
  for (let d = firstDate; d < config.periods; d++)
    queueRun('scheduled', d, Math.max((d + 1) * P, config.deployedAtMs), null);
  /**
   * A clear of logical date `d`: the date runs again now, with fresh retries. A run of `d` still
   * queued, running or waiting for a retry is ended first — Airflow's clear "make[s] sure the
   * running ones get killed" (`clear_task_instances`,
   * https://airflow.apache.org/docs/apache-airflow/stable/_api/airflow/models/taskinstance/index.html):
   * its try in flight stops where it is (what it committed stays; an open transaction rolls
   * back), and its retries are dropped. Two tries of one date never write at once.
   */
  const clearDate = (d: number) => {
    runs.forEach((r, runId) => {
      if (r.logicalDate !== d || (r.state !== 'queued' && r.state !== 'running')) return;
      r.state = 'cleared';
      const last = r.attempts.at(-1);
      const killed = last !== undefined && inFlight.delete(last) ? last : -1;
      if (killed >= 0) {
        waits.delete(killed);
        endTransaction(killed, false);
        const a = attempts[killed]!;
        a.endAt = now;
        a.outcome = 'killed';
        // A crash planned later in the try never came: the kill came first.
        if (a.crash !== null) a.crash = null;
      }
      trace.push({ at: now, kind: 'run-cleared', run: runId, attempt: killed });
      // A backfill goes on with its next date, as when its run ends.
      const to = r.nextInBackfill;
      if (r.kind === 'backfill' && to !== null && d < to) backfillFrom(d + 1, to);
    });
    queueRun('clear', d, now, null);
  };
  for (const c of config.clears) schedule(c.atMs, () => clearDate(c.logicalDate));
  for (const b of config.backfills)
    if (b.from <= b.to) schedule(b.atMs, () => backfillFrom(b.from, b.to));

  while (queue.length > 0) {
    const step = queue.shift()!;
    now = step.at;
    step.run();
  }
  return {
    config,
    calendar: cal,
    runs,
    attempts,
    table,
    statements,
    failedStatements,
    skippedBy,
    trace,
    endTime: now,
    hash: batchTraceHash(trace),
  };
}
