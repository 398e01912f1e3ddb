import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAllRows } from './useAllRows';

/** A scroll container 100 px tall whose scrollTop the layout sets (jsdom lays nothing out). */
function scroller(scrollHeight = 1000, clientHeight = 100) {
  const el = document.createElement('div');
  Object.defineProperty(el, 'clientHeight', { value: clientHeight });
  Object.defineProperty(el, 'scrollHeight', { value: scrollHeight });
  return { current: el };
}

describe('useAllRows', () => {
  it('places every row one below the other, below the header', () => {
    const scroll = scroller();
    const { result } = renderHook(() =>
      useAllRows({ count: 3, size: 24, scroll, paddingStart: 24 }),
    );
    expect(result.current.getVirtualItems()).toEqual([
      { index: 0, key: 0, start: 24, size: 24 },
      { index: 1, key: 1, start: 48, size: 24 },
      { index: 2, key: 2, start: 72, size: 24 },
    ]);
    // The header's 24 px and three rows of 24.
    expect(result.current.getTotalSize()).toBe(96);
  });

  it('scrolls a row into view as the virtualizer aligns it, below a sticky header', () => {
    const scroll = scroller();
    const rows = renderHook(() =>
      useAllRows({ count: 40, size: 24, scroll, paddingStart: 24, scrollPaddingStart: 24 }),
    ).result.current;
    // Row 10 starts at 24 + 240 = 264 px.
    rows.scrollToIndex(10, { align: 'start' });
    expect(scroll.current.scrollTop).toBe(240); // its top just below the 24 px header
    rows.scrollToIndex(10, { align: 'end' });
    expect(scroll.current.scrollTop).toBe(188); // its bottom (288) at the view's (100 px) bottom
    rows.scrollToIndex(10, { align: 'center' });
    // Its middle (276) at the middle of the 76 px below the header (24 + 38 = 62): 214, then on
    // a row's edge, 216 — row 9 (240…264) whole right under the header, row 10 below it.
    expect(scroll.current.scrollTop).toBe(216);
    rows.scrollToIndex(0, { align: 'center' });
    expect(scroll.current.scrollTop).toBe(0); // never above the top
    // 'auto' moves only as far as needed: row 20 (504…528) is below the view (226…326).
    scroll.current.scrollTop = 226;
    rows.scrollToIndex(20);
    expect(scroll.current.scrollTop).toBe(428);
    rows.scrollToIndex(19); // 480…504: in view already
    expect(scroll.current.scrollTop).toBe(428);
  });

  it("centres a row in a box 2½ rows tall with no sliver of a row under the header (the compact player's sink)", () => {
    // 84 px: the 24 px header and 60 px of rows. Row 4 (120…144) centred below the header would
    // be scrollTop 120 + 12 - 24 - 30 = 78, leaving 6 px of row 3 under the header (the blank
    // band); on a row's edge it is 72: row 3 whole under the header, row 4 below it.
    const scroll = scroller(1000, 84);
    const rows = renderHook(() =>
      useAllRows({ count: 20, size: 24, scroll, paddingStart: 24, scrollPaddingStart: 24 }),
    ).result.current;
    rows.scrollToIndex(4, { align: 'center' });
    expect(scroll.current.scrollTop).toBe(72);
  });

  it('scrolls to the end', () => {
    const scroll = scroller(1000);
    renderHook(() => useAllRows({ count: 40, size: 24, scroll })).result.current.scrollToEnd();
    // jsdom clamps nothing: the layout asks for the whole scroll height.
    expect(scroll.current.scrollTop).toBe(1000);
  });
});
