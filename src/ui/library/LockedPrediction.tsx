import type { LabState } from '../../store/labStore';
import { useLab } from '../../store/LabContext';
import { focusSoon } from '../hooks/focusSoon';
import { ANSWER_FIELD } from './answerField';
import { useLibraryUi } from './LibraryContext';
import { YourPrediction } from './Prediction';
import { usePredictions } from './PredictionContext';
import { usePredictionGate } from './usePredictionGate';

const nothingAsked = () => null;

/**
 * The page's answer locked in, in the counters' row beside the verdict's card (which says what to
 * do next) while the run plays to its end: the story's column beside the pipeline then holds the
 * setup and the question only (at 1280×720 in projector mode, "You predicted" is what pushed most
 * stories' question box past the column, issue 24). Nothing while the story stays the band above
 * the pipeline (its box shows it there), before the lock-in and after the reveal.
 */
export function LockedPrediction() {
  const predictions = usePredictions();
  const ui = useLibraryUi();
  const subject = predictions?.subject ?? nothingAsked;
  const key = useLab((s: LabState) => subject(s)?.key ?? null);
  const gate = usePredictionGate();
  if (!predictions || key === null || gate.phase !== 'locked' || ui?.bandWhileLocked) return null;
  const p = predictions.prediction(key);
  // The room predicting for the page (p.room) is told in the question's box.
  if (!p.locked || p.revealed) return null;
  return (
    <YourPrediction
      text={p.text}
      onChange={() => {
        predictions.updatePrediction(key, { locked: false });
        // The question's box, back in its band: its answer's field.
        focusSoon(() => document.querySelector<HTMLElement>(`#predict :is(${ANSWER_FIELD})`));
      }}
    />
  );
}
