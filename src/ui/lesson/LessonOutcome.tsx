/**
 * The presenter view's outcome in its time: the lesson deck's question, seen by the panels through
 * the page's gate (`usePredictionGate`), so the verdict, Compare's lanes and the SQL results fold
 * by the page's one rule (`outcomeFolded`, issue 24): until the reveal (R, or the room's Reveal)
 * the outcome waits for the answer; once revealed, the final verdict waits for the run's end, or
 * "Reveal now" (docs/page.md) — the room watches the run it predicted first (docs/workshops.md).
 *
 * Kept per visit of a step, not per scenario object: a step opened again loads the same scenario
 * object, and its run starts again at t = 0 with nothing given away.
 */
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { ScenarioInput } from '../../engine';
import type { LessonDeck } from '../../store/lessonDeck';
import type { LabState } from '../../store/labStore';
import { useLabInstance } from '../../store/LabContext';
import { sameRun } from '../../store/sameRun';
import type { PredictionSubject } from '../../views/library/library';
import { useRunEnd } from '../hooks/useRunEnd';
import { ProvidePredictions, type Predictions } from '../library/PredictionContext';

/** The deck asks one question at a time, of the run on screen as the step opened it. */
const STEP_ASKS: PredictionSubject = { key: 'lesson-step', otherVariant: false, pristine: true };
const stepAsks = () => STEP_ASKS;

export function LessonOutcome({ deck, children }: { deck: LessonDeck; children: ReactNode }) {
  const lab = useLabInstance();
  const revealed = useStore(deck.store, (s) => s.revealed);
  // The run whose end was reached (or "Reveal now") in this visit of the step.
  const [endSeen, setEndSeen] = useState<ScenarioInput | null>(null);
  // A step opened (or opened again: the same scenario object) starts a new visit.
  useEffect(
    () =>
      deck.store.subscribe((s, prev) => {
        if (s.index !== prev.index || (prev.revealed && !s.revealed)) setEndSeen(null);
        // The presenter's second R ("Reveal now", the head's or the room panel's): the final
        // verdict with the band's answer. It kept "Shown when the run reaches its end" beside the
        // answer (a teacher's trial).
        else if (s.answered && !prev.answered) setEndSeen(lab.app.getState().scenario);
      }),
    [deck, lab],
  );
  // The end reached after the reveal, by the cursor: as the page's PredictionProvider watches it.
  const reachedEnd = useCallback((s: LabState) => setEndSeen(s.scenario), []);
  useRunEnd(revealed ? reachedEnd : null);
  const value = useMemo<Predictions>(
    () => ({
      subject: stepAsks,
      prediction: () => ({ text: '', choice: null, locked: false, revealed }),
      // "Show the answer" on a hidden panel is the presenter's R.
      updatePrediction: (_key, change) => {
        if (change.revealed) deck.actions.reveal();
      },
      endSeen: (scenario) => revealed && sameRun(endSeen, scenario),
      // The verdict's "Reveal now" is the presenter's second R: the band's answer too.
      revealNow: (scenario) => {
        setEndSeen(scenario);
        deck.actions.reveal();
      },
      // A batch job's schedule played to its end (src/ui/batch/BatchRun.tsx): its outcome, and
      // the band's answer — the lab's cursor, which the deck watches, does not play a schedule.
      reachEnd: () => {
        if (!revealed) return;
        setEndSeen(lab.app.getState().scenario);
        deck.actions.reachedEnd();
      },
    }),
    [revealed, endSeen, deck, lab],
  );
  return <ProvidePredictions value={value}>{children}</ProvidePredictions>;
}
