import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../../engine';
import { findPreset } from '../../scenarios';
import { GENERIC_QUESTION } from '../library/question';
import { linkedQuestion } from './linkedQuestion';
import {
  decodeSharePrediction,
  sharePredictionUnreadable,
  defaultPredictionChoice,
  encodeSharePrediction,
  linkApplies,
  linkedSubject,
  ownPresetQuestion,
  sharePredictionFor,
  type LinkedPrediction,
} from './sharePrediction';

/**
 * A pinned `p` value. `echo -n '{"q":"How many rows?","a":"24 — p-4 twice"}' | base64` with
 * `+/` → `-_` and no `=` (RFC 4648 §5). If it changes, links already shared would no longer ask
 * their question.
 */
const PINNED = 'p=1.eyJxIjoiSG93IG1hbnkgcm93cz8iLCJhIjoiMjQg4oCUIHAtNCB0d2ljZSJ9';

describe('a share link’s prediction (the hash parameter p)', () => {
  it('encodes a question and its answer as base64url JSON, pinned, and reads it back', () => {
    const p = { ask: true as const, question: 'How many rows?', answer: '24 — p-4 twice' };
    expect(encodeSharePrediction(p)).toBe(PINNED);
    expect(decodeSharePrediction(`#s=2.abc&${PINNED}`)).toEqual(p);
    expect(decodeSharePrediction(PINNED)).toEqual(p);
  });

  it('p=0 asks nothing; no p, or one this build cannot read, is null (the scenario still opens)', () => {
    expect(encodeSharePrediction({ ask: false })).toBe('p=0');
    expect(decodeSharePrediction('#s=2.abc&p=0')).toEqual({ ask: false });
    expect(decodeSharePrediction('#s=2.abc')).toBeNull();
    expect(decodeSharePrediction('#s=2.abc&p=2.eyJ9')).toBeNull(); // unknown version
    expect(decodeSharePrediction('#p=1.!!')).toBeNull(); // not base64url
    expect(decodeSharePrediction('#p=1.bm90IGpzb24')).toBeNull(); // "not json"
    expect(decodeSharePrediction('#p=1.WzFd')).toBeNull(); // [1]: not an object
    expect(decodeSharePrediction(`#p=1.${'A'.repeat(16_001)}`)).toBeNull(); // too long
  });

  it('a p this build cannot read is told apart from none: the page says so', () => {
    for (const hash of ['#s=2.abc&p=1.garbage!', '#s=2.abc&p=2.eyJ9', '#s=2.abc&p=', '#p=1.WzFd'])
      expect(sharePredictionUnreadable(hash)).toBe(true);
    for (const hash of ['#s=2.abc', '#s=2.abc&p=0', `#s=2.abc&${PINNED}`, ''])
      expect(sharePredictionUnreadable(hash)).toBe(false);
  });

  it('text is data: cut to 600 characters, control characters become spaces, missing fields empty', () => {
    const long = encodeSharePrediction({ ask: true, question: 'q'.repeat(700), answer: 'a\nb' });
    expect(decodeSharePrediction(long)).toEqual({
      ask: true,
      question: 'q'.repeat(600),
      answer: 'a b',
    });
    // {"q":3} (base64url eyJxIjozfQ): a number is no text.
    expect(decodeSharePrediction('p=1.eyJxIjozfQ')).toEqual({
      ask: true,
      question: '',
      answer: '',
    });
  });
});

describe('what the Share popover’s choice puts in the link', () => {
  const own = { question: 'How many rows?', answer: '24' };

  it('a preset as shipped asking its own question: nothing (its answer stays out); unticked: p=0; changed: the author’s', () => {
    expect(sharePredictionFor({ ask: true, ...own }, own)).toBeNull();
    expect(
      sharePredictionFor({ ask: true, question: ' How many rows? ', answer: '24 ' }, own),
    ).toBeNull();
    expect(sharePredictionFor({ ask: false, ...own }, own)).toEqual({ ask: false });
    expect(sharePredictionFor({ ask: true, question: 'How many lost?', answer: '0' }, own)).toEqual(
      {
        ask: true,
        question: 'How many lost?',
        answer: '0',
      },
    );
  });

  it('an edited scenario (no question of its own): ticked carries the question and answer, unticked nothing', () => {
    expect(
      sharePredictionFor({ ask: true, question: 'How many rows?', answer: '25' }, null),
    ).toEqual({ ask: true, question: 'How many rows?', answer: '25' });
    // No question written: the generic multiple-choice question is asked.
    expect(sharePredictionFor({ ask: true, question: '', answer: '' }, null)).toEqual({
      ask: true,
      question: '',
      answer: '',
    });
    expect(sharePredictionFor({ ask: false, question: 'x', answer: 'y' }, null)).toBeNull();
  });

  it('the popover starts as the Embed dialog does: a preset as shipped ticked with its question, else unticked', () => {
    const shipped = findPreset('at-least-once/default')!;
    const scenario = structuredClone(shipped.variant.scenario);
    const q = ownPresetQuestion(scenario, 'at-least-once/default');
    expect(q).toEqual({
      question: 'How many rows does the table end with?',
      answer:
        '24: p-4 twice (the producer retry) and p-5..p-7 twice (written, not committed, replayed after the crash).',
    });
    expect(defaultPredictionChoice(q)).toEqual({ ask: true, ...q! });
    // Edited (a seed changed): its answer describes another run.
    expect(ownPresetQuestion({ ...scenario, seed: 99 }, 'at-least-once/default')).toBeNull();
    // Another variant than the one the question is about (flink's is about plain-sink).
    const upsert = findPreset('flink-checkpoint-replay/upsert')!.variant.scenario;
    expect(ownPresetQuestion(structuredClone(upsert), 'flink-checkpoint-replay/upsert')).toBeNull();
    expect(ownPresetQuestion(scenario, null)).toBeNull();
    expect(defaultPredictionChoice(null)).toEqual({ ask: false, question: '', answer: '' });
  });
});

describe('the question the page asks once a link asked one', () => {
  const shipped = structuredClone(findPreset('at-least-once/default')!.variant.scenario);
  const linked = { ...shipped, name: 'edited', seed: 5 } as ScenarioInput;
  const link = (prediction: LinkedPrediction['prediction'], presetRef: string | null = null) => ({
    key: 'link-1',
    scenario: linked,
    presetRef,
    prediction,
  });
  const asks = link({ ask: true, question: 'How many rows?', answer: '25' });

  it('on the scenario the link opened: the link’s question, pristine', () => {
    const s = { scenario: linked, presetRef: null, past: [] };
    expect(linkApplies(asks, s)).toBe(true);
    expect(linkedSubject(asks, s)).toEqual({ key: 'link-1', otherVariant: false, pristine: true });
  });

  it('after an edit of it (the link’s scenario in the undo history): the same question, edited', () => {
    const edit = { ...linked, seed: 6 };
    const s = {
      scenario: edit,
      presetRef: null,
      past: [{ scenario: shipped }, { scenario: linked }],
    };
    expect(linkedSubject(asks, s)).toEqual({ key: 'link-1', otherVariant: false, pristine: false });
  });

  it('a preset opened since, or an undo back to before the link: the preset’s question, not the link’s', () => {
    const preset = {
      scenario: shipped,
      presetRef: 'at-least-once/default',
      past: [{ scenario: linked }],
    };
    expect(linkApplies(asks, preset)).toBe(false);
    expect(linkedSubject(asks, preset)).toEqual({
      key: 'at-least-once',
      otherVariant: false,
      pristine: true,
    });
    const before = { scenario: { ...shipped, name: 'mine' }, presetRef: null, past: [] };
    expect(linkedSubject(asks, before)).toBeNull();
  });

  it('p=0 on a preset as shipped: nothing asked while the link applies (not even the preset’s question)', () => {
    const none = { ...link({ ask: false }, 'at-least-once/default'), scenario: shipped };
    const s = { scenario: shipped, presetRef: 'at-least-once/default', past: [] };
    expect(linkedSubject(none, s)).toBeNull();
    expect(linkedSubject(null, s)).toEqual({
      key: 'at-least-once',
      otherVariant: false,
      pristine: true,
    });
    expect(linkedQuestion(none)).toBeNull();
  });

  it('asks the author’s question, or the generic multiple-choice one when none was written', () => {
    expect(linkedQuestion(asks)).toEqual({
      key: 'link-1',
      text: 'How many rows?',
      answer: '25',
      choices: false,
    });
    expect(linkedQuestion(link({ ask: true, question: '', answer: 'ignored' }))).toEqual({
      key: 'link-1',
      text: GENERIC_QUESTION,
      answer: '',
      choices: true,
    });
  });
});
