/**
 * The open challenge, per page: which one (from `?challenge=<id>` at start, or chosen in the
 * library), its start as written, and the student's progress (attempts, solved, solution shown),
 * kept per challenge in storage (src/platform/challengeProgress.ts). Opening a challenge loads its
 * start as a page of its own (undo goes back to what was there).
 *
 * React state in a provider, as the library's: none of it is part of a scenario or a share link.
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
} from 'react';
import type { Challenge, ScenarioInput } from '../../engine';
import {
  challengeParamOf,
  FRESH_PROGRESS,
  pageStorage,
  readProgress,
  writeChallengeToLocation,
  writeProgress,
  type Progress,
} from '../../platform/challengeProgress';
import { challengeById, startInput } from '../../scenarios/challenges';
import { useLabInstance } from '../../store/LabContext';

/** The open challenge and what acts on it. */
export interface ChallengeUi {
  /** The open challenge and its start as written, or null. */
  open: { challenge: Challenge; start: ScenarioInput } | null;
  progress: Progress;
  /** Open a challenge by id (its start replaces the scenario), or close it (null). */
  openChallenge(id: string | null): void;
  /** Change the progress (from the current one, for a function) and store it. */
  updateProgress(change: Partial<Progress> | ((p: Progress) => Partial<Progress>)): void;
}

const Ctx = createContext<ChallengeUi | null>(null);

/** A shipped challenge and its start, or null for an id the lab does not have. */
function openingOf(id: string): ChallengeUi['open'] {
  const c = challengeById(id);
  const start = c ? startInput(c) : null;
  return c && start?.ok ? { challenge: c, start: start.input } : null;
}

/** Provides the open challenge; reads `?challenge=` once, at mount. */
export function ChallengeProvider({ children }: { children: ReactNode }) {
  const lab = useLabInstance();
  // The challenge the URL names, resolved once (undefined: it names none the lab has).
  const [asked] = useState(() => {
    const id = challengeParamOf(location.search);
    return id === null ? null : { id, open: openingOf(id) };
  });
  const [open, setOpen] = useState<ChallengeUi['open']>(asked?.open ?? null);
  const [progress, setProgress] = useState<Progress>(() =>
    asked?.open ? readProgress(asked.open.challenge.id, pageStorage()) : FRESH_PROGRESS,
  );

  const openChallenge = useCallback(
    (id: string | null) => {
      const next = id === null ? null : openingOf(id);
      setOpen(next);
      if (next) {
        setProgress(readProgress(next.challenge.id, pageStorage()));
        lab.actions.loadScenario(structuredClone(next.start), { presetRef: null, opened: true });
      }
      writeChallengeToLocation(next?.challenge.id ?? null);
    },
    [lab],
  );

  // The URL's challenge: its start replaces what the page opened with (undo brings that back).
  // Once, though StrictMode runs a mount effect twice: a second load would be a second undo step.
  const askedDone = useRef(false);
  useEffect(() => {
    if (!asked || askedDone.current) return;
    askedDone.current = true;
    if (asked.open)
      lab.actions.loadScenario(structuredClone(asked.open.start), {
        presetRef: null,
        opened: true,
      });
    else lab.app.setState({ notice: `No challenge “${asked.id.slice(0, 60)}” in the lab.` });
    writeChallengeToLocation(asked.open?.challenge.id ?? null);
  }, [asked, lab]);

  const id = open?.challenge.id;
  const updateProgress = useCallback(
    (change: Partial<Progress> | ((p: Progress) => Partial<Progress>)) => {
      if (!id) return;
      setProgress((p) => {
        const next = { ...p, ...(typeof change === 'function' ? change(p) : change) };
        writeProgress(id, next, pageStorage());
        return next;
      });
    },
    [id],
  );

  const value = useMemo<ChallengeUi>(
    () => ({ open, progress, openChallenge, updateProgress }),
    [open, progress, openChallenge, updateProgress],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

/** The open challenge, or null outside a {@link ChallengeProvider} (an embedded player). */
export function useChallengeUi(): ChallengeUi | null {
  return useContext(Ctx);
}
