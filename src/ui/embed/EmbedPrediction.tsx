import { useMemo, type ReactNode } from 'react';
import { PredictFirst } from '../library/Prediction';
import type { EmbedOptions } from './embedOptions';
import { EMBED_PREDICT_IDS, embedQuestion } from './embedQuestion';

/**
 * An embed's "Predict first" (`predict=1`): the page's question box (src/ui/library/Prediction.tsx)
 * about the run as embedded. A chunk of its own, which src/embedMain.tsx imports before the player
 * renders only when the embed asks — the question is on screen from the first frame, and an embed
 * that asks nothing fetches none of it (issue 31: the embed ≤ 150 KB gzip).
 */
export function EmbedPrediction({
  options,
  presetRef,
  onLock,
  restart,
  outcome,
}: {
  options: EmbedOptions;
  presetRef: string | null;
  /** Locking the answer in plays on. */
  onLock: () => void;
  restart: () => void;
  outcome: ReactNode;
}) {
  const question = useMemo(() => embedQuestion(options, presetRef), [options, presetRef]);
  return (
    <PredictFirst
      question={question}
      onLock={onLock}
      restart={restart}
      outcome={outcome}
      original="the scenario as embedded"
      headingLevel={2}
      ids={EMBED_PREDICT_IDS}
    />
  );
}

/** The box, as src/embedMain.tsx hands it to the player once imported. */
export type EmbedPredictionBox = typeof EmbedPrediction;
