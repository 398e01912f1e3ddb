import { Icon } from '../Icon';
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
        <Icon name="library" /> Library
      </button>
      {ui.open && <LibraryDialog />}
    </>
  );
}
