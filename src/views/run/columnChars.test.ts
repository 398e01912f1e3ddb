/** The projector's narrow sink table sizes its id and amount columns to their longest entries. */
import { describe, expect, it } from 'vitest';
import { amountChars, idChars } from './columnChars';
import { viewOf } from './runViewTesting';

describe('column widths in characters', () => {
  it('at-least-once: ids p-1..p-20 and amounts $10..$200 (10 × the payment number)', () => {
    const v = viewOf('at-least-once');
    const sink = v.tables.find((t) => t.point === 'sink')!;
    expect(idChars(v, sink)).toBe('p-20'.length);
    expect(amountChars(sink)).toBe('$200'.length);
  });

  it('merge-duplicate-source: the row the table starts with (o1, its label) counts too', () => {
    const v = viewOf('merge-duplicate-source');
    const sink = v.tables.find((t) => t.point === 'sink')!;
    expect(sink.initialLabels[0]).toBe('o1');
    expect(idChars(v, sink)).toBe('o1'.length);
  });
});
