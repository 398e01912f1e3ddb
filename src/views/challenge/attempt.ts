/**
 * The page's judgement of a student's attempt: the scenario on screen against the challenge's
 * start, run by the engine ({@link judgeAttempt}), with the run's explanation — one sentence per
 * kind of anomaly, as the checker words it. Loaded with the challenge panel (a lazy chunk: it runs
 * the engine on the page, a few milliseconds for a challenge's small workload).
 */
import {
  judgeAttempt,
  parseScenario,
  simulate,
  type Challenge,
  type ScenarioInput,
} from '../../engine';

/** What the page shows of an attempt. */
export type AttemptOutcome =
  | { verdict: 'refused'; reasons: string[] }
  | { verdict: 'solved' | 'missed'; lost: number; duplicated: number; explanations: string[] }
  | { verdict: 'invalid' };

/** Judge the scenario `attempt` against the challenge started from `start`. */
export function judgeOnPage(
  c: Challenge,
  start: ScenarioInput,
  attempt: ScenarioInput,
): AttemptOutcome {
  const s = parseScenario(start);
  const a = parseScenario(attempt);
  if (!s.ok || !a.ok) return { verdict: 'invalid' };
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
  };
}
