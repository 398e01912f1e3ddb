/**
 * The room's histogram as bars: one per possible answer of a choice or a challenge (in the
 * question's order, zero included, so the room sees what nobody chose), one per distinct number
 * given (in numeric order). The right answer, once revealed, is marked.
 */
import { CHALLENGE_ANSWERS, type RoomQuestion } from './protocol';

export interface HistogramBar {
  value: string;
  label: string;
  count: number;
  /** A fraction of the longest bar, 0..1 (0 when nobody answered). */
  share: number;
  right: boolean;
}

export function histogramBars(
  question: RoomQuestion,
  counts: Readonly<Record<string, number>>,
  correct?: string,
): HistogramBar[] {
  const options: { value: string; label: string }[] =
    question.kind === 'choice'
      ? question.options.map((o) => ({ value: o.id, label: o.text }))
      : question.kind === 'challenge'
        ? CHALLENGE_ANSWERS.map((a) => ({ value: a.id, label: a.text }))
        : Object.keys(counts)
            .sort((a, b) => Number(a) - Number(b))
            .map((v) => ({ value: v, label: `${v} ${question.unit}`.trim() }));
  const max = Math.max(0, ...options.map((o) => counts[o.value] ?? 0));
  return options.map((o) => {
    const count = counts[o.value] ?? 0;
    return { ...o, count, share: max === 0 ? 0 : count / max, right: o.value === correct };
  });
}
