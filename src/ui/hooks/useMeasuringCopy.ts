import { createContext, useContext } from 'react';

/**
 * True inside the embed's measuring copy (src/ui/embed/ReserveHeight.tsx): a hidden render of
 * the player at points of its run, laid out for its height and never seen. What only a reader
 * sees and that takes no room — the tokens in flight, scroll cues, a table kept scrolled to its
 * end — is skipped there: each of them read the copy's layout at every sample (forced layouts
 * before the embed's first paint, issue 31).
 */
export const MeasuringCopy = createContext(false);

export function useMeasuringCopy(): boolean {
  return useContext(MeasuringCopy);
}
