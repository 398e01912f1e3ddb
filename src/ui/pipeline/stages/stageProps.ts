import type { RunView } from '../../../views/run/runView';

/** Props every stage gets: the view and the cursor. */
export interface StageProps {
  view: RunView;
  idx: number;
  t: number;
}
