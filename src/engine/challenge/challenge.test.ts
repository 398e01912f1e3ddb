/**
 * The challenge format: valid files (defaults filled in), invalid ones refused naming the field,
 * the version rules shared with scenarios (src/engine/scenario/migrate.ts), and what an attempt
 * changed, counted as the engine runs it.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, type ScenarioInput } from '../index';
import { attemptChanges, ruleIssues } from './rules';
import { parseChallenge } from './validate';

const tiny: ScenarioInput = {
  version: 1,
  name: 'tiny',
  workload: { topic: 't', generate: { count: 3 } },
};

/** A minimal valid challenge: inline start, one crash allowed. */
function challenge(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 1,
    id: 'tiny-crash',
    title: 'Tiny',
    area: 'consumer',
    intro: 'Crash it.',
    start: { scenario: tiny },
    goal: { kind: 'duplicate' },
    allow: { faults: { max: 1, kinds: ['crash'] } },
    solution: {
      faults: [{ kind: 'crash', target: 'consumer-0', point: 'before-commit' }],
      why: 'A replay.',
    },
    ...over,
  };
}

function issuesOf(raw: unknown): string[] {
  const r = parseChallenge(raw);
  return r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`);
}

describe('challenge schema', () => {
  it('accepts a minimal challenge and fills in the defaults', () => {
    const r = parseChallenge(challenge());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.challenge.goal).toEqual({ kind: 'duplicate', atLeast: 1 });
    expect(r.challenge.allow.knobs).toEqual({ max: 0, locked: [] });
    expect(r.challenge.hints).toEqual([]);
    expect(r.challenge.solution.knobs).toEqual([]);
  });

  it('refuses a bad field, naming it', () => {
    expect(issuesOf(challenge({ goal: { kind: 'vanish' } }))[0]).toMatch(/^goal\.kind: /);
    expect(issuesOf(challenge({ id: 'Not An Id' }))).toEqual([
      'id: lower-case words joined by hyphens',
    ]);
    expect(issuesOf(challenge({ area: 'broker' }))[0]).toMatch(/^area: /);
    expect(issuesOf(challenge({ colour: 'red' }))[0]).toMatch(/^colour: unknown key/);
    expect(issuesOf(challenge({ titel: 'x' }))[0]).toMatch(/did you mean "title"\?$/);
    expect(issuesOf(challenge({ allow: { faults: { max: 1, kinds: ['meteor'] } } }))[0]).toMatch(
      /^allow\.faults\.kinds\.0: /,
    );
  });

  it('refuses what only the challenge as a whole can say is wrong, naming the field', () => {
    // Two faults where one is allowed.
    const crash = { kind: 'crash', target: 'consumer-0', point: 'before-commit' };
    expect(issuesOf(challenge({ solution: { faults: [crash, crash], why: 'x' } }))).toEqual([
      'solution.faults: adds 2 faults; the challenge allows at most 1',
    ]);
    expect(
      issuesOf(
        challenge({
          solution: { faults: [{ kind: 'app-resend', event: 'e1' }], why: 'x' },
        }),
      ),
    ).toEqual(['solution.faults.0.kind: "app-resend" is not among the kinds allowed (crash)']);
    expect(
      issuesOf(
        challenge({
          allow: { faults: { max: 0 }, knobs: { max: 1, locked: ['producer'] } },
          solution: { knobs: [{ path: 'producer.acks', value: '1' }], why: 'x' },
        }),
      ),
    ).toEqual([
      'solution.knobs.0.path: producer.acks is locked by the challenge (allow.knobs.locked: producer)',
    ]);
    expect(issuesOf(challenge({ allow: {} }))[0]).toMatch(/^allow: allows no change at all/);
    expect(
      issuesOf(
        challenge({
          hints: [
            { after: 3, text: 'a' },
            { after: 2, text: 'b' },
          ],
        }),
      ),
    ).toEqual([
      'hints.1.after: unlocks after 2 attempts, not after the hint before it (3): hints come in order',
    ]);
    // An inline start is validated as a scenario, its issues under start.scenario.
    expect(
      issuesOf(challenge({ start: { scenario: { ...tiny, producer: { acks: 2 } } } }))[0],
    ).toMatch(/^start\.scenario\.producer\.acks: /);
  });

  it('migrates by version as scenarios do: required, whole, not from the future', () => {
    const { version: _, ...noVersion } = challenge();
    expect(issuesOf(noVersion)).toEqual([
      "version: required: the format's version number (current: 1)",
    ]);
    expect(issuesOf(challenge({ version: 2 }))).toEqual([
      'version: version 2 is newer than this Delivery Lab (1); update the app',
    ]);
    expect(issuesOf(challenge({ version: 0 }))[0]).toMatch(
      /^version: expected the format's version/,
    );
    expect(issuesOf([1, 2])).toEqual([': a challenge is a JSON object']);
  });
});

describe('what an attempt changed', () => {
  const parse = (s: ScenarioInput) => {
    const r = parseScenario(s);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    return r.scenario;
  };
  const start = parse(tiny);

  it('counts a knob whose value differs, not one written at its default', () => {
    // acks defaults to "all" (https://kafka.apache.org/documentation/#producerconfigs_acks).
    expect(attemptChanges(start, parse({ ...tiny, producer: { acks: 'all' } })).knobs).toEqual([]);
    expect(attemptChanges(start, parse({ ...tiny, producer: { acks: '1' } })).knobs).toEqual([
      'producer.acks',
    ]);
  });

  it('refuses a changed seed, too many faults, a kind not allowed, a locked knob, too many knobs', () => {
    const r = parseChallenge(
      challenge({
        allow: { faults: { max: 1, kinds: ['crash'] }, knobs: { max: 1, locked: ['sink'] } },
      }),
    );
    if (!r.ok) throw new Error('invalid');
    const attempt = parse({
      ...tiny,
      seed: 7,
      producer: { acks: '1' },
      sink: { type: 'table', statement: 'on-conflict-do-nothing' },
      faults: [
        { kind: 'app-resend', event: 'e1' },
        { kind: 'crash', target: 'consumer-0', point: 'before-commit' },
      ],
    });
    expect(ruleIssues(r.challenge, attemptChanges(start, attempt))).toEqual([
      'the seed changed: it is part of the challenge, put it back as it was',
      '2 faults added: at most 1',
      'a fault of kind app-resend: this challenge allows only crash',
      'sink.statement changed: the challenge keeps it as it is',
      '2 knobs changed (producer.acks, sink.statement): at most 1',
    ]);
  });

  it("refuses an attempt that removes or moves the start's own fault", () => {
    const crash = { kind: 'crash', target: 'consumer-0', point: 'before-commit' } as const;
    const withFault = parse({ ...tiny, faults: [crash] });
    const r = parseChallenge(challenge());
    if (!r.ok) throw new Error('invalid');
    expect(ruleIssues(r.challenge, attemptChanges(withFault, start))).toEqual([
      "the challenge's own fault 1 changed or went: they stay as they are",
    ]);
    const moved = parse({ ...tiny, faults: [{ ...crash, at: 500 }] });
    expect(attemptChanges(withFault, moved).startFaultsChanged).toEqual([1]);
  });
});
