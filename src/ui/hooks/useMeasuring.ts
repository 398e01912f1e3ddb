import { createContext, useContext } from 'react';

/**
 * True while the embed's player is laid out only for its height (src/ui/embed/ReserveHeight.tsx):
 * the stream player at its run's end before it is first shown, a batch player's hidden copy at
 * points of its schedule. What only a reader sees and that takes no room — the tokens in flight,
 * scroll cues, a table kept scrolled to its end — is skipped then: each of them read the layout
 * at every pass (forced layouts before the embed's first paint, issue 31).
 */
export const Measuring = createContext(false);

export function useMeasuring(): boolean {
  return useContext(Measuring);
}
