import { createContext, useContext } from 'react';

/**
 * True in the embed's player (src/ui/embed): a part whose height would change while the run
 * plays takes, from the first frame, the room of its fullest state over the run — a counter's
 * longest caption, a consumer's "left its group" line — so the player is never taller before its
 * end than at it, and its height, measured once at the end (ReserveHeight.tsx), never moves in
 * the host's page (issue 31). The lab's page lays out what is there now.
 */
export const ReserveRoom = createContext(false);

export function useReserveRoom(): boolean {
  return useContext(ReserveRoom);
}
