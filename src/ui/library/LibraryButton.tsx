import { Icon } from '../Icon';
import { testIds } from '../testIds';
import { lazy, Suspense } from 'react';
import { loadAllPresets } from '../../scenarios/presetCatalog';
import { useLibraryUi } from './LibraryContext';

// The library lists and searches every preset's story, and offers the challenges: loaded when
// first opened, so the first screen holds one preset and no challenge (issues #24, #31).
const LibraryDialog = lazy(() =>
  Promise.all([import('./LibraryDialog'), loadAllPresets()]).then(([m]) => ({
    default: m.LibraryDialog,
  })),
);

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
      {ui.open && (
        <Suspense fallback={null}>
          <LibraryDialog />
        </Suspense>
      )}
    </>
  );
}
