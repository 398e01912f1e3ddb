/**
 * The page's room and the page's own "Predict first" box asking one question. Once the room is
 * asked the open story's question, the room predicts it: the page's Play is no longer refused
 * (the box says the room is predicting), the room's answers close as the run plays, and the
 * answer shows on the projector and on the phones together — at the run's end, or on the panel's
 * Reveal. Before, the page's box still waited for the presenter's own lock-in (Play refused: "Waits
 * for your prediction"), and the panel's Reveal told the phones the answer while the projector
 * still said "Predict first" (a teacher's trial, docs/classroom.md's flow). A lesson's presenter
 * view has its own (RoomSource, ./currentRoomStep.ts).
 */
import { useEffect, useState } from 'react';
import { useLab, useLabInstance } from '../../store/LabContext';
import type { LabState } from '../../store/labStore';
import { usePredictions } from '../library/PredictionContext';
import { currentRoomReveal } from './currentRoomStep';
import type { usePresenterRoom } from './usePresenterRoom';

type PresenterRoom = ReturnType<typeof usePresenterRoom>;

const selectPlaying = (s: LabState) => s.playing;

export function usePageRoomPrediction(
  room: PresenterRoom['room'],
  { close, reveal }: Pick<PresenterRoom, 'close' | 'reveal'>,
  active: boolean,
) {
  const lab = useLabInstance();
  const predictions = usePredictions();
  // The question the room was asked last: its subject's key and the room's step.
  const [asked, setAsked] = useState<{ key: string; stepIndex: number } | null>(null);
  const keyOnScreen = useLab((s) => predictions?.subject(s)?.key ?? null);
  const playing = useLab(selectPlaying);
  // While the question asked is the one on screen and the room's step still its.
  const on =
    active && asked && asked.key === keyOnScreen && room.step?.stepIndex === asked.stepIndex
      ? asked
      : null;
  const revealed = on !== null && predictions !== null && predictions.prediction(on.key).revealed;
  // The run plays: the room watches the run it predicted, its answers closed.
  useEffect(() => {
    if (on && playing && !room.closed && room.reveal === null) close();
  });
  // The page's answer shows (the run's end): so does the room's.
  useEffect(() => {
    if (on && revealed && room.reveal === null) reveal(currentRoomReveal(lab.app.getState()));
  });
  return {
    /** The room was asked what is open now, as step `stepIndex`. */
    asked(stepIndex: number): void {
      const subject = predictions?.subject(lab.app.getState());
      setAsked(subject ? { key: subject.key, stepIndex } : null);
      if (subject) predictions!.updatePrediction(subject.key, { room: true });
    },
    /** The panel's Reveal: the page shows the answer too (its "Show the answer"). */
    revealHere(): void {
      if (on) predictions!.updatePrediction(on.key, { revealed: true });
    },
  };
}
