import type { ReactNode } from 'react';
import { StoryPanel } from './StoryPanel';
import './library.css';

/**
 * The pipeline and the panels under it (`children`), with the open preset's story beside them —
 * or above them, compact, when the page is too narrow for both (a larger font, a smaller
 * window): a container query on the available width decides, so the pipeline never slides
 * under the story. The story comes first in the document: its question is the first step
 * ("Predict first"), and above the pipeline the tab order then follows what is on screen.
 */
export function Workbench({ children }: { children: ReactNode }) {
  return (
    <div className="workbench">
      <div className="workbench-grid">
        <StoryPanel />
        <div className="workbench-main">{children}</div>
      </div>
    </div>
  );
}
