import { describe, expect, it } from 'vitest';
import { separateLabels, type LabelBox } from './separateLabels';

const overlaps = (a: LabelBox, b: LabelBox, h: number) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + h && b.y < a.y + h;

describe('separateLabels', () => {
  it('stacks labels sent together: five acks on one spot take five lanes, one label apart', () => {
    // Five boxes at the same place, height 16, gap 1: tops 0, 17, 34, 51, 68.
    const boxes = Array.from({ length: 5 }, () => ({ x: 10, y: 0, w: 40 }));
    separateLabels(boxes, 16);
    expect(boxes.map((b) => b.y)).toEqual([0, 17, 34, 51, 68]);
  });

  it('leaves labels that do not touch where they are', () => {
    const boxes = [
      { x: 0, y: 0, w: 40 },
      { x: 42, y: 0, w: 40 }, // starts two px past the first's end: clear of it
      { x: 0, y: 17, w: 40 }, // one lane below the first
    ];
    separateLabels(boxes, 16);
    expect(boxes.map((b) => b.y)).toEqual([0, 0, 17]);
  });

  it('after it, no two labels overlap (a crowd of 60 in a 200 px band)', () => {
    // Deterministic crowd: x and y from a small linear congruence.
    const boxes = Array.from({ length: 60 }, (_, k) => ({
      x: (k * 37) % 200,
      y: (k * 11) % 30,
      w: 30 + (k % 3) * 10,
    }));
    separateLabels(boxes, 14);
    for (let a = 0; a < boxes.length; a++)
      for (let b = a + 1; b < boxes.length; b++)
        expect(overlaps(boxes[a]!, boxes[b]!, 14), `${a} and ${b}`).toBe(false);
  });
});
