/**
 * The open challenge, per page: which one (from `?challenge=<id>`, resolved by the page's boot
 * before its first render: src/ui/io/firstChallenge.ts; or chosen in the library), its start as
 * written, and the student's progress (attempts, solved, solution shown),
 * kept per challenge in storage (src/platform/challengeProgress.ts). Opening one in the library
 * loads its start as a page of its own (undo goes back to what was there); the address's is the
 * page's first screen, with no undo step (../io/startup.ts).
 *
 * React state in a provider, as the library's: none of it is part of a scenario or a share link.
 * The shipped challenges (and the presets and zod they are checked with) load when one is opened
 * or the URL names one, not with the page (issues #24, #31).
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
  rememberOpenChallenge,
  writeChallengeLinkToLocation,
  writeChallengeToLocation,
  writeProgress,
  type Progress,
} from '../../platform/challengeProgress';
import { useLabInstance } from '../../store/LabContext';
import { sameRun } from '../../store/sameRun';
import { addressHash, addressQuery } from '../../platform/address';
import { noChallengeText, openingOf, type ChallengeOpening } from './challengeOpening';

/** The open challenge and what acts on it. */
export interface ChallengeUi {
  /**
   * The open challenge and its start as written, or null. `fromFile`: opened from a file (the
   * page's Import), carried by the address's hash (`#ch=…`) rather than named by its id.
   */
  open: ChallengeOpening | null;
  progress: Progress;
  /** Open a challenge by id (its start replaces the scenario), or close it (null). */
  openChallenge(id: string | null): void;
  /** Open a challenge from a file, validated (src/ui/io/importScenario.ts), with its start. */
  openFileChallenge(challenge: Challenge, start: ScenarioInput): void;
  /** Change the progress (from the current one, for a function) and store it. */
  updateProgress(change: Partial<Progress> | ((p: Progress) => Partial<Progress>)): void;
}

const Ctx = createContext<ChallengeUi | null>(null);

/**
 * Provides the open challenge. `first`: the one the page opened on (`?challenge=`, its start
 * already the page's scenario, or the student's attempt at it that a reload restored).
 */
export function ChallengeProvider({
  first = null,
  children,
}: {
  first?: ChallengeOpening | null;
  children: ReactNode;
}) {
  const lab = useLabInstance();
  const [open, setOpen] = useState<ChallengeUi['open']>(first);
  const [progress, setProgress] = useState<Progress>(() =>
    first ? readProgress(first.challenge.id, pageStorage()) : FRESH_PROGRESS,
  );
  // The last id asked for: a slower load of an earlier one does not replace it.
  const askedLast = useRef<string | null>(first?.challenge.id ?? null);

  /**
   * Show the challenge `id` resolved to, unless another was asked for meanwhile. `keep`: the
   * page's scenario is the one to show it over (the browser history's entry) — left as it is.
   */
  const show = useCallback(
    (id: string, opening: ChallengeOpening | null | string, keep = false) => {
      if (askedLast.current !== id) return;
      const next = typeof opening === 'string' ? null : opening;
      setOpen(next);
      if (next) {
        setProgress(readProgress(next.challenge.id, pageStorage()));
        if (!keep)
          lab.actions.loadScenario(structuredClone(next.start), {
            presetRef: null,
            opened: true,
            replay: true,
          });
      } else
        lab.app.setState({ notice: typeof opening === 'string' ? opening : noChallengeText(id) });
      rememberOpenChallenge(next?.challenge.id ?? null);
      writeChallengeToLocation(next?.challenge.id ?? null);
      if (!next?.fromFile) writeChallengeLinkToLocation(null);
    },
    [lab],
  );

  const openFileChallenge = useCallback(
    (challenge: Challenge, start: ScenarioInput) => {
      const id = challenge.id;
      askedLast.current = id;
      void import('../../views/io/hashPayload').then(({ hashPayloadValue }) => {
        if (askedLast.current !== id) return;
        show(id, { challenge, start, fromFile: true });
        // Carried by the address's hash (the page its start opened as): a reload, Back and
        // Forward, and a copied link find it there (`#ch=`, as encodeChallengeLink writes it).
        writeChallengeLinkToLocation(hashPayloadValue(challenge));
      });
    },
    [show],
  );

  const openChallenge = useCallback(
    (id: string | null) => {
      askedLast.current = id;
      if (id !== null) {
        void openingOf(id, addressHash()).then((next) => show(id, next));
        return;
      }
      setOpen(null);
      rememberOpenChallenge(null);
      writeChallengeToLocation(null);
      writeChallengeLinkToLocation(null);
    },
    [show],
  );

  // Back and Forward: the entry's address says which challenge is open (writeChallengeToLocation
  // puts it in the entry's address). The browser history loads the entry's scenario
  // (src/ui/io/historySync.ts); this opens or closes the panel over it, keeping that scenario.
  // Back from a challenge opened in the library left its panel over the page before it.
  const openId = open?.challenge.id ?? null;
  useEffect(() => {
    const onPop = () => {
      const id = challengeParamOf(addressQuery());
      if (id === openId) return;
      askedLast.current = id;
      if (id === null) {
        setOpen(null);
        rememberOpenChallenge(null);
        return;
      }
      void openingOf(id, addressHash()).then((next) => show(id, next, true));
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [openId, show]);

  // Each run of an open challenge is played as a replay: its verdict folds until the run reaches
  // its end or "Reveal now" (issue 24, LabState.replay) — the start's, and each attempt's, whose
  // verdict would otherwise say whether it solved the challenge before it is played.
  const challengeOpen = open !== null;
  useEffect(() => {
    if (!challengeOpen) return;
    const foldNew = (s: { scenario: ScenarioInput; replay: ScenarioInput | null }) => {
      if (!sameRun(s.replay, s.scenario)) lab.app.setState({ replay: s.scenario });
    };
    foldNew(lab.app.getState());
    return lab.app.subscribe((s, prev) => {
      if (s.scenario !== prev.scenario) foldNew(s);
    });
  }, [lab, challengeOpen]);

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
    () => ({ open, progress, openChallenge, openFileChallenge, updateProgress }),
    [open, progress, openChallenge, openFileChallenge, updateProgress],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

/** The open challenge, or null outside a {@link ChallengeProvider} (an embedded player). */
export function useChallengeUi(): ChallengeUi | null {
  return useContext(Ctx);
}
