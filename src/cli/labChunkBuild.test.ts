/**
 * The production build's `lab` chunk (vite.config.ts `labOnlyModules`): the modules the lab's
 * page imports at once that no other page can load, on a small module graph written out here.
 */
import { describe, expect, it } from 'vitest';
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
