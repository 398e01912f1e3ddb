/**
 * The class of a card's line that counts what the run has done so far, while it is still 0
 * ("acked 0", "retried 0", "uncommitted none", "processed 0 records"): projector mode folds such
 * lines while the story's question is asked, the run waiting at its start — every one of them
 * is 0 there, and the setup's numbers need the room (src/ui/present/askedCards.css). A count
 * that is not 0 is always shown.
 */
export function zeroCount(n: number, base?: string): string | undefined {
  const classes = [base, n === 0 ? 'zero-count' : undefined].filter(Boolean).join(' ');
  return classes || undefined;
}
