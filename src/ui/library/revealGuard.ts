/**
 * The rule that keeps the outcome for its time: while a "Predict first" question waits for its
 * answer, the run neither plays nor lands on its end — the final counters and tables would give
 * the answer away (issue 24). One rule for Play, End and every move onto the end
 * (src/store/playback.ts `setRevealGuard`); the PredictionProvider installs it on its lab.
 */
import type { LabState } from '../../store/labStore';
import { subjectPhase, type PredictionSubject } from '../../views/library/library';
import type { ScenarioInput } from '../../engine';

/** What the status line says when Play, End, or a step onto the end is refused. */
export const REVEAL_WAITS =
  'The answer waits: lock in a prediction first (or Show the answer) — Play and End would give it away.';

/** The Play and End buttons' title while they wait (they stay focusable: a press says why). */
export const REVEAL_WAITS_TITLE = 'Waits for your prediction: lock one in (or Show the answer)';

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
