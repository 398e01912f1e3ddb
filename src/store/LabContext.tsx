/**
 * React bindings of the lab: a per-instance store provided by context (each page, embedded player
 * and test gets its own — xyflow's `useStore` pattern), and hooks with module-scope selectors.
 */
import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { CursorState, Lab, LabActions, LabState } from './labStore';

const LabContext = createContext<Lab | null>(null);

/** Provides a lab to the components below. */
export function LabProvider({ lab, children }: { lab: Lab; children: ReactNode }) {
  return <LabContext.Provider value={lab}>{children}</LabContext.Provider>;
}

/** The lab of the nearest {@link LabProvider}. Throws outside one (a wiring bug). */
export function useLabInstance(): Lab {
  const lab = useContext(LabContext);
  if (!lab) throw new Error('useLab* must be used inside <LabProvider>');
  return lab;
}

/**
 * Select from the app store. The selector must return a stable value (a field, a memoised
 * derivation) — a fresh object per call would re-render forever (zustand v5).
 */
export function useLab<T>(selector: (s: LabState) => T): T {
  return useStore(useLabInstance().app, selector);
}

/** Select from the playback cursor (changes every frame while playing: select narrowly). */
export function useCursor<T>(selector: (s: CursorState) => T): T {
  return useStore(useLabInstance().cursor, selector);
}

/** The lab's actions (a stable object). */
export function useActions(): LabActions {
  return useLabInstance().actions;
}

/**
 * Trace entries applied at the cursor, as the panels show it: re-renders when an engine event is
 * crossed, at most ≈ 15 times a second while playing (see playback.ts `SHOWN_INTERVAL_MS`).
 */
export function useIdx(): number {
  return useStore(useLabInstance().shown, selectIdx);
}
const selectIdx = (s: { idx: number }) => s.idx;

/** The view on screen, or null before the first run. */
export function useView() {
  return useLab(selectView);
}
const selectView = (s: LabState) => s.view;
