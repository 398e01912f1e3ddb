/**
 * The shipped lessons: each validates, has 8–12 steps, every step resolves to a scenario that
 * runs and meets its preset's hand-derived `expect`, and every question is answerable — the
 * library's rule (src/views/library/question.test.ts): the facts its answer needs are written in what the
 * room reads before answering.
 */
import { describe, expect, it } from 'vitest';
import { compareExpect, explore, parseScenario, simulate } from '../../engine';
import { challengeById } from '../challenges';
import { findPreset } from '../index';
import { findLesson, libraryLessons } from './catalog';
import { resolveStep } from './resolve';

describe('the shipped lessons', () => {
  it('are the two the issue names, each 8–12 steps', () => {
    expect(libraryLessons().map((l) => [l.title, l.steps.length])).toEqual([
      ['Delivery guarantees in 45 minutes', 11],
      ['Exactly-once in Flink and Spark', 11],
    ]);
    expect(findLesson('exactly-once-flink-spark')?.steps[0]?.preset).toBe(
      'flink-checkpoint-replay',
    );
  });

  it('one step asks a challenge after its reveal: the room’s next question, on the story it just saw', () => {
    // Delivery guarantees step 6, the idempotent producer: its reveal (the broker drops the retry)
    // asks "what does idempotence not cover?", and the challenge has the room find a duplicate
    // with idempotence left on. Before, no shipped lesson used `steps[].challenge`.
    const asked = libraryLessons().flatMap((l) =>
      l.steps.flatMap((s, k) => (s.challenge ? [[l.id, k + 1, s.challenge]] : [])),
    );
    expect(asked).toEqual([['delivery-guarantees-45', 6, 'duplicate-with-idempotence-on']]);
    const lesson = findLesson('delivery-guarantees-45')!;
    // The challenge starts from the step's own story (its faults removed, the students place one).
    expect(challengeById('duplicate-with-idempotence-on')!.start).toMatchObject({
      preset: resolveStep(lesson, 5).presetRef,
      withoutFaults: true,
    });
  });

  it('the closing question’s answer is the atlas’s: no single fault makes at-least-once lose a payment', () => {
    // "Which single fault breaks at-least-once?" had no answer among the faults; the step asks it
    // with "none" the right choice, and its answer cites the atlas's count — pinned here.
    const lesson = findLesson('delivery-guarantees-45')!;
    const k = lesson.steps.findIndex((s) => s.title.startsWith('One more fault'));
    expect(k).toBe(lesson.steps.length - 1);
    const r = resolveStep(lesson, k);
    const parsed = parseScenario(r.scenario);
    if (!parsed.ok) throw new Error('the step’s scenario is invalid');
    const atlas = explore(parsed.scenario);
    expect(atlas.placements.length).toBe(277);
    expect(atlas.trials.filter((t) => t.result.outcome !== 'held')).toEqual([]);
    expect(r.question.answer).toContain('all 277 placements of one more fault hold');
    const own = lesson.steps[k]!.question!;
    expect(own.mark.kind === 'choice' && own.mark.options.find((o) => o.right)?.id).toBe('none');
  }, 120_000);

  it('a step naming a bare preset id plays the variant its question is about, and asks it', () => {
    // "An aborted transaction, read anyway" names `aborted-transaction-dirty-read`, whose question
    // is about read_uncommitted (its second variant): the step played read_committed, its first,
    // and asked the question any run can be asked (four choices) instead of the preset's.
    const lesson = findLesson('exactly-once-flink-spark')!;
    const k = lesson.steps.findIndex((s) => s.title === 'An aborted transaction, read anyway');
    expect(lesson.steps[k]?.preset).toBe('aborted-transaction-dirty-read');
    const r = resolveStep(lesson, k);
    expect(r.presetRef).toBe('aborted-transaction-dirty-read/read-uncommitted');
    expect(r.question.choices).toBe(false);
    expect(r.question.text).toBe(
      findPreset('aborted-transaction-dirty-read')!.preset.predict.question,
    );
  });

  for (const lesson of libraryLessons())
    describe(lesson.title, () => {
      lesson.steps.forEach((step, k) =>
        it(`step ${k + 1} (${step.title}) runs and its question is answerable`, () => {
          const r = resolveStep(lesson, k);
          const parsed = parseScenario(r.scenario);
          expect(parsed.ok).toBe(true);
          if (!parsed.ok) return;
          const run = simulate(parsed.scenario);
          // Each step plays a preset as shipped: its outcome is the one pinned by hand there.
          expect(compareExpect(run, parsed.scenario.expect!)).toEqual([]);
          const own = step.question;
          const preset = findPreset(step.preset!)!.preset;
          const needs = own ? own.needs : r.question.choices ? [] : preset.predict.needs;
          // A question of its own or its preset's names at least two facts; the question any
          // run can be asked needs none (its four choices are judged against the verdict).
          if (!r.question.choices) expect(needs.length).toBeGreaterThanOrEqual(2);
          for (const fact of needs) expect(r.setup, fact).toContain(fact);
          expect(r.setup.length).toBeGreaterThan(0);
          // A number question of the lesson's own: its answer is the run's (rows at the sink).
          if (own?.mark.kind === 'numbers')
            expect(own.mark.values[0]!.value).toBe(
              run.verdict.points.find((p) => p.name === run.verdict.primary)!.totals.rows,
            );
        }),
      );
    });
});
