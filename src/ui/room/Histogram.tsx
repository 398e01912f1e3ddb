import { histogramBars } from '../../views/room/histogram';
import type { RoomQuestion, RoomReveal } from '../../views/room/protocol';
import { roomTestIds } from './roomTestIds';
import { optionLetter } from '../../views/room/optionLetter';

/** A choice's letter before its bar's label, as the projector and the phones letter it. */
function letterOf(question: RoomQuestion, value: string) {
  const k = question.kind === 'choice' ? question.options.findIndex((o) => o.id === value) : -1;
  return k < 0 ? null : <span className="room-letter">{optionLetter(k)}</span>;
}

/** The room's answers as bars: counts only, never who gave them. */
export function Histogram({
  question,
  counts,
  reveal,
}: {
  question: RoomQuestion;
  counts: Readonly<Record<string, number>>;
  reveal: RoomReveal | null;
}) {
  const bars = histogramBars(question, counts, reveal?.correct);
  if (bars.length === 0) return <p className="room-empty">No answers yet.</p>;
  return (
    <ul className="room-histogram" data-kind={question.kind} data-testid={roomTestIds.histogram}>
      {bars.map((b) => (
        <li
          key={b.value}
          data-value={b.value}
          data-count={b.count}
          data-right={b.right || undefined}
        >
          <span className="room-bar-label">
            {letterOf(question, b.value)}
            {b.unit ? (
              <>
                {b.value}
                <span className="room-bar-unit"> {b.unit}</span>
              </>
            ) : (
              b.label
            )}
            {b.right && ' ✓'}
          </span>
          <span className="room-bar" style={{ ['--share' as string]: String(b.share) }} />
          <span className="room-bar-count">{b.count}</span>
        </li>
      ))}
    </ul>
  );
}
