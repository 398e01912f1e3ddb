/**
 * The rejoin test of the fault atlas (src/engine/atlas/rejoin.ts) on a plain copy into a table:
 * where it finds a paused run's entry ids, a trial that rejoins and one that cannot.
 */
import { describe, expect, it } from 'vitest';
import { buildEvents, type FaultSpec, noRejoinStats, type Scenario } from '../engine';
import { assembleRun, advanceRun } from '../engine/simulate';
import { classify, firstRun, runTrial, runTrials } from '../engine/atlas/explore';
import { Forker } from '../engine/atlas/fork';
import type { EntryId, EventId } from '../engine/ids';
import { walkState } from '../engine/atlas/stateWalk';
import { copyToTable } from './atlasPropTesting';

/** 30 records a second apart, copied into a plain table; exactly-once claimed (a duplicate breaks it). */
const s = copyToTable(30, 'exactly-once');
const events = buildEvents(s.workload, s.seed);

/** The atlas's result for `fault` with the rejoin test, its counts, and the result from scratch. */
function trial(fault: FaultSpec) {
  const stats = noRejoinStats();
  const cutOff = firstRun(s).cutOff;
  const [result] = runTrials(s, [[fault]], cutOff, { path: 'snapshot', rejoinStats: stats });
  return { result, stats, scratch: classify(runTrial(s, [fault], events), cutOff, 1) };
}

/** A paused run's tokens (src/engine/atlas/stateWalk.ts). */
function tokens(run: ReturnType<typeof assembleRun>, shared: ReadonlySet<object>): unknown[] {
  const out: unknown[] = [];
  walkState(
    run,
    { put: (x) => out.push(x) },
    {
      shared,
      scenarios: new Set([s]),
    },
  );
  return out;
}

/**
 * Whether two copies of `sc`'s run paused at 12 s, one given a row more in its sink table (its
 * fourth row again, as a retried INSERT writes it), walk alike modulo settled history.
 */
function alikeWithARowMore(sc: Scenario): boolean {
  const ev = buildEvents(sc.workload, sc.seed);
  const [a, b] = [assembleRun(sc, { events: ev }), assembleRun(sc, { events: ev })];
  advanceRun(a, 12_000);
  advanceRun(b, 12_000);
  const rows = b.state.sink!.rows;
  const e = rows.event.get(3) as EventId;
  const [topic, partition, offset] = [rows.topic.get(3), rows.partition.get(3), rows.offset.get(3)];
  rows.insert(
    e,
    ev.identity[e]!,
    ev.amount[e]!,
    topic,
    partition,
    offset,
    rows.entry.get(3) as EntryId,
  );
  const walk = (run: typeof a) => {
    const out: unknown[] = [];
    const shared = new Forker(run.world).sharedInputs;
    const opts = {
      shared,
      scenarios: new Set([sc]),
      settled: true,
    };
    walkState(run, { put: (x) => out.push(x) }, opts);
    return out;
  };
  const [x, y] = [walk(a), walk(b)];
  return x.length === y.length && x.every((t, i) => Object.is(t, y[i]));
}

describe('settled history in the rejoin test', () => {
  it("leaves out a plain INSERT table's rows: no statement reads them", () => {
    expect(alikeWithARowMore(s)).toBe(true);
  });

  it('compares an upsert table: ON CONFLICT looks its rows up', () => {
    const upsert = { ...s, sink: { ...s.sink, statement: 'on-conflict-do-nothing' } } as Scenario;
    expect(alikeWithARowMore(upsert)).toBe(false);
  });
});

describe("a trial that rejoins the scenario's own run", () => {
  it('finds the entry ids of a paused run with a twin whose trace starts one entry in', () => {
    const a = assembleRun(s, { events });
    const b = assembleRun(s, { events, traceShift: 1 });
    advanceRun(a, 12_000);
    advanceRun(b, 12_000);
    const shared = new Forker(a.world).sharedInputs;
    const x = tokens(a, shared);
    const y = tokens(b, shared);
    expect(y.length).toBe(x.length);
    let ids = 0;
    for (let i = 0; i < x.length; i++) {
      if (Object.is(x[i], y[i])) continue;
      // Every difference is an entry id, one higher in the twin.
      expect(y[i]).toBe((x[i] as number) + 1);
      ids++;
    }
    // The log's append and send entries and the table's row entries name entries, at least.
    expect(ids).toBeGreaterThan(3 * 11);
  });

  it('stops a trial whose lost sink write is retried: its table ends as the own run’s', () => {
    // The write of e7 is lost; the sink client retries it before e8 comes: the table holds each
    // row once, as in the scenario's own run, and the run goes on as that run.
    const { result, stats, scratch } = trial({
      kind: 'drop-request',
      at: 7016,
      link: 'sink',
      match: { nth: 1 },
    });
    expect(stats.tried).toBe(1);
    expect(stats.rejoined).toBe(1);
    expect(stats.skipped).toBeGreaterThan(0);
    expect(result).toEqual({ outcome: 'held', duplicated: 0, lost: 0, fired: true });
    expect(result).toEqual(scratch);
  });

  it('stops a trial whose lost sink response leaves a duplicate row: settled history', () => {
    // The insert of e6 succeeded but its answer is lost: the retry inserts e6 again. The plain
    // INSERT table holds a row the own run's never holds — but no statement reads that table, so
    // the rest of the state is the own run's: the trial stops, its final table its rows now plus
    // the rows the own run inserts from there on (e6 twice).
    const { result, stats, scratch } = trial({
      kind: 'drop-response',
      at: 6018,
      link: 'sink',
      match: { nth: 1 },
    });
    expect(stats.tried).toBe(1);
    expect(stats.rejoined).toBe(1);
    expect(stats.settled).toBe(1);
    expect(result).toEqual({ outcome: 'duplicates', duplicated: 1, lost: 0, fired: true });
    expect(result).toEqual(scratch);
  });

  it('is not tried without the rejoin (runTrials rejoin: false)', () => {
    const stats = noRejoinStats();
    const fault: FaultSpec = { kind: 'drop-request', at: 7016, link: 'sink', match: { nth: 1 } };
    const r = runTrials(s, [[fault]], false, {
      path: 'snapshot',
      rejoin: false,
      rejoinStats: stats,
    });
    expect(stats.tried).toBe(0);
    expect(r[0]).toEqual({ outcome: 'held', duplicated: 0, lost: 0, fired: true });
  });
});
