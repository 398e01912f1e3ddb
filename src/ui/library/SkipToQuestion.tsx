import { SkipLink } from '../SkipLink';
import { testIds } from '../testIds';
import { ANSWER_FIELD } from './answerField';

/**
 * The first Tab while the open preset's question waits for its answer: straight to where it is
 * answered. The story, the top bar and the playback put ~31 stops before the prediction box (the
 * tester's count at 1280×720), and the page's other skip link goes past it to the pipeline. No
 * hash change: the URL's hash is the share link's.
 */
export function SkipToQuestion() {
  return (
    <SkipLink
      href="#predict"
      target={() =>
        document
          .querySelector(`[data-testid="${testIds.predict}"]`)
          ?.querySelector<HTMLElement>(ANSWER_FIELD)
      }
    >
      Skip to the question
    </SkipLink>
  );
}
