/**
 * The library's model: listing and search, keyboard moves, badges, opening a preset, whether a
 * scenario is still the preset as shipped, and the texts the cards show. The question's phases:
 * predictionPhase.test.ts; marking an answer: predictionMarking.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../../engine';
import { findPreset, LIBRARY_GROUPS, presets, setKnob, sourceTitle } from '../../scenarios';
import {
  atRunEnd,
  isPristinePreset,
  openPreset,
  pristinePresetRef,
  questionVariant,
} from './library';
import {
  fixParts,
  libraryListing,
  LIST_PAGE,
  listingSummary,
  moveActive,
  SEARCH_SUGGESTIONS,
  searchRank,
  sourceLabel,
} from './libraryListing';
import { GUARANTEE_BADGES } from './guaranteeBadges';

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

  it('reads EOS as exactly-once (Kafka’s abbreviation), as it reads the word', () => {
    // It found nothing: no preset's text spells "eos".
    expect(ids('EOS').length).toBeGreaterThan(0);
    expect(ids('EOS')).toEqual(ids('exactly-once'));
    expect(ids('eos flink')).toEqual(ids('exactly-once flink'));
    expect(ids('alos')).toEqual(ids('at-least-once'));
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

  it('names a Kafka config anchor by its page and its key, not by its address', () => {
    // The three first stories cite enable.idempotence's own anchor: it read
    // "kafka.apache.org/documentation/#producerconfigs_enable.idempotence" among titled links.
    expect(
      sourceLabel('https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence'),
    ).toBe('Kafka producer configs: enable.idempotence');
    expect(
      sourceLabel('https://kafka.apache.org/documentation/#consumerconfigs_isolation.level'),
    ).toBe('Kafka consumer configs: isolation.level');
    // A page of its own keeps its own title.
    expect(
      sourceLabel(
        'https://kafka.apache.org/documentation/#brokerconfigs_transaction.max.timeout.ms',
      ),
    ).toBe('Kafka broker configs: transaction.max.timeout.ms');
    const untitled = presets.flatMap((p) =>
      p.sources.filter((u) => sourceTitle(u) === undefined).map((u) => `${p.id}: ${u}`),
    );
    expect(untitled).toEqual([]);
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
