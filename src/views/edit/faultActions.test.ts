import { describe, expect, it, vi } from 'vitest';
import { parseScenario, simulate, type Scenario, type ScenarioInput } from '../../engine';
import { applyGuarantee, findPreset } from '../../scenarios';
import { countersAt, indexAtTime, processorsAt, tokensAt } from '../run/at';
import {
  dropMessageFault,
  faultMarkers,
  markerText,
  matchText,
  type FaultInput,
} from './faultActions';
import { faultMenu } from './faultMenu';
import { K } from '../run/kinds';
import { toRunView } from '../run/runView';

// Whole runs on a loaded two-core machine: its slowest test took 0.5 s in a full CI run
// (this file 3.1 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

function parsed(input: ScenarioInput): Scenario {
  const r = parseScenario(input);
  if (!r.ok) throw new Error(r.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  return r.scenario;
}

/** The at-least-once preset without its two faults: 20 payments, nothing goes wrong. */
function calmAtLeastOnce(): ScenarioInput {
  return { ...structuredClone(findPreset('at-least-once')!.variant.scenario), faults: [] };
}

function withFault(input: ScenarioInput, f: FaultInput): ScenarioInput {
  return { ...input, faults: [...(input.faults ?? []), f] };
}

describe('dropMessageFault', () => {
  it('dropping the ack of p-2 (idempotence off) makes exactly one duplicate', () => {
    const input = calmAtLeastOnce();
    const v = toRunView(simulate(parsed(input)));
    expect(countersAt(v, v.n).duplicates).toBe(0);
    // p-2 is sent at 50 ms; its ack leaves the broker at 61 ms and arrives at 63 ms.
    const t = 62;
    const ack = tokensAt(v, t, indexAtTime(v, t)).find((k) => k.type === 'produce-response')!;
    const fault = dropMessageFault(v, ack.entry)!;
    expect(fault).toMatchObject({
      kind: 'drop-response',
      link: 'produce',
      at: 61,
      match: { event: 'p-2', partition: 0, nth: 1 },
    });
    // The producer retries after request.timeout.ms; without idempotence the broker appends p-2
    // again and the plain INSERT writes it twice: 1 duplicate row, nothing lost.
    const v2 = toRunView(simulate(parsed(withFault(input, fault))));
    const c = countersAt(v2, v2.n);
    expect([c.duplicates, c.missing]).toEqual([1, 0]);
    // The same message is now drawn lost.
    const lost = tokensAt(v2, t, indexAtTime(v2, t)).find((k) => k.type === 'produce-response')!;
    expect(lost.lost).toBe(true);
  });

  it('refuses entries that are not messages', () => {
    const v = toRunView(simulate(parsed(calmAtLeastOnce())));
    expect(dropMessageFault(v, 0)).toBeNull();
  });
});

describe('faultMenu', () => {
  it('consumer: crash after processing, before the commit, replays the uncommitted batch', () => {
    const input = calmAtLeastOnce();
    const s = parsed(input);
    const v = toRunView(simulate(s));
    const action = faultMenu(v, s, 'consumer-0', 0, 0).find((a) => a.id === 'crash-before-commit')!;
    expect(action.effect).toEqual({
      type: 'add',
      fault: {
        kind: 'crash',
        target: 'consumer-0',
        point: 'before-commit',
        restartAfterMs: 1000,
        at: 0,
      },
    });
    if (action.effect.type !== 'add') throw new Error('expected an added fault');
    const v2 = toRunView(simulate(parsed(withFault(input, action.effect.fault))));
    // max.poll.records = 5: batch 1 (p-1..p-5) is processed and written, the consumer dies
    // before committing; nothing was committed, so the restart (auto.offset.reset = earliest)
    // replays p-1..p-5: 5 duplicate rows = the 5 records processed since the last commit.
    const crash = Array.from(v2.cols.kind).findIndex(
      (_, i) => v2.actors[v2.cols.actor[i]!] === 'consumer-0' && v2.cols.kind[i] === K.crash,
    );
    const at = processorsAt(v2, crash + 1, v2.cols.time[crash]!)[0]!;
    expect(at.life).toBe('down');
    expect(at.sinceCommit).toBe(5);
    expect(countersAt(v2, v2.n).duplicates).toBe(5);
  });

  it('every action of every component is a valid fault for the scenario', () => {
    const input = calmAtLeastOnce();
    const s = parsed(input);
    const v = toRunView(simulate(s));
    for (const c of ['producer', 'broker-1', 'partition:payments:0', 'consumer-0', 'sink'])
      for (const a of faultMenu(v, s, c, 40_000, indexAtTime(v, 40_000), 3)) {
        if (a.effect.type !== 'add') continue;
        const r = parseScenario(withFault(input, a.effect.fault));
        expect(r.ok ? 'ok' : `${c}/${a.id}: ${JSON.stringify(r.issues)}`).toBe('ok');
      }
  });

  it('a partition offers its leader failing now or right after its next append: only the second loses an acks=1 record', () => {
    // lost-ack-retry/acks-1 without its fault: e1..e10 every 100 ms from 100 ms, acks=1. From the
    // playhead at 100 ms, "right after its next append" kills the leader as it appends e1 (at
    // 102 ms), before its followers' fetches are answered: a follower takes over without e1, which
    // was acknowledged — lost. "Fail the leader" at 100 ms kills it before e1 arrives: the producer
    // retries e1 to the new leader — nothing lost (docs/semantics/broker.md#leader-failover).
    const input = {
      ...structuredClone(findPreset('lost-ack-retry/acks-1')!.variant.scenario),
      faults: [],
    };
    const s = parsed(input);
    const v = toRunView(simulate(s));
    const menu = faultMenu(v, s, 'partition:events:0', 100, indexAtTime(v, 100));
    const lost = (id: string) => {
      const a = menu.find((x) => x.id === id)!;
      if (a.effect.type !== 'add') throw new Error(id);
      const run = toRunView(simulate(parsed(withFault(input, a.effect.fault))));
      return countersAt(run, run.n).missing;
    };
    expect(lost('leader-failover-after-append')).toBe(1);
    expect(lost('leader-failover')).toBe(0);
  });

  it('acks=0: the producer offers no "lose the next ack" (there is none to lose)', () => {
    const amo = parsed(findPreset('at-most-once')!.variant.scenario);
    const alo = parsed(calmAtLeastOnce());
    const ids = (s: Scenario) =>
      faultMenu(toRunView(simulate(s)), s, 'producer', 0, 0).map((a) => a.id);
    expect(ids(amo)).not.toContain('lose-next-ack');
    expect(ids(amo)).toContain('lose-next-request');
    expect(ids(alo)).toContain('lose-next-ack');
  });

  it('a crashed component that stays down offers "Restart now", editing its fault', () => {
    const input = withFault(calmAtLeastOnce(), {
      kind: 'crash',
      target: 'consumer-0',
      at: 40_010,
      restartAfterMs: null,
    });
    const s = parsed(input);
    const v = toRunView(simulate(s));
    const t = 45_000;
    const restart = faultMenu(v, s, 'consumer-0', t, indexAtTime(v, t)).find(
      (a) => a.id === 'restart',
    )!;
    expect(restart.effect).toMatchObject({
      type: 'edit',
      index: 0,
      fault: { restartAfterMs: 4990 },
    });
  });
});

describe('faultMenu offers only what the validator accepts', () => {
  const CHECKPOINT_CRASHES = [
    'before-barrier',
    'after-precommit',
    'after-checkpoint',
    'during-commit',
  ];
  /** A Flink job (S08's, without its crash) switched to `g`: at-most-once has no checkpoints. */
  const flinkJob = (g: 'at-most-once' | 'at-least-once'): Scenario => {
    const s = findPreset('flink-commit-phase-crash/recovered-in-time')!.variant.scenario;
    return parsed(applyGuarantee({ ...structuredClone(s), faults: [] }, g));
  };
  const flinkMenu = (s: Scenario) =>
    faultMenu(toRunView(simulate(s)), s, 'flink', 1000, 0).map((a) => a.id);

  it('no checkpointing: no crash at a checkpoint step is offered (crash now still is)', () => {
    const s = flinkJob('at-most-once');
    expect(
      s.processor.type === 'flink' && s.processor['execution.checkpointing.interval'],
    ).toBeNull();
    const ids = flinkMenu(s);
    for (const id of CHECKPOINT_CRASHES) expect(ids).not.toContain(id);
    expect(ids).toContain('crash');
  });

  it('with checkpointing: every checkpoint crash is offered, and each one parses', () => {
    const s = flinkJob('at-least-once');
    expect(s.processor.type === 'flink' && s.processor['execution.checkpointing.interval']).toBe(
      1000,
    );
    const v = toRunView(simulate(s));
    const menu = faultMenu(v, s, 'flink', 1000, 0);
    expect(menu.map((a) => a.id)).toEqual(expect.arrayContaining(CHECKPOINT_CRASHES));
    for (const a of menu) {
      if (a.effect.type !== 'add') continue;
      expect(parseScenario({ ...s, faults: [...s.faults, a.effect.fault] }).ok, a.id).toBe(true);
    }
  });
});

describe('faultMarkers', () => {
  it('places each preset fault where it fired', () => {
    const s = parsed(findPreset('at-least-once')!.variant.scenario);
    const v = toRunView(simulate(s));
    const m = faultMarkers(v, s);
    // The lost ack fires at 161 ms (p-4's ack); the crash at 40,050 ms.
    expect(m.map((x) => [x.kind, x.firedAt])).toEqual([
      ['drop-response', 161],
      ['crash', 40_050],
    ]);
    expect(m.map((x) => x.firings)).toEqual([1, 1]);
  });

  it('names a fault by its id, else by its number from 1; the label says what it does, once', () => {
    const s = parsed(findPreset('at-least-once')!.variant.scenario);
    // The preset's two faults have ids; a third without one is the scenario's fault 3.
    const third = parsed({
      ...findPreset('at-least-once')!.variant.scenario,
      faults: [...s.faults, { kind: 'crash', target: 'consumer-0', at: 50_000 }],
    });
    const m = faultMarkers(toRunView(simulate(third)), third);
    expect(m.map((x) => x.name)).toEqual(['fault "lost ack"', 'fault "consumer crash"', 'fault 3']);
    expect(m.map((x) => x.label)).toEqual([
      'a lost acknowledgement — the message carrying p-4',
      'a crash of consumer-0 in its 2nd batch after 3 records',
      'a crash of consumer-0',
    ]);
  });

  it('a random fault says its window and how often it fired, not only its first firing', () => {
    // 40 payments every 10 ms; each produce response lost with probability 0.5 from 100 to
    // 300 ms: it fires several times, the first firing in the window.
    const s = parsed({
      version: 1,
      name: 'random drops',
      workload: { generate: { count: 40, intervalMs: 10 } },
      producer: { 'linger.ms': 0 },
      faults: [
        {
          kind: 'random',
          what: 'drop-response',
          link: 'produce',
          probability: 0.5,
          at: 100,
          untilMs: 300,
        },
      ],
    });
    const v = toRunView(simulate(s));
    const [m] = faultMarkers(v, s);
    expect(m!.untilMs).toBe(300);
    expect(m!.firings).toBe(v.faultFired.start[1]! - v.faultFired.start[0]!);
    expect(m!.firings).toBeGreaterThan(1);
    expect(m!.firedAt).toBeGreaterThanOrEqual(100);
    const ms = (x: number) => `${x} ms`;
    expect(markerText(m!, ms)).toBe(
      `${m!.label} — armed from 100 ms until 300 ms, fired ${m!.firings} times, first at ${m!.firedAt} ms`,
    );
    expect(markerText({ ...m!, untilMs: null, firings: 0 }, ms)).toBe(
      `${m!.label} — armed from 100 ms, never fired`,
    );
  });
});

describe('a message fault names the message it picks', () => {
  it('by event, by nth and partition, with every; nothing for the next message', () => {
    const drop = (match: Record<string, unknown>) =>
      ({ kind: 'drop-response', link: 'produce', at: 0, match }) as never;
    expect(matchText(drop({ event: 'p-4', nth: 1 }))).toBe(' — the message carrying p-4');
    expect(matchText(drop({ partition: 1, nth: 2, every: 100 }))).toBe(
      ' — the 2nd message on partition 1, then every 100th',
    );
    expect(matchText(drop({ nth: 1 }))).toBe('');
    expect(matchText({ kind: 'crash', target: 'flink', at: 0 } as never)).toBe('');
  });
});
