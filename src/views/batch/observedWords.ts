/**
 * A batch verdict's observed guarantee in words. The checker's `none` (src/engine/checker.ts
 * observedGuarantee: some event lost and some applied twice, docs/semantics/batch.md "Fates")
 * reads as a guarantee's name nowhere else; a reader sees "observed none" as "nothing observed".
 * The words are the library's badge for it (src/views/library/guaranteeBadges.ts).
 */
import type { BatchVerdict, Guarantee } from '../../engine';
import { GUARANTEE_BADGES } from '../library/guaranteeBadges';
import { formatCountOf } from '../run/format';

const NONE = GUARANTEE_BADGES.none;

export function observedWords(observed: Guarantee | 'none'): string {
  return observed === 'none' ? `${NONE.label} (${NONE.meaning})` : observed;
}

/** A batch run's totals and observed guarantee in one line: the page's summary and a Compare lane's. */
export function batchTotalsWords(v: Pick<BatchVerdict, 'totals' | 'observed'>): string {
  const t = v.totals;
  return `${formatCountOf(t.rows, 'row')} · ${formatCountOf(t.duplicates, 'duplicate')} · ${t.lost} lost · ${t.wrongPartitionRows} under the wrong partition · observed ${observedWords(v.observed)}`;
}
