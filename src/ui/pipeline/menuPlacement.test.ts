import { describe, expect, it, vi } from 'vitest';
import { MENU_MARGIN, MENU_MIN_HEIGHT, placeMenu } from './menuPlacement';

/** A 1280×720 projector at 150 % zoom: 853×480 CSS px. */
const ZOOMED = { width: 853, height: 480 };
/** The fault menu's CSS min-width, 19em at 14 px. */
const MIN_WIDTH = 266;
const fixed = (width: number, height: number) => () => ({ width, height });

describe('where a fault menu goes (margin 6 px, full height 480 − 2 × 6 = 468 px)', () => {
  it('constants', () => {
    expect(MENU_MARGIN).toBe(6);
    expect(MENU_MIN_HEIGHT).toBe(120);
  });

  it('below its component when it fits there (474 − 100 = 374 px ≥ 200)', () => {
    const box = { left: 100, top: 50, right: 200, bottom: 100 };
    expect(placeMenu(box, ZOOMED, fixed(364, 200), MIN_WIDTH)).toEqual({
      side: 'below',
      top: 100,
      left: 100,
      maxHeight: 468,
      maxWidth: null,
    });
  });

  it('else above it (294 px ≥ 250), its left edge moved in so it ends 6 px from the right edge', () => {
    const box = { left: 600, top: 300, right: 700, bottom: 400 };
    // top 300 − 250; left 853 − 364 − 6 = 483.
    expect(placeMenu(box, ZOOMED, fixed(364, 250), MIN_WIDTH)).toEqual({
      side: 'above',
      top: 50,
      left: 483,
      maxHeight: 468,
      maxWidth: null,
    });
  });

  it('else beside it, on the roomier side: the producer (room 717 px right), moved up to end 6 px above the bottom', () => {
    // 278 px fits neither below (480 − 420 − 6 = 54) nor above (200 − 6 = 194).
    const box = { left: 20, top: 200, right: 130, bottom: 420 };
    // top: min(200, 480 − 278 − 6 = 196).
    expect(placeMenu(box, ZOOMED, fixed(364, 278), MIN_WIDTH)).toEqual({
      side: 'right',
      top: 196,
      left: 130,
      maxHeight: 468,
      maxWidth: null,
    });
  });

  it('consumer-0 at 150 % zoom (nine faults, taller than the window): to its left, narrowed to the room there, not over it', () => {
    // below 480 − 360 − 6 = 114, above 218 − 6 = 212: neither holds 468. Right 853 − 508 − 6 =
    // 339, left 362 − 6 = 356 ≥ 266: left, 356 px wide (its own 364 does not fit), at x 362 − 356.
    const box = { left: 362, top: 218, right: 508, bottom: 360 };
    const measure = vi.fn((maxWidth: number | null) =>
      maxWidth === null ? { width: 364, height: 620 } : { width: maxWidth, height: 650 },
    );
    expect(placeMenu(box, ZOOMED, measure, MIN_WIDTH)).toEqual({
      side: 'left',
      top: 6,
      left: 6,
      maxHeight: 468,
      maxWidth: 356,
    });
    expect(measure.mock.calls).toEqual([[null], [356]]);
  });

  it('a window too narrow for a side (44 px each): the roomier of below (214 px) and above, scrolling', () => {
    const narrow = { width: 400, height: 480 };
    const low = { left: 50, top: 200, right: 350, bottom: 260 };
    // left: min(50, 400 − 364 − 6 = 30).
    expect(placeMenu(low, narrow, fixed(364, 400), MIN_WIDTH)).toEqual({
      side: 'below',
      top: 260,
      left: 30,
      maxHeight: 214,
      maxWidth: null,
    });
    // below 480 − 360 − 6 = 114 < above 300 − 6 = 294: from the window's top down to it.
    const high = { left: 50, top: 300, right: 350, bottom: 360 };
    expect(placeMenu(high, narrow, fixed(364, 400), MIN_WIDTH)).toEqual({
      side: 'above',
      top: 6,
      left: 30,
      maxHeight: 294,
      maxWidth: null,
    });
  });

  it('over it only when no side shows 120 px (a 400×200 window: 44 and 54 px)', () => {
    const box = { left: 50, top: 60, right: 350, bottom: 150 };
    expect(placeMenu(box, { width: 400, height: 200 }, fixed(364, 400), MIN_WIDTH)).toEqual({
      side: 'over',
      top: 6,
      left: 30,
      maxHeight: 188,
      maxWidth: null,
    });
  });
});
