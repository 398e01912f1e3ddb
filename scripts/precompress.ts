/**
 * The build's text files written gzipped beside themselves (`lab-….js` → `lab-….js.gz`), as a
 * static host that serves precompressed files reads them (nginx's `gzip_static`,
 * https://nginx.org/en/docs/http/ngx_http_gzip_static_module.html) and as the classroom server
 * does (server/staticFiles.ts): compressed once at build time, at the highest level, not again on
 * every request. A room of students loads the page from one laptop over Wi-Fi; the page's first
 * load is ~3× smaller gzipped. node:zlib does it (no plugin dependency for a dozen lines).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** What compresses well; images and fonts are compressed already. */
export const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.svg',
  '.txt',
  '.wasm',
  '.data',
]);

/** Below this a gzipped file saves less than its headers cost (nginx's `gzip_min_length` idea). */
const MIN_BYTES = 1024;

/** Every compressible file under `dir` (at least MIN_BYTES) gets its `.gz`; returns how many. */
export function precompressDir(dir: string): number {
  let written = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) written += precompressDir(path);
    else if (COMPRESSIBLE.has(extname(name)) && stat.size >= MIN_BYTES) {
      writeFileSync(
        `${path}.gz`,
        gzipSync(readFileSync(path), { level: constants.Z_BEST_COMPRESSION }),
      );
      written++;
    }
  }
  return written;
}

/**
 * Vite plugin: {@link precompressDir} over the output directory once the build is written. A
 * build that writes nothing (`build.write: false`: src/cli/labChunkBuild.test.ts builds in memory)
 * leaves it alone: what is there is an earlier build's — in `npm test`, the one Playwright is about
 * to serve, being written beside the tests (scripts/test.mjs) — and gzipping its 29 MB took 1.6 s.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  let writes = true;
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      writes = config.build.write !== false;
    },
    closeBundle: {
      order: 'post',
      handler() {
        if (writes) precompressDir(outDir);
      },
    },
  };
}
