/**
 * The production build's `lab` chunk (vite.config.ts `labOnlyModules`): the modules the lab's
 * page imports at once that no other page can load, on a small module graph written out here.
 */
import { describe, expect, it } from 'vitest';
import type { Rollup } from 'vite';
import { labOnlyModules } from '../../vite.config';

/**
 * entry → address (at once), main and embed (lazily); main → app → { view, shared, later,
 * address }, lazyPanel (lazily); embed → shared, and later (lazily).
 */
const GRAPH: Record<string, { importedIds: string[]; dynamicallyImportedIds: string[] }> = {
  entry: { importedIds: ['address'], dynamicallyImportedIds: ['main', 'embed'] },
  main: { importedIds: ['app', 'zod'], dynamicallyImportedIds: ['lazyPanel'] },
  app: { importedIds: ['view', 'shared', 'later', 'address'], dynamicallyImportedIds: [] },
  view: { importedIds: ['react'], dynamicallyImportedIds: [] },
  shared: { importedIds: [], dynamicallyImportedIds: [] },
  later: { importedIds: ['zod'], dynamicallyImportedIds: [] },
  lazyPanel: { importedIds: ['panelOnly', 'view'], dynamicallyImportedIds: [] },
  embed: { importedIds: ['shared'], dynamicallyImportedIds: ['later'] },
};
const importsOf = (id: string) => GRAPH[id] ?? null;

describe('the lab chunk', () => {
  const lab = labOnlyModules(importsOf, 'main', 'entry');

  it('holds what main imports at once and no other page loads', () => {
    expect([...lab].sort()).toEqual(['app', 'main', 'react', 'view']);
  });

  it('leaves out what the entry or the embed loads, at once or later, and their imports', () => {
    // In the lab chunk, the entry or the embed would fetch the whole lab with them: `address`
    // with the entry, `later` and `zod` with the embed's lazy import.
    for (const id of ['entry', 'address', 'embed', 'shared', 'later', 'zod'])
      expect(lab.has(id)).toBe(false);
  });

  it("leaves out the lab's lazy panels' own modules (main loads them on demand)", () => {
    expect(lab.has('lazyPanel')).toBe(false);
    expect(lab.has('panelOnly')).toBe(false);
  });
});

/**
 * The production build itself (in memory, nothing written): the lab's first load — the chunk of
 * src/main.tsx and every chunk it imports statically, at any depth, with the entry's — holds no
 * zod and no scenario schema (issue 24: a first visit validates nothing; the validation loads on
 * demand, src/views/run/validationOnDemand.ts). Run `WHY_SHAKEN=1 WHY_FROM=src/main.tsx
 * WHY_ALL=1 npx tsx scripts/why-imported.ts zod/index.js` for the imports that bring it back.
 */
describe("the lab's first load in the production build", () => {
  it('holds no zod module and no scenario schema', async () => {
    const { build } = await import('vite');
    const { join } = await import('node:path');
    const root = join(import.meta.dirname, '../..');
    const out = (await build({ root, logLevel: 'error', build: { write: false } })) as
      Rollup.RollupOutput | Rollup.RollupOutput[];
    const chunks = (Array.isArray(out) ? out : [out])
      .flatMap((o) => o.output)
      .filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
    const byFile = new Map(chunks.map((c) => [c.fileName, c]));
    const holds = (c: Rollup.OutputChunk, file: RegExp) =>
      Object.keys(c.modules).some((id) => file.test(id));
    const main = chunks.find((c) => holds(c, /[\\/]src[\\/]main\.tsx$/));
    const entry = chunks.find((c) => c.isEntry);
    expect(main).toBeDefined();
    expect(entry).toBeDefined();
    const closure = new Set<string>();
    const todo = [main!.fileName, entry!.fileName];
    for (let f = todo.pop(); f !== undefined; f = todo.pop()) {
      if (closure.has(f)) continue;
      closure.add(f);
      todo.push(...(byFile.get(f)?.imports ?? []));
    }
    const modules = [...closure].flatMap((f) => Object.keys(byFile.get(f)?.modules ?? {}));
    // The lab's page itself is there, with what it draws first.
    expect(modules.some((id) => /[\\/]src[\\/]ui[\\/]App\.tsx$/.test(id))).toBe(true);
    const zod = modules.filter(
      (id) =>
        /[\\/]node_modules[\\/]zod[\\/]/.test(id) ||
        /[\\/]src[\\/]engine[\\/](scenario[\\/](schema|validate)|batch[\\/]schema)/.test(id) ||
        /[\\/]src[\\/]views[\\/]run[\\/]validationParts\.ts$/.test(id),
    );
    expect(zod).toEqual([]);
  }, 180_000);
});
