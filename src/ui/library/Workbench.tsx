import { useEffect, useState, type ReactNode } from 'react';
import { watchMoreBelow } from '../moreBelow';
import { StoryPanel } from './StoryPanel';
import './library.css';

/**
 * The counters (`head`), the pipeline and the panels under it (`children`), with the open
 * preset's story beside them — or above them, compact, when the page is too narrow for both (a
 * larger font, a smaller window): a container query on the available width decides, so the
 * pipeline never slides under the story. While its question is asked (`data-asking` on the
 * story) the story is a band across the top instead, setup on the left and question on the
 * right, so that both are read before the counters and the pipeline (issue 24: at 1280×720 the
 * setup was below the fold). The story comes first in the document: its question is the first
 * step ("Predict first"), and above the pipeline the tab order then follows what is on screen.
 */
export function Workbench({
  head,
  children,
  story = true,
  main,
}: {
  head?: ReactNode;
  children: ReactNode;
  /**
   * The page's main landmark, when `children` have none of their own (Compare's lanes, a batch
   * job; the pipeline is its own `<main id="pipeline">`): its id is the "Skip to …" link's target.
   */
  main?: { id: string; label: string };
  /** Whether the story is shown (Compare shows it only while its question waits: App.tsx). */
  story?: boolean;
}) {
  // In projector mode Compare's lanes, what differs and the diff scroll in this box
  // (present/present.css): its foot says when there is more below.
  // A state, not a ref: the page swaps the pipeline's Workbench for Compare's in place.
  const [mainBox, setMainBox] = useState<HTMLElement | null>(null);
  useEffect(() => (mainBox ? watchMoreBelow([mainBox]) : undefined), [mainBox]);
  return (
    <div className="workbench">
      <div className="workbench-grid">
        {story && <StoryPanel />}
        {head && <div className="workbench-head">{head}</div>}
        {main ? (
          <main
            ref={setMainBox}
            className="workbench-main"
            id={main.id}
            tabIndex={-1}
            aria-label={main.label}
          >
            {children}
          </main>
        ) : (
          <div className="workbench-main">{children}</div>
        )}
      </div>
    </div>
  );
}
