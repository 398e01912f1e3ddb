/**
 * The rule that keeps the outcome for its time: while a "Predict first" question waits for its
 * answer, the run stays where it is — it neither plays nor moves forward, since every later
 * moment shows the counters and tables on their way to the answer (one event before the end
 * shows all of it). The room predicts from the setup, then watches (issue 24). One rule for Play,
 * End, steps, jumps and the timeline (src/store/playback.ts `setRevealGuard`); moving back stays
 * free. The PredictionProvider installs it on its lab.
 */
import type { LabState } from '../../store/labStore';
import { subjectPhase, type PredictionSubject } from '../../views/library/library';
import type { ScenarioInput } from '../../engine';

/**
 * What the status line says when Play, End, a step, a jump or the timeline is refused: one line
 * at 1280 px beside the page's buttons (~385 px of 14 px text: the longer "The run waits for your
 * prediction: lock one in (or Show the answer) — playing it would give the answer away." wrapped
 * to two). The why is in the buttons' title.
 */
export const REVEAL_WAITS = 'Waits for your prediction (or Show the answer).';

/** The Play and End buttons' title while they wait (they stay focusable: a press says why). */
export const REVEAL_WAITS_TITLE =
  'Waits for your prediction: lock one in (or Show the answer) — playing would give the answer away';

/**
 * The guard of a lab whose question is `subject`, read live: `predictions()` and `endSeen` are
 * the provider's current ones, so a lock-in followed at once by Play (the embed's) is not refused.
 */
export function revealGuard(
  state: () => LabState,
  subject: (s: LabState) => PredictionSubject | null,
  predictions: () => Readonly<Record<string, { locked: boolean; revealed: boolean }>>,
  endSeen: (scenario: ScenarioInput) => boolean,
): () => string | null {
  return () => {
    const s = state();
    const asked = subject(s);
    if (!asked) return null;
    const p = predictions()[asked.key] ?? { locked: false, revealed: false };
    const phase = subjectPhase(asked, { ...p, endSeen: endSeen(s.scenario) });
    return phase === 'pending' ? REVEAL_WAITS : null;
  };
}
