/**
 * Warming an atlas worker up before its first atlas: the same work an atlas does, on the scenario
 * on screen, its results thrown away. Why: a worker's first atlas of a scenario ran about twice as
 * long as the next ones of the same scenario (page bench, `2pc-read-committed`: 13.8–15.2 s, then
 * 6.0–9.7 s), and so did one thread's (Node, the trials of one of two workers: 9.4 s then 5.8 and
 * 6.3 s of CPU), most of it in its first chunks — the engine compiled (JIT) as it warms on that
 * scenario's code paths (a whole Flink plain-sink atlas before it left the 2pc one as slow).
 * Starting the worker loads the engine; only running the scenario's trials warms it. The worker
 * (src/platform/atlas.worker.ts) runs one step at a time and yields between, so a real atlas's
 * request waits at most one step.
 */
import type { BufferPool, Scenario, TrialSession } from '../../engine';
import { PLACEMENT_KINDS, trialSession } from '../../engine';
import { planAtlas, runAtlasSlice, type AtlasPlan } from './atlasJob';

/**
 * Steps of trials run, spread evenly over the atlas's trials so that every kind of placement
 * runs… 48 of 4, about 200 trials: 12 (48 trials) left the page's first atlas of flink
 * plain-sink 0.4–0.8 s over the next ones; with 48 its first took 2.2–2.3 s against 2.4–3.2 s
 * (three alternations, docs/benchmarks.md). A real atlas's request still waits one step at most.
 */
const WARM_UP_STEPS = 48;
/** …of this many contiguous trials each (they share the run before their moments, as a chunk's do). */
const WARM_UP_TRIALS_PER_STEP = 4;

/**
 * A scenario of more business events than this is not warmed up on: its plan alone (its own run,
 * recording every opportunity) would take the cores for seconds while the user works. The library's
 * presets have at most 250; a page's 100,000-event run has no atlas a user waits for.
 */
const WARM_UP_MAX_EVENTS = 1_000;

/** Business events of `s`'s workload, without building it. */
function eventsOf(s: Scenario): number {
  return s.workload.events?.length ?? s.workload.generate?.count ?? 0;
}

/**
 * The slices `[from, to)` a warm-up runs of an atlas of `total` trials: {@link WARM_UP_STEPS}
 * of {@link WARM_UP_TRIALS_PER_STEP} trials, the k-th starting at k/steps of the way, clipped to
 * the trials there are and never overlapping.
 */
export function warmUpSlices(total: number): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  let end = 0;
  for (let k = 0; k < WARM_UP_STEPS; k++) {
    const from = Math.max(end, Math.floor((k * total) / WARM_UP_STEPS));
    const to = Math.min(total, from + WARM_UP_TRIALS_PER_STEP);
    if (from >= to) continue;
    out.push({ from, to });
    end = to;
  }
  return out;
}

/**
 * A warm-up of `s`'s single-fault atlas, as steps: the first plans it (the scenario's own run and
 * its placements), each next runs one of {@link warmUpSlices}. `step()` returns false once none is
 * left (at once for more than {@link WARM_UP_MAX_EVENTS} events). Nothing it computes is kept: an atlas after it has the same results (only faster).
 */
export function atlasWarmUp(s: Scenario, pool?: BufferPool): { step(): boolean } {
  let plan: AtlasPlan | null = null;
  let session: TrialSession | null = null;
  let slices: { from: number; to: number }[] = [];
  let next = 0;
  return {
    step() {
      if (plan === null) {
        if (eventsOf(s) > WARM_UP_MAX_EVENTS) return false;
        const planned = planAtlas(s, 1, PLACEMENT_KINDS, pool);
        if ('refused' in planned) return false;
        plan = planned;
        session = trialSession(s);
        slices = warmUpSlices(plan.trials);
        return slices.length > 0;
      }
      const slice = slices[next++];
      if (!slice) return false;
      runAtlasSlice(s, plan, slice.from, slice.to, { pool, session: session! });
      return next < slices.length;
    },
  };
}
