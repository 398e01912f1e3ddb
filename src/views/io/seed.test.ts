import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../engine';
import { findPreset } from '../../scenarios';
import { parseSeed, SEED_MAX, seedEffect } from './seed';

const scenario = (input: unknown) => {
  const p = parseScenario(input);
  if (!p.ok) throw new Error(JSON.stringify(p.issues));
  return p.scenario;
};

describe('parseSeed', () => {
  it('reads whole numbers from 0 to 2³² − 1, spaces and leading zeros aside', () => {
    expect(parseSeed('1')).toEqual({ ok: true, value: 1 });
    expect(parseSeed('0')).toEqual({ ok: true, value: 0 });
    expect(parseSeed(' 42 ')).toEqual({ ok: true, value: 42 });
    expect(parseSeed('007')).toEqual({ ok: true, value: 7 });
    expect(parseSeed('4294967295')).toEqual({ ok: true, value: SEED_MAX });
    expect(parseSeed('0004294967295')).toEqual({ ok: true, value: SEED_MAX });
  });

  it('names why anything else is not a seed', () => {
    expect(parseSeed('')).toEqual({ ok: false, problem: 'the seed is empty' });
    expect(parseSeed('   ')).toEqual({ ok: false, problem: 'the seed is empty' });
    expect(parseSeed('abc')).toEqual({ ok: false, problem: '“abc” is not a number' });
    expect(parseSeed('-1')).toEqual({ ok: false, problem: '“-1” is negative' });
    expect(parseSeed('1.5')).toEqual({ ok: false, problem: '“1.5” is not a whole number' });
    expect(parseSeed('.5')).toEqual({ ok: false, problem: '“.5” is not a whole number' });
    expect(parseSeed('1e3')).toEqual({
      ok: false,
      problem: '“1e3” has an exponent: write it in digits (1,000)',
    });
    expect(parseSeed('0x10')).toEqual({ ok: false, problem: '“0x10” is not a number' });
    expect(parseSeed('4294967296')).toEqual({
      ok: false,
      problem: '“4294967296” is more than 4,294,967,295',
    });
    expect(parseSeed('99999999999999999999999')).toEqual({
      ok: false,
      problem: '“999999999999999…” is more than 4,294,967,295',
    });
  });
});

describe('seedEffect: what the seed changes in a scenario', () => {
  it('says a scenario without random draws gives the same run for every seed', () => {
    // retry-storm loses every 100th ack by a scheduled fault (match nth/every), not at random.
    expect(seedEffect(scenario(findPreset('retry-storm')!.variant.scenario))).toBe(
      'Nothing in this scenario is random (no random fault, no network jitter, no random workload): every seed gives this same run.',
    );
  });
  it('names the draws a scenario has', () => {
    const s = scenario({
      version: 1,
      name: 'r',
      network: { jitterMs: 3 },
      workload: { generate: { count: 10, arrivals: 'poisson' } },
      faults: [{ kind: 'random', link: 'produce', what: 'drop-response', probability: 0.1 }],
    });
    expect(seedEffect(s)).toBe(
      'In this scenario the seed draws: network jitter, a random fault, Poisson arrivals.',
    );
  });
});
