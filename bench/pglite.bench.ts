/**
 * "Run on a real PostgreSQL" (docs/sql.md), measured: what the page downloads on request — the
 * PGlite worker chunk and PGlite's wasm and data assets in dist/ (gzip, as a server would send
 * them) — and, in Node, PGlite's start-up and the median time to run a preset's sink script and
 * compare it (src/views/io/sqlOnDatabase.ts, the worker's own code). Run `npm run build` first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { findPreset } from '../src/scenarios';
import { checkOnDatabase } from '../src/views/io/sqlOnDatabase';

const root = join(import.meta.dirname, '..');
const assets = join(root, 'dist', 'assets');
const PRESET = process.env.BENCH_PGLITE_PRESET ?? 'payment-resent-by-app/merge-per-batch';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const files = readdirSync(assets);
const sizeOf = (pattern: RegExp) => {
  const f = files.find((x) => pattern.test(x));
  if (!f) throw new Error(`dist/assets has no ${pattern}: run \`npm run build\` first`);
  const bytes = readFileSync(join(assets, f));
  return { f, raw: bytes.length, gz: gzipSync(bytes, { level: 9 }).length };
};
const parts = [
  sizeOf(/^pglite\.worker-.*\.js$/),
  sizeOf(/^pglite-.*\.wasm$/),
  sizeOf(/^initdb-.*\.wasm$/),
  sizeOf(/^pglite-.*\.data$/),
];
console.log(
  `PGlite chunk (the worker: PGlite's JS and the engine): ${kB(parts[0]!.gz)} gzip (${kB(parts[0]!.raw)} raw)`,
);
console.log(
  `with its assets (${parts
    .slice(1)
    .map((p) => `${p.f} ${kB(p.gz)}`)
    .join(
      ', ',
    )}): ${kB(parts.reduce((n, p) => n + p.gz, 0))} gzip, ${kB(parts.reduce((n, p) => n + p.raw, 0))} raw`,
);

const found = findPreset(PRESET);
if (!found) throw new Error(`no preset ${PRESET}`);
const t0 = performance.now();
const db = await PGlite.create();
console.log(
  `PGlite start-up in Node (initdb in WebAssembly): ${(performance.now() - t0).toFixed(0)} ms`,
);
const times: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const t = performance.now();
  const r = await checkOnDatabase(found.variant.scenario, db);
  times.push(performance.now() - t);
  if (!r.ok || !r.conformance.ok) throw new Error(`${PRESET}: ${JSON.stringify(r)}`);
}
await db.close();
console.log(
  `${PRESET}: script run in PGlite and compared, median ${median(times).toFixed(0)} ms over ${ROUNDS} runs (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)})`,
);
