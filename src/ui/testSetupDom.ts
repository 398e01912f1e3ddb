/**
 * The components' tests' setup (vite.config.ts, projects 'dom' and 'dom-isolated'), run before
 * each test file.
 *
 * testing-library's `findBy…` and `waitFor` wait 10 s, not 1 s — the library dialog, the importer
 * and the embed's height reservation load or settle asynchronously, and on a loaded two-core
 * machine 1 s was too little (a full CI run failed the library dialog's first open).
 *
 * The 'dom' project's files share one jsdom and one module registry per worker (`isolate: false`):
 * each file starts on the page a jsdom of its own opened (below), and leaves nothing running.
 */
import { cleanup, configure } from '@testing-library/react';
import { afterAll, beforeAll, vi } from 'vitest';

configure({ asyncUtilTimeout: 10_000 });

/**
 * The page as jsdom opens it: at `/` (vitest's jsdom is at http://localhost:3000/) with no
 * history state, its storage empty, `<html>` and `<body>` bare. What a file before this one in the
 * worker left there — the store's `?preset=` in the address, the first-screen mark
 * (src/platform/address.ts), a saved workspace or challenge progress, `data-theme` — is gone.
 */
beforeAll(() => {
  history.replaceState(null, '', '/');
  localStorage.clear();
  sessionStorage.clear();
  for (const el of [document.documentElement, document.body])
    for (const name of el.getAttributeNames()) el.removeAttribute(name);
  document.body.replaceChildren();
});

afterAll(async () => {
  // Every React root the file left mounted (renderHook and render without a cleanup), with the
  // window and document listeners its effects added.
  cleanup();
  // The chunks a test started loading (a lazy panel: App renders the atlas, IoTools preloads the
  // diagrams) arrive before the file ends: vitest refuses a module still loading when its file
  // is done, and React.lazy keeps that refusal, so with a shared registry every later file that
  // renders the panel failed ("Cannot load … after the environment was torn down").
  await vi.dynamicImportSettled();
});
