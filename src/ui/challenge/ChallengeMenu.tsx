/**
 * The library's "Challenges" entry: every shipped challenge, by area; choosing one opens it (its
 * start replaces the scenario, the panel above the pipeline shows its goal). `onChosen` closes
 * the library.
 */
import { challenges } from '../../scenarios/challenges';
import { testIds } from '../testIds';
import { useChallengeUi } from './ChallengeContext';
import './challenge.css';

export function ChallengeMenu({ onChosen }: { onChosen: () => void }) {
  const ui = useChallengeUi();
  if (!ui) return null;
  return (
    <section
      className="challenge-menu"
      aria-labelledby="challenge-menu-title"
      data-testid={testIds.challengeMenu}
    >
      <h3 id="challenge-menu-title">Challenges</h3>
      <p className="muted">
        A goal to reach by breaking or fixing a pipeline; the engine checks your run.
      </p>
      <ul>
        {challenges().map((c) => (
          <li key={c.id}>
            <button
              type="button"
              data-challenge={c.id}
              onClick={() => {
                ui.openChallenge(c.id);
                onChosen();
              }}
            >
              <strong>{c.title}</strong> <span className="muted">· {c.area}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
