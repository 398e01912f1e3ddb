/**
 * Where a component's fault menu goes: inside the window, and never over the component it belongs
 * to. Pure geometry in CSS px (the caller measures and applies), so it is tested without a
 * browser; the approach of Floating UI's `flip` with fallback placements
 * (https://floating-ui.com/docs/flip): below, else above, else beside, else the roomier side
 * with a scroll.
 */

/** A rectangle in viewport coordinates (CSS px), as `getBoundingClientRect` gives it. */
export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A width and a height (CSS px). */
export interface Size {
  width: number;
  height: number;
}

/** Where the menu goes, and the caps it needs there (CSS px). */
export interface MenuPlacement {
  /**
   * `below` / `above` the component, to its `right` / `left`, or — a window too small for any of
   * those — `over` it, from the window's top.
   */
  side: 'below' | 'above' | 'right' | 'left' | 'over';
  top: number;
  left: number;
  /** Its max-height: taller content scrolls inside it. */
  maxHeight: number;
  /** Its max-width beside a component where its usual width does not fit; null: its own. */
  maxWidth: number | null;
}

/** Space kept between the menu and the window's edges. */
export const MENU_MARGIN = 6;
/** The least height worth showing (a few items) before the menu goes over its component. */
export const MENU_MIN_HEIGHT = 120;

/**
 * Place a menu next to its component.
 * 1. Below the component when its whole height fits there, else above it (left edges aligned,
 *    kept inside the window).
 * 2. Else beside it — on the side with more room, given at least the menu's least width
 *    (narrower than usual if need be: its text wraps) — from the component's top, moved up as
 *    far as its height needs: a projector at 150 % zoom (853×480 CSS px) has room neither above
 *    nor below a component for a menu of nine faults, and the menu used to go over it.
 * 3. Else (a window narrower than component + menu): below or above, whichever has more room,
 *    scrolling — when that shows at least {@link MENU_MIN_HEIGHT}.
 * 4. Else over it, from the window's top: there is nowhere else.
 * A menu taller than the window scrolls, wherever it goes.
 * @param box - the component's rectangle.
 * @param view - the window's size (without scrollbars).
 * @param measure - the menu's size when its max-width is the given one (null: its own).
 * @param minWidth - the menu's least width (its CSS min-width).
 */
export function placeMenu(
  box: Rect,
  view: Size,
  measure: (maxWidth: number | null) => Size,
  minWidth: number,
): MenuPlacement {
  const m = MENU_MARGIN;
  const fullHeight = Math.max(MENU_MIN_HEIGHT, view.height - 2 * m);
  const own = measure(null);
  const h = Math.min(own.height, fullHeight);
  const aligned = (w: number) => Math.min(Math.max(m, box.left), Math.max(m, view.width - w - m));
  const below = view.height - box.bottom - m;
  const above = box.top - m;
  if (h <= below)
    return {
      side: 'below',
      top: box.bottom,
      left: aligned(own.width),
      maxHeight: fullHeight,
      maxWidth: null,
    };
  if (h <= above)
    return {
      side: 'above',
      top: box.top - h,
      left: aligned(own.width),
      maxHeight: fullHeight,
      maxWidth: null,
    };

  const rightRoom = view.width - box.right - m;
  const leftRoom = box.left - m;
  const room = Math.max(rightRoom, leftRoom);
  if (room >= minWidth) {
    const right = rightRoom >= leftRoom;
    const maxWidth = own.width > room ? room : null;
    const size = maxWidth === null ? own : measure(maxWidth);
    const height = Math.min(size.height, fullHeight);
    const top = Math.min(Math.max(m, box.top), Math.max(m, view.height - height - m));
    return {
      side: right ? 'right' : 'left',
      top,
      left: right ? box.right : box.left - size.width,
      maxHeight: fullHeight,
      maxWidth,
    };
  }

  const roomier = Math.max(below, above);
  if (roomier >= MENU_MIN_HEIGHT)
    return below >= above
      ? {
          side: 'below',
          top: box.bottom,
          left: aligned(own.width),
          maxHeight: below,
          maxWidth: null,
        }
      : { side: 'above', top: m, left: aligned(own.width), maxHeight: above, maxWidth: null };
  return { side: 'over', top: m, left: aligned(own.width), maxHeight: fullHeight, maxWidth: null };
}
