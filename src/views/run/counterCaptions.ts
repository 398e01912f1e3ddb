import { countersAt, type Counters } from './at';
import { formatMoney } from './format';
import type { RunView } from './runView';

/**
 * The amount counter's caption at a cursor, in two parts: what was counted twice (shown strong)
 * or "nothing double-counted", then what is not in (yet, or at all).
 */
export function sumCaption(c: Counters, cutOff: boolean): { double: string | null; rest: string } {
  const over = c.doubleAmount;
  const missing =
    c.missingAmount > 0
      ? ` · ${formatMoney(c.missingAmount)} ${!c.final ? 'not yet in' : cutOff ? 'lost or unfinished' : 'lost'}`
      : '';
  return { double: over > 0 ? `${formatMoney(over)} double-counted` : null, rest: missing };
}

/**
 * The amount counter's longest caption over the whole run, in words: the room its card reserves
 * from the first frame (the embed's height never moves, issue 31). Mid-run "nothing
 * double-counted · $550 not yet in" wraps to two lines where the end's "$30 double-counted"
 * takes one, and the card beside it (the verdict) wraps as the amount's card narrows.
 * Longest in characters; every character of it is laid out bold, so it is never narrower than
 * the caption it stands for.
 */
export function longestSumCaption(view: RunView): string {
  let longest = '';
  for (let i = 0; i <= view.n; i++) {
    const { double, rest } = sumCaption(countersAt(view, i), view.cutOff);
    const words = (double ?? 'nothing double-counted') + rest;
    if (words.length > longest.length) longest = words;
  }
  return longest;
}
