/**
 * The one question model: every preset's question can be answered from its setup, every choice
 * question has exactly one right option, and numbers are read with their units and tolerance.
 */
import { describe, expect, it } from 'vitest';
import { findPreset, presets, type PredictMark } from '../../scenarios';
import {
  authorQuestion,
  eventsIn,
  GENERIC_QUESTION,
  markPrediction,
  predictionProblem,
  presetQuestion,
  saidNumbers,
} from './question';

const q = (id: string) => findPreset(id)!.preset.predict;
const mark = (id: string, said: string) => markPrediction(said, q(id).mark, q(id).question);

describe('every preset’s question is answerable from its setup and the question', () => {
  it('names the facts its answer depends on, and each is written in the setup', () => {
    for (const p of presets) {
      // The rule, per preset: `predict.needs` (the numbers with their words, the knobs).
      expect(p.predict.needs.length, p.id).toBeGreaterThanOrEqual(2);
      for (const fact of p.predict.needs) expect(p.setup, `${p.id}: ${fact}`).toContain(fact);
    }
  });

  it('every event its answer names is named in the setup or the question (ranges read out)', () => {
    for (const p of presets) {
      const shown = new Set([...eventsIn(p.setup), ...eventsIn(p.predict.question)]);
      for (const id of eventsIn(p.predict.answer.replace(/p-\d+/g, ' ')))
        expect(shown.has(id), `${p.id}: ${id}`).toBe(true);
    }
  });

  it('the cases the issue names: the Spark crash and batches, the zombie’s e1, the charge', () => {
    const spark = findPreset('spark-batch-replay')!.preset;
    expect(spark.predict.question).toContain('crashes');
    expect(spark.setup).toContain('10 records per micro-batch');
    expect(findPreset('zombie-consumer')!.preset.setup).toContain('has written e1');
    expect(findPreset('card-charge-idempotency')!.preset.setup).toContain('$40');
  });
});

describe('multiple choice', () => {
  const choices = presets.flatMap((p) =>
    p.predict.mark.kind === 'choice' ? [{ id: p.id, mark: p.predict.mark }] : [],
  );

  it('3–4 options, exactly one right, every wrong one a misconception with its why not', () => {
    expect(choices.map((c) => c.id).sort()).toEqual([
      'acks0-dropped-request',
      'merge-duplicate-source',
    ]);
    for (const { id, mark: m } of choices) {
      expect(m.options.length, id).toBeGreaterThanOrEqual(3);
      expect(m.options.length, id).toBeLessThanOrEqual(4);
      expect(m.options.filter((o) => o.right).length, id).toBe(1);
      expect(new Set(m.options.map((o) => o.id)).size, id).toBe(m.options.length);
      for (const o of m.options.filter((o) => !o.right)) expect(o.whyNot, o.id).toBeTruthy();
    }
  });

  it('is marked by the option chosen (its id or its text), nothing chosen is not locked in', () => {
    expect(mark('merge-duplicate-source', 'rolled-back')).toMatchObject({ kind: 'right' });
    expect(
      mark('merge-duplicate-source', '{o1: 120, o2: 50}: the second update of o1 is skipped'),
    ).toMatchObject({ kind: 'wrong', whyNot: expect.stringContaining('fails the whole') });
    expect(predictionProblem('', q('merge-duplicate-source').mark)).toBe('No option is chosen.');
  });
});

describe('numbers with their unit and tolerance', () => {
  it('"$80" and "2 charges" are both right for the card charged twice ($40, p-77)', () => {
    // $40 charged twice: $80, or 2 charges — the same answer in two units.
    expect(mark('card-charge-idempotency', '$80')).toMatchObject({ kind: 'right' });
    expect(mark('card-charge-idempotency', '80 dollars')).toMatchObject({ kind: 'right' });
    expect(mark('card-charge-idempotency', '2 charges')).toMatchObject({
      kind: 'right',
      said: '2 charges',
    });
    expect(mark('card-charge-idempotency', 'charged twice')).toMatchObject({ kind: 'right' });
    expect(mark('card-charge-idempotency', '1 charge')).toMatchObject({ kind: 'wrong' });
    // A dollar amount of 2 is not two charges.
    expect(mark('card-charge-idempotency', '$2')).toMatchObject({ kind: 'wrong', said: '$2' });
    expect(mark('card-charge-idempotency', '$40')).toMatchObject({ kind: 'wrong', said: '$40' });
  });

  it('a sum written out is read at its result: "10 + 5 = 15"', () => {
    // zombie-consumer: the replacement's e1..e10, the zombie's e1 (before its pause) and e2..e5.
    expect(mark('zombie-consumer', '10 + 5 = 15')).toMatchObject({ kind: 'right', said: '15' });
    expect(mark('zombie-consumer', '10 + 4 = 14')).toMatchObject({ kind: 'wrong', said: '14' });
    expect(saidNumbers('10 + 5 = 15 rows')).toEqual([{ value: 15, unit: 'rows' }]);
  });

  it('"twice" for a two-number question is not locked in: it says what is missing', () => {
    expect(predictionProblem('twice', q('lost-ack-retry').mark, q('lost-ack-retry').question)).toBe(
      'The question asks for 2 numbers (rows and sum); your prediction gives 1.',
    );
    expect(predictionProblem('11 rows, sum 580', q('lost-ack-retry').mark)).toBeNull();
    // A wrong answer is an answer: it locks in.
    expect(predictionProblem('10 and 550', q('lost-ack-retry').mark)).toBeNull();
  });

  it('a tolerance accepts what is near enough, and no further', () => {
    const about: PredictMark = {
      kind: 'numbers',
      values: [{ value: 100, what: 'ms', units: ['ms'], tolerance: 5 }],
    };
    expect(markPrediction('about 104 ms', about).kind).toBe('right');
    expect(markPrediction('95', about).kind).toBe('right');
    expect(markPrediction('106 ms', about).kind).toBe('wrong');
  });
});

describe('one model for the page, the embed and a share link', () => {
  it('a preset’s question is built once, the generic one when no question is written', () => {
    const p = findPreset('lost-ack-retry')!.preset;
    expect(presetQuestion('k', p)).toEqual({
      key: 'k',
      text: p.predict.question,
      answer: p.predict.answer,
      choices: false,
      mark: p.predict.mark,
    });
    expect(authorQuestion('k', '', 'ignored')).toEqual({
      key: 'k',
      text: GENERIC_QUESTION,
      answer: '',
      choices: true,
    });
    expect(authorQuestion('k', 'How many?', '24')).toEqual({
      key: 'k',
      text: 'How many?',
      answer: '24',
      choices: false,
    });
  });
});
