/**
 * One rule for a whole JSON value in one hash parameter (./hashPayload.ts): `hashPayloadValue` is
 * the `<version>.<payload>` the lesson (`l=`), challenge (`ch=`) and share (`s=`) links all carry.
 */
import { describe, expect, it } from 'vitest';
import { decodeHashPayload, encodeHashPayload, hashPayloadValue } from './hashPayload';
import { encodeShare } from './shareLink';

// A value whose JSON holds `=` and `&`, which a hash parameter's own syntax uses.
const value = { id: 'our-acks-one', note: 'acks=1 & retries=0', steps: [1, 2, 3] };

describe('hashPayloadValue', () => {
  it('is the value the parameter carries: version 2, then base64url (no "=", "&" nor "#")', () => {
    const v = hashPayloadValue(value);
    expect(v).toMatch(/^2\.[A-Za-z0-9_-]+$/);
    expect(v).toBe(hashPayloadValue(structuredClone(value)));
  });

  it('is what the link builders put after their parameter, and what the share link carries', () => {
    const v = hashPayloadValue(value);
    expect(encodeHashPayload('ch', value)).toBe(`ch=${v}`);
    expect(encodeHashPayload('l', value)).toBe(`l=${v}`);
    expect(encodeShare(value as never)).toBe(`s=${v}`);
  });

  it('decodes back to the value, beside other hash parameters', () => {
    const hash = `#s=2.AAAA&ch=${hashPayloadValue(value)}&p=1`;
    expect(decodeHashPayload(hash, 'ch', 'a challenge link')).toEqual({ ok: true, value });
  });
});
