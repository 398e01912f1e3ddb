/**
 * A room of 25 answered a number question with 25 different numbers: the panel's 25 bars ran
 * 700 px past the projector's bottom, the right answer's bar and the panel's buttons below the
 * fold. The numbers given most keep their bars, the rest share one; the choice of which depends
 * on the counts only (nothing told before the reveal), and the right number is its own bar once
 * revealed.
 */
import { expect, it } from 'vitest';
import { NUMBER_BARS, OTHER_NUMBERS, histogramBars } from './histogram';

const rows = { kind: 'number' as const, text: 'How many rows?', unit: 'rows' };

/** 25 students: 24 given by 6, 20 by 5, 21 by 3, 23 by 2, 25 by 2, and 7 numbers once each. */
const counts: Record<string, number> = { '24': 6, '20': 5, '21': 3, '23': 2, '25': 2 };
for (const v of [10, 11, 12, 13, 30, 31, 34]) counts[String(v)] = 1;

it('a number question’s bars: the most given numbers, the others in one bar', () => {
  const asked = histogramBars(rows, counts);
  expect(asked.map((b) => b.label)).toEqual([
    '20 rows',
    '21 rows',
    '23 rows',
    '24 rows',
    '25 rows',
    '7 other numbers',
  ]);
  expect(asked.length).toBe(NUMBER_BARS + 1);
  expect(asked.at(-1)).toMatchObject({ value: OTHER_NUMBERS, count: 7 });
  expect(asked.reduce((n, b) => n + b.count, 0)).toBe(25);
  expect(asked.some((b) => b.right)).toBe(false);
});

it('once revealed, the right number has its bar, whatever its count', () => {
  const revealed = histogramBars(rows, counts, '31');
  expect(revealed.map((b) => `${b.label}${b.right ? ' ✓' : ''}`)).toEqual([
    '20 rows',
    '21 rows',
    '23 rows',
    '24 rows',
    '25 rows',
    '31 rows ✓',
    '6 other numbers',
  ]);
  // Before the reveal, the same counts give the same bars whichever number is right.
  expect(histogramBars(rows, counts)).toEqual(histogramBars(rows, counts, undefined));
});

it('few numbers, or a single one left over, keep a bar each', () => {
  expect(histogramBars(rows, { '20': 1, '24': 2 }).map((b) => b.label)).toEqual([
    '20 rows',
    '24 rows',
  ]);
  const six = { '1': 1, '2': 1, '3': 1, '4': 1, '5': 1, '6': 1 };
  expect(histogramBars(rows, six).map((b) => b.value)).toEqual(['1', '2', '3', '4', '5', '6']);
});

it('once revealed, a right number nobody gave has its bar too, at 0 (the room sees nobody got it)', () => {
  // delivery-guarantees-45's step 1, 20 students: 18 is right, four each gave 10, 11, 12, 20, 24.
  const spread = { '10': 4, '11': 4, '12': 4, '20': 4, '24': 4 };
  const payments = { ...rows, unit: 'payments' };
  expect(
    histogramBars(payments, spread, '18').map((b) => `${b.label}${b.right ? ' ✓' : ''} ${b.count}`),
  ).toEqual([
    '10 payments 4',
    '11 payments 4',
    '12 payments 4',
    '18 payments ✓ 0',
    '20 payments 4',
    '24 payments 4',
  ]);
  // The unit apart, for a column that leaves it to the question (the projector's room panel).
  expect(histogramBars(payments, spread, '18')[3]).toMatchObject({
    value: '18',
    label: '18 payments',
    unit: 'payments',
  });
  // Six numbers given, none right: the five most given keep a bar and the one left over its own.
  const six = { '1': 1, '2': 1, '3': 1, '4': 1, '5': 1, '6': 1 };
  expect(histogramBars(rows, six, '9').map((b) => b.value)).toEqual([
    '1',
    '2',
    '3',
    '4',
    '5',
    '6',
    '9',
  ]);
});
