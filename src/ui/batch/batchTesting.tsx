/**
 * Shared by the batch job's component tests: its view rendered in a lab of its own, inside the
 * library's context (where "Predict first" folds the outcome), every run inline.
 */
import { render } from '@testing-library/react';
import { createLab, type Lab } from '../../store/labStore';
import { LabProvider } from '../../store/LabContext';
import { LibraryProvider } from '../library/LibraryContext';
import { inlineRunner } from '../testLab';
import { BatchRun } from './BatchRun';

/** A new lab with `BatchRun` rendered in it (nothing loaded yet: the test loads its job). */
export function renderBatchRun(): Lab {
  const lab = createLab({ runner: inlineRunner });
  render(
    <LabProvider lab={lab}>
      <LibraryProvider>
        <BatchRun />
      </LibraryProvider>
    </LabProvider>,
  );
  return lab;
}
