/**
 * The library's UI state, per page: whether the library is open and whether the story beside the
 * pipeline is folded away — and, through the {@link PredictionProvider} it mounts, the predictions
 * written so far (per preset id: switching variants keeps them, "same failure, three sinks").
 *
 * React state in a provider rather than fields of the lab store: none of it is part of a
 * scenario, undo, a share link or the saved workspace, and each page or embedded player that
 * mounts a provider gets its own.
 */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import type { LinkedPredictions } from '../share/shareSync';
import { PredictionProvider } from './PredictionContext';
import { usePresetUrl } from './usePresetUrl';

/** The library's UI state and its setters. */
export interface LibraryUi {
  open: boolean;
  /** Open the library (remembering what had focus, to return to it) or close it. */
  setOpen(open: boolean): void;
  /** Where focus goes back to when the library closes without opening a preset. */
  returnFocus: RefObject<HTMLElement | null>;
  storyHidden: boolean;
  setStoryHidden(hidden: boolean): void;
  /** Bumped when a preset is opened from the library (the story panel's cue to take focus). */
  openedTick: number;
  /** Ask the story panel to take focus when it next renders (a preset opened, the story unfolded). */
  requestStoryFocus(): void;
  /** Whether focus was asked for since the last call (the story panel's question; clears it). */
  takeStoryFocus(): boolean;
  /** A preset was opened from the library: move focus to the story. */
  markOpened(): void;
  /** The question a share link asked (null: the page cannot open links, a test). */
  linked: LinkedPredictions | null;
  /**
   * The story stays the band above the pipeline though its answer is locked in (projector mode,
   * its column too short beside it: useBandWhileLocked): the locked answer is then read in the
   * band's question box, else in the counters' row (LockedPrediction).
   */
  bandWhileLocked: boolean;
  setBandWhileLocked(band: boolean): void;
}

const Ctx = createContext<LibraryUi | null>(null);

/**
 * Provides the library's UI state and the open preset's predictions, and keeps the URL's
 * `?preset=` in step with the workspace.
 * @param linked - a share link's question, asked instead of the open preset's while it applies
 *   (the page's share sync); absent: the open preset's only.
 */
export function LibraryProvider({
  linked = null,
  children,
}: {
  linked?: LinkedPredictions | null;
  children: ReactNode;
}) {
  const [open, setOpenState] = useState(false);
  const [storyHidden, setStoryHidden] = useState(false);
  const [openedTick, setOpenedTick] = useState(0);
  const [bandWhileLocked, setBandWhileLocked] = useState(false);
  const returnFocus = useRef<HTMLElement | null>(null);
  const focusStory = useRef(false);
  usePresetUrl();

  const setOpen = useCallback((next: boolean) => {
    if (next && document.activeElement instanceof HTMLElement)
      returnFocus.current = document.activeElement;
    setOpenState(next);
  }, []);
  // "L" opens the library from anywhere a key is not someone else's (fields, menus, sliders).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'l' && e.key !== 'L') return;
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const t = e.target;
      if (
        t instanceof HTMLElement &&
        (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))
      )
        return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setOpen]);
  const requestStoryFocus = useCallback(() => {
    focusStory.current = true;
  }, []);
  const takeStoryFocus = useCallback(() => {
    const asked = focusStory.current;
    focusStory.current = false;
    return asked;
  }, []);
  const markOpened = useCallback(() => {
    focusStory.current = true;
    setOpenedTick((n) => n + 1);
  }, []);

  const value = useMemo<LibraryUi>(
    () => ({
      open,
      setOpen,
      returnFocus,
      storyHidden,
      setStoryHidden,
      openedTick,
      requestStoryFocus,
      takeStoryFocus,
      markOpened,
      linked,
      bandWhileLocked,
      setBandWhileLocked,
    }),
    [
      open,
      setOpen,
      storyHidden,
      openedTick,
      requestStoryFocus,
      takeStoryFocus,
      markOpened,
      linked,
      bandWhileLocked,
    ],
  );
  return (
    <Ctx.Provider value={value}>
      <PredictionProvider {...(linked ? { subject: linked.subject } : {})}>
        {children}
      </PredictionProvider>
    </Ctx.Provider>
  );
}

/**
 * The library's UI state, or null outside a {@link LibraryProvider}: a view without the library
 * (an embedded player) renders the same top bar, minus the library's parts.
 */
export function useLibraryUi(): LibraryUi | null {
  return useContext(Ctx);
}
