/**
 * The mark beside a counter's number. A failure mark says something failed: "✕ 0 lost events"
 * put one next to nothing failing. At zero the mark is neutral, whatever the counter.
 */

/** Beside zero, on any counter: nothing to flag. */
export const NEUTRAL_MARK = '○';

/**
 * The "lost events" counter's mark: `○` at zero; `…` while the run is not over (they may still
 * arrive: not lost yet); `✕` for events lost at the end of the run.
 */
export function missingMark(missing: number, final: boolean): '○' | '…' | '✕' {
  if (missing === 0) return NEUTRAL_MARK;
  return final ? '✕' : '…';
}

/** The duplicates counter's mark: the copy icon for one or more, `○` at zero. */
export function duplicatesMark(duplicates: number): 'copy' | '○' {
  return duplicates > 0 ? 'copy' : NEUTRAL_MARK;
}
