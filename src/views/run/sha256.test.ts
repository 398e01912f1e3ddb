/**
 * The small SHA-256 of the scenario keys (./sha256.ts) gives @noble/hashes' digests: the FIPS
 * 180-4 examples, every length around the padding's block edges, and text beyond ASCII — so the
 * generated preset index (src/scenarios/parsed/index.ts, keys by @noble's) still matches.
 */
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { sha256 } from './sha256';
import { scenarioKey } from './compute';

const hex = (b: Uint8Array) => bytesToHex(b);
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('sha256', () => {
  it('the standard examples', () => {
    expect(hex(sha256(utf8('')))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(hex(sha256(utf8('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hex(sha256(utf8('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('@noble’s digest at every length from 0 to 300 bytes, and for text beyond ASCII', () => {
    for (let n = 0; n <= 300; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n * 7) & 0xff);
      expect(hex(sha256(bytes)), `${n} bytes`).toBe(hex(nobleSha256(bytes)));
    }
    const text = utf8('“Ünïcode” ✓ ⧉ 日本語 '.repeat(50));
    expect(hex(sha256(text))).toBe(hex(nobleSha256(text)));
  });

  it('scenarioKey: 16 hex digits of the canonical JSON’s digest', () => {
    const key = scenarioKey({ b: 1, a: [2, { d: 'x', c: null }] });
    expect(key).toBe(hex(nobleSha256(utf8('{"a":[2,{"c":null,"d":"x"}],"b":1}'))).slice(0, 16));
  });
});
