import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCount,
  formatCountOf,
  formatMoney,
  formatMs,
  formatPlayTime,
  formatSpeedShown,
  formatSpeedWords,
  pluralOf,
} from './format';

describe('formatMs', () => {
  it('writes ms, then seconds, then minutes and seconds, then hours and minutes', () => {
    expect(formatMs(850)).toBe('850 ms');
    expect(formatMs(41_150)).toBe('41.150 s');
    expect(formatMs(59_999)).toBe('59.999 s');
    expect(formatMs(60_000)).toBe('1 min 00.000 s');
    expect(formatMs(301_006)).toBe('5 min 01.006 s');
    expect(formatMs(2_974_092)).toBe('49 min 34.092 s');
    expect(formatMs(3_720_000)).toBe('1 h 02 min');
  });
});

describe('formatBytes', () => {
  it('writes bytes, then KB and MB of 1,024', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(48)).toBe('48 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(3200)).toBe('3.1 KB');
    expect(formatBytes(4096)).toBe('4 KB');
    expect(formatBytes(16 * 1_000_000)).toBe('15.3 MB');
  });
});

describe('formatPlayTime', () => {
  it('writes a real duration in ms, s or min with two significant digits', () => {
    expect(formatPlayTime(1000 / 250)).toBe('4 ms');
    expect(formatPlayTime(1000 / 1)).toBe('1 s');
    expect(formatPlayTime(1000 / 0.01)).toBe('1.7 min');
    expect(formatPlayTime(1000 / 0.4)).toBe('2.5 s');
  });
});

describe('formatCountOf', () => {
  it('puts the noun in the number the count needs', () => {
    expect(formatCountOf(0, 'record')).toBe('0 records');
    expect(formatCountOf(1, 'record')).toBe('1 record');
    expect(formatCountOf(2, 'record')).toBe('2 records');
    expect(formatCountOf(1234, 'row')).toBe('1,234 rows');
    expect(formatCountOf(1, 'batch', 'batches')).toBe('1 batch');
    expect(formatCountOf(3, 'batch', 'batches')).toBe('3 batches');
    // The noun agrees with the number shown, rounded: 0.6 is "1", 1.5 is "2".
    expect(formatCountOf(0.6, 'day')).toBe('1 day');
    expect(formatCountOf(1.5, 'day')).toBe('2 days');
    expect(formatCountOf(-1, 'fault')).toBe('-1 fault');
    expect(formatCountOf(1, 'copy', 'copies')).toBe('1 copy');
  });
});

describe('pluralOf', () => {
  it('picks the words a count agrees with, by Intl.PluralRules', () => {
    expect(pluralOf(1, 'knob differs', 'knobs differ')).toBe('knob differs');
    expect(pluralOf(0, 'knob differs', 'knobs differ')).toBe('knobs differ');
    expect(pluralOf(2, 'is', 'are')).toBe('are');
    expect(pluralOf(1, 'worker')).toBe('worker');
    expect(pluralOf(21, 'worker')).toBe('workers');
    expect(pluralOf(1.5, 'day')).toBe('days');
  });
});

describe('formatSpeedWords', () => {
  it('says how long one second of the run plays, true at every speed', () => {
    // Speed is virtual ms per real ms: one virtual second takes 1000 / speed real ms.
    expect(formatSpeedWords(2)).toBe('×2: one second of the run plays in 500 ms');
    expect(formatSpeedWords(10)).toBe('×10: one second of the run plays in 100 ms');
    expect(formatSpeedWords(1000)).toBe('×1000: one second of the run plays in 1 ms');
    expect(formatSpeedWords(1)).toBe('×1: one second of the run plays in 1 s');
    // 100 s, from one minute on in minutes (formatPlayTime): 1.7 min.
    expect(formatSpeedWords(0.01)).toBe('×0.01: one second of the run plays in 1.7 min');
    expect(formatSpeedWords(0.001)).toBe('×0.001: one second of the run plays in 17 min');
    expect(formatSpeedWords(3)).toBe('×3: one second of the run plays in 330 ms');
  });
});

describe('formatSpeedShown', () => {
  it('says on screen how long one second of the run plays, short for the playback row', () => {
    // 1000 / speed real ms per virtual second (formatPlayTime's units).
    expect(formatSpeedShown(0.013)).toBe('1 s in 1.3 min');
    expect(formatSpeedShown(0.0058)).toBe('1 s in 2.9 min');
    expect(formatSpeedShown(0.1)).toBe('1 s in 10 s');
    expect(formatSpeedShown(1)).toBe('1 s in 1 s');
    expect(formatSpeedShown(1000)).toBe('1 s in 1 ms');
  });
});

describe('counts, plurals and money without Intl', () => {
  // As the page wrote them with Intl before (format.ts says why it does not now).
  const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  const money = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
  const plural = new Intl.PluralRules('en-US', { maximumFractionDigits: 0 });
  const numbers = fc.oneof(
    fc.integer(),
    fc.maxSafeInteger(),
    fc.double(),
    // Halves and cents, where rounding decides ("1 day" for 0.6, $2.5).
    fc.integer({ min: -1e7, max: 1e7 }).map((i) => i / 2),
    fc.integer({ min: -1e9, max: 1e9 }).map((i) => i / 100),
    fc.integer({ min: -1e9, max: 1e9 }).map((i) => i / 1000),
  );

  it('by hand: rounded half away from zero, grouped by three', () => {
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatCount(2.5)).toBe('3');
    expect(formatCount(-2.5)).toBe('-3');
    expect(formatCount(-0.4)).toBe('-0');
    expect(formatCountOf(0.6, 'day')).toBe('1 day');
    expect(formatCountOf(1.5, 'day')).toBe('2 days');
    expect(formatMoney(2320)).toBe('$2,320');
    expect(formatMoney(-190.5)).toBe('−$190.5');
    // More than two decimals is Intl's to round: its shortest form, "1.005", half away from zero.
    expect(formatMoney(1.005)).toBe('$1.01');
  });

  it('give the text Intl gives for any number', () => {
    fc.assert(
      fc.property(numbers, (n) => {
        expect(formatCount(n)).toBe(int.format(n));
        expect(formatMoney(n)).toBe(`${n < 0 ? '−' : ''}$${money.format(Math.abs(n))}`);
        expect(pluralOf(n, 'one', 'other')).toBe(plural.select(n));
      }),
      { numRuns: 3000 },
    );
  });
});
