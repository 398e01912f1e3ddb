import type { LiveFate } from '../views/run/at';
import { Icon } from './Icon';

const FATE: Record<LiveFate, { icon: string; text: string }> = {
  once: { icon: '✓', text: 'once' },
  duplicated: { icon: '', text: 'duplicated' },
  lost: { icon: '✕', text: 'lost' },
  pending: { icon: '…', text: 'not yet' },
};

/** A fate badge: icon and text, never colour alone. */
export function Fate({ fate, count }: { fate: LiveFate; count?: number }) {
  const f = FATE[fate];
  return (
    <span className={`fate ${fate}`}>
      {fate === 'duplicated' ? <Icon name="dup" /> : <span aria-hidden="true">{f.icon}</span>}
      {f.text}
      {fate === 'duplicated' && count !== undefined ? ` ×${count}` : ''}
    </span>
  );
}

/** The final fate code of the checker (0 lost, 1 once, 2 duplicated) as a {@link LiveFate}. */
export function fateOfCode(code: number): LiveFate {
  return code === 0 ? 'lost' : code === 1 ? 'once' : 'duplicated';
}
