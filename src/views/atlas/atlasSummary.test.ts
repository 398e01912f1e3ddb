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

describe('atlasSummary, under a claim that allows one of the two breaks', () => {
  // at-most-once/default: the scenario alone loses 2 (its claim allows it); a re-send or a
  // source duplicate adds a duplicate to those 2 losses: "lose and duplicate".
  const both = (family: string, n: number, lost: number) =>
    Array.from({ length: n }, () => ({
      outcome: 'both' as const,
      families: [family],
      lost,
      duplicated: 1,
    }));
  const mostOnce = (t: SummaryTrial[], alone = { lost: 2, duplicated: 0 }) =>
    atlasSummary({
      trials: t,
      depth: 1,
      claim: 'at-most-once',
      base: 'held',
      subject: 'scenario',
      alone,
    });

  it('says the losses of the trials that lose and duplicate are the scenario’s own', () => {
    const t = [
      ...both('a re-send by the application', 17, 2),
      ...both('a duplicate from the source', 17, 2),
      ...trials('a lost request', 170, 'held'),
    ];
    expect(mostOnce(t)).toBe(
      '204 placements: 170 held, 34 lose and duplicate — 17 of the 34 losses with duplicates come from a re-send by the application, as many from a duplicate from the source; each of the 34 loses 2 events, as the scenario alone does, which its at-most-once claim allows.',
    );
    expect(mostOnce(both('a re-send by the application', 1, 1), { lost: 1, duplicated: 0 })).toBe(
      '1 placement: 1 lose and duplicate — the loss with a duplicate comes from a re-send by the application; it loses 1 event, as the scenario alone does, which its at-most-once claim allows.',
    );
  });

  it('says nothing of it when a trial loses more than the scenario alone, or the claim allows neither', () => {
    const t = [...both('a re-send by the application', 2, 2), ...both('a crash', 1, 3)];
    expect(mostOnce(t)).toBe(
      '3 placements: 3 lose and duplicate — 2 of the 3 losses with duplicates come from a re-send by the application.',
    );
    expect(
      atlasSummary({
        trials: both('a re-send by the application', 2, 2),
        depth: 1,
        claim: 'exactly-once',
        base: 'held',
        subject: 'scenario',
        alone: { lost: 2, duplicated: 0 },
      }),
    ).toBe(
      '2 placements: 2 lose and duplicate — every loss with a duplicate comes from a re-send by the application.',
    );
  });
});
