/**
 * What an embedded player's prediction gate is about (src/ui/library/PredictionContext.tsx): the
 * run it was given, asked about (`predict=1`) or not. Apart from the question itself
 * (./embedQuestion.ts, with the question model), which only a player that asks loads (issue 31).
 */
import type { ScenarioInput } from '../../engine';
import type { LabState } from '../../store/labStore';
import type { PredictionSubject } from '../../views/library/library';

/** The key an embedded player keeps its one prediction under. */
export const EMBED_PREDICTION_KEY = 'embed';

/**
 * What an embed's question is about: the scenario it was given. Once the reader changes it (an
 * unlocked embed's guarantee switch) the answer no longer describes the run on screen, as on the
 * page after an edit; Undo brings the same scenario object back, and the question with it.
 */
export function embedSubject(embedded: ScenarioInput): (s: LabState) => PredictionSubject {
  return (s) => ({
    key: EMBED_PREDICTION_KEY,
    otherVariant: false,
    pristine: s.scenario === embedded,
  });
}

/**
 * What an embed without `predict=1` is about: nothing is asked of its run, but its outcome comes
 * in its time, as on the page for a preset's other variant (`outcomeFolded`): the final verdict,
 * the "why" and the fates wait for the run's end or "Reveal now" — never "✕ … broken" at t = 0
 * of an autoplayed frame (issue 24). An edit (the guarantee switch) folds the changed run's too.
 */
export function unaskedSubject(embedded: ScenarioInput): (s: LabState) => PredictionSubject {
  return (s) => ({
    key: EMBED_PREDICTION_KEY,
    otherVariant: true,
    pristine: s.scenario === embedded,
  });
}
