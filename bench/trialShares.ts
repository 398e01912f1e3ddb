/**
 * What a lighter fault-atlas trial could save at most (issue 23, section 3): each named variant's
 * single-fault atlas on an evenly spaced sample of placements, as a page's worker runs it (one
 * trial session, warmed up), and, on each of those trials' runs, the work its outcome does not
 * need — recording its trace after its fork (those entries written again into a trace as long:
 * `Trace.add` and the four columns written apart; all of them for a trial run from scratch),
 * copying the trace's prefix at the fork (its columns up to the fault's moment, into columns
 * as long, the rest zeroed), the verdict beyond the outcome (`check`
 * without explanations: every observation point, the trace scan, the latencies) and `classify`
 * (the outcome, with its scan of the trace for the fault's firing). Each is the least CPU time
 * of TRIAL_SHARES_REPEAT repetitions over all the trials (default 7; CPU, not wall time: on a
 * shared machine a process mostly waits for a core), beside the atlas's least CPU time per trial,
 * in one process. Bundled, as the page ships the engine:
 *   npx vite build --ssr bench/trialShares.ts --outDir <dir>, then node <dir>/trialShares.js
 * (the outDir beside a node_modules: the bundle imports zod). TRIAL_SHARES_PRESETS=a/b,c/d picks
 * the variants (default: flink-checkpoint-replay/2pc-read-committed and
 * card-charge-idempotency/email-in-operator); TRIAL_SHARES_SAMPLE the placements (default 100).
 */
import {
  BufferPool,
  buildEvents,
  check,
  classify,
  enumeratePlacements,
  firstRun,
  forkMoment,
  runTrial,
  runTrials,
  Trace,
  TRACE_COLUMNS,
  trialFaults,
  trialSession,
  type Run,
} from '../src/engine';
import { presetScenario } from './presetScenario';
import { pickPlacements } from './atlasSample';

const ids = (
  process.env.TRIAL_SHARES_PRESETS ??
  'flink-checkpoint-replay/2pc-read-committed,card-charge-idempotency/email-in-operator'
).split(',');
const SAMPLE = Number(process.env.TRIAL_SHARES_SAMPLE ?? 100);
const REPEAT = Number(process.env.TRIAL_SHARES_REPEAT ?? 7);

/**
 * The least CPU time of `fn` over REPEAT runs (ms): CPU, not wall time — on a shared machine a
 * process waits for a core most of the time — of work long enough for the clock's resolution.
 */
function least(fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < REPEAT; i++) {
    const c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / 1000);
  }
  return best;
}

/**
 * `run`'s trace from entry `from` on written again into `out` (its columns as long as `run`'s:
 * no growth), entry by entry, as the engine's writers write it.
 */
function record(run: Run, from: number, out: Trace): void {
  const t = run.trace;
  out.length = from;
  for (let i = from; i < t.length; i++) {
    const e = out.add(
      t.time[i]!,
      t.kind[i]! as never,
      t.actor[i]!,
      t.cause[i]! as never,
      t.event[i]!,
      t.topic[i]!,
      t.partition[i]!,
      t.offset[i]!,
      t.count[i]!,
      t.aux[i]!,
    );
    out.peer[e] = t.peer[i]!;
    out.txn[e] = t.txn[i]!;
    out.ckpt[e] = t.ckpt[i]!;
    out.until[e] = t.until[i]!;
  }
}

/**
 * `run`'s trace columns up to `n` entries copied into `into` (columns as long as `run`'s, as a
 * fork's copy takes them from the atlas's buffer pool), the rest zeroed as a copy's is.
 */
function copyPrefix(run: Run, n: number, into: Trace): void {
  const t = run.trace;
  for (const c of TRACE_COLUMNS) {
    const copy = into[c];
    copy.set(t[c].subarray(0, n));
    copy.fill(0, n);
  }
}

const pct = (x: number, of: number) => `${((100 * x) / of).toFixed(1)} %`;

for (const id of ids) {
  const s = presetScenario(id);
  const pool = new BufferPool();
  const first = firstRun(s, pool);
  const placements = enumeratePlacements(s, first, undefined);
  const cutOff = first.cutOff;
  pool.reclaim(first);
  const picked = pickPlacements(placements.length, SAMPLE);
  const trials = trialFaults(placements, picked);
  // The atlas as a page's worker runs it, warmed up first (its session's rejoin test given up
  // where it does not pay, its reference runs made): its least time per trial.
  const session = trialSession(s);
  runTrials(s, trials, cutOff, { pool, session });
  const atlas = least(() => runTrials(s, trials, cutOff, { pool, session })) / trials.length;
  const events = buildEvents(s.workload, s.seed);
  const runs = trials.map((faults) => runTrial(s, faults, events));
  // Where each trial forks (its trace's length at its fault's moment; 0: run from scratch).
  const forks = trials.map((faults, i) => {
    const m = forkMoment(s, faults[0]!, events);
    return m === null ? 0 : runs[i]!.trace.upperBound(m - 1);
  });
  const outs = runs.map((run) => new Trace(run.trace.time.length));
  let entries = 0;
  for (let i = 0; i < runs.length; i++) entries += runs[i]!.trace.length - forks[i]!;
  const recording = least(() => runs.forEach((run, i) => record(run, forks[i]!, outs[i]!)));
  const copying = least(() => runs.forEach((run, i) => copyPrefix(run, forks[i]!, outs[i]!)));
  const verdict = least(() => runs.forEach((run) => check(run, false)));
  const classifying = least(() =>
    runs.forEach((run, i) => classify(run, cutOff, trials[i]!.length)),
  );
  const k = trials.length;
  console.log(
    `${id}: ${k} of ${placements.length} placements, ${Math.round(entries / k)} entries a trial after its fork; the atlas ${atlas.toFixed(3)} ms a trial; ` +
      `recording the trace ${(recording / k).toFixed(3)} ms (${pct(recording / k, atlas)}), ` +
      `copying its prefix ${(copying / k).toFixed(3)} ms (${pct(copying / k, atlas)}), ` +
      `the verdict ${(verdict / k).toFixed(3)} ms (${pct(verdict / k, atlas)}), ` +
      `classify ${(classifying / k).toFixed(3)} ms (${pct(classifying / k, atlas)})`,
  );
}
