/**
 * The open challenge, per page: which one (from `?challenge=<id>` at start, or chosen in the
 * library), its start as written, and the student's progress (attempts, solved, solution shown),
 * kept per challenge in storage (src/platform/challengeProgress.ts). Opening a challenge loads its
 * start as a page of its own (undo goes back to what was there).
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
  openChallengeBefore,
  pageStorage,
  readProgress,
  rememberOpenChallenge,
  writeChallengeLinkToLocation,
  writeChallengeToLocation,
  writeProgress,
  type Progress,
} from '../../platform/challengeProgress';
import { useLabInstance } from '../../store/LabContext';
import { addressQuery } from '../../platform/address';

/** The open challenge and what acts on it. */
export interface ChallengeUi {
  /**
   * The open challenge and its start as written, or null. `fromFile`: opened from a file (the
   * page's Import), carried by the address's hash (`#ch=…`) rather than named by its id.
   */
  open: { challenge: Challenge; start: ScenarioInput; fromFile?: true } | null;
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
 * The challenge `id` names and its start: the shipped one, else the one the address's hash carries
 * (`#ch=…`, a file's) if it has that id; null for an id the lab does not have, or the words of a
 * carried challenge that does not validate.
 */
async function openingOf(id: string): Promise<ChallengeUi['open'] | string> {
  const { challengeById, startInput } = await import('../../scenarios/challenges');
  const c = challengeById(id);
  if (c) {
    const start = startInput(c);
    return start.ok ? { challenge: c, start: start.input } : null;
  }
  const { decodeChallengeLink } = await import('../../views/challenge/challengeLink');
  const carried = decodeChallengeLink(location.hash);
  if (carried === null) return null;
  if (!carried.ok)
    return `The challenge in this link could not be opened: ${carried.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`.slice(
      0,
      400,
    );
  return carried.challenge.id === id
    ? { challenge: carried.challenge, start: carried.start, fromFile: true }
    : null;
}

/** Whether `scenario` (the workspace the page restored) is an attempt at `start`'s challenge. */
async function isAttemptAt(start: ScenarioInput, scenario: ScenarioInput): Promise<boolean> {
  const { continuesAttempt } = await import('../../scenarios/challenges');
  return continuesAttempt(start, scenario);
}

/** Provides the open challenge; reads `?challenge=` once, at mount. */
export function ChallengeProvider({ children }: { children: ReactNode }) {
  const lab = useLabInstance();
  const [open, setOpen] = useState<ChallengeUi['open']>(null);
  const [progress, setProgress] = useState<Progress>(FRESH_PROGRESS);
  // The last id asked for: a slower load of an earlier one does not replace it.
  const askedLast = useRef<string | null>(null);

  /** Show the challenge `id` resolved to, unless another was asked for meanwhile. */
  /**
   * Show the challenge `id` resolved to, unless another was asked for meanwhile. `keep`: the
   * page's scenario is the student's attempt at it, restored by a reload — left as it is.
   * `fromAddress`: named by the address the page opened with — its start is that page, not a
   * page after the first screen's preset (a browser history entry of its own, src/ui/io/
   * historySync.ts, which Back returned to with the challenge's panel over the preset).
   */
  const show = useCallback(
    (id: string, opening: ChallengeUi['open'] | string, keep = false, fromAddress = false) => {
      if (askedLast.current !== id) return;
      const next = typeof opening === 'string' ? null : opening;
      setOpen(next);
      if (next) {
        setProgress(readProgress(next.challenge.id, pageStorage()));
        if (!keep)
          lab.actions.loadScenario(structuredClone(next.start), {
            presetRef: null,
            opened: !fromAddress,
            replay: true,
          });
      } else
        lab.app.setState({
          notice:
            typeof opening === 'string' ? opening : `No challenge “${id.slice(0, 60)}” in the lab.`,
        });
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
      void import('../../views/challenge/challengeLink').then(({ encodeChallengeLink }) => {
        if (askedLast.current !== id) return;
        show(id, { challenge, start, fromFile: true });
        // Carried by the address's hash (the page its start opened as): a reload, Back and
        // Forward, and a copied link find it there.
        writeChallengeLinkToLocation(encodeChallengeLink(challenge).split(/=(.*)/s)[1]!);
      });
    },
    [show],
  );

  const openChallenge = useCallback(
    (id: string | null) => {
      askedLast.current = id;
      if (id !== null) {
        void openingOf(id).then((next) => show(id, next));
        return;
      }
      setOpen(null);
      rememberOpenChallenge(null);
      writeChallengeToLocation(null);
      writeChallengeLinkToLocation(null);
    },
    [show],
  );

  // The URL's challenge: its start replaces what the page opened with (undo brings that back) —
  // unless this tab had it open and the restored workspace is the student's attempt at it (a
  // reload): their pipeline stays as they left it.
  // Once, though StrictMode runs a mount effect twice: a second load would be a second undo step.
  const askedDone = useRef(false);
  useEffect(() => {
    if (askedDone.current) return;
    askedDone.current = true;
    const id = challengeParamOf(addressQuery());
    if (id === null) return;
    askedLast.current = id;
    const restored = lab.app.getState().scenario;
    const hadOpen = openChallengeBefore() === id;
    void openingOf(id).then(async (next) => {
      const keep =
        hadOpen &&
        next !== null &&
        typeof next !== 'string' &&
        (await isAttemptAt(next.start, restored));
      show(id, next, keep, true);
    });
  }, [show, lab]);

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
      void openingOf(id).then((next) => show(id, next, true));
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
      if (s.replay !== s.scenario) lab.app.setState({ replay: s.scenario });
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
