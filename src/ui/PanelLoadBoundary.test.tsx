import { cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './ErrorBoundary';
import { lazyPanel } from './lazyPanel';
import { isChunkLoadError } from './PanelLoadBoundary';
import { testIds } from './testIds';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** A lazy panel whose download fails with `error`, inside the page's boundary. */
function page(error: Error) {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const Panel = lazyPanel(
    () => Promise.reject(error),
    () => () => <p>panel</p>,
  );
  return render(
    <ErrorBoundary onReload={() => {}}>
      <p>pipeline</p>
      <Suspense fallback={null}>
        <Panel />
      </Suspense>
    </ErrorBoundary>,
  );
}

describe('a panel loaded on demand', () => {
  it('whose chunk did not download says so in its place; the rest of the page stays', async () => {
    page(new TypeError('Failed to fetch dynamically imported module: http://x/assets/Lower-a.js'));
    expect((await screen.findByTestId(testIds.panelLoadFailed)).textContent).toContain(
      'could not be loaded',
    );
    expect(screen.getByText('pipeline')).toBeTruthy();
    expect(screen.queryByTestId(testIds.errorBoundary)).toBeNull();
  });

  it('whose module throws for another reason is a bug: the page’s boundary reports it', async () => {
    page(new Error('kaboom'));
    expect((await screen.findByTestId(testIds.errorBoundary)).textContent).toContain('kaboom');
    expect(screen.queryByTestId(testIds.panelLoadFailed)).toBeNull();
  });

  it('knows each browser’s words for a failed download', () => {
    for (const message of [
      'Failed to fetch dynamically imported module: https://x/a.js',
      'error loading dynamically imported module: https://x/a.js',
      'Importing a module script failed.',
      'Unable to preload CSS for https://x/a.css',
    ])
      expect(isChunkLoadError(new TypeError(message)), message).toBe(true);
    expect(isChunkLoadError(new Error('kaboom'))).toBe(false);
  });
});
