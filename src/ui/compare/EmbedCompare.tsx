import { lazy, Suspense, useEffect } from 'react';
import { useLabInstance } from '../../store/LabContext';
import { offerFor } from './compareOffer';

// Loaded only by a player that shows Compare (this module is a lazy chunk of the embed's too): a
// preset embed carries none of it (issue 31, the embed ≤ 150 KB gzip).
const ComparePanel = lazy(() =>
  import('./ComparePanel').then((m) => ({ default: m.ComparePanel })),
);

/**
 * Compare in an embedded player (`panels=compare`): the lanes its link carries (`c=`), or, if it
 * carries none, the default offer (./compareOffer.ts). Locked
 * (`lock=1`), the lanes are shown but not edited. `onSettled` once the lanes are run: the player
 * reserves its height only then (src/ui/embed/ReserveHeight.tsx), Compare included.
 */
export function EmbedCompare({ locked, onSettled }: { locked: boolean; onSettled?: () => void }) {
  const lab = useLabInstance();
  useEffect(() => {
    const s = lab.app.getState();
    // Not an edit of the reader's: no undo step (and a locked lab's actions would refuse it).
    if (s.compare === null) lab.app.setState({ compare: offerFor(s.scenario) });
  }, [lab]);
  return (
    <Suspense fallback={null}>
      <ComparePanel locked={locked} embedded onSettled={onSettled} />
    </Suspense>
  );
}
