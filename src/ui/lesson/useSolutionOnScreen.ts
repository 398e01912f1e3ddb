import { useCallback, useState } from 'react';
import type { ScenarioInput } from '../../engine';
import type { LabState } from '../../store/labStore';
import { useLab } from '../../store/LabContext';

/** Whether `opened`, or an edit made on it since, is the scenario on screen (not undone). */
const onScreen = (s: LabState, opened: ScenarioInput | null): boolean =>
  opened !== null && (s.scenario === opened || s.past.some((step) => step.scenario === opened));

/**
 * A student's solution opened on the projector from the room's panel (its "Open on the
 * projector", one undo step): whether it is on screen in this visit of the step — so that the
 * step's band (its setup, question and answer: "24: p-4 twice…", about the step's own run) gives
 * the solution's run the screen, and comes back when the presenter returns to the step's run
 * (Ctrl+Z; redo opens the solution again). A step moved to starts its own undo history, so the
 * solution is no longer on screen there.
 */
export function useSolutionOnScreen(index: number): {
  solutionOnScreen: boolean;
  opened: (attempt: ScenarioInput) => void;
} {
  const [solution, setSolution] = useState<{ index: number; scenario: ScenarioInput } | null>(null);
  const mine = solution?.index === index ? solution.scenario : null;
  const solutionOnScreen = useLab((s) => onScreen(s, mine));
  const opened = useCallback(
    (attempt: ScenarioInput) => setSolution({ index, scenario: attempt }),
    [index],
  );
  return { solutionOnScreen, opened };
}
