/**
 * Shared by the atlas panels' tests: a lab opened on a preset as shipped, its first run done, and
 * a panel rendered in it — inside the library's context where "Predict first" matters (it folds
 * the outcome: src/ui/library/LibraryContext.tsx).
 */
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { LabProvider } from '../../store/LabContext';
import type { Lab } from '../../store/labStore';
import { LibraryProvider } from '../library/LibraryContext';
import { presetLab } from '../testLab';

/**
 * @param ref - the preset (`preset-id` or `preset-id/variant-id`).
 * @param panel - what to render, given the lab (it may set the lab's state first).
 * @param library - inside the library's context.
 * @returns the lab.
 */
export async function renderInLab(
  ref: string,
  panel: (lab: Lab) => ReactNode,
  { library = false } = {},
): Promise<Lab> {
  const lab = presetLab(ref);
  await lab.actions.settled();
  const node = panel(lab);
  render(
    <LabProvider lab={lab}>
      {library ? <LibraryProvider>{node}</LibraryProvider> : node}
    </LabProvider>,
  );
  return lab;
}
