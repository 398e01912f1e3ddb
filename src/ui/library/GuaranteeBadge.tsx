import type { Guarantee } from '../../engine';
import { GUARANTEE_BADGES } from '../../views/library/guaranteeBadges';
import './styles/guaranteeBadge.css';

/**
 * The guarantee a preset illustrates: a symbol (=1, ≥1, ≤1) and its name, so the card says it
 * in words and shape, with colour only as a third cue. `said`: the word "shows" in view, where
 * the badge sits beside the switch's claim (the story's head) and could read as contradicting it
 * ("Configuration claims: exactly-once" and "≥1 at-least-once").
 */
export function GuaranteeBadge({ g, said = false }: { g: Guarantee | 'none'; said?: boolean }) {
  const b = GUARANTEE_BADGES[g];
  const badge = (
    <span
      className={`g-badge g-${g}`}
      title={`${said ? 'Shows' : 'Illustrates'} ${b.label}: ${b.meaning}`}
    >
      <span className="g-symbol" aria-hidden="true">
        {b.symbol}
      </span>
      {!said && <span className="visually-hidden">illustrates </span>}
      {b.label}
    </span>
  );
  return said ? <>shows {badge}</> : badge;
}
