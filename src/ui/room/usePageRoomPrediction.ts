/**
 * The page's room and the page's own "Predict first" box asking one question. Once the room is
 * asked the open story's question, the room predicts it: the page's Play is no longer refused
 * (the box says the room is predicting), the room's answers close as the run plays, and the
 * answer shows on the projector and on the phones together — at the run's end, or on the panel's
 * Reveal. Before, the page's box still waited for the presenter's own lock-in (Play refused: "Waits
 * for your prediction"), and the panel's Reveal told the phones the answer while the projector
 * still said "Predict first" (a teacher's trial, docs/classroom.md's flow). A lesson's presenter
 * view has its own (RoomSource, ./currentRoomStep.ts).
 *
 * The question any run can be asked ("What will the sink end with?": a variant other than the one
 * the story's question is about, an edited story, a scenario of one's own) has no page question to reveal it: the
 * room's own, from the run — its answers close once the run moves on from where it stood when
 * asked, and the end of the run it then watched reveals it. Before, the run played to its end and
 * showed its verdict while the phones still said "The answer shows when the run ends" (on
 * flink-checkpoint-replay/upsert; a scenario of one's own did not even close the answers).
 */
import { useEffect, useRef, useState } from 'react';
import type { ScenarioInput } from '../../engine';
import { useLab, useLabInstance } from '../../store/LabContext';
import type { LabState } from '../../store/labStore';
import { asksItsOwnQuestion, atRunEnd } from '../../views/library/library';
import { usePredictions } from '../library/PredictionContext';
import { currentRoomReveal } from './currentRoomStep';
import type { usePresenterRoom } from './usePresenterRoom';

type PresenterRoom = ReturnType<typeof usePresenterRoom>;

const selectPlaying = (s: LabState) => s.playing;
const selectScenario = (s: LabState) => s.scenario;

/** The question the room was asked last, from the page. */
interface Asked {
  /** The page's subject (the open preset's question), or null: a scenario of one's own. */
  key: string | null;
  /** Whether the room was asked the page's own question (else the one any run can be asked). */
  pageQuestion: boolean;
  /** The run asked about, and where its cursor stood then (event index). */
  scenario: ScenarioInput;
  from: number;
  stepIndex: number;
}

export function usePageRoomPrediction(
  room: PresenterRoom['room'],
  { close, reveal }: Pick<PresenterRoom, 'close' | 'reveal'>,
  active: boolean,
) {
  const lab = useLabInstance();
  const predictions = usePredictions();
  const [asked, setAsked] = useState<Asked | null>(null);
  const keyOnScreen = useLab((s) => predictions?.subject(s)?.key ?? null);
  const scenarioOnScreen = useLab(selectScenario);
  const playing = useLab(selectPlaying);
  // While the question asked is the one on screen and the room's step still its: the page's
  // question by its subject (edits keep it), the question any run can be asked by its run.
  const on =
    active &&
    asked &&
    room.step?.stepIndex === asked.stepIndex &&
    (asked.pageQuestion ? asked.key === keyOnScreen : asked.scenario === scenarioOnScreen)
      ? asked
      : null;
  const revealed =
    on !== null &&
    on.pageQuestion &&
    predictions !== null &&
    predictions.prediction(on.key!).revealed;
  // The run plays: the room watches the run it predicted, its answers closed.
  useEffect(() => {
    if (on && playing && !room.closed && room.reveal === null) close();
  });
  // The page's answer shows (the run's end): so does the room's.
  useEffect(() => {
    if (on && revealed && room.reveal === null) reveal(currentRoomReveal(lab.app.getState()));
  });
  // The question any run can be asked: the run moved on from where it stood when asked (Play, a
  // step, End) closes the answers; the end reached after that reveals them. Read in the lab's
  // subscriptions, not rendered: the panel does not re-render on every event of the run.
  const roomNow = useRef({ room, close, reveal });
  useEffect(() => {
    roomNow.current = { room, close, reveal };
  });
  useEffect(() => {
    if (!on || on.pageQuestion) return;
    let watched = false;
    const check = () => {
      const { room: r, close: closeNow, reveal: revealNow } = roomNow.current;
      if (r.reveal !== null) return;
      const s = lab.app.getState();
      const c = lab.cursor.getState();
      if (s.scenario !== on.scenario) return;
      if (s.playing || c.idx > on.from) watched = true;
      if (!watched) return;
      if (!r.closed) closeNow();
      const v = s.view;
      const current = s.status === 'ready' && s.viewFor === s.scenario;
      if (v && atRunEnd({ current, idx: c.idx, n: v.n, t: c.t, endTime: v.endTime }))
        revealNow(currentRoomReveal(s));
    };
    const offCursor = lab.cursor.subscribe(check);
    const offApp = lab.app.subscribe(check);
    return () => {
      offCursor();
      offApp();
    };
  }, [lab, on]);
  return {
    /** The room was asked what is open now, as step `stepIndex`. */
    asked(stepIndex: number): void {
      const s = lab.app.getState();
      const subject = predictions?.subject(s) ?? null;
      // The page's own question, or the question any run can be asked (as ./currentRoomStep.ts).
      const pageQuestion = asksItsOwnQuestion(subject);
      setAsked({
        key: subject?.key ?? null,
        pageQuestion,
        scenario: s.scenario,
        from: lab.cursor.getState().idx,
        stepIndex,
      });
      if (subject && pageQuestion) predictions!.updatePrediction(subject.key, { room: true });
    },
    /** The panel's Reveal: the page shows the answer too (its "Show the answer"). */
    revealHere(): void {
      if (on?.pageQuestion) predictions!.updatePrediction(on.key!, { revealed: true });
    },
  };
}
