import { useMemo, useSyncExternalStore } from 'react';
import { pageStorage } from '../../platform/challengeProgress';
import { keptSolutionKey, readKeptSolution } from '../../platform/keptSolution';
import type { RoomSolution } from '../../views/room/protocol';

/**
 * Calls `changed` when the challenge tab may have kept a solution: the `storage` event fires in
 * the other pages of the same origin when one changes `localStorage`
 * (https://developer.mozilla.org/en-US/docs/Web/API/Window/storage_event), and a page back on
 * screen (a phone switching back from the challenge's tab) reads again, in case one was missed.
 */
function subscribe(changed: () => void): () => void {
  window.addEventListener('storage', changed);
  document.addEventListener('visibilitychange', changed);
  return () => {
    window.removeEventListener('storage', changed);
    document.removeEventListener('visibilitychange', changed);
  };
}

/**
 * The solution this browser's challenge tab kept for `id` (null: none, or no challenge), live: a
 * student who solves it in the challenge's tab while the room's page is open sees "Your solution
 * goes with it" at once. Read as stored text (a stable snapshot), validated once per change.
 */
export function useKeptSolution(id: string | undefined): RoomSolution | null {
  const stored = useSyncExternalStore(subscribe, () => {
    try {
      return id ? (pageStorage()?.getItem(keptSolutionKey(id)) ?? null) : null;
    } catch {
      return null;
    }
  });
  return useMemo(
    () => (id && stored ? readKeptSolution(id, { getItem: () => stored }) : null),
    [id, stored],
  );
}
