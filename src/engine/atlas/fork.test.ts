import { describe, expect, it } from 'vitest';
import { Actor, World } from '../world';
import { NO_ENTRY } from '../ids';
import { parseScenario } from '../scenario/validate';
import { buildEvents } from '../scenario/workload';
import { simulate } from '../simulate';
import { traceHash } from '../hash';
import { events } from '../testing';
import { snapshot, uncopyableParts, type RunInProgress } from './fork';
import type { RunState } from '../simulate';
import type { Scenario } from '../scenario/schema';

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

  it('refuses a closure in the queue, naming it', () => {
    const w = tickerWorld();
    w.scheduleGlobal(50, () => w.stopped);
    expect(() => snapshot({ world: w, state: {} as RunState })).toThrow(
      /a function \(\(\) => w\.stopped\) at root\.world\.queue\.items\[\d+\]\.fn/,
    );
  });

  it('in a pipeline run, what cannot be copied yet is only closures (no hidden state)', () => {
    // The pieces a fork still cannot copy are the closures listed by scripts/fork-census.ts:
    // none is a WeakMap, an accessor or a DataView, which no conversion of call sites would fix.
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
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((w) => !w.startsWith('a function'))).toEqual([]);
  }, 60_000);
});
