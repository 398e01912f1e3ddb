import { describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/validate';
import { buildEvents } from '../scenario/workload';
import { traceHash } from '../hash';
import { events } from '../testing';
import type { FaultSpec, Scenario, ScenarioInput } from '../scenario/schema';
import { enumeratePlacements } from './placements';
import { firstRun } from './explore';
import { forEachTrialRun, forkMoment, type TrialPath } from './continuation';
import { BufferPool } from '../core/pool';

function parsed(input: Omit<ScenarioInput, 'version' | 'name'>): Scenario {
  const r = parseScenario({ version: 1, name: 'continuation', ...input });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.scenario;
}

/** At-least-once: 4 events, 100 ms apart, through a consumer loop that commits after writing. */
const consumer = parsed({
  workload: { events: events(4, (i) => (i - 1) * 100) },
  processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
});

const flink = parsed({
  workload: { events: events(3, (i) => (i - 1) * 100) },
  processor: { type: 'flink' },
});

/**
 * Each trial's trace hash, its run made by `path`; with `pool`, each run's memory is given back
 * once hashed, so the next trial's copy reuses (overwrites) it, as the atlas's runs do.
 */
function hashes(
  s: Scenario,
  trials: FaultSpec[][],
  path: TrialPath,
  pool?: BufferPool,
  entriesPerObject?: number,
): string[] {
  const out: string[] = [];
  forEachTrialRun(
    s,
    trials,
    buildEvents(s.workload, s.seed),
    (k, run) => {
      out[k] = traceHash(run.trace);
      pool?.reclaim(run);
    },
    { path, pool, entriesPerObject },
  );
  return out;
}

describe('a trial as a continuation', () => {
  it("knows the moment each kind of fault can first change the run (src/engine/faults.ts: armed from 'at')", () => {
    const link = { link: 'produce' as const, match: { nth: 1 } };
    // A registry fault: its `at`; at 0 it may act while the pipeline is set up (the producer's
    // first requests go out then): from scratch.
    expect(forkMoment(consumer, { kind: 'drop-response', at: 250, ...link })).toBe(250);
    expect(forkMoment(consumer, { kind: 'drop-request', at: 0, ...link })).toBeNull();
    const crash = {
      kind: 'crash',
      at: 300,
      target: 'consumer-0',
      nth: 1,
      afterRecords: 1,
      restartAfterMs: 1000,
    } as const;
    expect(forkMoment(consumer, { ...crash, point: 'before-commit' })).toBe(300);
    // A crash `now` is queued by the set-up with the actors it names then: from scratch.
    expect(forkMoment(consumer, { ...crash, point: 'now' })).toBeNull();
    // Timed faults: their `at` (their task is queued at it or later), 0 included.
    expect(forkMoment(consumer, { kind: 'rebalance', at: 400, target: 'consumer-0' })).toBe(400);
    expect(forkMoment(consumer, { kind: 'app-resend', at: 0, event: 'e3' })).toBe(0);
    // …with the workload at hand, a re-send or a duplicate is queued at its event's time (e3 at
    // 200 ms), or at its `at` when later (timedFaults.ts).
    const ev = buildEvents(consumer.workload, consumer.seed);
    expect(forkMoment(consumer, { kind: 'app-resend', at: 0, event: 'e3' }, ev)).toBe(200);
    expect(forkMoment(consumer, { kind: 'source-duplicate', at: 250, event: 'e3' }, ev)).toBe(250);
    // Flink's checkpoint coordinator looks ahead to a crash before a barrier (it wakes one
    // interval before it, flinkJobManager.ts): from scratch; a crash mid-batch it does not.
    expect(forkMoment(flink, { ...crash, target: 'flink', point: 'before-barrier' })).toBeNull();
    expect(forkMoment(flink, { ...crash, target: 'flink', point: 'mid-batch' })).toBe(300);
  });

  it('a forked trial is the from-scratch trial, byte for byte, for every placement and pairs of them', () => {
    const placements = enumeratePlacements(consumer, firstRun(consumer));
    const singles = placements.map((p) => [p.fault]);
    // Pairs both ways round: the later-placed fault (index n+1) may be armed first.
    const pairs: FaultSpec[][] = [];
    for (let i = 0; i + 5 < placements.length; i += 5)
      pairs.push(
        [placements[i]!.fault, placements[i + 5]!.fault],
        [placements[i + 5]!.fault, placements[i]!.fault],
      );
    const trials = [...singles, ...pairs];
    const forked = trials.filter((t) => t.every((f) => forkMoment(consumer, f) !== null));
    // Most take the fork: only the faults at 0 (the first requests) run from scratch.
    expect(forked.length).toBeGreaterThan(trials.length / 2);
    expect(hashes(consumer, trials, 'replay')).toEqual(hashes(consumer, trials, 'scratch'));
  }, 60_000);

  it('a timed fault armed part way runs before the tasks of its millisecond queued after the set-up', () => {
    // The rebalance at the consumer's 3rd poll (at 215 ms: it polls 4 ms after each event's
    // append): the set-up queued it before the poll's task of that millisecond, so it moves the
    // partition first. Queued at the pause without its set-up sequence number, it would run
    // after the poll, and the poll would take a batch the from-scratch trial never takes.
    const poll = enumeratePlacements(consumer, firstRun(consumer)).filter(
      (p) => p.kind === 'rebalance',
    )[2]!;
    expect(poll.fault).toEqual({ kind: 'rebalance', at: 215, target: 'consumer-0' });
    expect(hashes(consumer, [[poll.fault]], 'replay')).toEqual(
      hashes(consumer, [[poll.fault]], 'scratch'),
    );
  }, 60_000);

  it('two faults on one message: the one of the smaller index fires, whichever is armed first', () => {
    // Both lose the 1st produce response they see, the first (index 0) from 150 ms, the second
    // (index 1) from 120 ms: armed in that order by moment, but the registry keeps index order,
    // so at the first response from 150 ms on the fault 0 fires and fault 1 waits for the next.
    const f0: FaultSpec = { kind: 'drop-response', at: 150, link: 'produce', match: { nth: 1 } };
    const f1: FaultSpec = { kind: 'drop-response', at: 120, link: 'produce', match: { nth: 1 } };
    expect(hashes(consumer, [[f0, f1]], 'replay')).toEqual(hashes(consumer, [[f0, f1]], 'scratch'));
  }, 60_000);

  // The rewind path restores one run, in place, from save points (../core/rewind.ts).
  it('the rewind path gives the same runs, singles and pairs, its memory reused', () => {
    for (const s of [consumer, flink]) {
      const placements = enumeratePlacements(s, firstRun(s));
      const trials: FaultSpec[][] = placements.map((p) => [p.fault]);
      for (let i = 0; i + 3 < placements.length; i += 3)
        trials.push([placements[i]!.fault, placements[i + 3]!.fault]);
      const want = hashes(s, trials, 'scratch');
      expect(hashes(s, trials, 'rewind')).toEqual(want);
      expect(hashes(s, trials, 'rewind', new BufferPool())).toEqual(want);
    }
  }, 60_000);

  // The snapshot path copies one paused run per moment (a state without closures).
  it('the snapshot path gives the same runs', () => {
    const placements = enumeratePlacements(consumer, firstRun(consumer));
    const trials = placements.map((p) => [p.fault]);
    expect(hashes(consumer, trials, 'snapshot')).toEqual(hashes(consumer, trials, 'scratch'));
  }, 60_000);

  it("a re-send or a source duplicate forked at its event's time gives the same run (consumer, Flink)", () => {
    for (const s of [consumer, flink]) {
      const trials = enumeratePlacements(s, firstRun(s))
        .filter((p) => p.kind === 'app-resend' || p.kind === 'source-duplicate')
        .map((p) => [p.fault]);
      // One of each per event: 4 and 3 events.
      expect(trials.length).toBe(2 * (s === consumer ? 4 : 3));
      expect(hashes(s, trials, 'snapshot')).toEqual(hashes(s, trials, 'scratch'));
    }
  }, 60_000);

  it('the snapshot path gives the same runs when its copies reuse the runs’ memory (a pool)', () => {
    const placements = enumeratePlacements(consumer, firstRun(consumer));
    const trials = placements.map((p) => [p.fault]);
    for (let i = 0; i + 5 < placements.length; i += 5)
      trials.push([placements[i]!.fault, placements[i + 5]!.fault]);
    const pool = new BufferPool();
    const pooled = hashes(consumer, trials, 'snapshot', pool);
    expect(pooled).toEqual(hashes(consumer, trials, 'scratch'));
    // A second pass: its copies start from memory the first gave back (the pool zeroes only what
    // a copy does not overwrite), and its runs are the same.
    expect(hashes(consumer, trials, 'snapshot', pool)).toEqual(pooled);
  }, 60_000);

  it('the auto path, forking only where a copy pays and running the rest from scratch, gives the same runs', () => {
    const placements = enumeratePlacements(consumer, firstRun(consumer));
    const trials = placements.map((p) => [p.fault]);
    const scratch = hashes(consumer, trials, 'scratch');
    // Its own rule; one by which only the first moment's trials fork; one by which all do.
    for (const rule of [undefined, 1e9, 0])
      expect(hashes(consumer, trials, 'auto', new BufferPool(), rule)).toEqual(scratch);
  }, 60_000);
});
