/**
 * Which source modules go into which chunk of the page's production build: for whoever trims a
 * page's or the embed's footprint next (issue 31), where bench/ui.bench.ts says a chunk is large
 * and this says why. It builds in memory (nothing written, dist/ untouched) with the project's
 * vite.config.ts and prints, per chunk, its size gzipped and its modules by rendered size.
 *
 *   npx tsx scripts/chunk-modules.ts                 every chunk
 *   npx tsx scripts/chunk-modules.ts embedMain       chunks whose name contains "embedMain"
 *   CHUNK_MODULES_TOP=5 npx tsx scripts/chunk-modules.ts   at most 5 modules per chunk (default 15)
 *
 * A module id ending in `?preact` is the embed's copy of a module (vite.config.ts,
 * preactForTheEmbed); the chunk's static imports are listed too (what loading it also fetches).
 */
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';

const root = join(import.meta.dirname, '..');
const filter = process.argv[2];
const top = Number(process.env.CHUNK_MODULES_TOP ?? 15);

/** A module id as a reader finds it: relative to the repository, node_modules shortened. */
function shortId(id: string): string {
  const rel = relative(root, id.replace(/^\0/, ''));
  return rel.replace(/^(?:\.\.[\\/])*(?:.*[\\/])?node_modules[\\/]/, '~/');
}

const out = (await build({
  root,
  logLevel: 'error',
  build: { write: false },
})) as Rollup.RollupOutput | Rollup.RollupOutput[];
const outputs = Array.isArray(out) ? out : [out];
const chunks = outputs
  .flatMap((o) => o.output)
  .filter((c): c is Rollup.OutputChunk => c.type === 'chunk')
  .filter((c) => filter === undefined || c.fileName.includes(filter))
  .map((c) => ({ chunk: c, gzip: gzipSync(c.code, { level: 9 }).length }))
  .sort((a, b) => b.gzip - a.gzip);

for (const { chunk, gzip } of chunks) {
  const modules = Object.entries(chunk.modules)
    .map(([id, m]) => ({ id: shortId(id), size: m.renderedLength }))
    .filter((m) => m.size > 0)
    .sort((a, b) => b.size - a.size);
  const kind = chunk.isEntry ? 'entry' : chunk.isDynamicEntry ? 'lazy' : 'shared';
  console.log(
    `\n${chunk.fileName} (${kind}): ${(gzip / 1000).toFixed(1)} kB gzip, ${(chunk.code.length / 1000).toFixed(1)} kB, ${modules.length} modules`,
  );
  if (chunk.imports.length > 0) console.log(`  imports: ${chunk.imports.join(', ')}`);
  for (const m of modules.slice(0, top))
    console.log(`  ${(m.size / 1000).toFixed(1).padStart(7)} kB  ${m.id}`);
  if (modules.length > top) console.log(`  … ${modules.length - top} more`);
}
