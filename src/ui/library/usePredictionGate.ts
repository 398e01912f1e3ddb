import type { LabState } from '../../store/labStore';
import { useLab } from '../../store/LabContext';
import { sameRun } from '../../store/sameRun';
import {
  outcomeFolded,
  outcomeHidden,
  subjectPhase,
  type PredictionPhase,
} from '../../views/library/library';
import { usePredictions } from './PredictionContext';

/** "Predict first" as the panels that could give the answer away see it. */
export interface PredictionGate {
  phase: PredictionPhase;
  /**
   * Hide the verdict, the explanations, the ledger's final fates and the story: while the question
   * waits for its answer, and after an edit until the changed run has been played to its end.
   */
  hidden: boolean;
  /**
   * The answer is told but this replay has not reached its end yet (`outcomeFolded`): the final
   * verdict, the "why" and the final fates wait for it; "Reveal now" shows them at once.
   */
  folded: boolean;
  /**
   * Hide the run's final verdict, its "why" and the final fates: while {@link hidden}, and while
   * {@link folded} (the answer and the story are told, the run's end not yet reached).
   */
  finalHidden: boolean;
  /**
   * The question is asked of the run on screen and its answer not revealed (pending or locked):
   * what would hold that answer — the exports of the run — waits. Not after an edit: the changed
   * run's outcome is not the answer.
   */
  answerWaits: boolean;
  /**
   * The run on screen was changed since the question's variant was opened: its answer no longer
   * describes it (also once revealed, when the phase says 'revealed').
   */
  edited: boolean;
  /** One click for a teacher who does not want the prediction: show everything, answer included. */
  skip(): void;
  /** Show the folded outcome of the run on screen now, without playing it to its end. */
  revealNow(): void;
  /**
   * A view with its own playback (the batch schedule) played the run on screen to its end: as
   * the cursor reaching the end, it reveals a locked-in answer and unfolds the outcome.
   */
  reachEnd(): void;
}

const nothingAsked = () => null;
const selectScenario = (s: LabState) => s.scenario;
// A copy of the replay (Compare opened or closed, the atlas's kinds ticked) is still the replay.
const selectReplay = (s: LabState) => sameRun(s.replay, s.scenario);

/**
 * Where the prediction asked of the workspace on screen stands (the open preset's on the page,
 * the embedded player's own question in an embed), and whether the outcome is hidden until its
 * answer is revealed. Outside a {@link PredictionProvider} nothing is asked and nothing is hidden.
 */
export function usePredictionGate(): PredictionGate {
  const predictions = usePredictions();
  const subject = predictions?.subject ?? nothingAsked;
  // Atomic selections (a fresh subject object per call would re-render forever, zustand v5).
  const key = useLab((s: LabState) => subject(s)?.key ?? null);
  const otherVariant = useLab((s: LabState) => subject(s)?.otherVariant ?? false);
  const pristine = useLab((s: LabState) => subject(s)?.pristine ?? false);
  const scenario = useLab(selectScenario);
  const replay = useLab(selectReplay);
  const p = predictions && key !== null ? predictions.prediction(key) : null;
  const skip = () => {
    if (predictions && key !== null) predictions.updatePrediction(key, { revealed: true });
  };
  const endSeen = predictions?.endSeen(scenario) ?? false;
  const phase = subjectPhase(key === null ? null : { key, otherVariant, pristine }, {
    locked: p?.locked ?? false,
    revealed: p?.revealed ?? false,
    room: p?.room ?? false,
    endSeen,
  });
  const folded = predictions !== null && outcomeFolded(phase, endSeen, replay);
  return {
    phase,
    hidden: outcomeHidden(phase),
    folded,
    finalHidden: outcomeHidden(phase) || folded,
    revealNow: () => predictions?.revealNow(scenario),
    reachEnd: () => predictions?.reachEnd(),
    answerWaits: phase === 'pending' || phase === 'locked',
    edited: key !== null && !otherVariant && !pristine,
    skip,
  };
}
