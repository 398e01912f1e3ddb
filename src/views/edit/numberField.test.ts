import { describe, expect, it } from 'vitest';
import { KNOBS } from './knobs';
import { parseNumberIn, rangeRule } from './numberField';
import { parseFaultTime, schemaRange } from './schemaRange';

const scenario = {
  version: 1,
  name: 't',
  workload: { events: [{ id: 'e1', amount: 1, at: 0 }] },
  processor: { type: 'flink' },
  faults: [{ kind: 'crash', target: 'producer', at: 10 }],
};

describe('schemaRange', () => {
  it('reads a knob’s bounds from the scenario schema, dotted config names included', () => {
    expect(schemaRange('producer.retries')).toEqual({ min: 0, max: 2147483647, int: true });
    expect(schemaRange('producer.max.in.flight.requests.per.connection')).toEqual({
      min: 1,
      max: 100,
      int: true,
    });
    expect(schemaRange('producer.request.timeout.ms')).toEqual({
      min: 1,
      max: 604800000,
      int: true,
    });
    expect(schemaRange('processor.execution.checkpointing.interval', scenario)).toEqual({
      min: 10,
      max: 604800000,
      int: true,
    });
    expect(schemaRange('processor.processing.perRecordMs')).toEqual({
      min: 0,
      max: 604800000,
      int: false,
    });
    expect(schemaRange('faults.0.at', scenario)).toEqual({ min: 0, max: 604800000, int: true });
    expect(schemaRange('producer.acks')).toBeUndefined();
    expect(schemaRange('producer.nope')).toBeUndefined();
  });

  it('knows every number knob of the dashboard', () => {
    const numbers = KNOBS.filter(
      (k) => k.editor.type === 'number' || k.editor.type === 'nullable-number',
    );
    expect(numbers.length).toBeGreaterThan(20);
    for (const k of numbers) {
      const probe =
        k.path.startsWith('processor.execution') || k.path.startsWith('processor.restart')
          ? scenario
          : undefined;
      expect(schemaRange(k.path, probe), k.path).toMatchObject({ int: expect.any(Boolean) });
    }
  });
});

describe('parseNumberIn', () => {
  const retries = { min: 0, max: 2147483647, int: true };
  it('reads a number within the range', () => {
    expect(parseNumberIn(' 3 ', retries)).toEqual({ ok: true, value: 3 });
    expect(parseNumberIn('0', retries)).toEqual({ ok: true, value: 0 });
    expect(parseNumberIn('2147483647', retries)).toEqual({ ok: true, value: 2147483647 });
    expect(parseNumberIn('0.5', { min: 0, max: 10, int: false })).toEqual({ ok: true, value: 0.5 });
  });

  it('refuses what is outside the range, naming why — never clamps or rounds', () => {
    expect(parseNumberIn('-1', retries)).toEqual({ ok: false, problem: '“-1” is negative' });
    expect(parseNumberIn('2.5', retries)).toEqual({
      ok: false,
      problem: '“2.5” is not a whole number',
    });
    expect(parseNumberIn('2147483648', retries)).toEqual({
      ok: false,
      problem: '“2147483648” is more than 2,147,483,647',
    });
    expect(parseNumberIn('0', { min: 1, max: 100, int: true })).toEqual({
      ok: false,
      problem: '“0” is less than 1',
    });
    expect(parseNumberIn('', retries, 'retries')).toEqual({
      ok: false,
      problem: 'retries is empty',
    });
    // A number, written with an exponent: refused, with the digits to type instead.
    expect(parseNumberIn('1e3', retries)).toEqual({
      ok: false,
      problem: '“1e3” has an exponent: write it in digits (1,000)',
    });
    expect(parseNumberIn('1e12', retries)).toEqual({
      ok: false,
      problem: '“1e12” has an exponent: write it in digits (1,000,000,000,000)',
    });
    expect(parseNumberIn('1ee3', retries)).toEqual({
      ok: false,
      problem: '“1ee3” is not a number',
    });
  });

  it('reads digits grouped by commas as the lab prints them: "840,000" is 840000, not 840', () => {
    // The page and the reports write times grouped ("armed at 840,000 ms"); copied into a field
    // they were read as a decimal comma, 840,000 → 840, a fault a thousand times earlier.
    const ms = { min: 0, max: 604_800_000, int: true };
    expect(parseNumberIn('840,000', ms)).toEqual({ ok: true, value: 840_000 });
    expect(parseNumberIn('2,147,483,647', retries)).toEqual({ ok: true, value: 2_147_483_647 });
    expect(parseNumberIn('1,234.5', { min: 0, max: 10_000, int: false })).toEqual({
      ok: true,
      value: 1234.5,
    });
    // A decimal comma that is no grouping still reads as one.
    expect(parseNumberIn('1,5', { min: 0, max: 10, int: false })).toEqual({ ok: true, value: 1.5 });
    expect(parseNumberIn('2,147,483,648', retries)).toEqual({
      ok: false,
      problem: '“2,147,483,648” is more than 2,147,483,647',
    });
  });

  it('says the range in words', () => {
    expect(rangeRule(retries)).toBe('a whole number from 0 to 2,147,483,647');
    expect(rangeRule({ min: 1, max: 604800000, int: true }, 'ms')).toBe(
      'a whole number from 1 ms to 604,800,000 ms',
    );
  });
});

describe('parseFaultTime', () => {
  it('refuses an armed-from time beyond the schema’s limit, with the limit in words', () => {
    expect(parseFaultTime('99999999999', 'faults.0.at', scenario, 'armed from')).toEqual({
      ok: false,
      problem:
        'armed from must be between 0 ms and 7 days (604,800,000 ms), a whole number: “99999999999” is more than 604,800,000',
    });
    expect(parseFaultTime('604800000', 'faults.0.at', scenario, 'armed from')).toEqual({
      ok: true,
      value: 604800000,
    });
  });
});
