/**
 * A Flink run forked part way continues as the run itself (docs/ARCHITECTURE.md, "Pending work
 * and forks"): one variant per mechanism whose pending work crosses a scheduling point — the
 * restore, barrier acknowledgements, offset commits and the sink's writes of each sink — is
 * paused at several moments, copied at each (src/engine/atlas/fork.ts: a closure left in the
 * state makes the copy throw), and every copy, finished on its own, writes the trace of the uncut
 * run, byte for byte; the original, finished after its copies, too.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, simulate, traceHash, type Scenario } from '../engine';
import { advanceRun, assembleRun, finishRun } from '../engine/simulate';
import { snapshot } from '../engine/atlas/fork';
import { findPreset } from './index';

function preset(ref: string): Scenario {
  const r = parseScenario(findPreset(ref)!.variant.scenario);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.scenario;
}

/** Forked at these shares of the uncut run's length. */
const SHARES = [0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9];

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
      const run = assembleRun(s, { explain: false });
      let forks = 0;
      for (const share of SHARES) {
        const moment = Math.floor(whole.endTime * share);
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
      expect(forks).toBe(SHARES.length);
      expect(traceHash(finishRun(run, { explain: false }).trace)).toBe(expected);
    }, 120_000);
});
