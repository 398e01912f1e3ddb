/**
 * Rejoining the scenario's own run (issue 23 §3, docs/ARCHITECTURE.md "Pending work and forks"):
 * a single-fault trial of the fault atlas whose state, at a checkpoint, is the scenario's own
 * run's state at the same moment — up to a renumbering of trace entries — goes on as that run
 * goes on, so it stops there and takes that run's outcome.
 *
 * Why that is exact. The engine is deterministic: from one state, one future. Two states that
 * differ only in the entry ids they hold (the trace entries their pending work and records name)
 * have the same future up to those ids, if the engine treats an id as a name: it compares ids,
 * writes them into new entries as causes, and reads a few columns of the entry an id names
 * (`World.arrive` a message's 'msg' entry — its event, topic, partition, offset, count and type;
 * `Links.resetAt` a crash entry's time) — no arithmetic or ordering on them, and the trace's
 * length decides nothing but the trace limit. So the test asks, at a checkpoint of the reference run:
 * - every part of the state equal, but the entry ids, by the canonical walk (./stateWalk.ts):
 *   the queue's live tasks in run order, the added fault spent (it can no longer act);
 * - the entry ids held in the same places, renumbered one to one (the engine compares ids for
 *   equality only — nothing outside the explanations, the checker and the atlas orders or sorts
 *   them — so every comparison comes out alike), each naming an entry with the same columns
 *   (`time` too for a crash entry); where the state holds ids is found by a twin of the reference run whose
 *   trace starts one entry in (`traceShift`): exactly those values differ by one;
 * - the trial's trace limit and end (`stopAtMs` or its default) the reference's, and the
 *   reference not cut off by the limit.
 * Then the trial's final state is the reference's (the same rows, records and effects per
 * event), so its verdict is the reference's; only whether its fault fired is its own (read from
 * its trace, which holds every firing: a spent fault fires no more).
 *
 * Where it falls back (the trial runs to its end): pairs; a state with any other difference —
 * a record more or fewer in a log or a table (a duplicate stays one), another count in one of the
 * scenario's own faults (retry-storm's every-100th-response drop, after a produce request more
 * or fewer), a counter of another kind of id (pipeline-generated ids, a producer id);
 * checkpoints past the few tried (see {@link TRY_AFTER_MS}).
 */
import type { Scenario } from '../scenario/schema';
import type { Events } from '../scenario/workload';
import {
  advanceRun,
  assembleRun,
  defaultStopAt,
  simulate,
  type AssembledRun,
  type Run,
} from '../simulate';
import { LIMITS } from '../scenario/limits';
import { K, TRACE_COLUMNS, type Trace } from '../trace';
import { withoutPool } from '../core/pool';
import { isIdleTask } from '../world';
import { MISMATCH, walkState, type TokenSink, type WalkOptions } from './stateWalk';
import { judge, primaryPoint, type Point, type Verdict } from '../checker';
import type { RunState } from '../simulateUnexplained';

/** Checkpoints of the reference run, evenly spaced over its length. */
const CHECKPOINTS = 64;
/**
 * How long after its fault's moment a trial is tested (ms), at the first checkpoint from then on:
 * the clients' timeouts that a fault's effects wait out are of these orders (a produce request's
 * 0.5–30 s, a statement's 5 s, a fetch's 30 s); a trial that has not rejoined by the last seldom
 * does, and a test that fails costs little (it stops at the first difference).
 */
const TRY_AFTER_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000];

/**
 * After this many trials tested, the test is given up for the atlas's other trials if fewer than
 * one in {@link GIVE_UP_RATIO} rejoined: where hardly any trial can rejoin (a Flink job's
 * checkpoint timers stay out of phase after a fault), its checks and checkpoints only cost. A
 * count, so the choice is the same on every machine; either choice gives the same results.
 */
const GIVE_UP_AFTER = 32;
const GIVE_UP_RATIO = 16;

/** The reference's paused state at one time: its tokens, and which are entry ids. */
interface Checkpoint {
  time: number;
  tokens: unknown[];
  /** Per token: 0 a value, 1 an entry id, 3 an entry id whose entry's time matters. */
  ids: Uint8Array;
  traceLength: number;
  /** The reference's settled counts there (see {@link SettledCounts}). */
  settled: SettledCounts;
  /** With a census: the reference's live queued tasks by kind (see {@link queueKinds}). */
  queue?: Map<string, number>;
}

/** What the rejoin test did in one atlas (the benchmark's figures). */
export interface RejoinStats {
  /** Trials tested, and those that rejoined. */
  tried: number;
  rejoined: number;
  /** Checkpoints compared, and the tokens of state they compared (./stateWalk.ts). */
  checks: number;
  tokens: number;
  /** Of the rejoined, those whose settled history differed from the reference's (./stateWalk.ts). */
  settled: number;
  /** Trace entries of the reference run the rejoined trials did not run. */
  skipped: number;
  /**
   * Given, a census (scripts/atlas-rejoin-census.ts): per trial tested, where its state first
   * differed at the first checkpoint it tried (`first: <place>`) and at the last (`last: …`), a
   * place being the classes and keys down to the token, counted; the test is then never given
   * up. Costs a second, labelled walk per check.
   */
  census?: Map<string, number>;
}

/** Counts of a rejoin test not yet run: what a caller passes to be filled in. */
export function noRejoinStats(): RejoinStats {
  return { tried: 0, rejoined: 0, checks: 0, tokens: 0, settled: 0, skipped: 0 };
}

/**
 * A trial that rejoined: the reference's finished run, the verdict of the trial's final state
 * (the reference's, or judged from the trial's settled counts, see {@link Rejoiner}), and whether
 * the trial's fault fired.
 */
export interface Rejoined {
  reference: Run;
  verdict: RejoinedVerdict;
  fired: boolean;
}

/** What an atlas reads of a rejoined trial's verdict (`classify` in ./explore.ts). */
export type RejoinedVerdict = Pick<Verdict, 'fate' | 'observed' | 'sideEffects' | 'held'> & {
  points: readonly Pick<Point, 'name' | 'rows'>[];
};

/**
 * A run's settled counts per business identity (src/engine/core/settled.ts): the sink table's
 * rows and effects, the external service's effects — each null where the run has none.
 */
interface SettledCounts {
  sinkRows: Int32Array | null;
  sinkEffects: Int32Array | null;
  service: Int32Array | null;
}

/** `state`'s settled counts: the arrays themselves, or (`copy`) copies of them. */
function settledCounts(state: RunState, copy: boolean): SettledCounts {
  const rows = state.sink?.rows;
  const own = (a: Int32Array | undefined) => (a === undefined ? null : copy ? a.slice() : a);
  return {
    sinkRows: own(rows?.rowsOf),
    sinkEffects: own(rows?.effectsOf),
    service: own(state.service?.effectsOf),
  };
}

/** now + end − then, per identity (null where the run has no such count). */
function carried(
  now: Int32Array | null,
  then: Int32Array | null,
  end: Int32Array | null,
): Int32Array | null {
  if (now === null || then === null || end === null) return null;
  const out = new Int32Array(now.length);
  for (let j = 0; j < out.length; j++) out[j] = now[j]! + end[j]! - then[j]!;
  return out;
}

function sameCounts(a: SettledCounts, b: SettledCounts): boolean {
  const same = (x: Int32Array | null, y: Int32Array | null) =>
    x === null || y === null ? x === y : x.length === y.length && x.every((v, j) => v === y[j]);
  return (
    same(a.sinkRows, b.sinkRows) && same(a.sinkEffects, b.sinkEffects) && same(a.service, b.service)
  );
}

/**
 * The trace columns an entry id's entry must agree on (`time` only for a crash entry): a run, while
 * it runs, reads neither `cause` nor `until` of an entry it names (only the reports read them after).
 */
const COLUMNS = TRACE_COLUMNS.filter((c) => c !== 'time' && c !== 'cause' && c !== 'until');

/** Records token `i`'s kind: collects the reference's tokens and where its keys say a crash. */
/** A state's walk as written: its tokens, and which are a crash entry's id (its time matters). */
export class Recorder implements TokenSink {
  readonly tokens: unknown[] = [];
  readonly crash: boolean[] = [];
  put(token: unknown, key?: string): void {
    this.tokens.push(token);
    this.crash.push(key === 'crashEntries');
  }
}

/**
 * Which of `a`'s tokens are entry ids, found by `b`, the walk of its twin whose trace starts one
 * entry in: exactly those differ by one — 1 for an id, 3 for a crash entry's (its time matters).
 * Null where any other token differs (no checkpoint there).
 */
export function entryIdsByTwin(a: Recorder, b: Recorder): Uint8Array | null {
  if (a.tokens.length !== b.tokens.length) return null;
  const ids = new Uint8Array(a.tokens.length);
  for (let j = 0; j < ids.length; j++) {
    const x = a.tokens[j];
    const y = b.tokens[j];
    if (Object.is(x, y)) continue;
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || y !== x + 1) return null;
    ids[j] = a.crash[j] ? 3 : 1;
  }
  return ids;
}

/** Compares a trial's tokens with a checkpoint's, collecting the entry-id renumbering. */
class Comparer implements TokenSink {
  private p = 0;
  /** Trial entry id → reference entry id, and back. */
  readonly forward = new Map<number, number>();
  private readonly back = new Map<number, number>();
  /** Trial ids whose entry's time must match. */
  readonly timed: number[] = [];

  constructor(
    private readonly c: Checkpoint,
    private readonly traceLength: number,
  ) {}

  put(token: unknown): void {
    const p = this.p++;
    const c = this.c;
    if (p >= c.tokens.length) throw MISMATCH;
    const want = c.tokens[p];
    const id = c.ids[p]!;
    if (id === 0) {
      if (!Object.is(token, want)) throw MISMATCH;
      return;
    }
    const x = token as number;
    const y = want as number;
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x >= this.traceLength)
      throw MISMATCH;
    const f = this.forward.get(x);
    if (f === undefined) {
      if (this.back.has(y)) throw MISMATCH;
      this.forward.set(x, y);
      this.back.set(y, x);
    } else if (f !== y) throw MISMATCH;
    if (id === 3) this.timed.push(x);
  }

  /** Tokens compared so far. */
  get position(): number {
    return this.p;
  }

  get complete(): boolean {
    return this.p === this.c.tokens.length;
  }
}

/**
 * What the rejoin tests of one atlas keep from one call of `runTrials` to the next (the page's
 * worker runs its trials chunk by chunk, ./session.ts): the reference's finished run and its
 * checkpoint times, made once, and the counts by which the test is given up — for the atlas, not
 * anew for every chunk.
 */
export interface RejoinRecord {
  finished: Run | null;
  times: number[];
  readonly stats: RejoinStats;
}

/** A record of no test yet. */
export function newRejoinRecord(): RejoinRecord {
  return {
    finished: null,
    times: [],
    stats: { tried: 0, rejoined: 0, settled: 0, checks: 0, skipped: 0, tokens: 0 },
  };
}

/**
 * The rejoin test of one atlas (one scenario, one workload): the reference run and its shifted
 * twin advanced from checkpoint to checkpoint as the trials ask (trials come in order of their
 * moments), and the reference's finished run, made once when first needed ({@link RejoinRecord})
 * — all outside the trials' buffer pool.
 */
export class Rejoiner {
  private reference: AssembledRun | null = null;
  private twin: AssembledRun | null = null;
  private readonly checkpoints = new Map<number, Checkpoint | null>();
  /** The last checkpoint the reference and its twin were advanced to (they only go forward). */
  private reached = -1;
  private readonly stopAt: number;
  /** The verdict's point (the checker's `primaryPoint`). */
  private readonly primary: string;
  private readonly walk: WalkOptions;
  /** Counts for the benchmark (trials tried, rejoined, checks made) and the give-up rule. */
  readonly stats: RejoinStats;

  /** `record`: what earlier tests of the same atlas left (default: none). */
  constructor(
    private readonly s: Scenario,
    private readonly events: Events,
    shared: ReadonlySet<object>,
    census?: Map<string, number>,
    private readonly record: RejoinRecord = newRejoinRecord(),
  ) {
    this.stats = record.stats;
    if (census) this.stats.census = census;
    this.stopAt = s.stopAtMs ?? defaultStopAt(s, events);
    this.primary = primaryPoint({ scenario: s });
    // A clean layer's table is built from the raw rows themselves (their order, not their
    // counts): its settled rows must be the reference's.
    this.walk = {
      shared,
      scenarios: new Set([s]),
      settled: this.primary !== 'clean',
    };
  }

  /** The reference's finished run (its verdict is a rejoined trial's). */
  private final(): Run {
    const r = this.record;
    if (r.finished === null) {
      const run = withoutPool(() => simulate(this.s, { events: this.events, explain: false }));
      r.finished = run;
      const end = run.endTime;
      for (let i = 1; i < CHECKPOINTS; i++) {
        const t = Math.floor((end * i) / CHECKPOINTS);
        if (t > 0 && t !== r.times[r.times.length - 1]) r.times.push(t);
      }
    }
    return r.finished;
  }

  /** The reference's checkpoint times (set by {@link final}). */
  private get times(): readonly number[] {
    return this.record.times;
  }

  /** Checkpoint `i` (null where the reference cannot give one: ended, or ids not found). */
  private checkpoint(i: number): Checkpoint | null {
    // The reference only goes forward: a checkpoint no trial asked for on the way is skipped
    // (one asked for later is missing: that trial tries its next), one made is kept until the
    // trials' moments pass it.
    if (!this.checkpoints.has(i) && i > this.reached) {
      this.reached = i;
      this.make(i);
    }
    return this.checkpoints.get(i) ?? null;
  }

  private make(i: number): void {
    const time = this.times[i]!;
    const c = withoutPool((): Checkpoint | null => {
      this.reference ??= assembleRun(this.s, { events: this.events });
      this.twin ??= assembleRun(this.s, { events: this.events, traceShift: 1 });
      if (!advanceRun(this.reference, time) || !advanceRun(this.twin, time)) return null;
      const a = new Recorder();
      const b = new Recorder();
      walkState(this.reference, a, this.walk);
      walkState(this.twin, b, this.walk);
      const ids = entryIdsByTwin(a, b);
      if (!ids) return null;
      const queue = this.stats.census ? queueKinds(this.reference) : undefined;
      return {
        time,
        tokens: a.tokens,
        ids,
        traceLength: this.reference.world.trace.length,
        settled: settledCounts(this.reference.state, true),
        queue,
      };
    });
    this.checkpoints.set(i, c);
  }

  /**
   * Run `trial` (the trial's paused run, its one added fault armed at `index` of the trial's
   * scenario `t`) up to the checkpoints after `moment` and test each: the rejoined result, or
   * null with the run advanced to a checkpoint or ended (then finish it as any trial).
   */
  tryRejoin(trial: AssembledRun, t: Scenario, index: number, moment: number): Rejoined | null {
    const st = this.stats;
    const census = st.census;
    if (!census && st.tried >= GIVE_UP_AFTER && st.rejoined * GIVE_UP_RATIO < st.tried) return null;
    const ref = this.final();
    if (ref.cutOffBy === 'trace-limit') return null;
    if ((t.stopAtMs ?? defaultStopAt(t, this.events)) !== this.stopAt) return null;
    this.stats.tried++;
    // Checkpoints of earlier moments are not asked again (trials come in order of moments).
    let first = 0;
    while (first < this.times.length && this.times[first]! <= moment)
      this.checkpoints.delete(first++);
    let i = first - 1;
    // The census: where the trial differed at the first checkpoint it tried, and at the last.
    let firstWhy: string | null = null;
    let lastWhy: string | null = null;
    const tally = (why: string) => {
      if (census === undefined) return;
      for (const k of [`first: ${firstWhy ?? why}`, `last: ${lastWhy ?? why}`])
        census.set(k, (census.get(k) ?? 0) + 1);
    };
    for (const d of TRY_AFTER_MS) {
      const last = i;
      while (i < this.times.length && (i < first || i === last || this.times[i]! < moment + d)) i++;
      if (i >= this.times.length) break;
      const c = this.checkpoint(i);
      if (c === null) continue;
      if (!advanceRun(trial, c.time)) {
        tally('(trial ended)');
        return null;
      }
      this.stats.checks++;
      if (!this.matches(trial, t, index, c, ref.trace)) {
        if (census !== undefined) {
          lastWhy = this.mismatchPlace(trial, t, index, c);
          firstWhy ??= lastWhy;
        }
        continue;
      }
      lastWhy = '(rejoined)';
      tally(lastWhy);
      // The trial's trace limit is the reference's, moved by the difference in length.
      const w = trial.world.trace;
      if (ref.trace.length + (w.length - c.traceLength) + 1 >= LIMITS.traceEntries) return null;
      this.stats.rejoined++;
      this.stats.skipped += ref.trace.length - c.traceLength;
      return { reference: ref, verdict: this.verdictOf(trial, c, ref), fired: firedAt(w, index) };
    }
    tally('(no checkpoint left)');
    return null;
  }

  /**
   * The verdict of a trial that matched `c` modulo settled history: the reference's where its
   * settled counts are the reference's there; else judged, by the checker's rule, from its
   * final settled counts — its own now plus what the reference adds to them from `c` to its end
   * (the same rows and effects: the rest of the state is the reference's, and nothing reads the
   * settled fields). The points it does not hold (a reader, a log) are the reference's.
   */
  private verdictOf(trial: AssembledRun, c: Checkpoint, ref: Run): RejoinedVerdict {
    const now = settledCounts(trial.state, false);
    if (sameCounts(now, c.settled)) return ref.verdict;
    this.stats.settled++;
    const end = settledCounts(ref.state, false);
    const then = c.settled;
    const service = carried(now.service, then.service, end.service);
    let rows: Int32Array;
    let effects: Int32Array;
    if (this.primary === 'sink') {
      rows = carried(now.sinkRows, then.sinkRows, end.sinkRows)!;
      effects = carried(now.sinkEffects, then.sinkEffects, end.sinkEffects)!;
    } else if (this.primary === 'effects') rows = effects = service!;
    else {
      const p = ref.verdict.points.find((x) => x.name === this.primary)!;
      rows = p.rows;
      effects = p.effects;
    }
    const side = ref.verdict.sideEffects !== null ? service : null;
    const fate = new Uint8Array(rows.length);
    const judged = judge(ref.verdict.claimed, rows, effects, side, fate);
    return { fate, ...judged, points: side === null ? [] : [{ name: 'effects', rows: side }] };
  }

  /** Where the last {@link matches} found a difference: a token's position, or a word. */
  private mismatch: number | string = '';

  /** The census's label of the last mismatch: the place of the token that differed. */
  private mismatchPlace(trial: AssembledRun, t: Scenario, index: number, c: Checkpoint): string {
    const m = this.mismatch;
    if (typeof m === 'string') return m;
    const labels: string[] = [];
    walkState(trial, { put() {} }, { ...this.trialWalk(t, index, c), labels });
    const place = labels[m] ?? '(trial state longer)';
    if (!place.endsWith('World.queue') || c.queue === undefined) return place;
    // The queue's length differs: which kinds of tasks the trial has more or fewer of.
    const diff = new Map(c.queue);
    for (const [k, n] of queueKinds(trial)) diff.set(k, (diff.get(k) ?? 0) - n);
    const words = [...diff]
      .filter(([, n]) => n !== 0)
      .sort()
      .map(([k, n]) => `${n < 0 ? '+' : '-'}${Math.abs(n)} ${k}`);
    return `${place} (${words.join(', ') || 'same kinds'})`;
  }

  private trialWalk(t: Scenario, index: number, c: Checkpoint): WalkOptions {
    return {
      shared: this.walk.shared,
      scenarios: new Set([this.s, t]),
      settled: this.walk.settled,
      added: { from: index, now: c.time },
    };
  }

  /** Whether the trial's state at `c.time` is the reference's, up to entry ids. */
  private matches(
    trial: AssembledRun,
    t: Scenario,
    index: number,
    c: Checkpoint,
    refTrace: Trace,
  ): boolean {
    const trace = trial.world.trace;
    const cmp = new Comparer(c, trace.length);
    try {
      walkState(trial, cmp, this.trialWalk(t, index, c));
    } catch (e) {
      if (e !== MISMATCH) throw e;
      this.mismatch = cmp.position - 1;
      return false;
    } finally {
      this.stats.tokens += cmp.position;
    }
    if (!cmp.complete) {
      this.mismatch = '(trial state shorter)';
      return false;
    }
    // One to one (the Comparer's maps): every comparison of two ids comes out as in the
    // reference — the engine compares ids for equality only, never orders them.
    this.mismatch = '(an entry id names another entry)';
    for (const [x, y] of cmp.forward)
      for (const col of COLUMNS) if (trace[col][x] !== refTrace[col][y]) return false;
    for (const x of cmp.timed)
      if (trace.time[x] !== refTrace.time[cmp.forward.get(x)!]) return false;
    return true;
  }
}

/** Whether fault `index` has a 'fault' entry in `t`. */
function firedAt(t: Trace, index: number): boolean {
  for (let e = 0; e < t.length; e++) if (t.kind[e] === K.fault && t.aux[e] === index) return true;
  return false;
}

/** A paused run's live queued tasks counted by kind: the class of their `self` and their method. */
function queueKinds(run: AssembledRun): Map<string, number> {
  const world = run.world as unknown as { queue: { items: QueuedTask[]; far: QueuedTask[] } };
  const q = world.queue;
  const out = new Map<string, number>();
  for (const t of [...q.items, ...q.far]) {
    if (t.cancelled === true || isIdleTask(t)) continue;
    const k = `${(t.self as object | null)?.constructor.name ?? '-'}.${(t.fn as { name?: string }).name ?? '?'}`;
    out.set(k, (out.get(k) ?? 0) + 1);
  }
  return out;
}

interface QueuedTask {
  fn: unknown;
  self: unknown;
  cancelled?: boolean;
}
