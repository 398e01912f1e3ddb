/**
 * "Predict first", per page or embedded player: the predictions written so far (per subject key —
 * on the page a preset's id, so switching variants keeps them), the rule that reaching the end
 * of the run with a prediction locked in reveals its answer, and the changed runs (edited since
 * the question's run was opened) already played to their end, whose outcome shows.
 *
 * React state in a provider rather than fields of the lab store: none of it is part of a
 * scenario, undo, a share link or the saved workspace. The page gets one inside the library's
 * provider (the open preset's question); an embedded player mounts its own, with the question it
 * asks (src/ui/embed), so both reveal, hide and skip the same way.
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
import type { ScenarioInput } from '../../engine';
import type { Lab, LabState } from '../../store/labStore';
import { useLabInstance } from '../../store/LabContext';
import { runOf, sameRun } from '../../store/sameRun';
import { presetSubject, subjectPhase, type PredictionSubject } from '../../views/library/library';
import { useRunEnd } from '../hooks/useRunEnd';
import { REVEAL_WAITS, revealGuard } from './revealGuard';

/** A prediction in progress: what was written, whether it was locked in, whether it was revealed. */
export interface Prediction {
  text: string;
  /** The choice picked, for a multiple-choice question (its id), else null. */
  choice: string | null;
  locked: boolean;
  revealed: boolean;
  /** The page's room was asked this question: its answers stand for the presenter's own. */
  room?: boolean;
}

const EMPTY: Prediction = { text: '', choice: null, locked: false, revealed: false };

/** The predictions and their setter, and what is asked of the workspace on screen. */
export interface Predictions {
  /** What is asked of a lab state (null: nothing). A module-scope function: it is a selector. */
  subject(s: LabState): PredictionSubject | null;
  /** The prediction kept under a subject's key (empty when none was written). */
  prediction(key: string): Prediction;
  updatePrediction(key: string, change: Partial<Prediction>): void;
  /**
   * Whether the run of `scenario` has been played to its end (or "Reveal now" was chosen): its
   * outcome shows from then on — a changed run's, and a revealed one's final verdict (`subjectPhase`'s `endSeen`). Kept per run
   * (src/store/sameRun.ts: the scenario object its copies came from), so opening or closing
   * Compare keeps it and undo and redo bring it back with the scenario; not a prediction (undo
   * back to the subject as opened asks its question again).
   */
  endSeen(scenario: ScenarioInput): boolean;
  /** "Reveal now": the outcome of `scenario`'s run shows as if it had been played to its end. */
  revealNow(scenario: ScenarioInput): void;
  /**
   * The run on screen was played to its end by a view with its own playback (a batch schedule):
   * the same rule as the cursor reaching the end — a locked-in answer is revealed, the outcome
   * shows; without an answer nothing is revealed.
   */
  reachEnd(): void;
}

const Ctx = createContext<Predictions | null>(null);

/**
 * Provides the predictions, and reveals a locked-in one when the run reaches its end.
 * @param subject - what is asked of a lab state; default the open preset's question (the page).
 *   Keep it stable (module scope or memoised): the end-of-run watch resubscribes when it changes.
 */
export function PredictionProvider({
  subject = presetSubject,
  children,
}: {
  subject?: (s: LabState) => PredictionSubject | null;
  children: ReactNode;
}) {
  const [predictions, setPredictions] = useState<Record<string, Prediction>>({});
  // Runs played to their end, each under the scenario object its copies came from (`runOf`): one
  // set for good; the wrapper is replaced when it grows, so the gates re-render.
  const [seen, setSeen] = useState(() => ({ set: new WeakSet<ScenarioInput>() }));
  const seenSet = seen.set;
  const lab = useLabInstance();
  // The predictions as of the last update, before React renders them: the reveal guard reads
  // them (a lock-in followed at once by Play must find the answer locked in).
  const predictionsNow = useRef(predictions);
  const updatePrediction = useCallback((key: string, change: Partial<Prediction>) => {
    const all = predictionsNow.current;
    predictionsNow.current = { ...all, [key]: { ...(all[key] ?? EMPTY), ...change } };
    setPredictions(predictionsNow.current);
  }, []);
  const markEndSeen = useCallback(
    (scenario: ScenarioInput) => {
      if (seenSet.has(runOf(scenario))) return;
      seenSet.add(runOf(scenario));
      setSeen({ set: seenSet });
      // The store keeps it of the replay too: a reload then reopens it where it was left
      // (src/ui/io/workspace.ts), not at its start.
      const { replay } = lab.app.getState();
      if (sameRun(replay, scenario)) lab.app.setState({ replaySeen: runOf(scenario) });
    },
    [seenSet, lab],
  );
  useEffect(() => {
    predictionsNow.current = predictions;
  }, [predictions]);
  // While the question waits for its answer, Play, End and any move onto the end are refused
  // (revealGuard.ts).
  const guard = useRef<() => string | null>(() => null);
  useEffect(() => {
    const g = revealGuard(
      () => lab.app.getState(),
      subject,
      () => predictionsNow.current,
      (scenario) => seenSet.has(runOf(scenario)),
    );
    guard.current = g;
    lab.actions.setRevealGuard(g);
    const off = lab.app.subscribe((s, prev) => {
      if (s.scenario !== prev.scenario || s.presetRef !== prev.presetRef) followGuard(lab, g);
    });
    return () => {
      off();
      lab.actions.setRevealGuard(null);
      lab.actions.withdrawNotice(REVEAL_WAITS);
    };
  }, [lab, subject, seenSet]);
  useEffect(() => followGuard(lab, guard.current), [lab, predictions, seen]);
  // The end of the run on screen reached (by the cursor, or a view's own playback). The
  // predictions are passed in: a child's effect runs before this provider's ref is updated.
  const reachEnd = useCallback(
    (s: LabState, all: Record<string, Prediction>) => {
      const asked = subject(s);
      if (!asked) {
        // A shared or imported scenario that asks nothing: its end unfolds its verdict.
        if (sameRun(s.replay, s.scenario)) markEndSeen(s.scenario);
        return;
      }
      const p = all[asked.key] ?? EMPTY;
      const seenBefore = seenSet.has(runOf(s.scenario));
      const phase = subjectPhase(asked, { ...p, endSeen: seenBefore });
      // Also a changed run, unanswered or not: its end shows its outcome, but the answer (about
      // the run as opened) stays untold, so undo back to that run asks the question again. And a
      // revealed one, or another variant: its final verdict waits for the end of this replay
      // (`outcomeFolded`). Without an answer the end reveals nothing.
      if (phase === 'none' || phase === 'pending') return;
      if (seenBefore && phase !== 'locked') return;
      if (phase === 'locked') updatePrediction(asked.key, { revealed: true });
      markEndSeen(s.scenario);
    },
    [subject, seenSet, updatePrediction, markEndSeen],
  );
  // Reaching the end of the run with the prediction locked in reveals the answer (and, with it,
  // the outcome the panels hid), and the reveal stays when the cursor goes back; without an
  // answer the end reveals nothing ("Show the answer" is the way past the question). Here rather
  // than in the prediction box, which is not mounted while the page's story is folded away.
  // Locking the answer in while the cursor already stands at the end reveals it too: new
  // predictions, a new callback, checked at once.
  useRunEnd(useCallback((s: LabState) => reachEnd(s, predictions), [reachEnd, predictions]));

  const value = useMemo<Predictions>(
    () => ({
      subject,
      prediction: (key) => predictions[key] ?? EMPTY,
      updatePrediction,
      endSeen: (scenario) => seen.set.has(runOf(scenario)),
      revealNow: markEndSeen,
      reachEnd: () => reachEnd(lab.app.getState(), predictions),
    }),
    [subject, predictions, updatePrediction, seen, markEndSeen, reachEnd, lab],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

/**
 * The status line and the playback after the question's state changed: a refusal that no longer
 * holds leaves the status line; a question asked while the run plays (another preset, "Ask
 * again") pauses it.
 */
function followGuard(lab: Lab, guard: () => string | null): void {
  if (guard() === null) lab.actions.withdrawNotice(REVEAL_WAITS);
  else if (lab.app.getState().playing) lab.actions.pause();
}

/**
 * The same predictions, with every run's end seen (`seen`, the default): for a copy of a view that
 * stands at the run's end (the embedded player's height measure, src/ui/embed/ReserveHeight.tsx),
 * so it lays out the final verdict the live view will show there, not the folded note
 * (`outcomeFolded`). With `seen` false, the predictions as they are: the same copy before the end.
 */
export function EndSeen({ seen = true, children }: { seen?: boolean; children: ReactNode }) {
  const outer = useContext(Ctx);
  const value = useMemo(
    () => (outer && seen ? { ...outer, endSeen: () => true } : outer),
    [outer, seen],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

/**
 * Predictions kept elsewhere than in a {@link PredictionProvider}: the presenter view's, whose
 * question is the lesson deck's (src/ui/lesson/LessonOutcome.tsx), so its panels fold their
 * outcome by the same gate (`usePredictionGate`).
 */
export function ProvidePredictions({
  value,
  children,
}: {
  value: Predictions;
  children: ReactNode;
}) {
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

/**
 * The predictions of the nearest {@link PredictionProvider}, or null outside one (a view that
 * asks nothing: every outcome shows).
 */
export function usePredictions(): Predictions | null {
  return useContext(Ctx);
}
