/**
 * Every shipped challenge, checked by the engine: its start misses the goal, its reference
 * solution reaches it, and its rules refuse what they forbid — a changed seed, one fault or knob
 * too many, a locked knob changed.
 */
import { describe, expect, it } from 'vitest';
import {
  CHALLENGE_AREAS,
  judgeAttempt,
  parseScenario,
  simulate,
  type Challenge,
  type Scenario,
  type ScenarioInput,
} from '../../engine';
import { setKnob } from '../guarantees';
import { challengeById, challenges, nearestChallengeId, solutionInput, startInput } from './index';

function parsed(s: ScenarioInput): Scenario {
  const r = parseScenario(s);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.scenario;
}

function startOf(c: Challenge): ScenarioInput {
  const s = startInput(c);
  if (!s.ok) throw new Error(JSON.stringify(s.issues));
  return s.input;
}

function judge(c: Challenge, attempt: ScenarioInput) {
  const start = parsed(startOf(c));
  return judgeAttempt(c, start, parsed(attempt), simulate(start).cutOff);
}

describe('shipped challenges', () => {
  it('are at least 8, across producer, consumer, Flink, Spark and sinks, ids unique', () => {
    expect(challenges().length).toBeGreaterThanOrEqual(8);
    expect(new Set(challenges().map((c) => c.area))).toEqual(new Set(CHALLENGE_AREAS));
    expect(new Set(challenges().map((c) => c.id)).size).toBe(challenges().length);
    expect(challengeById('acks-zero-loses')?.title).toBe('Fire and forget');
    expect(challengeById('nope')).toBeUndefined();
  });

  describe.each(challenges().map((c) => [c.id, c] as const))('%s', (_, c) => {
    it('the start misses the goal; the reference solution reaches it', () => {
      const start = startOf(c);
      expect(judge(c, start).verdict).toBe('missed');
      expect(judge(c, solutionInput(c, start)).verdict).toBe('solved');
    }, 60_000);

    it('refuses a changed seed, one change too many, and a locked knob', () => {
      const start = startOf(c);
      const solution = solutionInput(c, start);
      const refused = (s: ScenarioInput) => judge(c, s).verdict === 'refused';
      // The solution with another seed: the seed is the challenge's.
      expect(refused({ ...solution, seed: 99 })).toBe(true);
      const { faults, knobs } = c.allow;
      // One fault more than allowed: the solution's (unlabelled), or a producer crash, repeated.
      const { id: _, ...extra } = c.solution.faults[0] ?? { kind: 'crash', target: 'producer' };
      const tooMany = Array.from({ length: faults.max + 1 }, () => extra);
      expect(refused({ ...start, faults: [...(start.faults ?? []), ...tooMany] })).toBe(true);
      // knobs.max + 1 knobs changed: the network's latency and jitter, then the seed-free
      // simulator knobs — numbers none of the shipped starts set to these values.
      const paths = ['network.latencyMs', 'network.jitterMs', 'producer.linger.ms'];
      let changed = start;
      paths.slice(0, knobs.max + 1).forEach((p, i) => {
        changed = setKnob(changed, p, 7 + i);
      });
      expect(refused(changed)).toBe(true);
      for (const lock of knobs.locked) {
        const path = lock === 'processor' ? 'processor.startAtMs' : lock;
        const value = lock === 'processor' ? 4321 : false;
        expect(refused(setKnob(start, path, value))).toBe(true);
      }
    }, 60_000);
  });

  it("does not count a setting that stops the challenge's own fault from happening as solved", () => {
    // fix-at-least-once: "exact under the two faults". acks=0 leaves no acknowledgement to lose
    // (fault 1), and with processing.mode=handoff the loop never crashes mid-batch (fault 2): an
    // exact sink with neither fault fired proves nothing, and the page said Solved.
    const c = challengeById('fix-at-least-once')!;
    const start = startOf(c);
    const dodged = setKnob(
      setKnob(start, 'producer.acks', '0'),
      'processor.processing.mode',
      'handoff',
    );
    const j = judge(c, dodged);
    expect(j.verdict).toBe('refused');
    expect(j.verdict === 'refused' && j.reasons).toEqual([
      "the challenge's fault 1 (lost ack) never fired in this run: with acks=0 the broker sends no acknowledgement to lose. The goal is to be reached with the challenge's faults happening: undo the change that stops it (producer.acks, processor.processing.mode changed)",
      "the challenge's fault 2 (consumer crash) never fired in this run. The goal is to be reached with the challenge's faults happening: undo the change that stops it (producer.acks, processor.processing.mode changed)",
    ]);
    // The reference fix keeps both faults happening and is still solved.
    expect(judge(c, solutionInput(c, start)).verdict).toBe('solved');
  }, 60_000);
});

describe('nearestChallengeId: the shipped challenge an unknown ?challenge= meant', () => {
  it('a misspelt id (two edits at most) or one cut short (the only id it begins); else none', () => {
    expect(nearestChallengeId('acks-one-lose')).toBe('acks-one-loses');
    expect(nearestChallengeId('flink-fix-snik')).toBe('flink-fix-sink');
    // A link whose tail was lost in a chat message.
    expect(nearestChallengeId('commit-before-crash')).toBe('commit-before-crash-point');
    // Two ids begin "flink-": no guess.
    expect(nearestChallengeId('flink-')).toBeNull();
    expect(nearestChallengeId('no-such-challenge')).toBeNull();
  });
});
