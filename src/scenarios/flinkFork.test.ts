/**
 * A Flink run forked part way continues as the run itself (docs/ARCHITECTURE.md, "Pending work
 * and forks"): one variant per mechanism whose pending work crosses a scheduling point — the
 * restore, barrier acknowledgements, offset commits and the sink's writes of each sink — is
 * paused at several moments where work is pending, copied at each (src/engine/atlas/fork.ts: a closure left in the
 * state makes the copy throw), and every copy, finished on its own, writes the trace of the uncut
 * run, byte for byte; the original, finished after its copies, too.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, simulate, traceHash, type Run, type Scenario } from '../engine';
import { entriesOf } from '../engine/testing';
import { advanceRun, assembleRun, finishRun } from '../engine/simulate';
import { snapshot } from '../engine/atlas/fork';
import { findPreset } from './index';

function preset(ref: string): Scenario {
  const r = parseScenario(findPreset(ref)!.variant.scenario);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.scenario;
}

/**
 * Where Flink's pending work crosses a scheduling point: 1 ms after a restore, a checkpoint step
 * or an offset commit (the requests they send are then on their way: latency 1 ms) — up to
 * three of each kind, spread over the run — and at a quarter, half, three quarters and nine
 * tenths of it. Each of these variants held a closure at one of them or more before its pending
 * work became data.
 */
function momentsOf(whole: Run): number[] {
  const out = new Set<number>([0.25, 0.5, 0.75, 0.9].map((x) => Math.floor(whole.endTime * x)));
  for (const kind of ['restore', 'checkpoint', 'commit']) {
    const at = entriesOf(whole, kind);
    for (let i = 0; i < Math.min(3, at.length); i++)
      out.add(whole.trace.time[at[Math.floor((i * at.length) / 3)]!]! + 1);
  }
  return [...out].filter((t) => t > 0 && t < whole.endTime).sort((x, y) => x - y);
}

const cases: { ref: string; mechanism: string }[] = [
  { ref: 'flink-checkpoint-replay/plain-sink', mechanism: 'the plain JDBC sink, offset commits' },
  {
    ref: 'flink-checkpoint-replay/2pc-read-committed',
    mechanism: "KafkaSink EXACTLY_ONCE: pre-commit flushes, epochs' producers, recovery",
  },
  { ref: 'flink-checkpoint-replay/2pc-jdbc-xa', mechanism: 'the JDBC XA sink: PREPARE, COMMIT' },
  { ref: 'flink-checkpoint-replay/flushed-20-of-50', mechanism: 'background flushes' },
  { ref: 'flink-commit-phase-crash/during-commit', mechanism: "the commit's crash point" },
  { ref: 'flink-commit-phase-crash/fail-on-expired', mechanism: 'a recovery that fails' },
  { ref: 'flink-dedupe-ttl/ttl-2s', mechanism: 'the keep-first dedupe' },
  { ref: 'card-charge-idempotency/email-in-operator', mechanism: 'a side effect per record' },
];

describe('a Flink run forked part way', () => {
  for (const { ref, mechanism } of cases)
    it(`${ref} (${mechanism}): each copy finishes with the uncut run's trace`, () => {
      const s = preset(ref);
      const whole = simulate(s, { explain: false });
      const expected = traceHash(whole.trace);
      const moments = momentsOf(whole);
      const run = assembleRun(s, { explain: false });
      let forks = 0;
      for (const moment of moments) {
        if (!advanceRun(run, moment)) break;
        const copy = snapshot(run);
        const before = copy.world.trace.length;
        // The copy skips the run up to the moment, and has the rest to do.
        expect(before).toBeLessThan(whole.trace.length);
        expect(traceHash(finishRun(copy, { explain: false }).trace)).toBe(expected);
        // The copy ran on its own state: the original still stands at the moment.
        expect(run.world.trace.length).toBe(before);
        forks++;
      }
      expect(forks).toBe(moments.length);
      expect(forks).toBeGreaterThanOrEqual(6);
      expect(traceHash(finishRun(run, { explain: false }).trace)).toBe(expected);
    }, 120_000);
});
