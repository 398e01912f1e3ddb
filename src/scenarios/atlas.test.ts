/**
 * The fault atlas on the library's presets: every placement is a fault the scenario format accepts,
 * strikes where the atlas placed it, and opened as a run gives the outcome the atlas recorded.
 */
import { describe, expect, it } from 'vitest';
import {
  classify,
  enumeratePlacements,
  explore,
  firstRun,
  ENTRY_KINDS,
  parseScenario,
  simulate,
  withFaults,
  type Placement,
  type Run,
  type ScenarioInput,
} from '../engine';
import { findPreset } from './index';

function inputOf(ref: string): ScenarioInput {
  const found = findPreset(ref);
  if (!found) throw new Error(`no preset ${ref}`);
  return found.variant.scenario;
}

const FAULT = ENTRY_KINDS.indexOf('fault');

/** The time the fault at `index` first fired in `run`, or -1. */
function firedAt(run: Run, index: number): number {
  const t = run.trace;
  for (let e = 0; e < t.length; e++)
    if (t.kind[e] === FAULT && t.aux[e] === index) return t.time[e]!;
  return -1;
}

/** The first and last placement of each kind, component and link or point (a big preset's sample). */
function sample(ps: readonly Placement[]): Placement[] {
  const groups = new Map<string, Placement[]>();
  for (const p of ps) {
    const f = p.fault;
    const key = `${p.kind}|${p.component}|${'link' in f ? f.link : ''}|${f.kind === 'crash' ? f.point : ''}`;
    const g = groups.get(key);
    if (g) g.push(p);
    else groups.set(key, [p]);
  }
  return [...groups.values()].flatMap((g) => (g.length > 1 ? [g[0]!, g.at(-1)!] : g));
}

/** Open each placement as the page would, and check it against the atlas's own trial. */
function checkPlacements(input: ScenarioInput, all: boolean): number {
  const r0 = parseScenario(input);
  if (!r0.ok) throw new Error(JSON.stringify(r0.issues));
  const s = r0.scenario;
  const first = firstRun(s);
  const placements = enumeratePlacements(s, first);
  const ps = all ? placements : sample(placements);
  for (const p of ps) {
    const r = parseScenario({ ...input, faults: [...(input.faults ?? []), p.fault] });
    expect(r.ok, `${p.label}: ${r.ok ? '' : JSON.stringify(r.issues)}`).toBe(true);
    if (!r.ok) continue;
    const run = simulate(r.scenario);
    expect(firedAt(run, r.scenario.faults.length - 1), p.label).toBe(p.time);
    const trial = simulate(withFaults(s, [p.fault]), { explain: false });
    expect(classify(run, first.cutOff, 1), p.label).toEqual(classify(trial, first.cutOff, 1));
  }
  return ps.length;
}

describe('atlas placements of the presets', () => {
  it.each(['at-most-once', 'at-least-once', 'effectively-once'])(
    '%s: every placement valid, striking where placed, with the outcome the atlas recorded',
    (ref) => {
      expect(checkPlacements(inputOf(ref), true)).toBeGreaterThan(100);
    },
    180_000,
  );

  // One preset per processor and producer kind, sampled: a Flink 2PC job, a Spark query, a
  // transactional consume-transform-produce loop, a zombie under a transactional sink.
  it.each([
    'flink-checkpoint-replay/flushed-20-of-50',
    'spark-batch-replay/delta-txn',
    'consume-transform-produce/read-committed',
    'zombie-consumer/transactional',
  ])(
    '%s: the first and last placement of each kind, component and point likewise',
    (ref) => {
      expect(checkPlacements(inputOf(ref), false)).toBeGreaterThan(10);
    },
    180_000,
  );

  it('a placement opened as a run gives the outcome the atlas recorded', () => {
    const r = parseScenario(inputOf('at-most-once'));
    if (!r.ok) throw new Error('invalid preset');
    const atlas = explore(r.scenario);
    for (const [i, t] of atlas.trials.entries()) {
      if (i % 5 !== 0 && t.result.outcome === 'held') continue;
      const p = atlas.placements[t.placements[0]!]!;
      const run = simulate(withFaults(r.scenario, [p.fault]));
      expect(classify(run, false, 1), p.label).toEqual(t.result);
    }
  }, 180_000);
});
