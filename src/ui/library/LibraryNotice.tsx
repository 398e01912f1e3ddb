import { testIds } from '../testIds';
import { useLibraryUi } from './LibraryContext';

/**
 * What went wrong with the URL's `?preset=`: an unknown id, said plainly, with the way on — the
 * workspace on screen is the one the page would have shown anyway.
 */
export function LibraryNotice() {
  const ui = useLibraryUi();
  if (!ui?.notice) return null;
  return (
    <div className="library-notice" role="alert" data-testid={testIds.presetNotice}>
      <span aria-hidden="true" className="library-notice-icon">
        !
      </span>
      <span>
        <strong>{ui.notice}</strong> The link’s preset was not opened; your current workspace is
        unchanged.
      </span>
      <span className="spacer" />
      <button type="button" onClick={() => ui.setOpen(true)}>
        Open the library
      </button>
      <button
        type="button"
        onClick={() => ui.setNotice(null)}
        data-testid={testIds.presetNoticeDismiss}
      >
        Dismiss
      </button>
    </div>
  );
}
