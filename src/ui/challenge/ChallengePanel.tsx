/**
 * The open challenge, above the pipeline: its goal and rules, how many ways solve it, the attempt
 * counter, the hints unlocked so far, the judgement of the last attempt (refused, missed, or the
 * success screen with the run's explanation) and "Show a solution". A lazy chunk: judging runs the
 * engine on the page (src/views/challenge/attempt.ts).
 *
 * An attempt is a run that ends: each time the run of a scenario changed from the start reaches
 * its end on screen, it is judged and counted once.
 */
import { useMemo, useState, type ReactNode } from 'react';
import type { Challenge, ScenarioInput } from '../../engine';
import { solutionInput } from '../../scenarios/challenges';
import counts from '../../scenarios/challenges/solutionCounts.json';
import type { LabState } from '../../store/labStore';
import { useLabInstance } from '../../store/LabContext';
import { judgeOnPage, type AttemptOutcome } from '../../views/challenge/attempt';
import { solutionOfAttempt } from '../../views/challenge/solutionAttempt';
import { keepSolution } from '../../platform/keptSolution';
import { pageStorage } from '../../platform/challengeProgress';
import type { SolutionCount } from '../../views/challenge/solutions';
import { allowWords, countWords, goalWords, hintsUnlocked } from '../../views/challenge/words';
import { useRunEnd } from '../hooks/useRunEnd';
import { testIds } from '../testIds';
import { useChallengeUi } from './ChallengeContext';
import './challenge.css';
import { formatCountOf, pluralOf } from '../../views/run/format';

const COUNTS = counts as Record<string, SolutionCount>;

/** The panel of the open challenge; nothing when none is open. */
export function ChallengePanel() {
  const ui = useChallengeUi();
  const lab = useLabInstance();
  // The last attempt's judgement, with the challenge it is about (another one opened hides it).
  const [judgement, setJudgement] = useState<{ of: Challenge; outcome: AttemptOutcome } | null>(
    null,
  );
  const open = ui?.open ?? null;
  const updateProgress = ui?.updateProgress;

  const judge = useMemo(() => {
    if (!open || !updateProgress) return null;
    // The runs judged since this challenge opened: each counts once.
    const judged = new WeakSet<ScenarioInput>();
    const startText = JSON.stringify(open.start);
    return (s: LabState) => {
      if (judged.has(s.scenario)) return;
      judged.add(s.scenario);
      // The start itself, played to its end, is no attempt: nothing was changed.
      if (JSON.stringify(s.scenario) === startText) return;
      const o = judgeOnPage(open.challenge, open.start, s.scenario);
      if (o.verdict === 'unchanged') return;
      setJudgement({ of: open.challenge, outcome: o });
      if (o.verdict === 'invalid') return;
      // The solving attempt is kept beside the progress: a room's phone, in this browser, sends
      // it with "Solved it" (docs/classroom.md).
      const solution = o.verdict === 'solved' ? solutionOfAttempt(open.start, s.scenario) : null;
      if (solution) keepSolution(open.challenge.id, solution, pageStorage());
      updateProgress((p) => ({
        attempts: p.attempts + 1,
        solved: p.solved || o.verdict === 'solved',
      }));
    };
  }, [open, updateProgress]);
  useRunEnd(judge);

  if (!ui || !open) return null;
  const c = open.challenge;
  const outcome = judgement?.of === c ? judgement.outcome : null;
  const { attempts, solved } = ui.progress;
  const hints = hintsUnlocked(c, attempts);
  const count = countWords(COUNTS[c.id]);
  const showSolution = () => {
    ui.updateProgress({ solutionShown: true });
    lab.actions.loadScenario(solutionInput(c, open.start), { presetRef: null });
  };
  return (
    <section
      id="challenge"
      // The target of App's "Skip to the challenge": focusable by it, not a tab stop.
      tabIndex={-1}
      className="challenge"
      aria-labelledby="challenge-title"
      data-testid={testIds.challengePanel}
      data-challenge={c.id}
    >
      <header className="challenge-head">
        <div>
          <p className="challenge-kicker">Challenge · {c.area}</p>
          <h2 id="challenge-title">{c.title}</h2>
        </div>
        <p
          className="challenge-attempts"
          data-testid={testIds.challengeAttempts}
          data-value={attempts}
        >
          {formatCountOf(attempts, 'attempt')}
          {solved ? ' · solved' : ''}
        </p>
        <button type="button" className="challenge-leave" onClick={() => ui.openChallenge(null)}>
          Leave the challenge
        </button>
      </header>
      <p className="challenge-intro">{c.intro}</p>
      <p className="challenge-goal" data-testid={testIds.challengeGoal}>
        <strong>Goal:</strong> {goalWords(c.goal)}{' '}
        <span className="challenge-rules">
          {allowWords(c).join(' ')} Then play the run to its end: each run that ends is an attempt.
          {count ? ` ${count}` : ''}
        </span>
      </p>
      {outcome && <Outcome outcome={outcome} />}
      {hints.shown.length > 0 && (
        <ol className="challenge-hints" data-testid={testIds.challengeHints} aria-label="Hints">
          {hints.shown.map((h) => (
            <li key={h}>{h}</li>
          ))}
        </ol>
      )}
      {/* Solved, no hint is on its way (it said "Next hint after 1 more attempt" under Solved!). */}
      {hints.nextIn !== null && !solved && (
        <p className="muted">
          Next hint after {hints.nextIn} more {pluralOf(hints.nextIn, 'attempt')}.
        </p>
      )}
      <details className="challenge-solution">
        <summary>Show a solution</summary>
        <p>{c.solution.why}</p>
        <button type="button" onClick={showSolution} data-testid={testIds.challengeShowSolution}>
          Open the minimal solution
        </button>
      </details>
    </section>
  );
}

function Outcome({ outcome: o }: { outcome: AttemptOutcome }) {
  switch (o.verdict) {
    case 'invalid':
      return null;
    case 'refused':
      return (
        <OutcomeBox verdict="refused" lines={o.reasons}>
          <strong>Not counted as a solution:</strong> this attempt breaks the challenge’s rules.
        </OutcomeBox>
      );
    case 'missed':
      return (
        <OutcomeBox verdict="missed" lines={[...o.unfired, ...o.explanations]}>
          <strong>Not yet.</strong> This run lost {o.lost} and applied {o.duplicated} twice
          {o.unfired.length > 0 ? ` — ${formatCountOf(o.unfired.length, 'fault')} never fired` : ''}
          .
        </OutcomeBox>
      );
    case 'solved':
      return (
        <OutcomeBox
          verdict="solved"
          lines={[...o.explanations, ...o.unfired]}
          otherwise="Every event took effect exactly once."
        >
          <strong>Solved!</strong> The engine checked your run: {o.lost} lost, {o.duplicated}{' '}
          applied twice.
        </OutcomeBox>
      );
    case 'unchanged': // never kept: no attempt
      return null;
    default: {
      const never: never = o;
      return never;
    }
  }
}

/** One attempt's outcome: its headline, then its reasons or explanations as a list. */
function OutcomeBox({
  verdict,
  lines,
  otherwise,
  children,
}: {
  verdict: 'refused' | 'missed' | 'solved';
  lines: readonly string[];
  /** Said in place of the list when it is empty. */
  otherwise?: string;
  children: ReactNode;
}) {
  return (
    <div
      className={`challenge-outcome ${verdict}`}
      role="status"
      // The solved box keeps its own test id: the e2e waits on success specifically.
      data-testid={verdict === 'solved' ? testIds.challengeSuccess : testIds.challengeOutcome}
      data-verdict={verdict}
    >
      <p>{children}</p>
      {lines.length > 0 ? (
        <ul>
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : (
        otherwise && <p>{otherwise}</p>
      )}
    </div>
  );
}
