import { Suspense, useState } from 'react';
import { useLab } from '../../store/LabContext';
import { EmbedDialog } from '../onDemandPanels';
import { REFUSED_TITLE, selectRefused } from '../share/refused';
import { testIds } from '../testIds';

/**
 * The Embed button; its dialog (./EmbedDialog.tsx) is a chunk of its own, whose download starts
 * on hover or focus of the button (and once the page is idle), so that the click finds it in.
 */
export function EmbedButton() {
  const [open, setOpen] = useState(false);
  const refused = useLab(selectRefused);
  return (
    <>
      <button
        type="button"
        data-testid={testIds.embedButton}
        onClick={() => setOpen(true)}
        onPointerEnter={EmbedDialog.preload}
        onFocus={EmbedDialog.preload}
        disabled={refused}
        title={refused ? REFUSED_TITLE : 'A snippet for a docs page or a course'}
      >
        Embed
      </button>
      {open && (
        // A modal dialog: nothing of the page moves while it loads.
        <Suspense fallback={null}>
          <EmbedDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
