/**
 * The library's UI state, per page: whether the library is open, whether the story beside the
 * pipeline is folded away, and the predictions written so far (per preset id: switching variants
 * keeps them, "same failure, three sinks").
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
import { useLabInstance } from '../../store/LabContext';
import { atRunEnd, isPristinePreset, openPreset, predictionPhase } from '../../views/library';
import { usePresetUrl } from './usePresetUrl';

/** A prediction in progress: what was written, whether it was locked in, whether it was revealed. */
export interface Prediction {
  text: string;
  locked: boolean;
  revealed: boolean;
}

const EMPTY: Prediction = { text: '', locked: false, revealed: false };

/** The library's UI state and its setters. */
export interface LibraryUi {
  open: boolean;
  /** Open the library (remembering what had focus, to return to it) or close it. */
  setOpen(open: boolean): void;
  /** Where focus goes back to when the library closes without opening a preset. */
  returnFocus: RefObject<HTMLElement | null>;
  storyHidden: boolean;
  setStoryHidden(hidden: boolean): void;
  /** The prediction for a preset id (empty when none was written). */
  prediction(presetId: string): Prediction;
  updatePrediction(presetId: string, change: Partial<Prediction>): void;
  /** Bumped when a preset is opened from the library (the story panel's cue to take focus). */
  openedTick: number;
  /** Ask the story panel to take focus when it next renders (a preset opened, the story unfolded). */
  requestStoryFocus(): void;
  /** Whether focus was asked for since the last call (the story panel's question; clears it). */
  takeStoryFocus(): boolean;
  /** A preset was opened from the library: move focus to the story. */
  markOpened(): void;
}

const Ctx = createContext<LibraryUi | null>(null);

/** Provides the library's UI state and keeps the URL's `?preset=` in step with the workspace. */
export function LibraryProvider({ children }: { children: ReactNode }) {
  const [open, setOpenState] = useState(false);
  const [storyHidden, setStoryHidden] = useState(false);
  const [predictions, setPredictions] = useState<Record<string, Prediction>>({});
  const [openedTick, setOpenedTick] = useState(0);
  const returnFocus = useRef<HTMLElement | null>(null);
  const focusStory = useRef(false);
  const lab = useLabInstance();
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
  const updatePrediction = useCallback((id: string, change: Partial<Prediction>) => {
    setPredictions((all) => ({ ...all, [id]: { ...(all[id] ?? EMPTY), ...change } }));
  }, []);
  // Reaching the end of the run with the prediction locked in reveals the answer (and, with it,
  // the outcome the page hid), and the reveal stays when the cursor goes back; without an answer
  // the end reveals nothing ("Show the outcome" is the way past the question). Here rather than
  // in the prediction box, which is not mounted while the story is folded away. Subscribed
  // outside React: the cursor moves every frame, and nothing should re-render with it.
  const predictionsNow = useRef(predictions);
  const checkReveal = useRef<() => void>(() => {});
  useEffect(() => {
    predictionsNow.current = predictions;
    // Locking the answer in while the cursor already stands at the end reveals it too.
    checkReveal.current();
  }, [predictions]);
  useEffect(() => {
    const check = () => {
      const s = lab.app.getState();
      const open = openPreset(s.presetRef);
      const v = s.view;
      if (!open || !v) return;
      const p = predictionsNow.current[open.preset.id] ?? EMPTY;
      const phase = predictionPhase({
        open,
        pristine: isPristinePreset(s.scenario, s.presetRef),
        ...p,
      });
      if (phase !== 'locked') return;
      const c = lab.cursor.getState();
      // The run on screen must be this scenario's: a preset opened while the cursor stood at
      // the end of another run must not find "the end" there and give its answer away.
      const current = s.status === 'ready' && s.viewFor === s.scenario;
      if (atRunEnd({ current, idx: c.idx, n: v.n, t: c.t, endTime: v.endTime }))
        updatePrediction(open.preset.id, { revealed: true });
    };
    checkReveal.current = check;
    check();
    const offCursor = lab.cursor.subscribe(check);
    const offApp = lab.app.subscribe(check);
    return () => {
      offCursor();
      offApp();
    };
  }, [lab, updatePrediction]);
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
      prediction: (id) => predictions[id] ?? EMPTY,
      updatePrediction,
      openedTick,
      requestStoryFocus,
      takeStoryFocus,
      markOpened,
    }),
    [
      open,
      setOpen,
      storyHidden,
      predictions,
      updatePrediction,
      openedTick,
      requestStoryFocus,
      takeStoryFocus,
      markOpened,
    ],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

/**
 * The library's UI state, or null outside a {@link LibraryProvider}: a view without the library
 * (an embedded player) renders the same top bar, minus the library's parts.
 */
export function useLibraryUi(): LibraryUi | null {
  return useContext(Ctx);
}
