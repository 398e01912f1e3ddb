/**
 * The room's histogram as bars: one per possible answer of a choice or a challenge (in the
 * question's order, zero included, so the room sees what nobody chose), one per distinct number
 * given (in numeric order). The right answer, once revealed, is marked.
 *
 * A number question's spread is capped: a room of 25 answered 25 different numbers, and the
 * panel's 25 bars ran 700 px past the projector's bottom, the right answer's and the panel's
 * buttons below the fold (a room cannot scroll the projector). The NUMBER_BARS most given numbers
 * keep their own bars; the rest share one ("7 other numbers"). Which numbers keep a bar depends
 * on the counts only, never on the right answer, so the bars tell nothing before the reveal;
 * once revealed, the right number has its own bar, marked, whatever its count (0 included).
 */
import { CHALLENGE_ANSWERS, type RoomQuestion } from './protocol';

export interface HistogramBar {
  value: string;
  label: string;
  /** A number's bar: the unit its label ends with ("rows"), which a narrow column may leave to
   * the question ("How many rows…?"). */
  unit?: string;
  count: number;
  /** A fraction of the longest bar, 0..1 (0 when nobody answered). */
  share: number;
  right: boolean;
}

/** The most numbers a number question's histogram gives a bar of their own (the rest share one). */
export const NUMBER_BARS = 5;

/** The value of the bar the numbers without a bar of their own share (never a number). */
export const OTHER_NUMBERS = 'other';

export function histogramBars(
  question: RoomQuestion,
  counts: Readonly<Record<string, number>>,
  correct?: string,
): HistogramBar[] {
  const options: { value: string; label: string; unit?: string; count?: number }[] =
    question.kind === 'choice'
      ? question.options.map((o) => ({ value: o.id, label: o.text }))
      : question.kind === 'challenge'
        ? CHALLENGE_ANSWERS.map((a) => ({ value: a.id, label: a.text }))
        : numberOptions(Object.keys(counts), counts, question.unit, correct);
  const countOf = (o: { value: string; count?: number }) => o.count ?? counts[o.value] ?? 0;
  const max = Math.max(0, ...options.map(countOf));
  return options.map((o) => {
    const count = countOf(o);
    return {
      value: o.value,
      label: o.label,
      ...(o.unit ? { unit: o.unit } : {}),
      count,
      share: max === 0 ? 0 : count / max,
      right: o.value === correct,
    };
  });
}

/**
 * A number question's bars: the NUMBER_BARS numbers given most (ties to the smaller), and the
 * right one once revealed, each its own bar in numeric order; the others summed in a last bar.
 */
function numberOptions(
  values: string[],
  counts: Readonly<Record<string, number>>,
  unit: string,
  correct: string | undefined,
): { value: string; label: string; unit?: string; count?: number }[] {
  const byNumber = (a: string, b: string) => Number(a) - Number(b);
  const most = [...values]
    .sort((a, b) => (counts[b] ?? 0) - (counts[a] ?? 0) || byNumber(a, b))
    .slice(0, NUMBER_BARS);
  const own = new Set(most);
  // Given or not: a right number nobody gave shows at 0 (docs/classroom.md: "the right number
  // gets its own bar at the reveal"); it was left out, the room's bars silent on it.
  if (correct !== undefined && Number.isFinite(Number(correct))) own.add(correct);
  // One number left over keeps its own bar: a shared bar would save no line.
  if (values.filter((v) => !own.has(v)).length === 1) values.forEach((v) => own.add(v));
  const bars: { value: string; label: string; unit?: string; count?: number }[] = [...own]
    .sort(byNumber)
    .map((v) => ({ value: v, label: `${v} ${unit}`.trim(), ...(unit ? { unit } : {}) }));
  const rest = values.filter((v) => !own.has(v));
  if (rest.length > 0)
    bars.push({
      value: OTHER_NUMBERS,
      label: `${rest.length} other numbers`,
      count: rest.reduce((sum, v) => sum + (counts[v] ?? 0), 0),
    });
  return bars;
}
