import { useActions } from '../../store/LabContext';
import { firstStoryRef } from '../../views/library/library';
import { useLibraryUi } from '../library/LibraryContext';
import { testIds } from '../testIds';

/** What the page is, in one line. */
const TAGLINE =
  'Break a Kafka pipeline on purpose and see, event by event, which records are lost or applied twice — and why.';

/**
 * The first screen's line under the title: what this is, and where to start — "Start here" opens
 * the library's first story with its setup and question (unfolded, whatever was left folded).
 */
export function FirstLine() {
  const a = useActions();
  const ui = useLibraryUi();
  return (
    <p className="first-line" data-testid={testIds.tagline}>
      <span>{TAGLINE}</span>{' '}
      <button
        type="button"
        className="start-here"
        data-testid={testIds.startHere}
        onClick={() => {
          a.loadPreset(firstStoryRef());
          ui?.setStoryHidden(false);
          ui?.markOpened();
        }}
      >
        Start here →
      </button>
    </p>
  );
}
