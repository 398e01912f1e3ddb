/** The event log and sequence diagram in words: reader names, keyed state updates, a commit that times out. */
import { describe, expect, it, vi } from 'vitest';
import { simulate, type ScenarioInput } from '../../engine';
import { stateUpdatesAt } from './at';
import { eventIdOf, keyNameOf, toRunView } from './runView';
import { describeEntry } from '../diagrams/describe';
import { runSequenceDiagram } from '../diagrams/mermaid';
import { K } from './kinds';
import { scenarioOf, viewOf } from './runViewTesting';

// Whole runs on a loaded two-core machine: its slowest test took 1.0 s in a full CI run
// (this file 5.8 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

describe('the event log names a downstream reader by its name too', () => {
  it('2pc-read-committed: reader-0 (rc) and reader-1 (ru), as the panels call them', () => {
    const v = viewOf('flink-checkpoint-replay/2pc-read-committed');
    const lines: string[] = [];
    for (let i = 0; i < v.n; i++)
      if (v.actors[v.cols.actor[i]!]?.startsWith('reader-')) lines.push(describeEntry(v, i));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => /^reader-0 \(rc\) |^reader-1 \(ru\) /.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith('reader-1 (ru) '))).toBe(true);
  });
});

describe('keyed state updates', () => {
  it('name the record key as the producer sent it, not its index', () => {
    // flink-checkpoint-replay: listed events e1..e250, each keyed by its own id (key index 249
    // is e250's key, "e250").
    const v = viewOf('flink-checkpoint-replay/plain-sink');
    const [last] = stateUpdatesAt(v, v.n, 1);
    expect(eventIdOf(v.events, v.events.identity[last!.event]!)).toBe('e250');
    expect(last!.key).toBe(249);
    expect(keyNameOf(v.events, last!.key)).toBe('e250');
    // A generated workload's keys are k0, k1, …
    expect(keyNameOf({ ...v.events, keys: null }, 249)).toBe('k249');
  });
});

describe('an offset commit that times out, in words', () => {
  // Both attempts of the first commit (offset 5, sent at 1,031 ms) lost: the consumer's request
  // times out at 31,031, the repeat leaves at 31,131, and commitSync gives up at 61,031 (60 s).
  const input = {
    version: 1,
    name: 'lost commits',
    workload: { topic: 'events', generate: { count: 10, startAtMs: 10, intervalMs: 10 } },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      'max.poll.records': 5,
      startAtMs: 1000,
    },
    sink: { type: 'table', name: 't' },
    faults: [
      { kind: 'drop-request', link: 'commit', match: { nth: 1 } },
      { kind: 'drop-request', link: 'commit', match: { nth: 2 } },
    ],
  } as ScenarioInput;
  const run = simulate(scenarioOf(input));
  const v = toRunView(run);

  it('the event log says the consumer stopped waiting, then gave up — not that it refused', () => {
    const lines: string[] = [];
    for (let i = 0; i < v.n; i++)
      if (v.cols.kind[i] === K.reject || v.cols.kind[i] === K['commit-failed'])
        lines.push(describeEntry(v, i));
    expect(lines).toEqual([
      'consumer-0 gets no answer within request.timeout.ms (REQUEST_TIMED_OUT)',
      "consumer-0's commitSync gives up after default.api.timeout.ms (COMMIT_TIMEOUT)",
    ]);
  });

  it('the sequence diagram marks the repeat and names the request that got no answer', () => {
    const d = runSequenceDiagram(run);
    expect(d).toContain('Note over P3: no answer to commit offset 5 · REQUEST_TIMED_OUT');
    expect(d).toContain('P3-xP2: commit offset 5 (sent again) (lost)');
    expect(d).toContain(
      'Note over P3: commitSync of offset 5 gave up after default.api.timeout.ms (COMMIT_TIMEOUT)',
    );
  });
});
