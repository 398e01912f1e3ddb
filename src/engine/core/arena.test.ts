import { describe, expect, it } from 'vitest';
import { Int32Arena } from './arena';

describe('Int32Arena', () => {
  it('hands out slices in order, never reused; a full arena is replaced by one twice as large', () => {
    const a = new Int32Arena();
    const x = a.take(1000);
    x.fill(7);
    // 1000 + 100 > the first arena's 1,024 slots: a new one of 2,048; x keeps its values.
    const y = a.take(100);
    expect([a.slots.length, a.used, x[999], y[0]]).toEqual([2048, 100, 7, 0]);
    // room() then a smaller `used`: the rest is given back to the next take.
    a.room(500);
    a.used += 10;
    expect(a.take(5).byteOffset).toBe(110 * 4);
  });
});
