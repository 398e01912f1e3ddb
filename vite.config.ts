import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { precompress } from './scripts/precompress';
import { reachOver, shakenGraph, shakenModules } from './scripts/shakenReach';
import { testsNeedingOwnRegistry } from './scripts/testIsolation';

/**
 * zod's classic schemas carry a `toJSONSchema()` method, so every bundle that uses zod also holds
 * its JSON Schema generator — code the page never runs: the JSON Schema is generated in Node
 * (`npm run schema`, scripts/schema.ts) and shipped as public/scenario.schema.json. In the
 * production build only, zod's generator module (core/to-json-schema.js, ~3 kB gzip) is replaced
 * by a stub with the same export names that throws if ever called (`create…` factories return
 * such a function: the Standard Schema getter makes them eagerly). zod's per-type JSON Schema
 * processors stay: `aggregateChecks` among them gives `minValue` / `maxValue`, which the Knobs
 * panel reads. Tests, the CLI and the schema script use zod as published.
 */
function withoutZodJsonSchema(): Plugin {
  const stubbed = /node_modules[\\/]zod[\\/]v4[\\/]core[\\/]to-json-schema\.js$/;
  return {
    name: 'without-zod-json-schema',
    apply: 'build',
    transform(code, id) {
      if (!stubbed.test(id)) return null;
      const names = new Set<string>();
      for (const m of code.matchAll(/^export (?:const|function|async function) (\w+)/gm))
        names.add(m[1]!);
      for (const m of code.matchAll(/^export \{([^}]*)\}/gm))
        for (const part of m[1]!.split(','))
          names.add(
            part
              .trim()
              .split(/\s+as\s+/)
              .pop()!,
          );
      names.delete('');
      const thrower = (n: string) =>
        `() => { throw new Error('zod JSON Schema (${n}) is not in the page build'); }`;
      const stub = [...names].map(
        (n) =>
          `export const ${n} = ${n.startsWith('create') ? `() => ${thrower(n)}` : thrower(n)};`,
      );
      return { code: stub.join('\n'), map: null };
    },
  };
}

/**
 * The page draws two kinds of mermaid diagram, both from src/views/diagrams/mermaid.ts: `sequenceDiagram`
 * (a run, an event's chain, the anomaly slide) and `flowchart LR` (the topology). Mermaid 11
 * registers every diagram type it knows with a loader, `import("./chunks/mermaid.core/<type>-….mjs")`
 * in dist/mermaid.core.mjs, so a bundler emits all of them (and what they pull in: cytoscape for
 * mindmap and architecture, the ELK and cose-bilkent layouts…) though the page never loads them.
 *
 * In the production build only, this plugin turns every diagram loader but those two, the
 * cose-bilkent layout (cytoscape) and KaTeX (`$$…$$` in labels, which src/views/diagrams/mermaidText.ts
 * encodes so it never acts) into a rejected promise: the same subset mermaid's own tiny build
 * drops (https://github.com/mermaid-js/mermaid/blob/develop/packages/tiny/README.md: "Mindmap
 * Diagram, Architecture Diagram, Katex rendering"), with the flowchart and sequence loaders kept
 * lazy. Mermaid stays the published package (≥ 11.15, see src/platform/mermaid.ts); a diagram of
 * another type would fail to load with the message below, shown as any mermaid error is.
 */
const MERMAID_DIAGRAMS_KEPT = ['sequenceDiagram', 'flowDiagram'] as const;

const MERMAID_DIST = /node_modules[\\/]mermaid[\\/]dist[\\/]/;

/** `import("…")` of a mermaid chunk or of katex, with the module's base name (hash dropped). */
const DYNAMIC_IMPORT = /\bimport\(\s*"([^"]+)"\s*\)/g;

/** The diagram type or module a dynamic import in mermaid's dist loads: `flowDiagram`, `katex`… */
function importedName(spec: string): string {
  const base = spec
    .split('/')
    .pop()!
    .replace(/\.mjs$/, '');
  // Chunk names end in a hash of 8 upper-case letters and digits: `flowDiagram-HODETNUW`.
  return base.replace(/-[A-Z0-9]{8}$/, '');
}

/** Whether the page may load this dynamic import of mermaid's dist. */
function kept(spec: string, fromEntry: boolean): boolean {
  const name = importedName(spec);
  if (name === 'katex' || name === 'cose-bilkent') return false;
  // The entry's dynamic imports are the diagram loaders; other chunks' are layouts and helpers.
  if (fromEntry && spec.startsWith('./chunks/mermaid.core/'))
    return (MERMAID_DIAGRAMS_KEPT as readonly string[]).includes(name);
  return true;
}

/** `code` of a file of mermaid's dist with the loaders of what the page never draws refused. */
export function withoutUnusedMermaidDiagrams(code: string, id: string): string {
  const fromEntry = /mermaid\.core\.mjs$/.test(id);
  return code.replace(DYNAMIC_IMPORT, (whole, spec: string) =>
    kept(spec, fromEntry)
      ? whole
      : `Promise.reject(new Error(${JSON.stringify(`mermaid: ${importedName(spec)} is not in Delivery Lab's build (vite.config.ts)`)}))`,
  );
}

/** The plugin: production build only; dev and tests load mermaid as published. */
function mermaidUsedDiagramsOnly(): Plugin {
  return {
    name: 'mermaid-used-diagrams-only',
    apply: 'build',
    transform(code, id) {
      if (!MERMAID_DIST.test(id) || !code.includes('import(')) return null;
      const out = withoutUnusedMermaidDiagrams(code, id);
      return out === code ? null : { code: out, map: null };
    },
  };
}

/**
 * The embed's renderer (issue 31: the embed ≤ 150 KB gzip): the embed's page
 * (src/embedMain.tsx and what it imports) is built against Preact's React compatibility layer
 * (https://preactjs.com/guide/v10/switching-to-preact), 9.4 kB gzip with its hooks where React
 * DOM is ~60; the lab's page keeps React. One build, one index.html: every module the embed reaches that renders
 * (src/ outside the pure layers engine/, views/, scenarios/, and the React bindings of zustand and
 * @tanstack/react-virtual) is resolved a second time with `?preact` appended to its id, and in
 * those copies `react`/`react-dom` resolve to `preact/compat`. The pure layers are not copied, so
 * the engine's chunks stay shared with the page. Production build only: the dev server and the
 * components' tests run React, the embed's e2e run the built embed.
 */
const PREACT_TAG = '?preact';
/** Preact's own modules: the embed's alone. */
const PREACT = /[\\/]node_modules[\\/]preact[\\/]/;
const EMBED_ROOT = /[\\/]src[\\/]embedMain\.tsx$/;
/** React's entry points → Preact's. */
const TO_PREACT: Record<string, string> = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-runtime',
};
/** Modules copied for the embed: those that render or may import React. */
const RENDERS =
  /([\\/]src[\\/](?!engine[\\/]|views[\\/]|scenarios[\\/]|cli[\\/])|[\\/]node_modules[\\/](zustand|@tanstack[\\/]react-virtual)[\\/]).*\.(tsx?|m?js)$/;

/**
 * Not copied though under src/ui or src/platform: what src/entry.ts imports before either page
 * (the simulation's download, the preset's, `isEmbed`). None renders; the entry has loaded the
 * page's module already, so a copy in the player was the same code fetched twice (~0.4 kB gzip).
 */
const ENTRY_SHARED =
  /[\\/]src[\\/](platform[\\/](simulationChunk|presetUrl)|ui[\\/]embed[\\/]embedAddress)\.ts$/;

function preactForTheEmbed(): Plugin {
  return {
    name: 'preact-for-the-embed',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (importer === undefined) return null;
      if (!importer.endsWith(PREACT_TAG) && !EMBED_ROOT.test(importer)) return null;
      const preact = TO_PREACT[source];
      if (preact !== undefined)
        return this.resolve(preact, importer, { ...options, skipSelf: true });
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved === null || resolved.external || !RENDERS.test(resolved.id)) return resolved;
      if (ENTRY_SHARED.test(resolved.id)) return resolved;
      return { ...resolved, id: resolved.id + PREACT_TAG };
    },
  };
}

/** What the bundler knows of a module's imports (its `ModuleInfo`), null for an unknown id. */
type ImportsOf = (
  id: string,
) => { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;

/**
 * The modules `main` reaches by static imports that no other page can load: nothing `entry` (the
 * page's one entry) reaches by static or dynamic imports at any depth without passing through
 * `main` — the entry itself, the embed's page and all it may load. The `lab` chunk's (below).
 */
export function labOnlyModules(importsOf: ImportsOf, main: string, entry: string): Set<string> {
  const others = reachable(importsOf, entry, true, main);
  return new Set([...reachable(importsOf, main, false)].filter((id) => !others.has(id)));
}

/** The modules `from` reaches by static imports (and dynamic ones if `lazily`), not past `stop`. */
function reachable(
  importsOf: ImportsOf,
  from: string,
  lazily: boolean,
  stop?: string,
): Set<string> {
  const seen = new Set<string>();
  const todo = [from];
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
    if (seen.has(id) || id === stop) continue;
    seen.add(id);
    const info = importsOf(id);
    if (info === null) continue;
    todo.push(...info.importedIds, ...(lazily ? info.dynamicallyImportedIds : []));
  }
  return seen;
}

/**
 * The lab's page in fewer files (issue 24: first verdict ≤ 500 ms). Left to itself the bundler
 * splits the modules main.tsx imports into ~80 chunks (one per set of importers: the lab's lazy
 * panels share many of them), each a request of its own — over HTTP/1.1's six connections, a
 * queue that the first verdict waits for. Every module main.tsx reaches by static imports that
 * no other page can load (src/entry.ts itself, the embed's page and all it imports, lazily or
 * not) goes into one chunk, `lab`: the lab loads all of them at once anyway, and a lazy panel
 * importing one of them finds it loaded. The entry's and the embed's files are unchanged: what
 * they may load is not captured, and the captured modules' dependencies stay where they were
 * (`includeDependenciesRecursively: false`).
 */
function labEagerChunk(): { plugin: Plugin; test: (id: string) => boolean } {
  let eager = new Set<string>();
  const plugin: Plugin = {
    name: 'lab-eager-chunk',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      const main = ids.find((id) => /[\\/]src[\\/]main\.tsx$/.test(id));
      const entry = ids.find((id) => /[\\/]src[\\/]entry\.ts$/.test(id));
      if (main === undefined || entry === undefined) return;
      eager = labOnlyModules((id) => this.getModuleInfo(id), main, entry);
    },
  };
  return { plugin, test: (id) => eager.has(id) };
}
const labEager = labEagerChunk();
/**
 * The embed's first load in one chunk, `player` (issue 31: the embed ≤ 150 KB gzip): the Preact
 * copies (`?preact`, above: the embed's alone, never the page's) that the embed's page
 * (src/embedMain.tsx) reaches by static imports — zustand's among them —, Preact itself and the
 * style sheets only they import (Preact and zustand's two modules were three files more, 9.8 kB
 * gzip, which every embed fetched at once; every chunk that imports Preact loads after the
 * player). Left to
 * itself the bundler splits out each such module that a lazy chunk of the embed (the question
 * box, the "why" panel, Flink's panels) imports too — though that chunk only ever loads after
 * them — into ten more files, each gzipped apart: 3.1 kB gzip more for `?embed&preset=…`. Their
 * dependencies (the pure layers, shared with the page) are not captured
 * (`includeDependenciesRecursively: false`). The graph is read once every module is loaded
 * (`buildEnd`), before chunks are made.
 */
function embedFirstLoadInOneChunk(): { plugin: Plugin; test: (id: string) => boolean } {
  const firstLoad = new Set<string>();
  const plugin: Plugin = {
    name: 'embed-first-load-in-one-chunk',
    apply: 'build',
    buildEnd() {
      firstLoad.clear();
      const root = [...this.getModuleIds()].find((id) => EMBED_ROOT.test(id));
      if (root === undefined) return;
      const seen = reachable((id) => this.getModuleInfo(id), root, false);
      const embedOnly = (id: string) =>
        this.getModuleInfo(id)?.importers.every((i) => i.endsWith(PREACT_TAG)) === true;
      for (const id of seen)
        if (id.endsWith(PREACT_TAG) || PREACT.test(id) || (/\.css$/.test(id) && embedOnly(id)))
          firstLoad.add(id);
    },
  };
  return { plugin, test: (id) => firstLoad.has(id) };
}
const embedFirstLoad = embedFirstLoadInOneChunk();

/** A batch job's player, which the embed's page (src/embedMain.tsx) loads for a batch job at once. */
const BATCH_EMBED = /[\\/]src[\\/]ui[\\/]batch[\\/]BatchEmbed\.tsx\?preact$/;
/** What an embed of any kind loads at once when its address asks: the question box, the "why" panel. */
const ASKED =
  /[\\/]src[\\/]ui[\\/](embed[\\/]EmbedPrediction|panels[\\/]Explanations)\.tsx\?preact$/;
/** Vite's `import()` helper (https://vite.dev/guide/features#async-chunk-loading-optimization). */
const PRELOAD_HELPER = /vite[\\/]preload-helper/;

/** The modules of the bundle, as tree-shaking leaves them, that each first load holds. */
interface FirstLoads {
  /** `firstLoad`'s modules (below). */
  both: Set<string>;
  /** `entryDeps`'s modules (below). */
  entry: Set<string>;
  /** `simulation`'s modules (below). */
  simulation: Set<string>;
}

/**
 * Which chunk each page's first load puts a module in, read once every module is loaded
 * (`buildEnd`), before chunks are made, and after tree-shaking ({@link shakenGraph}: what a
 * barrel re-exports but nothing uses stays out; a module a chunk holds brings all that any page
 * keeps of it, so a page loads what its chunks' kept code imports, {@link reachOver}). Three
 * chunks, each loaded whole by every page that loads any of it, before its first render or run;
 * left to itself the bundler splits their modules by which lazy chunks share them too, into ~80
 * files that one load fetched at once, a request each over HTTP/1.1's six connections. Their
 * other dependencies are not captured (`includeDependenciesRecursively: false`); style sheets
 * are not either (their order in the cascade stays as it was).
 *
 * `entryDeps` (issue 31: the embed's first paint ≤ 500 ms): what the entry (src/entry.ts) imports
 * statically. index.html modulepreloads these with the entry, and the entry runs — asking for its
 * page's graph — only once the last of them is in. As nine files with the entry and boot-hint.js
 * (eleven requests over HTTP/1.1's six connections, two in a row on some), the page's graph was
 * asked for a request's time later than with two (scripts/embed-waterfall.ts). Every page loads
 * all of them before anything else, so no page nor embed downloads a byte more (bench/transfer.ts).
 *
 * `firstLoad` (issue 24: first verdict ≤ 500 ms): the pure layers' modules that src/main.tsx and
 * src/embedMain.tsx both load, but for the entry's, and those that the simulation and a batch
 * job's player both load (the checker, the random numbers, the dedupe store…). Every page and
 * embed loads every one of them before its first render or run (the lab's page and every stream
 * embed load the simulation at once), so one file holds the same code and no page nor embed
 * downloads a byte more.
 *
 * `simulation` (issue 31: an embed in ≤ 15 files): the stream simulation (src/views/run/
 * runScenario.ts, which src/platform/simulationChunk.ts loads for every page but a batch job's
 * embed) and what it loads that no other first load holds — ~25 files before, each gzipped apart,
 * that the lab's page and every stream embed fetched together. Left out: what the embed may load
 * without the simulation ever loading (a batch job's embed: its panels, the batch engine, the
 * question box), which would otherwise fetch the whole simulation for one of its modules.
 */
function firstLoadsInOneChunkEach(): {
  plugin: Plugin;
  tests: { [K in keyof FirstLoads]: (id: string) => boolean };
} {
  let sets: FirstLoads = { both: new Set(), entry: new Set(), simulation: new Set() };
  const plugin: Plugin = {
    name: 'first-loads-in-one-chunk-each',
    apply: 'build',
    async buildEnd() {
      sets = { both: new Set(), entry: new Set(), simulation: new Set() };
      const ids = [...this.getModuleIds()];
      const find = (file: RegExp) => ids.find((id) => file.test(id));
      const main = find(/[\\/]src[\\/]main\.tsx$/);
      const embed = find(EMBED_ROOT);
      const entry = find(/[\\/]src[\\/]entry\.ts$/);
      const simulation = find(/[\\/]src[\\/]views[\\/]run[\\/]runScenario\.ts$/);
      if ([main, embed, entry, simulation].includes(undefined)) return;
      const importsOf = (id: string) => this.getModuleInfo(id);
      // Every chunk's root: the entry, which runs, and each module loaded by `import()`, any of
      // whose exports may be read.
      const lazy = new Set(
        ids.flatMap((id) => this.getModuleInfo(id)?.dynamicallyImportedIds ?? []),
      );
      const shaken = await shakenModules(this, reachable(importsOf, entry!, true));
      const graph = shakenGraph(shaken, [
        [entry!, ''],
        ...[...lazy].map((id) => [id, '*'] as const),
      ]);
      const ofEntry = reachOver(graph, entry!);
      const ofEmbed = reachOver(graph, embed!);
      const ofMain = reachOver(graph, main!);
      const script = (id: string) => !/\.css$/.test(id);
      for (const id of ofEntry) if (id !== entry && script(id)) sets.entry.add(id);
      // Vite's helper for the entry's `import()`s, which index.html modulepreloads with it.
      for (const id of ids) if (PRELOAD_HELPER.test(id)) sets.entry.add(id);
      const ofSimulation = reachOver(graph, simulation!);
      const ofBatchEmbed = new Set<string>();
      for (const id of lazy)
        if (BATCH_EMBED.test(id)) for (const m of reachOver(graph, id)) ofBatchEmbed.add(m);
      for (const id of ofMain)
        if (ofEmbed.has(id) && !ofEntry.has(id) && script(id)) sets.both.add(id);
      for (const id of ofSimulation)
        if (ofBatchEmbed.has(id) && !ofEntry.has(id) && script(id)) sets.both.add(id);
      // A batch job's embed never runs the simulation: what it may load at once stays out.
      const withoutSimulation = new Set([...ofEmbed, ...ofBatchEmbed]);
      for (const id of lazy)
        if (ASKED.test(id)) for (const m of reachOver(graph, id)) withoutSimulation.add(m);
      for (const id of ofSimulation)
        if (!ofEntry.has(id) && !withoutSimulation.has(id) && script(id)) sets.simulation.add(id);
    },
  };
  const test = (k: keyof FirstLoads) => (id: string) => sets[k].has(id);
  return {
    plugin,
    tests: { both: test('both'), entry: test('entry'), simulation: test('simulation') },
  };
}
const firstLoads = firstLoadsInOneChunkEach();

// *.prop.test.ts is matched by the first glob already; listed for the reader.
const NODE_TESTS = ['src/**/*.test.{ts,tsx}', 'src/**/*.prop.test.ts', 'server/**/*.test.ts'];
const NODE_EXCLUDE = [...configDefaults.exclude, 'e2e/**', 'src/ui/**/*.test.tsx'];
/** The node tests that mock, stub or reset what the next file in their worker would see. */
const NODE_TESTS_OWN_REGISTRY = testsNeedingOwnRegistry(
  import.meta.dirname,
  ['src', 'server'],
  (file) => /\.test\.tsx?$/.test(file) && !/^src\/ui\/.*\.tsx$/.test(file),
);

const DOM_TESTS = ['src/ui/**/*.test.tsx'];
const DOM_EXCLUDE = [...configDefaults.exclude, 'e2e/**'];
/** The components' tests that mock, stub or fake what the next file in their worker would see. */
const DOM_TESTS_OWN_REGISTRY = testsNeedingOwnRegistry(import.meta.dirname, ['src/ui'], (file) =>
  /\.test\.tsx$/.test(file),
);

/**
 * The embed's first-load chunks (its player, the code it shares with the lab, the simulation, the
 * entry's dependencies: each loaded whole, at once, by every stream embed) open with V8's explicit
 * compile hint, `//# allFunctionsCalledOnLoad` (https://v8.dev/blog/explicit-compile-hints,
 * Chrome 136+; other engines read a comment): their functions are compiled on the thread that
 * streams the script in, while the other files still download, not one by one on the main thread
 * when first called. The embed's main thread spent 240–294 ms parsing and compiling until its first
 * paint, 43–57 ms with the hint (scripts/embed-trace.ts, docs/benchmarks.md). The lab's own chunk
 * is left as it was: its first verdict did not change with it. After Vite's own additions to each
 * chunk, so that the comment is the file's first line, as the hint must be.
 */
function compileHints(chunks: string[]): Plugin {
  return {
    name: 'compile-hints',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const c of Object.values(bundle))
          if (c.type === 'chunk' && chunks.includes(c.name))
            c.code = `//# allFunctionsCalledOnLoad\n${c.code}`;
      },
    },
  };
}

// Content-Security-Policy: index.html's meta policy (script-src 'self', no inline script) applies
// to the built page as written. The dev server needs no change either: Vite injects its client and
// React Fast Refresh's inline preamble at the top of <head>, before the meta tag, and a meta policy
// governs only what follows it, so those two dev-only scripts run while everything after them (the
// app's modules, hot updates, HMR's same-origin websocket) is held to the policy.
export default defineConfig({
  // Relative asset URLs: the build works from any path on any static host.
  base: './',
  plugins: [
    preactForTheEmbed(),
    react(),
    withoutZodJsonSchema(),
    mermaidUsedDiagramsOnly(),
    labEager.plugin,
    embedFirstLoad.plugin,
    firstLoads.plugin,
    compileHints(['player', 'firstLoad', 'simulation', 'entryDeps']),
    precompress(),
  ],
  // The embed's first load in one chunk, Preact with it: embedFirstLoadInOneChunk, above.
  build: {
    // No modulepreload polyfill (in the entry every page and embed loads; issue 31): it serves
    // browsers without `<link rel="modulepreload">` (Firefox before 115, Safari before 17), which
    // then fetch a chunk when it is imported rather than ahead — later, not wrongly
    // (https://vite.dev/config/build-options#build-modulepreload).
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'lab', test: labEager.test, includeDependenciesRecursively: false },
            { name: 'player', test: embedFirstLoad.test, includeDependenciesRecursively: false },
            {
              name: 'firstLoad',
              test: firstLoads.tests.both,
              includeDependenciesRecursively: false,
            },
            {
              name: 'entryDeps',
              test: firstLoads.tests.entry,
              includeDependenciesRecursively: false,
            },
            {
              name: 'simulation',
              test: firstLoads.tests.simulation,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: { port: 5173 },
  preview: { port: 4173 },
  test: {
    passWithNoTests: false,
    // Every preset (and, once split, zod) loaded before each test file: the page loads them on demand.
    setupFiles: ['src/testSetup.ts'],
    // Vitest's default outside watch mode is one worker fewer than the cores: one worker on a
    // 2-core CI machine. The suite is CPU-bound files run one after another (nothing else runs
    // while it does), so a worker per core nearly halves its wall time.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: NODE_TESTS,
          exclude: [...NODE_EXCLUDE, ...NODE_TESTS_OWN_REGISTRY],
          // One module registry per worker, not per file: the setup file's presets and the
          // engine are evaluated once (scripts/testIsolation.ts says which files cannot share).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'node-isolated',
          environment: 'node',
          include: NODE_TESTS_OWN_REGISTRY,
          exclude: NODE_EXCLUDE,
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          // The components' tests only: a jsdom costs ~2 s to set up per file (the store's tests
          // need none). A test elsewhere that needs one says `// @vitest-environment jsdom`.
          environment: 'jsdom',
          include: DOM_TESTS,
          exclude: [...DOM_EXCLUDE, ...DOM_TESTS_OWN_REGISTRY],
          // `extends: true` keeps the root's setup file; this one adds the DOM tests' own, which
          // puts back after each test what every file relies on (the page, its address, storage).
          setupFiles: ['src/ui/testSetupDom.ts'],
          // One jsdom and one module registry per worker, not per file: React, the presets and
          // the components are evaluated once (scripts/testIsolation.ts says which files cannot
          // share).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'dom-isolated',
          environment: 'jsdom',
          include: DOM_TESTS_OWN_REGISTRY,
          exclude: DOM_EXCLUDE,
          setupFiles: ['src/ui/testSetupDom.ts'],
        },
      },
    ],
  },
});
