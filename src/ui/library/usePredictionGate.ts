import type { LabState } from '../../store/labStore';
import { useLab } from '../../store/LabContext';
import {
  isPristinePreset,
  openPreset,
  outcomeHidden,
  predictionPhase,
  type PredictionPhase,
} from '../../views/library';
import { useLibraryUi } from './LibraryContext';

const selectPresetRef = (s: LabState) => s.presetRef;
const selectPristine = (s: LabState) => isPristinePreset(s.scenario, s.presetRef);

/** "Predict first" as the panels that could give the answer away see it. */
export interface PredictionGate {
  phase: PredictionPhase;
  /** Hide the verdict, the explanations, the ledger's final fates and the story. */
  hidden: boolean;
  /** One click for a teacher who does not want the prediction: show everything, answer included. */
  skip(): void;
}

const NO_GATE: PredictionGate = { phase: 'none', hidden: false, skip: () => {} };

/**
 * Where the open preset's prediction stands, and whether the outcome is hidden until its answer
 * is revealed. Outside the library (an embedded player, which asks its own way) nothing is hidden.
 */
export function usePredictionGate(): PredictionGate {
  const ui = useLibraryUi();
  const presetRef = useLab(selectPresetRef);
  const pristine = useLab(selectPristine);
  const open = openPreset(presetRef);
  if (!ui) return NO_GATE;
  const p = open ? ui.prediction(open.preset.id) : null;
  const skip = () => {
    if (open) ui.updatePrediction(open.preset.id, { revealed: true });
  };
  const phase = predictionPhase({
    open,
    pristine,
    locked: p?.locked ?? false,
    revealed: p?.revealed ?? false,
  });
  return { phase, hidden: outcomeHidden(phase), skip };
}
