import { describe, expect, it } from 'vitest';
import { presetIds } from '../scenarios';
import {
  PRESET_PARAM,
  presetParamOf,
  resolvePresetParam,
  urlWithPreset,
  writePresetToLocation,
} from './presetUrl';

describe('resolvePresetParam', () => {
  it('takes every id of presetIds() as it is (the contract)', () => {
    for (const ref of presetIds()) expect(resolvePresetParam(ref)).toEqual({ kind: 'preset', ref });
  });

  it('opens a bare preset id at its default (first) variant', () => {
    expect(resolvePresetParam('payment-resent-by-app')).toEqual({
      kind: 'preset',
      ref: 'payment-resent-by-app/plain-insert',
    });
    expect(resolvePresetParam('payment-resent-by-app/')).toEqual({
      kind: 'preset',
      ref: 'payment-resent-by-app/plain-insert',
    });
  });

  it('forgives case and surrounding space (a hand-typed link)', () => {
    expect(resolvePresetParam('  Flink-Checkpoint-Replay/2PC-Read-Committed ')).toEqual({
      kind: 'preset',
      ref: 'flink-checkpoint-replay/2pc-read-committed',
    });
  });

  it('explains an unknown preset, and an unknown variant with the variants there are', () => {
    const a = resolvePresetParam('no-such-preset');
    expect(a.kind).toBe('unknown');
    if (a.kind === 'unknown') expect(a.message).toBe('No preset “no-such-preset” in the library.');
    const b = resolvePresetParam('spark-batch-replay/nope');
    expect(b.kind).toBe('unknown');
    if (b.kind === 'unknown')
      expect(b.message).toBe(
        'The preset “spark-batch-replay” has no variant “nope” (its variants: append, delta-txn, merge, file-sink).',
      );
  });

  it('refuses extra path segments, and cuts a huge value short in the message', () => {
    expect(resolvePresetParam('payment-resent-by-app/plain-insert/x').kind).toBe('unknown');
    const r = resolvePresetParam('x'.repeat(10_000));
    expect(r.kind).toBe('unknown');
    // At most 200 characters of it, and its length (the one clipping every message uses).
    if (r.kind === 'unknown')
      expect(r.message).toBe(`No preset “${'x'.repeat(200)}… (10,000 characters)” in the library.`);
  });
});

describe('presetParamOf', () => {
  it('reads the parameter, decoded; absent or empty is null', () => {
    expect(presetParamOf('?preset=payment-resent-by-app/plain-insert')).toBe(
      'payment-resent-by-app/plain-insert',
    );
    expect(presetParamOf('?a=1&preset=lost-ack-retry%2Facks-1')).toBe('lost-ack-retry/acks-1');
    expect(presetParamOf('')).toBeNull();
    expect(presetParamOf('?preset=')).toBeNull();
    expect(presetParamOf('?preset=%20')).toBeNull();
  });
});

describe('urlWithPreset', () => {
  const base = 'https://lab.example/delivery/';

  it('adds the parameter with a readable slash', () => {
    expect(urlWithPreset(base, 'payment-resent-by-app/plain-insert')).toBe(
      `${base}?preset=payment-resent-by-app/plain-insert`,
    );
  });

  it('replaces an old value and keeps other parameters and the hash', () => {
    expect(
      urlWithPreset(`${base}?embed&preset=old/x&lang=en#s=1.abc`, 'lost-ack-retry/acks-1'),
    ).toBe(`${base}?preset=lost-ack-retry/acks-1&embed&lang=en#s=1.abc`);
  });

  it('removes it for null, leaving no empty "?"', () => {
    expect(urlWithPreset(`${base}?preset=a/b#x`, null)).toBe(`${base}#x`);
    expect(urlWithPreset(`${base}?preset=a/b&z=1`, null)).toBe(`${base}?z=1`);
    expect(urlWithPreset(base, null)).toBe(base);
  });

  it('round-trips every preset id through the URL', () => {
    for (const ref of presetIds()) {
      const u = new URL(urlWithPreset(`${base}#t=3`, ref));
      expect(u.searchParams.get(PRESET_PARAM)).toBe(ref);
      expect(resolvePresetParam(presetParamOf(u.search)!)).toEqual({ kind: 'preset', ref });
    }
  });
});

describe('writePresetToLocation', () => {
  it('replaces the history entry only when the URL changes', () => {
    const calls: string[] = [];
    const hist = {
      state: { k: 1 },
      replaceState: (_s: unknown, _t: string, url?: string | URL | null) =>
        void calls.push(String(url)),
    };
    writePresetToLocation(
      'lost-ack-retry/acks-1',
      { href: 'http://h/?preset=lost-ack-retry/acks-1' },
      hist,
    );
    expect(calls).toEqual([]);
    writePresetToLocation(
      'lost-ack-retry/retries-0',
      { href: 'http://h/?preset=lost-ack-retry/acks-1' },
      hist,
    );
    writePresetToLocation(null, { href: 'http://h/?preset=lost-ack-retry/acks-1#s=1.x' }, hist);
    expect(calls).toEqual(['http://h/?preset=lost-ack-retry/retries-0', 'http://h/#s=1.x']);
  });
});
