import fc from 'fast-check';
import { deflateSync } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import type { ScenarioInput } from '../engine';
import { computeRunView } from '../views/run/computeRun';
import { traceHashOfView } from '../views/run/hash';
import {
  SHARE_CODEC,
  decodeShare,
  encodeShare,
  fromBase64Url,
  shareIssueLines,
  shareParam,
  shareUrl,
  toBase64Url,
  writeShareToLocation,
  clearShareFromLocation,
  type ShareCodec,
} from './share';

// Whole runs on a loaded two-core machine: its slowest test took 4.2 s in a full CI run
// (this file 7.3 s), so each gets 25 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 25_000 });

/** A fixed scenario with faults added by clicks: its encoded form is pinned below. */
const SHARED: ScenarioInput = {
  version: 1,
  name: 'Shared: lost ack',
  workload: {
    topic: 'payments',
    events: [
      { id: 'p-1', amount: 10, at: 0 },
      { id: 'p-2', amount: 20, at: 50 },
    ],
  },
  producer: { 'enable.idempotence': false, 'max.in.flight.requests.per.connection': 1 },
  processor: {
    type: 'consumer',
    'enable.auto.commit': false,
    'auto.offset.reset': 'earliest',
    startAtMs: 40000,
  },
  sink: { type: 'table', name: 'payments' },
  faults: [
    { id: 'lost ack', kind: 'drop-response', link: 'produce', match: { event: 'p-1' } },
    { kind: 'crash', target: 'consumer-0', at: 40005 },
  ],
};

/**
 * The links of SHARED. If one changes, links already shared would no longer open the same way:
 * a format change needs a new version (and a decoder for the old one), not a new pin. Version 1
 * is what this build wrote before links carried a checksum.
 */
const PINNED_V1 =
  's=1.TVHLboMwEPyVyGeCSNRcuPUDeuqx6mFrlmDhV-0lbRTx7xkTEsEBW7uzM7Pjm7pwyiZ41R4q5cmxatXnQIm7dmdDlh3pUVXqL6TRBupUe1MSotGARbo69pLR5styab9uygCj4v6AKrkweQFzgzvOZq5e_eOmf1z7p2b-nisVU-gmzalosacfy7Xp2MUg7DX89WQzV8rRf2183VtzHqRO_DtxllxHTrUO3rOWx1oPRs05h4VSrrEsCUyeHFTg_iFCkwSMOmfgZRVZaqHvMxcJ_DHJlKyBFiazUJJ3-cDqbw0-aGXjx42MFGog12hfmQHZ02S3oW3iHo0vlS6FuIdshNdCYhfuZ0AoOBI9LDmVB1iDn0vMK4NOlAcA4fO8mH-uvW_KA6BSfJ-Q-x0';

/** The same scenario in the current format (2: with the JSON's checksum). */
const PINNED =
  's=2.TVHLboMwEPyVyGeCSNRcuPUDeuqx6mFrlmDhV-0lbRTx7xkTEsEBW7uzM7Pjm7pwyiZ41R4q5cmxatXnQIm7dmdDlh3pUVXqL6TRBupUe1MSotGARbo69pLR5styab9uygCj4v6AKrkweQFzgzvOZq5e_eOmf1z7p2b-nisVU-gmzalosacfy7Xp2MUg7DX89WQzV8rRf2183VtzHqRO_DtxllxHTrUO3rOWx1oPRs05h4VSrrEsCUyeHFTg_iFCkwSMOmfgZRVZaqHvMxcJ_DHJlKyBFiazUJJ3-cDqbw0-aGXjx42MFGog12hfmQHZ02S3oW3iHo0vlS6FuIdshNdCYhfuZ0AoOBI9LDmVB1iDn0vMK4NOlAcA4fO8mH-uvW_KA6BSfJ-Q-x07oIPR';

function hashOf(input: unknown): string {
  const r = computeRunView(input);
  if (!r.ok) throw new Error(JSON.stringify(r));
  return traceHashOfView(r.view);
}

describe('share links', () => {
  it('encode a scenario to a pinned string', () => {
    expect(encodeShare(SHARED)).toBe(PINNED);
  });

  it('the pinned link opens the same scenario and replays the identical run', () => {
    const r = decodeShare(`#${PINNED}`);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.version).toBe(2);
    const v1 = decodeShare(`#${PINNED_V1}`);
    expect(v1.ok && v1.version).toBe(1);
    expect(v1.ok && v1.input).toEqual(SHARED);
    expect(r.input).toEqual(SHARED);
    expect(r.scenario.faults).toHaveLength(2);
    expect(hashOf(r.input)).toBe(hashOf(SHARED));
  });

  it('accept the parameter alone, a whole hash, or a hash with other parameters', () => {
    const value = PINNED.slice(2);
    expect(decodeShare(value).ok).toBe(true);
    expect(decodeShare(PINNED).ok).toBe(true);
    expect(decodeShare(`#t=1200&${PINNED}&embed`).ok).toBe(true);
    expect(shareParam('#t=1200')).toBeNull();
    expect(shareParam('')).toBeNull();
  });

  it('build a URL on any base, replacing an old hash', () => {
    expect(shareUrl('https://example.org/docs/lab/index.html#old', SHARED)).toBe(
      `https://example.org/docs/lab/index.html#${PINNED}`,
    );
  });

  it('round-trip any JSON value through the version-1 payload (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const param = encodeShare(value as ScenarioInput).slice(2);
        const payload = param.slice(param.indexOf('.') + 1);
        expect(SHARE_CODEC.decoders[1]!(payload)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { seed: 3, numRuns: 200 },
    );
  });
});

describe('old versions (the migration mechanism)', () => {
  /**
   * A synthetic "version 0", declared here only to exercise the mechanism — it is not a format
   * this app ever wrote: uncompressed base64url JSON with the scenario under a `scenario` key and
   * the name under `title`. Its migration to version 1 unwraps it and renames `title` to `name`.
   */
  const V0: ShareCodec = {
    current: 1,
    decoders: {
      ...SHARE_CODEC.decoders,
      0: (payload) => JSON.parse(new TextDecoder().decode(fromBase64Url(payload))) as unknown,
    },
    migrations: {
      0: (value) => {
        const { scenario } = value as { scenario: Record<string, unknown> };
        const { title, ...rest } = scenario;
        return { ...rest, name: title };
      },
    },
  };
  const { name, ...withoutName } = SHARED;
  const v0Link = `s=0.${toBase64Url(new TextEncoder().encode(JSON.stringify({ scenario: { ...withoutName, title: name } })))}`;

  it('a version-0 link still opens, migrated to the current scenario', () => {
    const r = decodeShare(v0Link, V0);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.version).toBe(0);
    expect(r.input).toEqual({ ...withoutName, name });
  });

  it('a version without a migration, and a failing migration, are reported', () => {
    expect(decodeShare(v0Link, { ...V0, migrations: {} })).toEqual({
      ok: false,
      issues: [{ path: '', message: 'share link: no migration from version 0' }],
    });
    const broken = {
      ...V0,
      migrations: {
        0: () => {
          throw new Error('no scenario key');
        },
      },
    };
    expect(decodeShare(v0Link, broken)).toEqual({
      ok: false,
      issues: [{ path: '', message: 'share link: cannot migrate from version 0: no scenario key' }],
    });
  });

  it('this build has no version 0: the same link is refused, not misread', () => {
    expect(decodeShare(v0Link)).toEqual({
      ok: false,
      issues: [{ path: '', message: 'share link: unknown version 0' }],
    });
  });
});

describe('bad links are refused with a message, never thrown', () => {
  const issue = (value: string) => {
    const r = decodeShare(value);
    if (r.ok) throw new Error('accepted');
    return r.issues;
  };

  it('damaged, cut short, foreign or future links', () => {
    // Cut after 56 characters of payload: the DEFLATE stream (RFC 1951) stops mid-block — fflate's
    // "unexpected EOF".
    expect(issue(PINNED.slice(0, 60))).toEqual([
      {
        path: '',
        message:
          'share link: the data is damaged: its compressed scenario stops before its end (was the link cut short?)',
      },
    ]);
    expect(issue('s=1.@@@')[0]!.message).toBe(
      'share link: the data is damaged: it contains “@” at character 1, which no share link is written with (only A–Z, a–z, 0–9, - and _)',
    );
    expect(issue('s=hello')[0]!.message).toBe('share link: expected <version>.<data>');
    expect(issue('#x=1')[0]!.message).toBe('share link: no "s=" parameter in the link');
    expect(issue(`s=9.${PINNED.slice(4)}`)[0]!.message).toBe(
      'share link: version 9 is newer than this Delivery Lab (2); update the app',
    );
  });

  it('any one character changed in a link is refused: raw DEFLATE could inflate to another scenario, the checksum cannot', () => {
    // A newcomer changed each of a link's characters in turn: two of 869 opened a different
    // scenario silently under version 1 (every p-N renamed eN). Here every position of the
    // pinned link's payload, each changed to the next base64url character.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const head = 's=2.';
    let refused = 0;
    for (let i = head.length; i < PINNED.length; i++) {
      const c = alphabet[(alphabet.indexOf(PINNED[i]!) + 7) % 64]!;
      const r = decodeShare(PINNED.slice(0, i) + c + PINNED.slice(i + 1));
      if (!r.ok) refused++;
    }
    expect(refused).toBe(PINNED.length - head.length);
  });

  it('a damaged link says what failed, and is never called empty when it is not', () => {
    // `2.AAAA`: base64url "AAAA" is 3 zero bytes (RFC 4648 §5, 4 characters → 3 bytes); a
    // version 2 payload needs more than its 4 checksum bytes.
    for (const link of ['s=2.AAAA', '#s=2.AAAA', '#s=2.AAAA&p=0'])
      expect(issue(link), link).toEqual([
        {
          path: '',
          message:
            'share link: the data is damaged: it decodes to 3 bytes, too few for a scenario and its 4-byte checksum (was the link cut short?)',
        },
      ]);
    expect(issue('s=2.AAAAAA')[0]!.message).toBe(
      'share link: the data is damaged: it decodes to 4 bytes, too few for a scenario and its 4-byte checksum (was the link cut short?)',
    );
    // 5 characters: base64url groups of 4 leave 0, 2 or 3 over (8, 16 or 24 bits), never 1.
    expect(issue('s=2.AAAAA')[0]!.message).toBe(
      'share link: the data is damaged: it cannot be decoded, 5 characters is not a length base64url text has (was the link cut short?)',
    );
    expect(issue('s=1.A')[0]!.message).toBe(
      'share link: the data is damaged: it cannot be decoded, 1 character is not a length base64url text has (was the link cut short?)',
    );
    // A `+` of standard base64 reads as a space in the hash; a non-ASCII letter by its code point.
    expect(issue(`#s=2.${PINNED.slice(4, 10)}+${PINNED.slice(11)}`)[0]!.message).toBe(
      'share link: the data is damaged: it contains a space at character 7, which no share link is written with (only A–Z, a–z, 0–9, - and _)',
    );
    expect(issue('s=2.AAé')[0]!.message).toBe(
      'share link: the data is damaged: it contains U+00E9 at character 3, which no share link is written with (only A–Z, a–z, 0–9, - and _)',
    );
    // 12 × "_" = 9 bytes of 0xFF: the first DEFLATE block header has BTYPE = 11, reserved (RFC 1951
    // §3.2.3: "11 - reserved (error)").
    expect(issue('s=2.____________')[0]!.message).toBe(
      'share link: the data is damaged: its compressed scenario does not unpack (DEFLATE: invalid block type; a character changed?)',
    );
  });

  it('an empty link says it is empty (not "larger than the limit")', () => {
    for (const empty of ['s=1.', '#s=1.', '#s=', 's=1', '1.', '#s=1.&t=5'])
      expect(issue(empty), empty).toEqual([
        { path: '', message: 'share link: empty, it carries no scenario (was it cut short?)' },
      ]);
  });

  it('a decompression bomb stops at the size limit', () => {
    const bomb = toBase64Url(deflateSync(new Uint8Array(3_000_000).fill(32), { level: 9 }));
    expect(bomb.length).toBeLessThan(10_000);
    expect(issue(`s=1.${bomb}`)[0]!.message).toBe(
      'share link: the scenario is larger than 2000000 bytes',
    );
    expect(issue(`s=1.${'A'.repeat(2_000_004)}`)[0]!.message).toMatch(/^share link: too long/);
  });

  it('a link whose scenario is invalid lists the fields', () => {
    const bad = encodeShare({
      ...SHARED,
      producer: { acks: 'sometimes' },
    } as unknown as ScenarioInput);
    expect(issue(bad)).toEqual([
      { path: 'producer.acks', message: 'expected "0", "1", "all" or "-1", got "sometimes"' },
    ]);
    expect(shareIssueLines(issue(bad))).toEqual([
      'producer.acks: expected "0", "1", "all" or "-1", got "sometimes"',
    ]);
    const huge = encodeShare({ ...SHARED, name: '<script>'.repeat(20_000) });
    expect(issue(huge)).toEqual([{ path: 'name', message: 'at most 200 characters' }]);
  });

  it('an issue about the link or the whole scenario names the link once', () => {
    // A notice line reads 'share link: …', never '(link): share link: …'.
    expect(shareIssueLines(issue(PINNED.slice(0, 60)))).toEqual([
      'share link: the data is damaged: its compressed scenario stops before its end (was the link cut short?)',
    ]);
    expect(shareIssueLines(issue(encodeShare([] as unknown as ScenarioInput)))).toEqual([
      'share link: a scenario is a JSON object',
    ]);
  });

  it('never throws on arbitrary input (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        const r = decodeShare(s);
        expect(typeof r.ok).toBe('boolean');
      }),
      { seed: 5, numRuns: 500 },
    );
  });
});

describe('the page URL', () => {
  it('writes the link into the hash without a navigation, keeping other parameters', () => {
    const replaceState = vi.fn();
    writeShareToLocation(
      SHARED,
      { hash: '#t=5&s=1.old', href: 'https://x.example/lab/?embed#t=5&s=1.old' },
      { replaceState, state: { keep: true } },
    );
    expect(replaceState).toHaveBeenCalledWith(
      { keep: true },
      '',
      `https://x.example/lab/?embed#t=5&${PINNED}`,
    );
  });

  it('writes the prediction beside the scenario (p=), drops another link’s, and clearing takes both', () => {
    const replaceState = vi.fn();
    const loc = { hash: '#t=5&s=1.old&p=0', href: 'https://x.example/lab/#t=5&s=1.old&p=0' };
    writeShareToLocation(SHARED, loc, { replaceState, state: null }, { ask: false });
    expect(replaceState).toHaveBeenLastCalledWith(
      null,
      '',
      `https://x.example/lab/#t=5&${PINNED}&p=0`,
    );
    // No prediction: the old link's p goes (it asked its question of another run).
    writeShareToLocation(SHARED, loc, { replaceState, state: null });
    expect(replaceState).toHaveBeenLastCalledWith(null, '', `https://x.example/lab/#t=5&${PINNED}`);
    clearShareFromLocation(loc, { replaceState, state: null });
    expect(replaceState).toHaveBeenLastCalledWith(null, '', 'https://x.example/lab/#t=5');
  });
});
