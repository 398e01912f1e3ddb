/**
 * What a page's first load holds after tree-shaking (scripts/shakenReach.ts, the production
 * build's `firstLoad` chunk), on small module graphs written out here.
 */
import { describe, expect, it } from 'vitest';
import { reachOver, shakenGraph, shakenReach, type ShakenModule } from '../../scripts/shakenReach';

type Statement = ShakenModule['statements'][number];
const pure = (declares: string, ...reads: string[]): Statement => ({
  declares: [declares],
  reads,
  impure: false,
});
const impure = (declares: string, ...reads: string[]): Statement => ({
  declares: [declares],
  reads,
  impure: true,
});
function module(parts: Partial<ShakenModule>): ShakenModule {
  return {
    sideEffects: false,
    statements: [],
    bindings: new Map(),
    bare: [],
    exported: new Map(),
    reexports: new Map(),
    stars: [],
    ...parts,
  };
}

/**
 * page → barrel { format } ; barrel re-exports format from `words`, schema from `schema`;
 * words → `format` reads nothing imported, `unused` reads zod; schema → zod at once (impure).
 */
const GRAPH: Record<string, ShakenModule> = {
  page: module({
    sideEffects: true,
    bindings: new Map([['format', ['barrel', 'format']]]),
    statements: [impure('', 'format')],
  }),
  barrel: module({
    reexports: new Map([
      ['format', ['words', 'format']],
      ['schema', ['schema', 'schema']],
    ]),
  }),
  words: module({
    bindings: new Map([['z', ['zod', 'z']]]),
    statements: [pure('format'), pure('unused', 'z')],
    exported: new Map([
      ['format', 'format'],
      ['unused', 'unused'],
    ]),
  }),
  schema: module({
    bindings: new Map([['z', ['zod', 'z']]]),
    statements: [impure('schema', 'z')],
    exported: new Map([['schema', 'schema']]),
  }),
  zod: module({ stars: ['zodCore'] }),
  zodCore: module({ statements: [pure('z')], exported: new Map([['z', 'z']]) }),
};
const shaken = (id: string) => GRAPH[id] ?? null;

describe('shakenReach', () => {
  it('follows a name through a barrel to the module it comes from, and no further', () => {
    expect([...shakenReach(shaken, 'page')].sort()).toEqual(['page', 'words']);
  });

  it('keeps an impure statement and what it reads once its module is held; a bare barrel holds no code', () => {
    const page = module({
      sideEffects: true,
      bindings: new Map([['s', ['barrel', 'schema']]]),
      statements: [impure('', 's')],
    });
    const graph: Record<string, ShakenModule> = { ...GRAPH, page };
    expect([...shakenReach((id) => graph[id] ?? null, 'page')].sort()).toEqual([
      'page',
      'schema',
      'zodCore',
    ]);
  });

  it('holds a module with side effects on a bare import, and an unknown module where reached', () => {
    const graph: Record<string, ShakenModule> = {
      page: module({ sideEffects: true, bare: ['styles', 'polyfill'] }),
      styles: module({ sideEffects: true }),
      polyfill: module({ sideEffects: false }),
    };
    expect([...shakenReach((id) => graph[id] ?? null, 'page')].sort()).toEqual(['page', 'styles']);
    const withUnknown: Record<string, ShakenModule> = {
      ...graph,
      page: module({ sideEffects: true, bare: ['react'] }),
    };
    expect([...shakenReach((id) => withUnknown[id] ?? null, 'page')].sort()).toEqual([
      'page',
      'react',
    ]);
  });
});

describe('shakenGraph', () => {
  // entry reads `format` of words; lazy (loaded by import()) reads `unused` of words, which reads
  // zod: tree-shaking is one for the bundle, so words keeps both and its chunk imports zod's.
  const lazy = module({
    bindings: new Map([['u', ['words', 'unused']]]),
    statements: [pure('run', 'u')],
    exported: new Map([['run', 'run']]),
  });
  const graph: Record<string, ShakenModule> = { ...GRAPH, lazy };
  const of = (id: string) => graph[id] ?? null;

  it('gives a module every import any root keeps of it: the entry loads zod through words', () => {
    const g = shakenGraph(of, [
      ['page', ''],
      ['lazy', '*'],
    ]);
    expect([...reachOver(g, 'page')].sort()).toEqual(['page', 'words', 'zodCore']);
    expect([...reachOver(g, 'lazy')].sort()).toEqual(['lazy', 'words', 'zodCore']);
    // The entry alone keeps none of words' zod.
    expect([...shakenReach(of, 'page')].sort()).toEqual(['page', 'words']);
  });

  it('holds a root reached by a static import only as a module: a name it re-exports leads past it', () => {
    // validate is a root too (loaded by import()): it re-exports `normalize` from words, and its
    // own `check` reads zod. The page reads `normalize` through it, and loads none of its code.
    const validate = module({
      bindings: new Map([['z', ['zod', 'z']]]),
      statements: [pure('check', 'z')],
      exported: new Map([['check', 'check']]),
      reexports: new Map([['normalize', ['words', 'format']]]),
    });
    const page = module({
      sideEffects: true,
      bindings: new Map([['n', ['validate', 'normalize']]]),
      statements: [impure('', 'n')],
    });
    const rooted: Record<string, ShakenModule> = { ...GRAPH, page, validate };
    const g = shakenGraph(
      (id) => rooted[id] ?? null,
      [
        ['page', ''],
        ['validate', '*'],
      ],
    );
    expect([...reachOver(g, 'page')].sort()).toEqual(['page', 'words']);
    expect([...reachOver(g, 'validate')].sort()).toEqual(['validate', 'words', 'zodCore']);
  });
});
