/**
 * Why a module is in an entry's first load (issue 31): the chain of static imports from the
 * entry to each module whose id contains a given text, in the page's production build (built in
 * memory with the project's vite.config.ts, nothing written). Dynamic imports are not followed:
 * what they reach loads on demand. For whoever cuts an edge next; scripts/chunk-modules.ts says
 * which chunk a module lands in.
 *
 *   npx tsx scripts/why-imported.ts zod/v4/core/schemas            from src/embedMain.tsx
 *   WHY_FROM=src/main.tsx npx tsx scripts/why-imported.ts knobsKey from the lab's page
 *   WHY_ALL=1 npx tsx scripts/why-imported.ts zod/index.js   every edge of src/ that leads there
 *   WHY_SHAKEN=1 …   the imports the build keeps after tree-shaking (scripts/shakenReach.ts):
 *                    through a barrel such as src/engine/index.ts, a name leads only to its module
 *                    (static imports alone reach zod from every page, the embed's too)
 */
import { join, relative } from 'node:path';
import { build, type Plugin } from 'vite';
import { shakenGraph, shakenModules } from './shakenReach';

const root = join(import.meta.dirname, '..');
const target = process.argv[2];
if (target === undefined) throw new Error('usage: why-imported.ts <text in a module id>');
const from = process.env.WHY_FROM ?? 'src/embedMain.tsx';

const short = (id: string) =>
  relative(root, id.replace(/^\0/, '')).replace(
    /^(?:\.\.[\\/])*(?:.*[\\/])?node_modules[\\/]/,
    '~/',
  );

const graph = new Map<string, readonly string[]>();
const recorder: Plugin = {
  name: 'record-static-imports',
  async buildEnd() {
    const ids = [...this.getModuleIds()];
    if (!process.env.WHY_SHAKEN) {
      for (const id of ids) graph.set(id, this.getModuleInfo(id)?.importedIds ?? []);
      return;
    }
    // As vite.config.ts's first-load chunks read it: the entry runs, and every module loaded by
    // `import()` may have any of its exports read.
    const entry = ids.find((id) => short(id) === 'src/entry.ts');
    const lazy = new Set(ids.flatMap((id) => this.getModuleInfo(id)?.dynamicallyImportedIds ?? []));
    const shaken = shakenGraph(await shakenModules(this, ids), [
      ...(entry === undefined ? [] : [[entry, ''] as const]),
      ...[...lazy].map((id) => [id, '*'] as const),
    ]);
    for (const [id, to] of shaken) graph.set(id, [...to]);
  },
};
await build({ root, logLevel: 'error', build: { write: false }, plugins: [recorder] });

// Breadth first from the entry: the first path found to a module is a shortest one.
const start = [...graph.keys()].find((id) => short(id) === from);
if (start === undefined) throw new Error(`no module ${from} in the build`);
const parent = new Map<string, string | null>([[start, null]]);
const queue = [start];
while (queue.length > 0) {
  const id = queue.shift()!;
  for (const next of graph.get(id) ?? [])
    if (!parent.has(next)) {
      parent.set(next, id);
      queue.push(next);
    }
}
const hits = [...parent.keys()].filter((id) => short(id).includes(target));
if (hits.length === 0) console.log(`${target}: not in ${from}'s static graph`);
for (const hit of hits) {
  const chain: string[] = [];
  for (let id: string | null = hit; id !== null; id = parent.get(id) ?? null) chain.push(short(id));
  console.log(chain.reverse().join('\n  → '), '\n');
}

// WHY_ALL: every module of src/ on some path to a hit, with its imports that lead there: the
// edges to cut (a shortest path shows one of them only).
if (process.env.WHY_ALL) {
  const leads = new Set(hits);
  for (let grew = true; grew;) {
    grew = false;
    for (const id of parent.keys())
      if (!leads.has(id) && (graph.get(id) ?? []).some((n) => leads.has(n))) {
        leads.add(id);
        grew = true;
      }
  }
  for (const id of [...leads].filter((i) => short(i).startsWith('src/')).sort())
    console.log(
      `${short(id)} → ${(graph.get(id) ?? [])
        .filter((n) => leads.has(n))
        .map(short)
        .join(', ')}`,
    );
}

// WHY_LIST: every module of src/ in the entry's static graph.
if (process.env.WHY_LIST)
  for (const id of [...parent.keys()]
    .map(short)
    .filter((i) => i.startsWith('src/'))
    .sort())
    console.log(id);
