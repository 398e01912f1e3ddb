/**
 * Marking a prediction against the run: the choices and their judgement, the count a written
 * answer starts with, and every preset's question marked right or wrong as a newcomer writes it.
 */
import { describe, expect, it } from 'vitest';
import { findPreset, presets } from '../../scenarios';
import { firstStoryRef } from './libraryListing';
import {
  eventsIn,
  GENERIC_QUESTION,
  judgeChoice,
  judgeCount,
  markNote,
  markPrediction,
  numbersIn,
  PREDICTION_CHOICES,
} from './question';

describe('PREDICTION_CHOICES and judgeChoice', () => {
  it('has one choice per outcome the verdict can observe', () => {
    expect(PREDICTION_CHOICES.map((c) => c.id).sort()).toEqual(
      ['at-least-once', 'at-most-once', 'exactly-once', 'none'].sort(),
    );
    expect(GENERIC_QUESTION).toBe('What will the sink end with?');
  });

  it('is right only when the choice names what the run showed, and says what that was', () => {
    expect(judgeChoice('at-least-once', 'exactly-once')).toEqual({
      right: false,
      shows: 'every event exactly once',
    });
    expect(judgeChoice('at-least-once', 'at-least-once')).toEqual({
      right: true,
      shows: 'some events twice, none lost',
    });
    expect(judgeChoice('none', 'at-most-once').right).toBe(false);
    expect(judgeChoice('not-a-choice', 'none')).toEqual({
      right: false,
      shows: 'some events lost and some twice',
    });
  });
});

describe('judgeCount: a written count against an answer that starts with one', () => {
  it('judges the first number written; says nothing when either side has no count', () => {
    expect(judgeCount('24', '24: p-4 twice…')).toEqual({ right: true, expected: 24, said: 24 });
    expect(judgeCount('I think 20 rows', '24: p-4 twice…')).toEqual({
      right: false,
      expected: 24,
      said: 20,
    });
    expect(judgeCount('1,250 rows', '1,250: …')).toMatchObject({ right: true, expected: 1250 });
    expect(judgeCount('4', '4. The offset was already at 10…')).toMatchObject({ right: true });
    expect(judgeCount('9', '10 — one per lost acknowledgement')).toMatchObject({ right: false });
    // Nothing judged (a second newcomer pass found these marked right or wrong): a two-part
    // answer, two numbers written, a sign, a decimal, an exponent, no digits, no count.
    expect(judgeCount('11 rows, $560', '11 rows summing to 580: the retry…')).toBeNull();
    expect(judgeCount('580, 11', '24: …')).toBeNull();
    expect(judgeCount('-200', '200. The coordinator…')).toBeNull();
    expect(judgeCount('200.5', '200. The coordinator…')).toBeNull();
    expect(judgeCount('1e3', '200. The coordinator…')).toBeNull();
    expect(judgeCount('twenty', '24: …')).toBeNull();
    expect(judgeCount('4', 'e4, e5, e6 and e7: …')).toBeNull();
  });
});

describe("markPrediction: every preset's question is marked, or says it is not", () => {
  const q = (id: string) => findPreset(id)!.preset.predict;
  const mark = (id: string, said: string) => markPrediction(said, q(id).mark, q(id).question);

  it('the lost-ack question (rows, then the sum) is marked right or wrong, as a newcomer wrote it', () => {
    // "With enable.idempotence=false, how many rows…, and what is their sum?" — 11 rows, 580.
    expect(mark('lost-ack-retry', '11 and 580')).toEqual({
      kind: 'right',
      expected: '11 and 580',
      said: '11 and 580',
    });
    expect(mark('lost-ack-retry', '11 rows summing to 580')).toMatchObject({ kind: 'right' });
    expect(mark('lost-ack-retry', '10 rows, $550')).toEqual({
      kind: 'wrong',
      expected: '11 and 580',
      said: '10 and 550',
    });
    // The order asked: rows, then the sum.
    expect(mark('lost-ack-retry', '580, 11')).toMatchObject({ kind: 'wrong', said: '580 and 11' });
    // "11" alone gives one of the two: not marked, and the reason is said.
    expect(mark('lost-ack-retry', '11')).toEqual({
      kind: 'unmarked',
      why: 'the question asks for 2 numbers (rows and sum); your prediction gives 1.',
    });
  });

  it('counts: ids, a total the question names, words and a currency are read as a reader means them', () => {
    expect(mark('at-least-once', '24')).toMatchObject({ kind: 'right', expected: '24' });
    expect(mark('at-least-once', 'I think 23 rows')).toEqual({
      kind: 'wrong',
      expected: '24',
      said: '23',
    });
    // "How many of the 20 payments…?": the 20 repeated is not the answer.
    expect(mark('at-most-once', '18 of 20')).toMatchObject({ kind: 'right', expected: '18' });
    expect(mark('auto-commit-crash', '150 of the 200')).toMatchObject({
      kind: 'wrong',
      expected: '151',
      said: '150',
    });
    // "How many rows will p-77 have…?": p-77 is an id, "two"/"twice" a count.
    expect(mark('payment-resent-by-app', 'Two rows: p-77 written twice')).toMatchObject({
      kind: 'right',
      expected: '2',
    });
    expect(mark('payment-resent-by-app', 'one')).toMatchObject({ kind: 'wrong', said: '1' });
    expect(mark('poll-timeout-slow-batch', 'e1 ends with 2')).toMatchObject({ kind: 'right' });
    expect(mark('card-charge-idempotency', '$80')).toEqual({
      kind: 'right',
      expected: '$80',
      said: '$80',
    });
    expect(mark('card-charge-idempotency', '40 dollars')).toMatchObject({
      kind: 'wrong',
      expected: '$80',
      said: '$40',
    });
    expect(mark('retry-storm', '1,000')).toMatchObject({ kind: 'wrong', said: '1,000' });
    expect(mark('consume-transform-produce', 'committed 10, uncommitted 15')).toMatchObject({
      kind: 'right',
      expected: '10 and 15',
    });
    expect(mark('commit-after-process', '10 rows, sum 550')).toMatchObject({
      kind: 'wrong',
      expected: '10 and 950',
    });
    // Not whole: not marked.
    expect(mark('flink-commit-phase-crash', '-200')).toEqual({
      kind: 'unmarked',
      why: 'the question asks for one number (rows), in whole numbers, none below 0.',
    });
    expect(mark('flink-commit-phase-crash', 'all of them')).toEqual({
      kind: 'unmarked',
      why: 'the question asks for one number (rows); your prediction gives none.',
    });
  });

  it('the acks=0 question is a choice: right once, a wrong option carries its why not', () => {
    expect(mark('acks0-dropped-request', 'nine-silent')).toMatchObject({ kind: 'right' });
    expect(mark('acks0-dropped-request', 'ten-retry')).toMatchObject({
      kind: 'wrong',
      expected: '9 rows, and nothing reports an error',
      whyNot: expect.stringContaining('nothing times out'),
    });
    expect(markNote(q('acks0-dropped-request').mark)).toBeNull();
  });

  it('"which records?" is marked on the set of events named, ranges included', () => {
    // rebalance-midflight: e4, e5, e6 and e7.
    for (const said of ['e4, e5, e6 and e7', 'e4 to e7', 'e4..e7', 'e7, e6, e5, e4', 'e4-e7'])
      expect(mark('rebalance-midflight', said)).toEqual({
        kind: 'right',
        expected: 'e4, e5, e6 and e7',
        said: 'e4, e5, e6 and e7',
      });
    expect(mark('rebalance-midflight', 'e5–e7 only')).toEqual({
      kind: 'wrong',
      expected: 'e4, e5, e6 and e7',
      said: 'e5, e6 and e7',
    });
    expect(mark('rebalance-midflight', 'the rest of them')).toMatchObject({ kind: 'unmarked' });
  });

  it('the MERGE question is a choice; the number questions say how they are marked', () => {
    expect(mark('merge-duplicate-source', 'rolled-back')).toMatchObject({ kind: 'right' });
    expect(mark('merge-duplicate-source', 'last-wins')).toMatchObject({
      kind: 'wrong',
      whyNot: expect.stringContaining('cardinality violation'),
    });
    expect(markNote(q('lost-ack-retry').mark)).toBe(
      'Marked on 2 numbers: rows and sum, in that order.',
    );
    expect(markNote(q('at-least-once').mark)).toBeNull();
  });

  it("every preset's question: its marked values are in its answer; they mark right, one off marks wrong", () => {
    const kinds: Record<string, number> = {};
    for (const p of presets) {
      const m = p.predict.mark;
      kinds[m.kind] = (kinds[m.kind] ?? 0) + 1;
      if (m.kind === 'words' || m.kind === 'choice') continue;
      // In digits or, as "Two." is, in a word (read once the digits are taken out).
      const inAnswer = [
        ...(numbersIn(p.predict.answer) ?? []),
        ...(numbersIn(p.predict.answer.replace(/\d/g, '')) ?? []),
      ];
      if (m.kind === 'numbers') for (const v of m.values) expect(inAnswer, p.id).toContain(v.value);
      else for (const id of m.ids) expect(p.predict.answer, p.id).toContain(id);
      const values =
        m.kind === 'numbers'
          ? m.values.map((v) => `${v.prefix ?? ''}${v.value.toLocaleString('en-US')}`)
          : m.ids;
      const right = values.join(' and ');
      expect(markPrediction(right, m, p.predict.question).kind, p.id).toBe('right');
      const off =
        m.kind === 'numbers'
          ? m.values.map((v) => String(v.value + 1)).join(' and ')
          : m.ids.slice(1).join(', ');
      expect(markPrediction(off, m, p.predict.question).kind, p.id).toBe('wrong');
    }
    // 21 presets: two multiple-choice questions, one asking for events, the others for numbers.
    expect(kinds).toEqual({ numbers: 23, events: 1, choice: 2 });
  });

  it('numbersIn and eventsIn', () => {
    expect(numbersIn('p-77 twice, e201 and 1,250 rows')).toEqual([1250]);
    expect(numbersIn('twice')).toEqual([2]);
    expect(numbersIn('200.5')).toBeNull();
    expect(numbersIn('1e3')).toBeNull();
    expect(eventsIn('E4 through e6, and p-9')).toEqual(['e4', 'e5', 'e6', 'p9']);
  });
});

describe('Start here', () => {
  it('opens the first card of the library: the first group (guarantees), its first story, at its question', () => {
    // LIBRARY_GROUPS starts with 'guarantees'; presets list at-most-once first in it, with one
    // variant ('default'), which its question is about.
    expect(firstStoryRef()).toBe('at-most-once/default');
  });
});
