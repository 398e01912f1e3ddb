/**
 * Where the summary says the breaks come from when several causes break as many trials: it named
 * the first of a six-way tie as if it were the main one ("10 of the 60 duplicates come from a lost
 * sink response", with 10 each from five others: a plain-INSERT consumer loop's atlas).
 */
import { describe, expect, it } from 'vitest';
import { atlasSummary, type SummaryTrial } from './atlasSummary';

const trials = (family: string, n: number, outcome: SummaryTrial['outcome'] = 'duplicates') =>
  Array.from({ length: n }, () => ({ outcome, families: [family] }));

const summary = (t: SummaryTrial[]) =>
  atlasSummary({ trials: t, depth: 1, claim: 'exactly-once', base: 'held', subject: 'scenario' });

describe('atlasSummary, where the breaks come from', () => {
  it('says so when other causes break as many trials as the one it names', () => {
    // 2 causes of 10 duplicates and 1 of 5, and 3 held: 28 placements.
    const t = [
      ...trials('a lost sink response', 10),
      ...trials('a re-send by the application', 10),
      ...trials('a crash of consumer-0 mid-batch', 5),
      ...trials('a lost sink request', 3, 'held'),
    ];
    expect(summary(t)).toBe(
      '28 placements: 3 held, 25 duplicate — 10 of the 25 duplicates come from a lost sink response, as many from a re-send by the application.',
    );
    // Six causes of 10 each.
    const six = ['a', 'b', 'c', 'd', 'e', 'f'].flatMap((f) => trials(`cause ${f}`, 10));
    expect(summary(six)).toBe(
      '60 placements: 60 duplicate — 10 of the 60 duplicates come from cause a, as many from each of 5 other causes.',
    );
  });

  it('names the one cause most trials hold alone, as before, and one trial as one', () => {
    const t = [...trials('a lost sink response', 3), ...trials('a re-send by the application', 1)];
    expect(summary(t)).toBe(
      '4 placements: 4 duplicate — 3 of the 4 duplicates come from a lost sink response.',
    );
    const one = [...trials('a crash after the write', 1), ...trials('a clear', 1)];
    expect(summary(one)).toBe(
      '2 placements: 2 duplicate — 1 of the 2 duplicates comes from a crash after the write, as many from a clear.',
    );
  });
});
