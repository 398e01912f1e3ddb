/**
 * The fault atlas's choice in the page's state and its share link (`a=`): the kinds ticked and
 * "Pairs too" go out and come back the same; a bad value is refused naming its field.
 */
import { describe, expect, it } from 'vitest';
import { toBase64Url } from '../io/shareParam';
import { isDefaultChoice, unexplored, withKind, withPairs, type AtlasChoice } from './atlasChoice';
import { decodeAtlas, decodeAtlasValue, encodeAtlas, withAtlasParam } from './atlasLink';
import { decodeCompareValue, encodeCompare } from '../compare/compareLink';
import { ATLAS_KINDS, BATCH_ATLAS_KINDS } from './atlasKinds';

/** An `a=` value of any JSON, as a hand-edited (or hostile) link would carry it. */
const raw = (data: unknown) =>
  `s=2.x&a=1.${toBase64Url(new TextEncoder().encode(JSON.stringify(data)))}`;

describe('the atlas choice', () => {
  it('ticks and unticks kinds in the filter order; every kind ticked is no list at all', () => {
    const off = withKind({}, ATLAS_KINDS, 'crash', false);
    // 9 stream kinds, crash left out: 8, in the engine's order.
    expect(off.kinds).toHaveLength(8);
    expect(off.kinds).not.toContain('crash');
    const two = withKind(off, ATLAS_KINDS, 'zombie', false);
    expect(two.kinds).toEqual([
      'drop-request',
      'drop-response',
      'delay-response',
      'leader-failover',
      'rebalance',
      'app-resend',
      'source-duplicate',
    ]);
    expect(
      withKind(withKind(two, ATLAS_KINDS, 'zombie', true), ATLAS_KINDS, 'crash', true),
    ).toEqual({});
    // A change of kinds or pairs is a new atlas to explore: not explored yet; pairs kept.
    const explored: AtlasChoice = { kinds: ['crash'], pairs: true, explored: true };
    expect(withKind(explored, BATCH_ATLAS_KINDS, 'clear', true)).toEqual({
      kinds: ['crash', 'clear'],
      pairs: true,
    });
    expect(withPairs(explored, false)).toEqual({ kinds: ['crash'] });
    // A placement opened as its run: the same kinds and pairs, to explore again.
    expect(unexplored(explored)).toEqual({ kinds: ['crash'], pairs: true });
    expect(isDefaultChoice({})).toBe(true);
    expect(isDefaultChoice({ kinds: [] })).toBe(false);
  });
});

describe('the atlas choice in a share link (a=)', () => {
  it('round-trips kinds, pairs and explored, beside the other parameters', () => {
    const choice: AtlasChoice = { kinds: ['drop-response', 'crash'], pairs: true, explored: true };
    const hash = withAtlasParam('#s=2.abc&c=1.xyz', choice);
    expect(hash.startsWith('s=2.abc&c=1.xyz&a=1.')).toBe(true);
    expect(decodeAtlas(`#${hash}`, false)).toEqual({ ok: true, choice });
    // A batch job's kinds, in a batch job's link; none ticked is a choice too.
    const batch: AtlasChoice = { kinds: [] };
    expect(decodeAtlas(withAtlasParam('s=2.abc', batch), true)).toEqual({
      ok: true,
      choice: batch,
    });
  });

  it('writes nothing for the default choice, and takes an old one out', () => {
    expect(withAtlasParam('s=2.abc', {})).toBe('s=2.abc');
    expect(withAtlasParam(withAtlasParam('s=2.abc', { pairs: true }), {})).toBe('s=2.abc');
    expect(decodeAtlas('#s=2.abc', false)).toBeNull();
  });

  it('reads kinds in the filter order, each once', () => {
    expect(decodeAtlas(raw({ kinds: ['late-row', 'crash'] }), true)).toEqual({
      ok: true,
      choice: { kinds: ['crash', 'late-row'] },
    });
  });

  it('refuses a bad value, naming the field', () => {
    const reason = (hash: string, batch = false) => {
      const r = decodeAtlas(hash, batch);
      return r && !r.ok ? r.reason : r;
    };
    expect(reason(raw({ kinds: ['crash', 'meteor'] }))).toBe(
      'share link, fault atlas (a=): kinds.1: expected drop-request, drop-response, delay-response, crash, leader-failover, rebalance, zombie, app-resend or source-duplicate, got "meteor"',
    );
    // A stream's kind in a batch job's link: a batch job has none of those.
    expect(reason(raw({ kinds: ['drop-response'] }), true)).toBe(
      'share link, fault atlas (a=): kinds.0: expected crash, clear or late-row, got "drop-response"',
    );
    expect(reason(raw({ kinds: 'crash' }))).toBe(
      'share link, fault atlas (a=): kinds: expected a list of at most 9 kinds',
    );
    expect(reason(raw({ pairs: 'yes' }))).toBe(
      'share link, fault atlas (a=): pairs: expected true or false, got "yes"',
    );
    expect(reason(raw({ depth: 2 }))).toBe('share link, fault atlas (a=): depth: unknown field');
    expect(reason('s=2.x&a=2.e30')).toBe('share link, fault atlas (a=): unknown version 2');
    expect(reason('s=2.x&a=1.%%%')).toBe('share link, fault atlas (a=): expected <version>.<data>');
    expect(reason('s=2.x&a=1.e3')).toBe(
      'share link, fault atlas (a=): the data is damaged (was the link cut short?)',
    );
  });
});

describe('a stored value (a=, c=) says where it came from', () => {
  it('words its refusal by its source, and reads back what the share link writes', () => {
    // One codec: the value a share link carries is the value a history entry or the workspace keeps.
    const choice: AtlasChoice = { kinds: ['crash'], pairs: true };
    expect(decodeAtlasValue(encodeAtlas(choice), false, 'saved workspace')).toEqual({
      ok: true,
      choice,
    });
    expect(encodeAtlas({})).toBeNull();
    const spec = { lanes: [{ guarantee: 'exactly-once' as const }] };
    expect(decodeCompareValue(encodeCompare(spec), 'browser history')).toEqual({ ok: true, spec });
    const meteor = `1.${toBase64Url(new TextEncoder().encode('{"kinds":["meteor"]}'))}`;
    expect(decodeAtlasValue(meteor, true, 'saved workspace')).toEqual({
      ok: false,
      reason:
        'saved workspace, fault atlas (a=): kinds.0: expected crash, clear or late-row, got "meteor"',
    });
    // The page's query is a link, not a share link.
    expect(decodeAtlas(`?preset=x&a=${meteor}`, true, 'link')).toEqual({
      ok: false,
      reason: 'link, fault atlas (a=): kinds.0: expected crash, clear or late-row, got "meteor"',
    });
    // Damaged bytes: only a link can have been cut short.
    expect(decodeCompareValue('1.e3', 'browser history')).toEqual({
      ok: false,
      reason: 'browser history, compare (c=): the data is damaged',
    });
    // Storage is data from anywhere: a number where the value goes is refused, naming the field.
    expect(decodeAtlasValue(7, false, 'saved workspace')).toEqual({
      ok: false,
      reason: 'saved workspace, fault atlas (a=): expected <version>.<data>',
    });
  });
});
