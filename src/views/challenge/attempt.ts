/**
 * The page's judgement of a student's attempt: the scenario on screen against the challenge's
 * start, run by the engine ({@link judgeAttempt}), with the run's explanation — one sentence per
 * kind of anomaly, as the checker words it. Loaded with the challenge panel (a lazy chunk: it runs
 * the engine on the page, a few milliseconds for a challenge's small workload).
 */
import {
  attemptChanges,
  faultsNeverFired,
  judgeAttempt,
  parseScenario,
  simulate,
  type Challenge,
  type Run,
  type ScenarioInput,
} from '../../engine';
import { faultTitle, faultWhat } from '../edit/faultName';
import { formatMs } from '../run/format';

/** What the page shows of an attempt. */
export type AttemptOutcome =
  | { verdict: 'refused'; reasons: string[] }
  | {
      verdict: 'solved' | 'missed';
      lost: number;
      duplicated: number;
      explanations: string[];
      /** A sentence per fault of the attempt that never fired, and how to arm it where it can. */
      unfired: string[];
    }
  | { verdict: 'invalid' }
  /** Nothing changed from the start (as the engine runs it): no attempt, nothing to judge. */
  | { verdict: 'unchanged' };

/** Judge the scenario `attempt` against the challenge started from `start`. */
export function judgeOnPage(
  c: Challenge,
  start: ScenarioInput,
  attempt: ScenarioInput,
): AttemptOutcome {
  const s = parseScenario(start);
  const a = parseScenario(attempt);
  if (!s.ok || !a.ok) return { verdict: 'invalid' };
  // A knob set back to its start value is written where the start left it unset: the text
  // differs, the scenario does not (docs/challenges.md: playing the untouched start is no attempt).
  const changes = attemptChanges(s.scenario, a.scenario);
  if (
    changes.knobs.length === 0 &&
    changes.fixed.length === 0 &&
    changes.startFaultsChanged.length === 0 &&
    changes.added.length === 0
  )
    return { verdict: 'unchanged' };
  const j = judgeAttempt(
    c,
    s.scenario,
    a.scenario,
    simulate(s.scenario, { explain: false }).cutOff,
  );
  if (j.verdict === 'refused') return j;
  const seen = new Set<string>();
  const explanations: string[] = [];
  for (const e of j.run.verdict.explanations) {
    if (seen.has(e.fate)) continue;
    seen.add(e.fate);
    explanations.push(e.sentence);
  }
  return {
    verdict: j.verdict,
    lost: j.result.lost,
    duplicated: j.result.duplicated,
    explanations,
    unfired: unfiredFaults(j.run),
  };
}

/**
 * The faults of the run that never fired, in words. A fault is armed from the time on screen when
 * it is added: added at the run's end (where an attempt leaves the cursor), it waits for a moment
 * that never comes — the counts alone read as if the fault changed nothing.
 */
function unfiredFaults(run: Run): string[] {
  return faultsNeverFired(run).map(({ index, fault: f, why }) => {
    const head = `${faultTitle(f, index)}, ${faultWhat(f)}, never fired`;
    if (why !== null) return `${head}: ${why}.`;
    return f.at > 0
      ? `${head}: it is armed from ${formatMs(f.at)}, and nothing it waits for came after that. Drag it earlier on the timeline, or go back to the start (Home) before you add a fault.`
      : `${head}: nothing it waits for came in this run.`;
  });
}
