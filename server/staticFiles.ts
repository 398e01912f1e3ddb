/**
 * Serves the built page (dist/) read-only: GET and HEAD only, paths resolved inside dist/ (a
 * `..` that climbs out is a 404), a fixed content type per extension, `nosniff`. A file the build
 * wrote gzipped beside itself (scripts/precompress.ts) goes out as that `.gz` to a browser that
 * accepts gzip: a room loads the page from one laptop, and compressing on every request would
 * cost the server a core at the start of a workshop. The hashed files under `assets/` never
 * change under their name, so browsers keep them (`immutable`); the rest is asked again.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import Negotiator from 'negotiator';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** Whether dist/ holds a built page. */
export const isBuilt = (distDir: string): boolean => existsSync(join(distDir, 'index.html'));

export function serveStatic(distDir: string, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  let path: string;
  try {
    path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  } catch {
    res.writeHead(400).end('bad path');
    return;
  }
  const file = normalize(join(distDir, path.endsWith('/') ? `${path}index.html` : path));
  if (!file.startsWith(distDir + sep) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
    return;
  }
  const gzipped = `${file}.gz`;
  // negotiator reads Accept-Encoding as RFC 9110 §12.5.3 says (q-values, `*`, `identity;q=0`).
  const gzip = existsSync(gzipped) && new Negotiator(req).encoding(['gzip', 'identity']) === 'gzip';
  const sent = gzip ? gzipped : file;
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    // Its length up front (not chunked): the browser knows when the file is whole.
    'content-length': statSync(sent).size,
    'x-content-type-options': 'nosniff',
    'cache-control': path.startsWith('/assets/')
      ? 'public, max-age=31536000, immutable'
      : 'no-cache',
    vary: 'accept-encoding',
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
  });
  if (req.method === 'HEAD') res.end();
  else createReadStream(sent).pipe(res);
}
