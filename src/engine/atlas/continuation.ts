/**
 * A trial of the fault atlas as a continuation (docs/ARCHITECTURE.md, "Pending work and forks"):
 * until its added fault can first act, a trial's run is the scenario's own run, so it takes that
 * run paused at the fault's moment, arms the fault there as the set-up would have armed it, and
 * goes on. The result is the from-scratch trial's ({@link runTrial}), byte for byte.
 *
 * Arming part way (see {@link armStep}): the fault joins the registry at its index, after the
 * scenario's own, with its counters at zero (`Faults.arm`); a timed fault's task is queued at its
 * time counted from 0 and takes the queue sequence number the set-up would have given it, so it
 * runs in the same order among tasks of the same millisecond (`armTimedFault`); and the run holds
 * the trial's scenario (its faults included) wherever it held its own.
 *
 * Where the paused run comes from ({@link TrialPath}): `replay` runs the trial's pipeline from
 * scratch with the added faults held back up to the moment (as dear as a run from scratch, but
 * the arming is the same); `snapshot` advances one run of the scenario from moment to moment and
 * copies it at each (src/engine/atlas/fork.ts) — a trial then pays only for its run after the
 * moment, and a pair's first fault's continuation is shared by all its pairs; `rewind` advances
 * one run the same way but saves it every so often and runs each trial on that run itself,
 * restored in place (../core/rewind.ts). A snapshot or a save point needs a state without
 * closures (`npx tsx scripts/fork-census.ts [--every]`).
 *
 * A single fault's trial forked by snapshot or rewound may stop before its end, where its state is the
 * scenario's own run's again up to a renumbering of trace entries (./rejoin.ts): it is handed to
 * `onRejoined` with that run's outcome instead of to `onRun`.
 */
import type { FaultSpec, Scenario } from '../scenario/schema';
import {
  advanceRun,
  armTimedFault,
  assembleRun,
  finishRun,
  type AssembledRun,
  type Run,
} from '../simulate';
import { withPool, type BufferPool } from '../core/pool';
import type { Events } from '../scenario/workload';
import { hitsCheckpoints } from '../faults';
import { Forker } from './fork';
import { UncopyableError } from '../core/deepCopy';
import { runTrial, withFaults } from './trial';
import { firstAtOrAfter } from '../explain/traceIndex';
import { savePoint, UnsavableError, type SavePoint } from '../core/rewind';
import { isTaskCode } from '../world';
import { Rejoiner, type Rejoined, type RejoinRecord, type RejoinStats } from './rejoin';

/**
 * How a trial's run is made: from scratch, or forked by replay, by snapshot or by rewinding a save
 * point; `auto` forks by snapshot and, where the run still holds a closure a snapshot cannot copy,
 * runs the trials not yet run by replay; `rewind` runs those from scratch.
 */
export type TrialPath = 'scratch' | 'replay' | 'snapshot' | 'auto' | 'rewind';

/**
 * The path a trial takes unless told: rewound from a save point. A trial pays for its run after
 * its moment (about 60 % of a run in the Flink and side-effect atlases, half in retry-storm's)
 * and a restore, not for a copy: a copy's objects, built field by field, do not share their
 * originals' hidden classes, and a process that has run copies runs every later run slower (five
 * forks make the next 400 trials from scratch 2–3× dearer), where a restore keeps every object.
 * Whole atlases in Node, each path in its own process: `2pc-read-committed` 5.5–6.0 → 4.1–4.3 s,
 * `email-in-operator` 7.2–9.0 → 5.0–5.5 s, plain-sink 2.4–2.5 → 1.9–2.0 s, retry-storm (400
 * sampled) about half (docs/benchmarks.md, "Trials rewound in place").
 */
export const DEFAULT_TRIAL_PATH: TrialPath = 'rewind';

/**
 * The virtual time (ms) from which fault `f`, added to `s`, can change its run: before it the
 * trial's run is the scenario's own. A fault of the registry (a lost or late message, a crash at
 * a point, a leader failover) is armed from its `at` (src/engine/faults.ts) — but Flink's
 * checkpoint coordinator looks ahead to some (`hitsCheckpoints`: it wakes from idle one interval
 * before them, and decides whether to sleep by them) from the start, and one at 0 may act while
 * the pipeline is set up (the clients' first requests are sent then, before any task): those run
 * from scratch (null). A timed fault acts from its task, queued at its `at` or later. Null too
 * for the faults the fork path does not arm part way (a crash `now`, a periodic or random fault
 * other than a leader failover, a transaction's fate). `events` (`buildEvents(s.workload,
 * s.seed)`) places a re-send or a duplicate of an event at that event's time.
 */
export function forkMoment(s: Scenario, f: FaultSpec, events?: Events): number | null {
  switch (f.kind) {
    case 'drop-request':
    case 'drop-response':
    case 'delay-response':
    case 'crash':
      if (f.kind === 'crash' && f.point === 'now') return null;
      return f.at > 0 && !(s.processor.type === 'flink' && hitsCheckpoints(f, 'flink'))
        ? f.at
        : null;
    case 'random':
      return f.what === 'leader-failover' && f.at > 0 ? f.at : null;
    case 'rebalance':
    case 'zombie':
    case 'leader-failover':
      return f.at;
    case 'app-resend':
    case 'source-duplicate': {
      // Its task is queued at the event's first send or `at`, whichever is later
      // (src/engine/timedFaults.ts): the run before then is the scenario's own. Without the
      // workload at hand, `at` (earlier, so as good a moment, only dearer).
      const j = events ? events.identityOf(f.event) : -1;
      return j >= 0 ? Math.max(f.at, events!.at[events!.firstIndexOf(j)]!) : f.at;
    }
    default:
      return null;
  }
}

/** One added fault of a trial: its index in the trial's scenario and its moment. */
interface Step {
  fault: FaultSpec;
  index: number;
  moment: number;
}

/** A trial's added faults in the order they are armed (by moment, then index), or null. */
function stepsOf(s: Scenario, faults: readonly FaultSpec[], events: Events): Step[] | null {
  const steps: Step[] = [];
  for (let i = 0; i < faults.length; i++) {
    const moment = forkMoment(s, faults[i]!, events);
    if (moment === null) return null;
    steps.push({ fault: faults[i]!, index: s.faults.length + i, moment });
  }
  return steps.sort((a, b) => a.moment - b.moment || a.index - b.index);
}

/**
 * The forking paths' order of steps: by moment, then index, then each fault's first appearance
 * in `forked` (so trials sharing a step sort next to one another); and whether two are the same.
 */
function stepOrdering(forked: readonly { steps: Step[] }[]) {
  const ids = new Map<FaultSpec, number>();
  for (const t of forked)
    for (const x of t.steps) if (!ids.has(x.fault)) ids.set(x.fault, ids.size);
  return {
    stepOrder: (a: Step, b: Step) =>
      a.moment - b.moment || a.index - b.index || ids.get(a.fault)! - ids.get(b.fault)!,
    same: (a: Step, b: Step) => a.fault === b.fault && a.index === b.index,
  };
}

/** Added faults armed so far in a run: their index, and whether they queued a task. */
type Armed = readonly { index: number; timed: boolean }[];

/**
 * Arm `step` in `run`, paused before its moment; `trial` is a scenario holding its fault at its
 * index. @returns what is armed after it.
 */
function armStep(run: AssembledRun, trial: Scenario, step: Step, armed: Armed): Armed {
  run.world.faults.arm(step.fault, step.index);
  const earlier = armed.filter((a) => a.timed && a.index < step.index).length;
  const timed = armTimedFault(run, trial, step.index, earlier);
  return [...armed, { index: step.index, timed }];
}

/**
 * The `auto` path's rule for when a fork pays (docs/benchmarks.md, "what a fork costs"): a copy of
 * a paused run costs about as much per object it walks as the engine spends on this many trace
 * entries of run, so a trial forks only when the run before its moment has at least this many
 * entries per object of the last copy ({@link Forker.pays}) — else it runs from scratch, whose
 * prefix is cheaper than the copy. Measured with `BENCH_ONLY=atlasPaths` (copy µs per object
 * against prefix µs per entry) and tuned on the atlas's CPU (`BENCH_ATLAS_FORK_RULE`).
 */
const ENTRIES_PER_COPIED_OBJECT = 0.25;

/** Options of {@link forEachTrialRun}. */
export interface TrialRunOptions {
  path?: TrialPath;
  /**
   * A trial forks only where its prefix has this many trace entries per object a copy walks
   * (see {@link ENTRIES_PER_COPIED_OBJECT}, the `auto` path's default); 0 (the `snapshot` path's
   * default): always.
   */
  entriesPerObject?: number;
  /** Memory reused run after run (the scratch and replay paths: each run is given back after). */
  pool?: BufferPool;
  /** Asked before each run: true stops there. */
  cancelled?: () => boolean;
  /**
   * Given, a single-fault trial forked by snapshot stops where it rejoins the scenario's own run
   * (./rejoin.ts) and is handed here instead of to `onRun`, with the reference run's outcome.
   */
  onRejoined?: (k: number, rejoined: Rejoined) => void;
  /** Filled with the rejoin test's counts (the benchmark's). */
  rejoinStats?: RejoinStats;
  /** What earlier calls' rejoin tests of the same atlas left (./session.ts), to go on from. */
  rejoinRecord?: RejoinRecord;
  /** The rewind path checks each restore (tests: `SavePointOptions.verify`). */
  verifyRewind?: boolean;
}

/**
 * Run each trial of `trials` (the faults each adds to `s`) and hand its run to `onRun` with the
 * trial's position, in an order of the path's choosing (the forking paths by moment): each run
 * is the from-scratch trial's, byte for byte. On the rewind path a run is valid only during its
 * call: the next trial's restore overwrites it. `events`: `buildEvents(s.workload, s.seed)`.
 */
export function forEachTrialRun(
  s: Scenario,
  trials: readonly (readonly FaultSpec[])[],
  events: Events,
  onRun: (k: number, run: Run) => void,
  opts: TrialRunOptions = {},
): void {
  if ((opts.path ?? DEFAULT_TRIAL_PATH) === 'auto') {
    const done = new Set<number>();
    const mark = (k: number, run: Run) => {
      done.add(k);
      onRun(k, run);
    };
    const rejoined = opts.onRejoined;
    try {
      return forEachTrialRun(s, trials, events, mark, {
        ...opts,
        path: 'snapshot',
        entriesPerObject: opts.entriesPerObject ?? ENTRIES_PER_COPIED_OBJECT,
        onRejoined: rejoined
          ? (k, r) => {
              done.add(k);
              rejoined(k, r);
            }
          : undefined,
      });
    } catch (e) {
      if (!(e instanceof UncopyableError)) throw e;
    }
    const rest = trials.map((_, k) => k).filter((k) => !done.has(k));
    return forEachTrialRun(
      s,
      rest.map((k) => trials[k]!),
      events,
      (i, run) => onRun(rest[i]!, run),
      {
        ...opts,
        path: 'replay',
      },
    );
  }
  const path = opts.path ?? DEFAULT_TRIAL_PATH;
  const stop = opts.cancelled ?? (() => false);
  const scratch = (k: number) => onRun(k, runTrial(s, trials[k]!, events, opts.pool));
  const forked: { k: number; steps: Step[] }[] = [];
  for (let k = 0; k < trials.length; k++) {
    const steps = path === 'scratch' ? null : stepsOf(s, trials[k]!, events);
    if (steps === null || path === 'replay') {
      if (stop()) return;
      if (steps === null) scratch(k);
      else
        onRun(
          k,
          replayTrial(s, trials[k]!, steps, events, opts.pool) ??
            runTrial(s, trials[k]!, events, opts.pool),
        );
    } else forked.push({ k, steps });
  }
  if (forked.length === 0) return;
  const job: ForkJob = { s, trials, forked, events, onRun, scratch, stop, opts };
  if (path === 'rewind') rewindTrials(job);
  else snapshotTrials(job);
}

/** The trials a forking path runs, and what it hands their runs to. */
interface ForkJob {
  s: Scenario;
  trials: readonly (readonly FaultSpec[])[];
  /** The trials that fork (each with its steps), by their position `k` in `trials`. */
  forked: { k: number; steps: Step[] }[];
  events: Events;
  onRun: (k: number, run: Run) => void;
  /** Runs trial `k` from scratch (where a fork cannot). */
  scratch: (k: number) => void;
  stop: () => boolean;
  opts: TrialRunOptions;
}

/** The replay path: the trial's pipeline run to each moment, its fault armed there. */
function replayTrial(
  s: Scenario,
  faults: readonly FaultSpec[],
  steps: Step[],
  events: Events,
  pool?: BufferPool,
): Run | null {
  const trial = withFaults(s, faults);
  const go = (): Run | null => {
    const run = assembleRun(trial, { events, armFaults: s.faults.length });
    let armed: Armed = [];
    for (const step of steps) {
      // Ended before the moment (cannot happen for a placement, whose moment the run reached):
      // the caller runs the trial from scratch.
      if (!advanceRun(run, step.moment)) return null;
      armed = armStep(run, trial, step, armed);
    }
    return finishRun(run, { explain: false });
  };
  if (!pool) return go();
  const { result, taken } = withPool(pool, go);
  if (result) pool.own(result, taken);
  return result;
}

/**
 * The snapshot path: one run of `s` advances from moment to moment; at each, the trials whose
 * first fault strikes there fork from it — a single fault's trial runs to its end on its copy, a
 * pair's first fault is armed once on a copy from which each of its pairs forks at its second.
 */
function snapshotTrials(job: ForkJob): void {
  const { s, trials, forked, events, onRun, scratch, stop } = job;
  const { pool, onRejoined, rejoinStats, rejoinRecord } = job.opts;
  const entriesPerObject = job.opts.entriesPerObject ?? 0;
  const { stepOrder, same } = stepOrdering(forked);
  const trialOf = (k: number) => withFaults(s, trials[k]!);

  /** Run `list` (sharing steps before `d`, armed in `run`) from `run`; false once stopped. */
  const fork = (run: AssembledRun, list: typeof forked, d: number, armed: Armed): boolean => {
    list.sort((a, b) => stepOrder(a.steps[d]!, b.steps[d]!));
    for (let i = 0; i < list.length;) {
      const step = list[i]!.steps[d]!;
      let j = i + 1;
      while (j < list.length && same(list[j]!.steps[d]!, step)) j++;
      const group = list.slice(i, j);
      i = j;
      if (!advanceRun(run, step.moment)) {
        // The shared run ended before this moment: these trials and the rest run from scratch.
        for (const t of list.slice(i - group.length)) {
          if (stop()) return false;
          scratch(t.k);
        }
        return true;
      }
      const deeper: typeof forked = [];
      for (const t of group) {
        if (t.steps.length > d + 1) {
          deeper.push(t);
          continue;
        }
        if (stop()) return false;
        if (!forker.pays(run, entriesPerObject)) {
          scratch(t.k);
          continue;
        }
        const trial = trialOf(t.k);
        // A single fault's trial may stop where it rejoins the scenario's own run.
        const rejoin = onRejoined && rejoiner && trials[t.k]!.length === 1 ? rejoiner : null;
        const go = (): Run | Rejoined => {
          const copy = forker.snapshot(run, trial);
          armStep(copy, trial, step, armed);
          return (
            rejoin?.tryRejoin(copy, trial, step.index, step.moment) ??
            finishRun(copy, { explain: false })
          );
        };
        const hand = (result: Run | Rejoined) => {
          if ('reference' in result) onRejoined!(t.k, result);
          else onRun(t.k, result);
        };
        if (!pool) hand(go());
        else {
          // The copy and the run after it take their arrays from the pool, and give them back
          // with the run (runTrials reclaims it): the next trial's copy reuses them. A trial
          // that rejoined gives them back at once.
          const { result, taken } = withPool(pool, go);
          pool.own(result, taken);
          if ('reference' in result) pool.reclaim(result);
          hand(result);
        }
      }
      if (deeper.length > 0) {
        // Outside the pool: this copy outlives the trials that fork from it.
        const copy = forker.snapshot(run);
        const next = armStep(copy, trialOf(deeper[0]!.k), step, armed);
        if (!fork(copy, deeper, d + 1, next)) return false;
      }
    }
    return true;
  };
  const base = assembleRun(s, { events });
  const forker = new Forker(base.world);
  const rejoiner = onRejoined
    ? new Rejoiner(s, events, forker.sharedInputs, rejoinStats?.census, rejoinRecord)
    : null;
  fork(base, forked, 0, []);
  if (rejoiner && rejoinStats) Object.assign(rejoinStats, rejoiner.stats);
}

/**
 * What a save point costs, in trace entries of run per object it walks (../core/rewind.ts: a
 * clone of each object's fields, each buffer's bytes in use; `2pc-read-committed` at 4 s, 631
 * objects, about as dear as 1,500 entries). With it the rewind path spaces its save points: a
 * trial restores the last one before its moment and runs on to the moment, so with N trials over
 * a run of L entries, save points every Δ entries cost (L / Δ) saves and N · Δ / 2 entries of
 * catching up — least at Δ = √(2 · save · L / N): about 70 entries for a whole Flink atlas, a few
 * hundred for one of the page's chunks (a sixteenth of its trials, over the whole run).
 */
const SAVE_ENTRIES_PER_OBJECT = 2.5;

/** The spacing of save points (entries) for `trials` trials over a run of `entries` entries. */
function saveSpacing(objects: number, entries: number, trials: number): number {
  return Math.sqrt((2 * SAVE_ENTRIES_PER_OBJECT * objects * entries) / Math.max(1, trials));
}

/**
 * The rewind path: one run of `s` advances from moment to moment, saved every so often
 * ({@link saveSpacing}; ../core/rewind.ts); a trial restores the last save point
 * before its moment, with its own scenario where the run holds `s`, runs on to the moment, arms
 * its fault and runs to its end, on that run itself: no copy, so every trial meets the shapes a
 * run from scratch makes. The run handed to `onRun` is valid only during the call (the next
 * restore overwrites it). Where the state cannot be saved (a closure: some Spark paths), the
 * trials not yet run run from scratch.
 */
function rewindTrials(job: ForkJob): void {
  const { s, trials, forked, events, onRun, scratch, stop } = job;
  const { pool, onRejoined, rejoinStats, rejoinRecord, verifyRewind: verify } = job.opts;
  const { stepOrder, same } = stepOrdering(forked);
  const trialOf = (k: number) => withFaults(s, trials[k]!);
  const base = assembleRun(s, { events });
  const shared = new Forker(base.world).sharedInputs;
  const rejoiner = onRejoined
    ? new Rejoiner(s, events, shared, rejoinStats?.census, rejoinRecord)
    : null;
  // How many entries of the scenario's own run come before a moment.
  const own = runTrial(s, [], events).trace;
  const ownTimes = own.time.subarray(0, own.length);
  const entriesBefore = (ms: number) => firstAtOrAfter(ownTimes, ms);

  /** A save point of `run`, or null where its state holds what cannot be saved. */
  const save = (run: AssembledRun): SavePoint | null => {
    try {
      return savePoint(run, { shared, allowFunction: isTaskCode, replaceable: s, verify });
    } catch (e) {
      if (e instanceof UnsavableError) return null;
      throw e;
    }
  };
  const allFromScratch = (list: typeof forked): boolean => {
    for (const t of list) {
      if (stop()) return false;
      scratch(t.k);
    }
    return true;
  };

  /**
   * Run `list` (sharing the steps before `d`, armed in `run`) from `run`, whose state `point`
   * holds; false once stopped. Nested (pairs), a save point at every moment.
   */
  const fork = (
    run: AssembledRun,
    point: SavePoint,
    list: typeof forked,
    d: number,
    armed: Armed,
  ): boolean => {
    list.sort((a, b) => stepOrder(a.steps[d]!, b.steps[d]!));
    let savedAt = -Infinity;
    for (let i = 0; i < list.length;) {
      const step = list[i]!.steps[d]!;
      let j = i + 1;
      while (j < list.length && same(list[j]!.steps[d]!, step)) j++;
      const group = list.slice(i, j);
      i = j;
      const here = d === 0 ? entriesBefore(step.moment) : Infinity;
      if (here - savedAt >= saveSpacing(point.size, ownTimes.length, forked.length)) {
        point.restore();
        if (!advanceRun(run, step.moment)) return allFromScratch(list.slice(i - group.length));
        const next = save(run);
        if (next === null) return allFromScratch(list.slice(i - group.length));
        point = next;
        savedAt = here;
      }
      const deeper: typeof forked = [];
      for (const t of group) {
        if (t.steps.length > d + 1) {
          deeper.push(t);
          continue;
        }
        if (stop()) return false;
        const trial = trialOf(t.k);
        const rejoin = rejoiner && trials[t.k]!.length === 1 ? rejoiner : null;
        const go = (): Run | Rejoined | null => {
          point.restore(trial);
          // On from the save point to the moment, the fault not yet armed (as by replay).
          if (!advanceRun(run, step.moment)) return null;
          armStep(run, trial, step, armed);
          return (
            rejoin?.tryRejoin(run, trial, step.index, step.moment) ??
            finishRun(run, { explain: false })
          );
        };
        const { result, taken } = pool ? withPool(pool, go) : { result: go(), taken: [] };
        if (result === null) scratch(t.k);
        else if ('reference' in result) onRejoined!(t.k, result);
        else {
          // What the trial took from the pool (a column grown past the saved one) goes back
          // with its run; the saved columns are the base run's, restored, not the pool's.
          pool?.own(result, taken);
          onRun(t.k, result);
        }
      }
      if (deeper.length > 0) {
        point.restore();
        if (!advanceRun(run, step.moment)) {
          if (!allFromScratch(deeper)) return false;
          continue;
        }
        const next = armStep(run, trialOf(deeper[0]!.k), step, armed);
        const inner = save(run);
        if (inner === null) {
          if (!allFromScratch(deeper)) return false;
        } else if (!fork(run, inner, deeper, d + 1, next)) return false;
      }
    }
    return true;
  };
  const start = save(base);
  if (start === null) allFromScratch(forked);
  else fork(base, start, forked, 0, []);
  if (rejoiner && rejoinStats) Object.assign(rejoinStats, rejoiner.stats);
}
