/**
 * For component tests that play a preset whose question is asked first: Play, End and any move
 * forward wait for a prediction (revealGuard.ts), so such a test locks one in — the
 * outcome stays hidden, as when a room has predicted and the teacher presses Play.
 */
import { fireEvent, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { useLabInstance } from '../../store/LabContext';
import { usePredictions } from './PredictionContext';
import { testIds } from '../testIds';

/** Write `text` as the open preset's prediction and lock it in (a written-answer question). */
export function lockInPrediction(text: string): void {
  fireEvent.change(screen.getByTestId(testIds.predictInput), { target: { value: text } });
  fireEvent.click(screen.getByTestId(testIds.predictLock));
}

/**
 * For a test that renders panels without the prediction box: locks the open preset's prediction
 * in through the provider (a room has predicted; the outcome stays hidden, the run may move).
 */
export function LockInOnMount({ text = '?' }: { text?: string }): null {
  const p = usePredictions();
  const lab = useLabInstance();
  useEffect(() => {
    const asked = p?.subject(lab.app.getState());
    if (asked && !p!.prediction(asked.key).locked)
      p!.updatePrediction(asked.key, { text, locked: true });
  }, [p, lab, text]);
  return null;
}
