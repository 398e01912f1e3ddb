/**
 * Landmark names unique across a host page with several players: each embedded player's regions
 * (Playback, Counters, Pipeline, Producer, …) are named after their own name and the player's
 * caption — "Producer A lost ack" — so two frames on one page do not offer a screen reader two
 * regions of one name (axe's landmark-unique, https://dequeuniversity.com/rules/axe/4.10/landmark-unique,
 * checked by e2e/embed-landmarks.spec.ts). `aria-labelledby` naming the region itself and the
 * caption (https://www.w3.org/TR/accname-1.2/#step2B: a region referenced by its own
 * aria-labelledby contributes its aria-label): the `aria-label` stays as it was, for the page's
 * CSS and tests. Outside a player (the lab's page) nothing changes.
 */
import { createContext, useContext, useId } from 'react';

/** The id of the embedded player's caption (its `<h1>`), or null outside a player. */
export const LandmarkCaption = createContext<string | null>(null);

/** The props that name a region after itself and the player's caption (none outside a player). */
export function useLandmarkName(ownId?: string): { id?: string; 'aria-labelledby'?: string } {
  const caption = useContext(LandmarkCaption);
  const generated = useId();
  const id = ownId ?? generated;
  return caption ? { id, 'aria-labelledby': `${id} ${caption}` } : {};
}
