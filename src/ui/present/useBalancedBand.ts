import { useLayoutEffect, type RefObject } from 'react';

/** The setup column's shares tried (the question's is the rest of 100): on a tie, the evener. */
const SHARES = [50, 45, 55, 40, 60, 35, 65, 30, 70];

/**
 * Projector mode's band (present.css): the setup's and the question's columns split the width so
 * that the band is as short as it can be — its height is its taller column's, and every pixel it
 * saves goes to the pipeline's cards under it (issue 24). A fixed split (3 : 2, or 2 : 3 for a
 * choice question) left one column half empty: rebalance-midflight's four-line setup beside a
 * nine-line free-text question. Measured, not estimated: the choices wrap (or not) at widths no
 * character count predicts. Tried on opening the story, on a change of `key` (its preset,
 * variant, font scale), and when the band's width changes; the split is the band's
 * `--band-setup` / `--band-question` (fr), unset when the story is not a band in projector mode.
 */
export function useBalancedBand(
  ref: RefObject<HTMLElement | null>,
  /** Whether the band is up: projector mode, a question asked. */
  active: boolean,
  /** What the band's content depends on (preset, variant, font scale). */
  key: string,
): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const unset = () => {
      el.style.removeProperty('--band-setup');
      el.style.removeProperty('--band-question');
    };
    if (!active) return unset();
    const split = (share: number) => {
      el.style.setProperty('--band-setup', `${share}fr`);
      el.style.setProperty('--band-question', `${100 - share}fr`);
    };
    let width = -1;
    const balance = () => {
      width = el.clientWidth;
      // One column (a narrow window: band.css's container query) has nothing to balance.
      if (getComputedStyle(el).gridTemplateColumns.split(' ').length < 2) return;
      let best = { share: SHARES[0]!, height: Infinity };
      for (const share of SHARES) {
        split(share);
        // The band's content height (it may scroll in its own box past 58 % of the screen).
        const height = el.scrollHeight;
        // A pixel's gain does not make it less even.
        if (height < best.height - 1) best = { share, height };
      }
      split(best.share);
    };
    balance();
    if (typeof ResizeObserver !== 'function') return unset;
    const ro = new ResizeObserver(() => {
      if (el.clientWidth !== width) balance();
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      unset();
    };
  }, [ref, active, key]);
}
