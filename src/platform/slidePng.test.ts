// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fitNotes, slideRect, withoutTitle } from './slidePng';

/** The shape of mermaid's sequence SVG: the title at the root, above the actors (y = 0). */
const SVG =
  '<svg id="s" xmlns="http://www.w3.org/2000/svg" viewBox="-212 -48 1999 1313">' +
  '<rect x="0" y="0" width="100" height="44" class="actor actor-top"/>' +
  '<text x="10" y="20" class="noteText">30155 ms · p-4</text>' +
  '<text x="975.5" y="-25">p-4 applied twice — from the cause to the duplicate</text></svg>';

describe('the slide PNG', () => {
  it("takes mermaid's title out of the picture and its room off the viewBox", () => {
    const { svg, title } = withoutTitle(SVG);
    expect(title).toBe('p-4 applied twice — from the cause to the duplicate');
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    // The actors' top (0) less the 8 px margin: the viewBox starts at −8, 40 px less tall.
    expect(doc.documentElement.getAttribute('viewBox')).toBe('-212 -8 1999 1273');
    expect([...doc.querySelectorAll('text')].map((t) => t.textContent)).toEqual(['30155 ms · p-4']);
  });

  it('leaves an SVG without a title as it is', () => {
    const svg = '<svg viewBox="0 0 10 10"><text class="noteText">a</text></svg>';
    expect(withoutTitle(svg)).toEqual({ svg, title: null });
  });

  it('fills the frame under the title: 24 px padding, a 64 px band, top-aligned', () => {
    // 1999 × 1273 into 1872 × 968 (1080 − 64 − 2 × 24): height-bound, 968 / 1273 = 0.760×,
    // 1520 px wide, centred: x = (1920 − 1520) / 2 = 200; y = 24 + 64.
    expect(slideRect({ width: 1999, height: 1273 }, true)).toEqual({
      x: 200,
      y: 88,
      width: 1520,
      height: 968,
    });
    // Wide and no title: width-bound (1872 / 2000 = 0.936×), at the top of the frame.
    expect(slideRect({ width: 2000, height: 500 }, false)).toEqual({
      x: 24,
      y: 24,
      width: 1872,
      height: 468,
    });
  });

  it("widens a note's box to its text, both sides, and the viewBox to what is drawn", () => {
    // jsdom has no layout: a text is 10 px a character; all that is drawn spans −60…640.
    const proto = window.SVGElement.prototype as unknown as Record<string, unknown>;
    proto.getBBox = function (this: SVGElement) {
      return this.localName === 'text'
        ? { x: 0, y: 0, width: 10 * (this.textContent ?? '').length, height: 20 }
        : { x: -60, y: -8, width: 700, height: 100 };
    };
    const note = (x: number, width: number, text: string) =>
      `<g data-et="note"><rect x="${x}" y="0" width="${width}" height="40" class="note"/>` +
      `<text x="${x + width / 2}" y="20" class="noteText">${text}</text></g>`;
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 -8 600 100">' +
      note(100, 200, 'Before: 3 steps as usual (150 ms)') + // 33 characters: 330 + 2 × 6 = 342
      note(400, 150, 'offset 5 committed') + // 180 + 12 = 192
      note(400, 250, 'retry p-4') + // fits: 90 + 12 < 250
      '</svg>';
    const doc = new DOMParser().parseFromString(fitNotes(svg), 'image/svg+xml');
    const boxes = [...doc.querySelectorAll('rect')].map((r) => [
      Number(r.getAttribute('x')),
      Number(r.getAttribute('width')),
    ]);
    expect(boxes).toEqual([
      [100 - (342 - 200) / 2, 342],
      [400 - (192 - 150) / 2, 192],
      [400, 250],
    ]);
    // 8 px beyond what is drawn on the left (−68) and on the right (648).
    expect(doc.documentElement.getAttribute('viewBox')).toBe('-68 -8 716 100');
    delete proto.getBBox;
  });
});
