import { describe, expect, it } from 'vitest';
import { clipEcho, echoValue, ECHO_MAX, numberWords } from './echo';

describe('how a message quotes the input', () => {
  it('a text up to 200 characters whole, a longer one clipped to 200 with its length', () => {
    expect(clipEcho('x'.repeat(ECHO_MAX))).toBe('x'.repeat(200));
    expect(clipEcho('k'.repeat(5000))).toBe(`${'k'.repeat(200)}… (5,000 characters)`);
    // 199 letters then an emoji (a surrogate pair at 199–200): the pair is not cut in half.
    const emoji = `${'a'.repeat(199)}😀tail`;
    expect(clipEcho(emoji)).toBe(`${'a'.repeat(199)}… (205 characters)`);
  });

  it('±Infinity (JSON 1e400, -1e400) in words; arrays and objects by kind, never serialised', () => {
    expect(numberWords(Infinity)).toBe('a number too large to represent');
    expect(numberWords(-Infinity)).toBe('a negative number too large to represent');
    expect(numberWords(2.5)).toBe('2.5');
    let deep: unknown = [];
    for (let i = 0; i < 5000; i++) deep = [deep];
    expect(echoValue(deep)).toBe('an array');
    expect(echoValue({ a: 1 })).toBe('an object');
    expect(echoValue(null)).toBe('null');
    expect(echoValue(true)).toBe('true');
    expect(echoValue('v'.repeat(300))).toBe(`"${'v'.repeat(200)}… (300 characters)"`);
  });
});
