/**
 * The presenter's "Open…" of a lesson file refused: a JSON syntax error names its line and
 * column, `cut.lesson.json:2:15: not valid JSON: …`, as the page's Import and `delivery-lab` say it
 * (`jsonSyntaxLine`, src/engine/scenario/issueWords.ts). It said `(file): not valid JSON: …`
 * before, nothing of where.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ArtifactClient } from '../../platform/runClient';
import { libraryLessons } from '../../scenarios/lessons/catalog';
import { createNotices } from '../io/notices';
import { PageProvider } from '../io/PageContext';
import { LessonTools } from './LessonTools';

afterEach(cleanup);

describe('LessonTools: Open… a lesson file', () => {
  it('a JSON syntax error names its line and column', async () => {
    const notices = createNotices();
    const artifacts: ArtifactClient = { get: vi.fn(), dispose: () => {} };
    render(
      <PageProvider page={{ notices, artifacts, shareLink: null }}>
        <LessonTools lesson={libraryLessons()[0]!} />
      </PageProvider>,
    );
    // Position 29 is the text's end: line 2 (one \n before it, at 14), column 29 − 14 = 15.
    const text = '{"version": 1,\n  "name": "abc';
    fireEvent.change(screen.getByLabelText('Open a lesson file'), {
      target: { files: [new File([text], 'cut.lesson.json')] },
    });
    await waitFor(() => expect(notices.store.getState().items).toHaveLength(1));
    expect(notices.store.getState().items[0]).toMatchObject({
      tone: 'error',
      text: 'Could not open “cut.lesson.json” as a lesson:',
      lines: ['cut.lesson.json:2:15: not valid JSON: Unterminated string in JSON at position 29'],
    });
  });
});
