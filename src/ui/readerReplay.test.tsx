/**
 * A downstream reader's own replay on the page (issue 30, item 6): the verdict card says where
 * the verdict is judged and that the reader's re-read rows are its own; the explanation is
 * labelled as the reader's re-read, not as a duplicate of the pipeline's. Reader semantics:
 * https://kafka.apache.org/documentation/#semantics (process, then save the position: a crash in
 * between re-reads — at-least-once, the consumer's own).
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunClient } from '../platform/runClient';
import { createLab } from '../store/labStore';
import { LabProvider } from '../store/LabContext';
import { Counters } from './Counters';
import { Explanations } from './panels/Explanations';
import { testIds } from './testIds';
import { READER_CRASH as readerCrash } from '../views/run/readerReplay.testdata';

const inline = createRunClient({ createWorker: null });

describe("a reader's own replay on the page", () => {
  afterEach(cleanup);

  it('the verdict card names the point it judges and the 3 rows rc re-read itself; the explanation is labelled as rc’s re-read', async () => {
    const lab = createLab({ runner: inline, initial: readerCrash });
    render(
      <LabProvider lab={lab}>
        <Counters />
        <Explanations />
      </LabProvider>,
    );
    await act(() => lab.actions.settled());
    act(() => lab.actions.seek(1e9));
    // By hand (src/engine/readerReplay.test.ts): rc copies e1..e3, crashes before its commit,
    // re-reads them from offset 0: 3 records read once each, 3 rows re-read — held.
    const verdict = screen.getByTestId(testIds.verdict);
    expect(verdict.getAttribute('data-held')).toBe('true');
    expect(verdict.textContent).toContain(
      'verdict of the whole run, judged at reader rc (read_committed) (each record it read counted once: 3 rows it copied again itself, after a crash before its commit, are its own replay)',
    );
    const x = screen.getByTestId(testIds.explanation);
    expect(x.getAttribute('data-by')).toBe('rc');
    expect(x.textContent).toContain('re-read by reader rc e1, e2, e3');
  });
});
