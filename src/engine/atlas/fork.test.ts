import { describe, expect, it } from 'vitest';
import { Actor, World } from '../world';
import { NO_ENTRY } from '../ids';
import { parseScenario } from '../scenario/validate';
import { buildEvents } from '../scenario/workload';
import { simulate } from '../simulate';
import { traceHash } from '../hash';
import { events } from '../testing';
import { Forker, snapshot, uncopyableParts, type RunInProgress } from './fork';
import type { RunState } from '../simulate';
import type { Scenario } from '../scenario/schema';
import { Faults } from '../faults';
import { Cluster } from '../broker/cluster';
import { SourceApp } from '../producer';
import { call } from '../core/call';
import type { Partition } from '../broker/partition';
import type { EntryId } from '../ids';

/**
 * A process whose pending work is all data (Actor.later): it ticks at random intervals from its
 * own random stream, writing a 'stall' entry of 1 ms each time (a trace entry with a time), and
 * crashes itself on its 5th tick, to be restarted 7 ms later (a global task naming Actor.restart).
 */
class Ticker extends Actor {
  ticks = 0;
  protected override onRestart(): void {
    this.later(1, this.tick);
  }
  tick(): void {
    this.ticks++;
    this.stall(NO_ENTRY, this.world.now + 1);
    if (this.ticks === 5) this.crash(NO_ENTRY, -1, 7);
    else if (this.ticks < 12) this.later(1 + this.world.rng(`tick:${this.name}`).int(5), this.tick);
  }
}

/** At-least-once: 10 events, 100 ms apart, through a consumer loop that commits after writing. */
function scenario(): Scenario {
  const parsed = parseScenario({
    version: 1,
    name: 'fork',
    workload: { events: events(10, (i) => (i - 1) * 100) },
    processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
  });
  if (!parsed.ok) throw new Error('invalid test scenario');
  return parsed.scenario;
}

function tickerWorld(): World {
  const s = scenario();
  const w = new World(s, buildEvents(s.workload, s.seed));
  for (const name of ['a', 'b']) new Ticker(w, name).later(0, Ticker.prototype.tick);
  return w;
}

describe('snapshot and fork', () => {
  it('a copy taken mid-run continues to the same trace as the run itself, and leaves it alone', () => {
    // Straight through: 2 tickers × 12 ticks, each a 'stall' entry; one crash and one restart
    // each; then the 'end' entry — 2 × (12 + 2) + 1 = 29 entries.
    const straight = tickerWorld();
    straight.run(1_000, 10_000);
    expect(straight.trace.length).toBe(29);

    // The same run, copied when its clock first passes 10 ms (a global task looks at it there).
    const original = tickerWorld();
    let copy: RunInProgress | null = null;
    original.scheduleGlobal(10, () => {
      copy = snapshot({ world: original, state: {} as RunState });
    });
    original.run(1_000, 10_000);
    expect(traceHash(original.trace)).toBe(traceHash(straight.trace));
    const forked = (copy as RunInProgress | null)!.world;
    const before = forked.trace.length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(29);
    forked.run(1_000, 10_000);
    expect(traceHash(forked.trace)).toBe(traceHash(straight.trace));
    // The copy ran on its own actors: the original's tickers are not ticked again.
    expect((original.actors as Ticker[]).map((t) => t.ticks)).toEqual([12, 12]);
    expect(forked.actors[0]).not.toBe(original.actors[0]);
  });

  it('a fork pays where the run has written enough entries per object its last copy walked', () => {
    const w = tickerWorld();
    w.run(10, 10_000);
    const run = { world: w, state: {} as RunState };
    const entries = w.trace.length;
    const forker = new Forker(w);
    // Before any copy, nothing is known of its cost: fork.
    expect(forker.pays(run, 1e9)).toBe(true);
    forker.snapshot(run);
    // The world, 2 tickers, the trace and its 14 columns, the queue… walked once each: more
    // objects than the run has entries so far, so one entry per object does not pay.
    expect(entries).toBeGreaterThan(0);
    expect(forker.pays(run, 1)).toBe(false);
    expect(forker.pays(run, 0)).toBe(true);
    // 17 objects (the world, 2 tickers, the trace, 14 columns) are a lower bound of the count.
    expect(forker.pays(run, entries / 17)).toBe(false);
  });

  it('refuses a closure in the queue, naming it', () => {
    const w = tickerWorld();
    w.scheduleGlobal(50, () => w.stopped);
    expect(() => snapshot({ world: w, state: {} as RunState })).toThrow(
      /a function \(\(\) => w\.stopped\) at root\.world\.queue\.items\[\d+\]\.fn/,
    );
  });

  it('in a pipeline run halfway, nothing is left that a snapshot cannot copy', () => {
    // Every piece of pending work is data (docs/ARCHITECTURE.md, "Pending work and forks"): no
    // closure, WeakMap, accessor or DataView anywhere in the state.
    const s = scenario();
    const whole = simulate(s, { explain: false });
    let found: string[] = [];
    simulate(s, {
      explain: false,
      onAssembled: (world, state) =>
        world.scheduleGlobal(Math.floor(whole.endTime / 2), () => {
          found = uncopyableParts({ world, state }).map((e) => e.what);
        }),
    });
    expect(found).toEqual([]);
  }, 60_000);

  it('a producer with requests in flight, brokers waiting for replicas, the coordinator mid-transaction and a partition with a waiter fork to the same trace', () => {
    // Only the network side (the source producer, its client, three brokers, the coordinator):
    // every piece of pending work there is data now, so a snapshot at any moment copies and
    // continues. The workload is the transactions tests' S09 (docs/semantics/scenarios.md#s09-aborted-transaction-and-readers):
    // T1 = e1..e5 aborted by the application and re-sent as T2, T3 = e6..e10 committed: one batch
    // each, 3 appends, 15 records and 3 markers — partition 0's log end at 18. Every append waits
    // for its two followers (acks=all). T1's batch, appended at 7 ms, still waits for them when
    // its leader dies at 11 ms: the client sees the connection reset, connects again once the
    // broker is back (211 ms) and resends; the broker recognises the batch by its sequence
    // numbers (1st 'dedupe'), and that answer is the lost one, so after request.timeout.ms the
    // batch goes once more (2nd 'dedupe') — no 4th append.
    const straight = producerWorld();
    straight.world.run(STOP_MS, 100_000);
    const p = straight.input.partitions[0]!;
    expect(p.leo).toBe(18);
    expect(kindCount(straight.world, 'append')).toBe(3);
    expect(kindCount(straight.world, 'dedupe')).toBe(2);
    expect(kindCount(straight.world, 'marker')).toBe(3);
    expect(kindCount(straight.world, 'crash')).toBe(1);
    const hash = traceHash(straight.world.trace);

    // A copy taken at each moment something happened continues to the same trace; none holds a
    // closure.
    const t = straight.world.trace;
    const moments = new Set<number>();
    for (let i = 0; i < t.length - 1; i++) moments.add(t.time[i]!);
    expect(moments.size).toBeGreaterThan(10);
    for (const at of moments) {
      const original = producerWorld();
      let copy: RunInProgress | null = null;
      let held: string[] = ['not taken'];
      original.world.scheduleGlobal(at, () => {
        const run = { world: original.world, state: {} as RunState };
        held = uncopyableParts(run).map((e) => `${e.what} at ${e.path}`);
        copy = snapshot(run);
      });
      original.world.run(STOP_MS, 100_000);
      expect(held).toEqual([]);
      expect(traceHash(original.world.trace)).toBe(hash);
      const forked = (copy as RunInProgress | null)!.world;
      forked.run(STOP_MS, 100_000);
      expect(traceHash(forked.trace)).toBe(hash);
    }
  }, 60_000);
});

/** Where the producer-side runs stop: the coordinator's transaction timeouts (60 s) stay queued. */
const STOP_MS = 60_000;

/** Entries of `kind` in a world's trace. */
function kindCount(w: World, kind: string): number {
  let n = 0;
  for (let i = 0; i < w.trace.length; i++) if (w.trace.kindOf(i) === kind) n++;
  return n;
}

/** The lab actor the faults and the controller write as; it also crashes a broker on cue. */
class Lab extends Actor {
  protected override onRestart(): void {}
  /** Crash `b`, back 200 ms later (a task held as data, unlike simulate's timed faults). */
  crashBroker(b: Actor): void {
    b.crash(NO_ENTRY, -1, 200);
  }
}

/**
 * A fetcher's stand-in that parks on a partition with a held call (no closure): each time the
 * readable end moves it wakes, writes a 1 ms 'stall' (a trace entry) and parks again.
 */
class Watcher extends Actor {
  wakes = 0;
  constructor(
    world: World,
    private readonly p: Partition,
  ) {
    super(world, 'watcher');
    p.waiters.push(call(this, this.woke));
  }
  protected override onRestart(): void {}
  woke(): void {
    this.wakes++;
    this.stall(NO_ENTRY as EntryId, this.world.now + 1);
    this.p.waiters.push(call(this, this.woke));
  }
}

/** S09's producer side alone, assembled as simulate does, with a watcher on partition 0. */
function producerWorld() {
  const parsed = parseScenario({
    version: 1,
    name: 'fork: producer side',
    workload: { events: events(10) },
    producer: {
      'transactional.id': 't-1',
      acks: 'all',
      'request.timeout.ms': 1000,
      app: { eventsPerTransaction: 5 },
    },
    broker: { brokers: 3, 'replication.factor': 3 },
    processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
    faults: [
      { kind: 'abort-transaction', transaction: 1 },
      { kind: 'drop-response', link: 'produce', match: { nth: 1 } },
    ],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed));
  const s = parsed.scenario;
  const world = new World(s, buildEvents(s.workload, s.seed));
  const lab = new Lab(world, 'lab');
  world.faults = new Faults(world, lab, s.faults);
  const cluster = new Cluster(world, lab);
  const input = cluster.createTopic(s.workload.topic, s.broker.partitions);
  const producer = new SourceApp(world, cluster, input);
  new Watcher(world, input.partitions[0]!);
  // Partition 0's leader dies at 11 ms, with an append waiting for its followers, and is back
  // 200 ms later, before the controller notices (9 s).
  world.scheduleCall(11, null, lab, lab.crashBroker, cluster.leaderOf(input.partitions[0]!)!);
  producer.start();
  return { world, input };
}
