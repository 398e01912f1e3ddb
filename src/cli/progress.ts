/**
 * A line of progress on a terminal's stderr while a long command runs (`--explore`: an atlas of
 * thousands of runs can take minutes): rewritten in place, cleared when done, and only on a
 * terminal — piped or in CI, stderr gets nothing but the command's messages.
 */
import { groupDigits } from '../engine/groupDigits';

/** Shows a line of progress in place of the last one; null clears it. */
export type StatusLine = (line: string | null) => void;

/** The status line of a terminal stream (`\r`, the text, then erase to the end of the line). */
export function terminalStatus(write: (s: string) => void): StatusLine {
  return (line) => write(line === null ? '\r\x1b[K' : `\r${line}\x1b[K`);
}

/** How often the line is rewritten at most (ms): often enough to move, rarely enough to cost nothing. */
const EVERY_MS = 250;

/**
 * An atlas's `onProgress` that shows "exploring: 1,234 of 20,162 runs (6 %)" at most every
 * {@link EVERY_MS} of `now()`'s clock (and its first report at once).
 */
export function atlasProgress(
  status: StatusLine,
  now: () => number = () => performance.now(),
): (done: number, total: number) => void {
  let shownAt = -Infinity;
  return (done, total) => {
    const t = now();
    if (t - shownAt < EVERY_MS && done < total) return;
    shownAt = t;
    const pct = total > 0 ? Math.floor((100 * done) / total) : 100;
    status(`exploring: ${groupDigits(done)} of ${groupDigits(total)} runs (${pct} %)`);
  };
}
