/**
 * When the library's question is asked and when the outcome shows: the prediction phases of a
 * preset or any subject, and the final outcome never standing at t = 0 of a run it asks about.
 */
import { describe, expect, it } from 'vitest';
import { findPreset, presets, setKnob } from '../../scenarios';
import {
  openPreset,
  outcomeFolded,
  outcomeHidden,
  predictionPhase,
  presetSubject,
  subjectPhase,
} from './library';

describe('predictionPhase and outcomeHidden', () => {
  const open = (ref: string) => openPreset(ref);
  const fresh = { pristine: true, locked: false, revealed: false };
  it("asks only about the question's variant as shipped, and hides the outcome until the reveal", () => {
    const asked = open('lost-ack-retry/idempotence-off');
    expect(predictionPhase({ open: null, ...fresh })).toBe('none');
    expect(predictionPhase({ open: asked, ...fresh })).toBe('pending');
    expect(predictionPhase({ open: asked, ...fresh, locked: true })).toBe('locked');
    expect(predictionPhase({ open: asked, ...fresh, locked: true, revealed: true })).toBe(
      'revealed',
    );
    // Revealed without an answer ("Show the answer", in the box or the verdict).
    expect(predictionPhase({ open: asked, ...fresh, revealed: true })).toBe('revealed');
    // Edited since it was opened: the answer describes the preset as shipped, and the changed
    // run's outcome waits for its end (answered or not); played to its end, it shows.
    expect(predictionPhase({ open: asked, ...fresh, pristine: false })).toBe('edited-waiting');
    expect(predictionPhase({ open: asked, ...fresh, pristine: false, locked: true })).toBe(
      'edited-waiting',
    );
    expect(predictionPhase({ open: asked, ...fresh, pristine: false, endSeen: true })).toBe(
      'edited',
    );
    expect(
      predictionPhase({ open: asked, ...fresh, pristine: false, locked: true, endSeen: true }),
    ).toBe('edited');
    // The end of a changed run says nothing about the run as opened.
    expect(predictionPhase({ open: asked, ...fresh, endSeen: true })).toBe('pending');
    // A reveal stays after an edit.
    expect(predictionPhase({ open: asked, ...fresh, pristine: false, revealed: true })).toBe(
      'revealed',
    );
    // The question is about another variant: not asked here, whatever the prediction's state.
    const other = open('lost-ack-retry/idempotence-on');
    expect(predictionPhase({ open: other, ...fresh })).toBe('other-variant');
    expect(predictionPhase({ open: other, ...fresh, revealed: true })).toBe('other-variant');
    // commit-after-process asks about its third variant, not its first.
    expect(predictionPhase({ open: open('commit-after-process/plain-insert'), ...fresh })).toBe(
      'other-variant',
    );
    expect(predictionPhase({ open: open('commit-after-process/additive-upsert'), ...fresh })).toBe(
      'pending',
    );
  });

  it('hides the outcome while pending or locked, or edited until the changed run ends; never otherwise', () => {
    expect(outcomeHidden('pending')).toBe(true);
    expect(outcomeHidden('locked')).toBe(true);
    expect(outcomeHidden('edited-waiting')).toBe(true);
    expect(outcomeHidden('revealed')).toBe(false);
    expect(outcomeHidden('edited')).toBe(false);
    expect(outcomeHidden('other-variant')).toBe(false);
    expect(outcomeHidden('none')).toBe(false);
  });
});

describe('the outcome in its time, on every variant of every preset', () => {
  // Issue 24, item 2: the final verdict (and the "why", the final fates) must never stand at t = 0
  // of a run opened from the library — hidden while the question waits, folded until the end of
  // the run otherwise. payment-resent-by-app/merge-per-batch-unique-key (no question of its own,
  // a run cut off at 20 s) showed its final "broken" verdict at t = 0 before `outcomeFolded`
  // covered the variants a question is not about.
  const states = [
    { locked: false, revealed: false },
    { locked: true, revealed: false },
    { locked: false, revealed: true },
    { locked: true, revealed: true },
  ];
  const refs = presets.flatMap((p) => p.variants.map((v) => `${p.id}/${v.id}`));
  it.each(refs)('%s opens with its final outcome not yet shown', (ref) => {
    const scenario = structuredClone(findPreset(ref)!.variant.scenario);
    const subject = presetSubject({ scenario, presetRef: ref });
    expect(subject).not.toBeNull();
    for (const state of states) {
      const phase = subjectPhase(subject, { ...state, endSeen: false });
      expect(outcomeHidden(phase) || outcomeFolded(phase, false), `${phase}`).toBe(true);
      // Played to its end (or "Reveal now"): shown, unless the question still waits for its answer.
      const atEnd = subjectPhase(subject, { ...state, endSeen: true });
      expect(outcomeFolded(atEnd, true)).toBe(false);
    }
  });
  it('covers the variant that leaked', () => {
    expect(refs).toContain('payment-resent-by-app/merge-per-batch-unique-key');
  });
  it('a shared or imported run that asks nothing folds until its end; an edit of it does not', () => {
    // phase 'none' (no question): folded only as a replay (LabState.replay), until the end.
    expect(outcomeFolded('none', false, true)).toBe(true);
    expect(outcomeFolded('none', true, true)).toBe(false);
    expect(outcomeFolded('none', false, false)).toBe(false);
  });
});

describe('subjectPhase and presetSubject', () => {
  const fresh = { locked: false, revealed: false };
  it('gives any subject the phases a preset gets (an embedded player asks its own question)', () => {
    const embed = { key: 'embed', otherVariant: false, pristine: true };
    expect(subjectPhase(null, fresh)).toBe('none');
    expect(subjectPhase(embed, fresh)).toBe('pending');
    expect(subjectPhase(embed, { ...fresh, locked: true })).toBe('locked');
    expect(subjectPhase(embed, { locked: true, revealed: true })).toBe('revealed');
    expect(subjectPhase({ ...embed, pristine: false }, { ...fresh, locked: true })).toBe(
      'edited-waiting',
    );
    expect(subjectPhase({ ...embed, pristine: false }, { ...fresh, endSeen: true })).toBe('edited');
    expect(subjectPhase({ ...embed, otherVariant: true }, fresh)).toBe('other-variant');
  });

  it("is the open preset's question, kept per preset, and says when it is about another variant", () => {
    const ref = 'flink-checkpoint-replay/2pc-jdbc-xa';
    const xa = structuredClone(findPreset(ref)!.variant.scenario);
    expect(presetSubject({ scenario: xa, presetRef: ref })).toEqual({
      key: 'flink-checkpoint-replay',
      otherVariant: true,
      pristine: true,
    });
    const plain = structuredClone(
      findPreset('flink-checkpoint-replay/plain-sink')!.variant.scenario,
    );
    expect(
      presetSubject({ scenario: setKnob(plain, 'seed', 9), presetRef: 'flink-checkpoint-replay' }),
    ).toEqual({ key: 'flink-checkpoint-replay', otherVariant: false, pristine: false });
    expect(presetSubject({ scenario: plain, presetRef: null })).toBeNull();
  });
});
