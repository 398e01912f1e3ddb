/**
 * The words and symbol of each guarantee a preset illustrates or a run shows: the library's badges
 * (src/ui/library/GuaranteeBadge.tsx) and a batch verdict's "observed no guarantee (…)"
 * (src/views/batch/observedWords.ts). A module of its own, so that batch Compare reads them without
 * the library's logic and the preset catalogue it imports.
 */
import type { Guarantee } from '../../engine';

/** How a guarantee is shown on a card: a symbol and words (never colour alone). */
export interface GuaranteeBadge {
  /** `=1`, `≥1`, `≤1`, `≥0`: how many times each event takes effect. */
  symbol: string;
  label: string;
  /** A sentence for the tooltip and screen readers. */
  meaning: string;
}

/** The badges of what a preset illustrates. */
export const GUARANTEE_BADGES: Readonly<Record<Guarantee | 'none', GuaranteeBadge>> = {
  'exactly-once': {
    symbol: '=1',
    label: 'exactly-once',
    meaning: 'each event takes effect exactly once — and where that stops holding',
  },
  'at-least-once': {
    symbol: '≥1',
    label: 'at-least-once',
    meaning: 'nothing is lost, but a retry or replay can apply an event twice',
  },
  'at-most-once': {
    symbol: '≤1',
    label: 'at-most-once',
    meaning: 'nothing is applied twice, but an event can be lost',
  },
  // Any number of times, none included: lost (0) and applied twice (2) both happen. A `?` read as
  // "unknown", as if the run had not been checked. The words say what happened, so that a batch
  // verdict's "observed no guarantee (…)" reads them as well as a card.
  none: {
    symbol: '≥0',
    label: 'no guarantee',
    meaning: 'events lost and applied twice',
  },
};
