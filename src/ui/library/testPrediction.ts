/**
 * For component tests that play a preset whose question is asked first: Play, End and any move
 * onto the run's end wait for a prediction (revealGuard.ts), so such a test locks one in — the
 * outcome stays hidden, as when a room has predicted and the teacher presses Play.
 */
import { fireEvent, screen } from '@testing-library/react';
import { testIds } from '../testIds';

/** Write `text` as the open preset's prediction and lock it in (a written-answer question). */
export function lockInPrediction(text: string): void {
  fireEvent.change(screen.getByTestId(testIds.predictInput), { target: { value: text } });
  fireEvent.click(screen.getByTestId(testIds.predictLock));
}
