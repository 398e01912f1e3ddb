import type { Guarantee } from '../../engine';
import { GUARANTEE_BADGES } from '../../views/library/library';

/**
 * The guarantee a preset illustrates: a symbol (=1, ≥1, ≤1) and its name, so the card says it
 * in words and shape, with colour only as a third cue.
 */
export function GuaranteeBadge({ g }: { g: Guarantee | 'none' }) {
  const b = GUARANTEE_BADGES[g];
  return (
    <span className={`g-badge g-${g}`} title={`Illustrates ${b.label}: ${b.meaning}`}>
      <span className="g-symbol" aria-hidden="true">
        {b.symbol}
      </span>
      <span className="visually-hidden">illustrates </span>
      {b.label}
    </span>
  );
}
