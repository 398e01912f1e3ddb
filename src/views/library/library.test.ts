import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../../engine';
import { findPreset, LIBRARY_GROUPS, presets, setKnob } from '../../scenarios';
import {
  firstStoryRef,
  atRunEnd,
  fixParts,
  GUARANTEE_BADGES,
  isPristinePreset,
  pristinePresetRef,
  LIST_PAGE,
  libraryListing,
  listingSummary,
  SEARCH_SUGGESTIONS,
  moveActive,
  openPreset,
  outcomeFolded,
  outcomeHidden,
  predictionPhase,
  presetSubject,
  questionVariant,
  searchRank,
  sourceLabel,
  subjectPhase,
} from './library';
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

const ids = (q: string) => libraryListing(q, presets).flat.map((p) => p.id);

describe('libraryListing', () => {
  it('lists every preset, grouped in pipeline order with the foundation first', () => {
    const l = libraryListing('', presets);
    expect(l.total).toBe(presets.length);
    expect(l.matched).toBe(presets.length);
    // The default list is the streaming presets: every group but the batch jobs' (the page's
    // dialog lists labPresets, batch jobs last).
    expect(l.groups.map((g) => g.group.id)).toEqual(
      LIBRARY_GROUPS.filter((g) => g.id !== 'batch').map((g) => g.id),
    );
    expect(l.groups[0]!.presets.map((p) => p.id)).toEqual([
      'at-most-once',
      'at-least-once',
      'effectively-once',
    ]);
  });

  it('walks the cards in the order they are shown (group by group), not the registry order', () => {
    const l = libraryListing('', presets);
    expect(l.flat).toEqual(l.groups.flatMap((g) => g.presets));
    // The registry has flink-checkpoint-replay (4th library preset) before the broker and
    // consumer presets; shown by group it comes after them.
    const at = (id: string) => l.flat.findIndex((p) => p.id === id);
    expect(at('aborted-transaction-dirty-read')).toBeLessThan(at('flink-checkpoint-replay'));
    expect(at('retry-storm')).toBeLessThan(at('aborted-transaction-dirty-read'));
    expect(new Set(l.flat.map((p) => p.id)).size).toBe(presets.length);
  });

  it('filters by every word, case-insensitively, and leaves empty groups out', () => {
    expect(ids('spark')).toEqual([
      'spark-batch-replay',
      'spark-watermark-dedupe',
      'spark-checkpoint-reset-txnappid',
      'raw-clean-layer',
    ]);
    expect(ids('FLINK checkpoint')).toEqual([
      'flink-checkpoint-replay',
      'flink-commit-phase-crash',
    ]);
    // p-77 is in its own preset and in the card-charge story.
    expect(ids('p-77')).toEqual(['payment-resent-by-app', 'card-charge-idempotency']);
    expect(libraryListing('p-77', presets).groups.map((g) => g.group.id)).toEqual([
      'producer',
      'side effect',
    ]);
    // Variant labels and source titles count: Stripe is only in a source title.
    expect(ids('stripe')).toEqual(['card-charge-idempotency']);
    expect(ids('  spark  ')).toEqual(ids('spark'));
  });

  it('ranks the best match first: title/card line before story, adjacent before scattered', () => {
    // "replayed batch" is the title of commit-after-process; commit-before-process only has
    // both words in its story. Enter opens the first card: it must be the title match.
    expect(ids('replayed batch')[0]).toBe('commit-after-process');
    const rank = (id: string, q: string) => searchRank(findPreset(id)!.preset, q);
    expect(rank('commit-after-process', 'replayed batch')).toMatchObject({ place: 0 });
    expect(rank('commit-after-process', 'batch replayed').place).toBe(1);
    expect(rank('commit-before-process', 'replayed batch').place).toBeGreaterThanOrEqual(4);
    // Groups follow their best card; without a query, pipeline order stays.
    const l = libraryListing('replayed batch', presets);
    expect(l.flat).toEqual(l.groups.flatMap((g) => g.presets));
    expect(l.groups[0]!.group.id).toBe('consumer');
    expect(ids('restores a checkpoint')[0]).toBe('flink-checkpoint-replay');
    expect(ids('effectively-once')[0]).toBe('effectively-once');
  });

  it('finds nothing for a word no preset has', () => {
    const l = libraryListing('xyzzy', presets);
    expect([l.matched, l.groups.length, l.flat.length, l.total]).toEqual([0, 0, 0, presets.length]);
  });
});

describe('moveActive', () => {
  it('moves by one, stops at the ends, jumps with Home/End and by a page', () => {
    expect(moveActive(0, 5, 'ArrowDown')).toBe(1);
    expect(moveActive(4, 5, 'ArrowDown')).toBe(4);
    expect(moveActive(0, 5, 'ArrowUp')).toBe(0);
    expect(moveActive(3, 5, 'Home')).toBe(0);
    expect(moveActive(1, 5, 'End')).toBe(4);
    expect(moveActive(0, 20, 'PageDown')).toBe(LIST_PAGE);
    expect(moveActive(18, 20, 'PageDown')).toBe(19);
    expect(moveActive(2, 20, 'PageUp')).toBe(0);
  });

  it('enters an inactive list at the start (↓) or the end (↑), and is -1 for an empty one', () => {
    expect(moveActive(-1, 5, 'ArrowDown')).toBe(0);
    expect(moveActive(-1, 5, 'ArrowUp')).toBe(4);
    expect(moveActive(9, 5, 'ArrowDown')).toBe(0);
    expect(moveActive(0, 0, 'ArrowDown')).toBe(-1);
  });
});

describe('guarantee badges', () => {
  it('give every guarantee a distinct symbol and its name (never colour alone)', () => {
    const all = Object.values(GUARANTEE_BADGES);
    expect(new Set(all.map((b) => b.symbol)).size).toBe(all.length);
    for (const p of presets) {
      const b = GUARANTEE_BADGES[p.illustrates];
      expect(b.label.length).toBeGreaterThan(0);
      expect(b.symbol.length).toBeGreaterThan(0);
    }
  });
});

describe('openPreset', () => {
  it('resolves a ref to its preset and variant, and null for none or an unknown id', () => {
    expect(openPreset('payment-resent-by-app/on-conflict-do-nothing')?.variant.id).toBe(
      'on-conflict-do-nothing',
    );
    expect(openPreset('payment-resent-by-app')?.ref).toBe('payment-resent-by-app/plain-insert');
    expect(openPreset(null)).toBeNull();
    expect(openPreset('no-such-preset/x')).toBeNull();
  });
});

describe('isPristinePreset', () => {
  const ref = 'payment-resent-by-app/plain-insert';
  const shipped = () => structuredClone(findPreset(ref)!.variant.scenario);

  it('is true for the variant as loaded (a clone) and after a JSON round trip (storage)', () => {
    expect(isPristinePreset(shipped(), ref)).toBe(true);
    expect(isPristinePreset(JSON.parse(JSON.stringify(shipped())) as ScenarioInput, ref)).toBe(
      true,
    );
  });

  it('is false after any edit, for another variant, without a ref and for an unknown ref', () => {
    const s = shipped();
    expect(isPristinePreset(setKnob(s, 'sink.statement', 'on-conflict-do-nothing'), ref)).toBe(
      false,
    );
    expect(isPristinePreset({ ...s, seed: 7 }, ref)).toBe(false);
    expect(isPristinePreset({ ...s, faults: [] }, ref)).toBe(false);
    expect(isPristinePreset(s, 'payment-resent-by-app/dedupe-table')).toBe(false);
    expect(isPristinePreset(s, null)).toBe(false);
    expect(isPristinePreset(s, 'nope/nope')).toBe(false);
  });

  it('is true after a knob is set to another value and back: the same run, written differently', () => {
    // The variant leaves acks unset (Kafka's default, all); the Knobs tab writes "1", then "all".
    const s = shipped();
    const there = setKnob(s, 'producer.acks', '1');
    const back = setKnob(there, 'producer.acks', 'all');
    expect(JSON.stringify(back)).not.toBe(JSON.stringify(s));
    expect(isPristinePreset(there, ref)).toBe(false);
    expect(isPristinePreset(back, ref)).toBe(true);
    // A share link of it opens as the preset (its story and its question).
    expect(pristinePresetRef(back)).toBe(ref);
    expect(pristinePresetRef(there)).toBeNull();
  });

  it('is true without the expect block (a link shared while the answer was hidden), not with another', () => {
    const { expect: answer, ...bare } = shipped();
    expect(answer).toBeDefined();
    expect(isPristinePreset(bare, ref)).toBe(true);
    expect(pristinePresetRef(bare)).toBe(ref);
    const other = { ...bare, expect: { totals: { rows: 1 } } };
    expect(isPristinePreset(other, ref)).toBe(false);
    expect(pristinePresetRef(other)).toBeNull();
    expect(pristinePresetRef({ ...bare, seed: 99 })).toBeNull();
  });

  it('answers per (scenario, ref): the cache does not carry one ref’s answer to another', () => {
    const s = shipped();
    expect(isPristinePreset(s, ref)).toBe(true);
    expect(isPristinePreset(s, null)).toBe(false);
    expect(isPristinePreset(s, ref)).toBe(true);
  });
});

describe('atRunEnd', () => {
  const run = { n: 74, endTime: 5038 };
  it('is true only at the last entry and the end time of the current run', () => {
    expect(atRunEnd({ current: true, idx: 74, t: 5038, ...run })).toBe(true);
    expect(atRunEnd({ current: true, idx: 73, t: 5038, ...run })).toBe(false);
    expect(atRunEnd({ current: true, idx: 74, t: 5000, ...run })).toBe(false);
    // The previous scenario's run, still on screen while the new one is simulated.
    expect(atRunEnd({ current: false, idx: 74, t: 5038, ...run })).toBe(false);
  });
});

describe('questionVariant', () => {
  it('is the variant predict.variant names, else the first variant', () => {
    expect(questionVariant(findPreset('commit-after-process')!.preset)).toBe('additive-upsert');
    expect(questionVariant(findPreset('lost-ack-retry')!.preset)).toBe('idempotence-off');
  });
});

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
    // Revealed without an answer ("Reveal now", "Show the answer").
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

describe('fixParts', () => {
  it('drops the leading "Try:" and links "the <id> variant" to the variant it names', () => {
    const p = findPreset('flink-checkpoint-replay')!.preset;
    const parts = fixParts(p);
    expect(parts[0]).toEqual({
      kind: 'variant',
      text: 'the 2pc-read-committed variant',
      variant: '2pc-read-committed',
    });
    expect(parts.map((x) => x.text).join('')).toBe(p.fix.replace(/^Try: /, ''));
  });

  it('accepts the unambiguous start of an id ("the on-conflict variant")', () => {
    const parts = fixParts(findPreset('payment-resent-by-app')!.preset);
    expect(parts.filter((x) => x.kind === 'variant')).toEqual([
      { kind: 'variant', text: 'the on-conflict variant', variant: 'on-conflict-do-nothing' },
    ]);
  });

  it('keeps an unknown or ambiguous name as text, and makes `backticks` code', () => {
    const variants = [
      { id: 'merge-a', label: '', summary: '', scenario: {} as ScenarioInput },
      { id: 'merge-b', label: '', summary: '', scenario: {} as ScenarioInput },
    ];
    expect(fixParts({ fix: 'Try: the merge variant or the nope variant', variants })).toEqual([
      { kind: 'text', text: 'the merge variant or the nope variant' },
    ]);
    expect(fixParts({ fix: 'read `out` again', variants })).toEqual([
      { kind: 'text', text: 'read ' },
      { kind: 'code', text: 'out' },
      { kind: 'text', text: ' again' },
    ]);
  });

  it('every variant a preset’s fix names exists', () => {
    for (const p of presets)
      for (const part of fixParts(p))
        if (part.kind === 'variant') expect(p.variants.map((v) => v.id)).toContain(part.variant);
  });
});

describe('sourceLabel', () => {
  it('uses the library’s title for a known source, else host and path', () => {
    expect(sourceLabel('https://docs.stripe.com/idempotency')).toBe('Stripe: idempotency');
    expect(sourceLabel('https://example.org/a/b#c')).toBe('example.org/a/b#c');
    expect(sourceLabel('not a url')).toBe('not a url');
  });

  it('gives every preset source a readable label', () => {
    for (const p of presets) for (const u of p.sources) expect(sourceLabel(u)).not.toBe('');
  });
});

describe('listingSummary and SEARCH_SUGGESTIONS', () => {
  it('says how many match and what Enter does, without "0 … the first"', () => {
    expect(listingSummary({ matched: 19, total: 19 }, ' ')).toBe(
      '19 presets · ↓ to the cards, Enter opens',
    );
    expect(listingSummary({ matched: 0, total: 19 }, 'kinesis')).toBe('no match among 19');
    expect(listingSummary({ matched: 1, total: 19 }, 'spark')).toBe(
      '1 of 19 matches · Enter opens it',
    );
    expect(listingSummary({ matched: 3, total: 19 }, 'flink')).toBe(
      '3 of 19 match · Enter opens the first',
    );
  });

  it('suggests only words that find presets', () => {
    for (const w of SEARCH_SUGGESTIONS)
      expect(libraryListing(w, presets).matched).toBeGreaterThan(1);
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
      why: 'the question asks for one number (rows), in whole numbers.',
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
