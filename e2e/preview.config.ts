/**
 * The Playwright specs' static host: `vite preview` of dist/ (vite.config.ts) with the hashed files
 * under /assets/ sent as a production host sends them — `Cache-Control: public, max-age=31536000,
 * immutable`, as the classroom server does (server/staticFiles.ts) — not `vite preview`'s
 * `no-cache` on every file. Their names change with their content, so a page that navigates
 * again (a reload, a link, Back) takes them from its memory cache instead of revalidating each
 * of the ~100 files one request at a time over HTTP/1.1's six connections; index.html and the
 * files outside /assets/ are still asked again (`no-cache`). A fresh browser context starts with
 * an empty cache, as before: a spec's first load is what a first visit is.
 */
import { mergeConfig, type Plugin } from 'vite';
import base from '../vite.config';

/** The production host's header on /assets/ (server/staticFiles.ts). */
const ASSETS_CACHE_CONTROL = 'public, max-age=31536000, immutable';

function immutableAssets(): Plugin {
  return {
    name: 'e2e-immutable-assets',
    configurePreviewServer(server) {
      // Before vite's static files: sirv keeps a header the response already has.
      server.middlewares.use((req, res, next) => {
        if (req.url?.startsWith('/assets/')) res.setHeader('Cache-Control', ASSETS_CACHE_CONTROL);
        next();
      });
    },
  };
}

export default mergeConfig(base, { plugins: [immutableAssets()] });
