import { describe, expect, it } from 'vitest';
import { findPreset } from '../../scenarios';
import { createLab } from '../../store/labStore';
import { GENERIC_QUESTION } from '../../views/library/question';
import { inlineRunner } from '../testLab';
import { embedQuestion } from './embedQuestion';
import { EMBED_PREDICTION_KEY, embedSubject } from './embedSubject';

const none = { question: '', answer: '' };

describe('embedQuestion', () => {
  it("asks the author's question (q=, a=) whatever the scenario", () => {
    expect(
      embedQuestion({ question: 'How many rows?', answer: '24' }, 'flink-checkpoint-replay/upsert'),
    ).toEqual({ key: EMBED_PREDICTION_KEY, text: 'How many rows?', answer: '24', choices: false });
  });

  it("asks the preset's question on the variant it is about, with its answer", () => {
    const flink = findPreset('flink-checkpoint-replay')!.preset;
    for (const ref of ['flink-checkpoint-replay', 'flink-checkpoint-replay/plain-sink'])
      expect(embedQuestion(none, ref)).toEqual({
        key: EMBED_PREDICTION_KEY,
        text: flink.predict.question,
        answer: flink.predict.answer,
        choices: false,
        // Marked as on the page: 300 rows.
        mark: { kind: 'numbers', values: [{ value: 300, what: 'rows' }] },
      });
  });

  it("asks about the embedded variant's own run when the preset's question is about another", () => {
    // The plain-sink question ("With a plain JDBC sink, how many rows…?", answer 300) would teach
    // the wrong lesson under the XA variant's run (250 rows, exactly once).
    const q = embedQuestion(none, 'flink-checkpoint-replay/2pc-jdbc-xa');
    expect(q).toEqual({
      key: EMBED_PREDICTION_KEY,
      text: GENERIC_QUESTION,
      answer: '',
      choices: true,
    });
    // commit-after-process asks about its additive-upsert variant, not its first.
    expect(embedQuestion(none, 'commit-after-process/plain-insert').choices).toBe(true);
    expect(embedQuestion(none, 'commit-after-process/additive-upsert').choices).toBe(false);
  });

  it('asks the question any run can be asked without a preset (a share link)', () => {
    expect(embedQuestion(none, null)).toEqual({
      key: EMBED_PREDICTION_KEY,
      text: GENERIC_QUESTION,
      answer: '',
      choices: true,
    });
    expect(embedQuestion(none, 'no-such-preset').choices).toBe(true);
  });
});

describe('embedSubject', () => {
  it('is about the scenario as embedded: an edit ends it, Undo brings it back', () => {
    const scenario = structuredClone(findPreset('at-least-once')!.variant.scenario);
    const lab = createLab({ runner: inlineRunner, initial: scenario });
    const subject = embedSubject(lab.app.getState().scenario);
    expect(subject(lab.app.getState())).toEqual({
      key: EMBED_PREDICTION_KEY,
      otherVariant: false,
      pristine: true,
    });
    lab.actions.setSeed(7);
    expect(subject(lab.app.getState()).pristine).toBe(false);
    lab.actions.undo();
    expect(subject(lab.app.getState()).pristine).toBe(true);
  });
});
