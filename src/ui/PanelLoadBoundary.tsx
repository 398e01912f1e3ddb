import { Component, type ReactNode } from 'react';
import { reloadPage } from '../platform/reload';
import { testIds } from './testIds';

/**
 * Whether `error` is a chunk that did not download, as each browser words a failed `import()`
 * (Chromium, Firefox, Safari) or Vite's preload helper a style sheet
 * (https://vite.dev/guide/build#load-error-handling).
 */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    message,
  );
}

/**
 * Around a panel loaded on demand (./lazyPanel.ts): a chunk that did not download — the network
 * failed, or a newer build was published since the page was opened and the old file is gone —
 * says so in the panel's place, and the rest of the page goes on (the workspace keeps saving), in
 * place of the whole page's "Something went wrong". Any other error is a bug: it goes on up to
 * the page's boundary (./ErrorBoundary.tsx), which reports it.
 */
export class PanelLoadBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: unknown } {
    return { error };
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (!isChunkLoadError(error)) throw error;
    return (
      <div role="alert" className="card" data-testid={testIds.panelLoadFailed}>
        <p>
          This part of the page could not be loaded: the network failed, or a newer version of
          Delivery Lab was published since this page was opened. Your workspace is saved.
        </p>
        <button type="button" onClick={reloadPage}>
          Reload the page
        </button>
      </div>
    );
  }
}
