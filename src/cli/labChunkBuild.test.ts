/**
 * The production build's `lab` chunk (vite.config.ts `labOnlyModules`): the modules the lab's
 * page imports at once that the embed can never load, on a small module graph written out here.
 */
import { describe, expect, it } from 'vitest';
import { labOnlyModules } from '../../vite.config';

/** main → app → { view, shared, lazyPanel (lazily) }; embed → shared, and → later (lazily). */
const GRAPH: Record<string, { importedIds: string[]; dynamicallyImportedIds: string[] }> = {
  main: { importedIds: ['app', 'zod'], dynamicallyImportedIds: ['lazyPanel'] },
  app: { importedIds: ['view', 'shared', 'later'], dynamicallyImportedIds: [] },
  view: { importedIds: ['react'], dynamicallyImportedIds: [] },
  shared: { importedIds: [], dynamicallyImportedIds: [] },
  later: { importedIds: ['zod'], dynamicallyImportedIds: [] },
  lazyPanel: { importedIds: ['panelOnly', 'view'], dynamicallyImportedIds: [] },
  embed: { importedIds: ['shared'], dynamicallyImportedIds: ['later'] },
};
const importsOf = (id: string) => GRAPH[id] ?? null;

describe('the lab chunk', () => {
  const lab = labOnlyModules(importsOf, 'main', 'embed');

  it('holds what main imports at once and the embed never loads', () => {
    expect([...lab].sort()).toEqual(['app', 'main', 'react', 'view']);
  });

  it('leaves out what the embed loads at once, what it loads later, and their imports', () => {
    // `later` and `zod` come with the embed's lazy import: in the lab chunk, the embed would
    // fetch the whole lab with them.
    for (const id of ['shared', 'later', 'zod']) expect(lab.has(id)).toBe(false);
  });

  it("leaves out the lab's lazy panels' own modules (main loads them on demand)", () => {
    expect(lab.has('lazyPanel')).toBe(false);
    expect(lab.has('panelOnly')).toBe(false);
  });
});
