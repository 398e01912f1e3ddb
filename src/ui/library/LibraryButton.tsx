import { testIds } from '../testIds';
import { useLibraryUi } from './LibraryContext';
import { LibraryDialog } from './LibraryDialog';

/** The top bar's "Library" button, and the library it opens. Nothing without a provider. */
export function LibraryButton() {
  const ui = useLibraryUi();
  if (!ui) return null;
  return (
    <>
      <button
        type="button"
        className="library-button"
        onClick={() => ui.setOpen(true)}
        aria-haspopup="dialog"
        aria-expanded={ui.open}
        data-testid={testIds.libraryOpen}
        title="Real failures as presets, grouped by where they happen (L)"
      >
        <svg
          className="icon"
          viewBox="0 0 16 16"
          width="1em"
          height="1em"
          aria-hidden="true"
          focusable="false"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinejoin="round"
        >
          {/* Three books on a shelf. */}
          <path d="M1.5 2.5h3v11h-3z M5.5 2.5h3v11h-3z M9.6 3.4l2.9-0.8 2.9 10.6-2.9 0.8z" />
        </svg>{' '}
        Library
      </button>
      {ui.open && <LibraryDialog />}
    </>
  );
}
