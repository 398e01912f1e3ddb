import { describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/validate';
import { simulate } from '../simulate';
import { traceHash } from '../hash';
import { events } from '../testing';
import { snapshot, uncopyableParts, type RunInProgress } from '../atlas/fork';
import type { Scenario } from '../scenario/schema';

/**
 * At-least-once through a consumer loop: 10 events 100 ms apart, a sync loop committing after
 * its SQL statement, each record taking 30 ms — so halfway through, a poll timer, a fetch, a
 * statement exchange or an offset commit is pending (docs/ARCHITECTURE.md, "Pending work and
 * forks").
 */
function consumerScenario(): Scenario {
  const parsed = parseScenario({
    version: 1,
    name: 'processor fork',
    workload: { events: events(10, (i) => (i - 1) * 100) },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      processing: { perRecordMs: 30 },
    },
  });
  if (!parsed.ok) throw new Error(`invalid test scenario: ${JSON.stringify(parsed)}`);
  return parsed.scenario;
}

/** The run of `s`, paused at half its length: what a snapshot there cannot copy, and the copy. */
function pauseHalfway(s: Scenario, copy: boolean) {
  const whole = simulate(s, { explain: false });
  let parts: { what: string; path: string }[] = [];
  let forked: RunInProgress | null = null;
  simulate(s, {
    explain: false,
    onAssembled: (world, state) =>
      world.scheduleGlobal(Math.floor(whole.endTime / 2), () => {
        parts = uncopyableParts({ world, state });
        if (copy) forked = snapshot({ world, state });
      }),
  });
  return { whole, parts, forked: forked as RunInProgress | null };
}

/** The run of `s`, looked at every `stepMs`: what a snapshot could not copy at any of those moments. */
function uncopyableThroughout(s: Scenario, stepMs: number) {
  const whole = simulate(s, { explain: false });
  const parts: { what: string; path: string }[] = [];
  let looks = 0;
  simulate(s, {
    explain: false,
    onAssembled: (world, state) => {
      for (let t = stepMs; t < whole.endTime; t += stepMs)
        world.scheduleGlobal(t, () => {
          looks++;
          // Not the test's own probes, queued as closures for the later moments.
          for (const e of uncopyableParts({ world, state }))
            if (!/looks\+\+/.test(e.what)) parts.push(e);
        });
    },
  });
  return { parts, looks };
}

/**
 * What the network side still holds as closures (src/engine/client.ts, src/engine/broker/*:
 * converted separately): the producer client's drain and per-record callbacks, its requests'
 * answers and timers, the source application's callback, the brokers' replication and high-watermark waiters — and the partition's
 * fetch waiters, whose type src/engine/broker/partition.ts owns (the consumer parks a held Call
 * there, wrapped in one closure until the partition holds Calls).
 */
const NETWORK_SIDE =
  /^root\.world\.(actors\[\d+\]\.(client\.|cluster\.|onRecord$)|queue\.items\[\d+\]\.(deliver|fn)$)/;

describe('forking a processor run', () => {
  it('a consumer loop holds none of its pending work as a closure, at any moment of its run', () => {
    // Looked at every 25 ms: the events span 900 ms, so at least 35 moments (25 … 875 ms) — the
    // poll loop between polls, records being processed (a 30 ms timer each), statements and
    // offset commits on their way.
    const { parts, looks } = uncopyableThroughout(consumerScenario(), 25);
    expect(looks).toBeGreaterThanOrEqual(35);
    // Before its pending work was data, the loop's processing timers, its fetches' timeouts,
    // its statements' exchanges and its commits were closures here (a test run before the
    // conversion lists them); what is left is the network side's.
    const processorSide = parts.filter((e) => !NETWORK_SIDE.test(e.path));
    expect(processorSide.map((e) => `${e.path}: ${e.what}`)).toEqual([]);
    const queued = parts.filter((e) => e.path.startsWith('root.world.queue'));
    expect(queued.map((e) => e.what).filter((w) => !/onAnswer|drain|txn|replicat/.test(w))).toEqual(
      [],
    );
  }, 60_000);

  // Needs the producer client and the brokers' pending work as data too (the network side's
  // conversion): until then the snapshot refuses their closures.
  it('a consumer loop forked halfway continues to the same trace as the run itself', () => {
    const s = consumerScenario();
    const { whole, forked } = pauseHalfway(s, true);
    const copy = forked!;
    const before = copy.world.trace.length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(whole.trace.length);
    copy.world.run(Infinity, 1_000_000);
    expect(traceHash(copy.world.trace)).toBe(traceHash(whole.trace));
  }, 60_000);
});
