/**
 * The challenge panel's chunk (it judges attempts with the engine on the page: not in the page's
 * entry). Loaded on first use — or before the first render when the page opens on a challenge
 * (`?challenge=`, src/main.tsx): its panel is then drawn with the first screen rather than one
 * Suspense retry after it, which showed the challenge's pipeline without its panel first.
 */
import type { ComponentType } from 'react';

let loaded: ComponentType | null = null;

/** Load the panel's chunk (once; later calls get the same module). */
export function loadChallengePanel(): Promise<ComponentType> {
  return import('./ChallengePanel').then((m) => (loaded = m.ChallengePanel));
}

/** The panel, if its chunk is in: rendered at once, with no Suspense boundary to wait on. */
export function loadedChallengePanel(): ComponentType | null {
  return loaded;
}
