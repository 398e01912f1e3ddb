/**
 * A build served as the classroom server serves it (server/staticFiles.ts: each file's gzipped
 * copy written by the build, scripts/precompress.ts) — as a static host that serves precompressed
 * files does — for the first-verdict measure (bench/ui.bench.ts). Run by bench/previewServer.ts:
 * `node --import tsx bench/serveDist.ts <dist> <port>`.
 */
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { serveStatic } from '../server/staticFiles';

const [dist = 'dist', port = '4310'] = process.argv.slice(2);
const root = resolve(dist);
createServer((req, res) => serveStatic(root, req, res)).listen(Number(port), '127.0.0.1');
