/**
 * Which modules a page's first load holds once the bundler has tree-shaken it, read from the
 * module graph before chunks are made (vite.config.ts, the `firstLoad` chunk): the bundler does
 * not tell its plugins, and static imports alone overshoot — through a barrel such as
 * src/engine/index.ts they reach nearly the whole engine, zod too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * A module as tree-shaking sees it: its top-level statements (what each declares and which
 * names it reads; impure if it runs code when the module is evaluated), its imported bindings,
 * its exports, its re-exports and whether importing it alone runs it (`sideEffects`).
 */
export interface ShakenModule {
  sideEffects: boolean;
  statements: readonly { declares: readonly string[]; reads: readonly string[]; impure: boolean }[];
  /** Local name → [source id, its name there] (`'*'`: a namespace import). */
  bindings: ReadonlyMap<string, readonly [string, string]>;
  /** `import 'id'`. */
  bare: readonly string[];
  /** Exported name → its local name. */
  exported: ReadonlyMap<string, string>;
  /** `export { a as b } from 'id'`: exported name → [source id, its name there]. */
  reexports: ReadonlyMap<string, readonly [string, string]>;
  /** `export * from 'id'`. */
  stars: readonly string[];
}

/**
 * The modules a page's first load holds after tree-shaking, from its root's static imports, as
 * the bundler decides it (https://rolldown.rs/in-depth/tree-shaking): a module is evaluated when
 * it has side effects and is imported, or when one of its exports is read; an evaluated module
 * keeps its impure statements, and a statement kept keeps what it reads, here or imported; a
 * name re-exported (a barrel such as src/engine/index.ts) leads only to the module it comes
 * from. Through the barrels, static imports alone would reach nearly the whole engine, zod too.
 * An unknown module (`shaken` null) counts as held.
 */
export function shakenReach(
  shaken: (id: string) => ShakenModule | null,
  root: string,
): Set<string> {
  return reachOver(shakenGraph(shaken, [[root, '']]), root);
}

/**
 * The bundle after tree-shaking as a graph: every module held from any of `roots` (a root and the
 * name read of it: `''` for a page's entry, which runs; `'*'` for a module loaded by `import()`,
 * whose every export may be read), each with the held modules its kept code imports — what its
 * chunk imports. Tree-shaking is one for the whole bundle: a module keeps every statement any
 * root reads, so its chunk imports what each of them needs (src/platform/presetUrl.ts's
 * `clipEcho`, kept for the lab's page, is imported by the entry's chunk too): a page loads
 * {@link reachOver} this graph from its root, more than {@link shakenReach} from that root alone.
 */
export function shakenGraph(
  shaken: (id: string) => ShakenModule | null,
  roots: readonly (readonly [string, string])[],
): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  const rootIds = new Set(roots.map(([id]) => id));
  const kept = new Map<string, Set<number>>();
  const asked = new Set<string>();
  // A module, a name read of it, and the module whose kept code reads it (null: a root).
  const todo: [string, string, string | null][] = roots.map(([id, name]) => [id, name, null]);
  const edge = (from: string | null, to: string) => {
    if (from !== null && from !== to) edges.get(from)!.add(to);
  };
  const keepLocal = (id: string, m: ShakenModule, local: string) => {
    const b = m.bindings.get(local);
    if (b !== undefined) todo.push([b[0], b[1], id]);
    else
      m.statements.forEach((s, i) => {
        if (s.declares.includes(local)) keep(id, m, i);
      });
  };
  const keep = (id: string, m: ShakenModule, i: number) => {
    const ks = kept.get(id)!;
    if (ks.has(i)) return;
    ks.add(i);
    for (const r of m.statements[i]!.reads) keepLocal(id, m, r);
  };
  const hold = (id: string, m: ShakenModule | null) => {
    if (edges.has(id)) return;
    edges.set(id, new Set());
    kept.set(id, new Set());
    if (m === null) return;
    for (const b of m.bare) todo.push([b, '', id]);
    m.statements.forEach((s, i) => {
      if (s.impure) keep(id, m, i);
    });
  };
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    const [id, name, from] = next;
    const key = `${id}\0${name}\0${from}`;
    if (asked.has(key)) continue;
    asked.add(key);
    const m = shaken(id);
    if (m === null) {
      hold(id, null);
      edge(from, id);
      continue;
    }
    // A root is evaluated as one; reached by a static import too, it is a module like any other.
    if (m.sideEffects || (from === null && rootIds.has(id))) {
      hold(id, m);
      edge(from, id);
    }
    if (name === '') continue;
    if (name === '*') {
      // A namespace: the module holds an object of all its exports, re-exported ones too.
      hold(id, m);
      edge(from, id);
      for (const n of [...m.exported.keys(), ...m.reexports.keys()]) todo.push([id, n, id]);
      for (const s of m.stars) todo.push([s, '*', id]);
      continue;
    }
    const local = m.exported.get(name);
    const re = m.reexports.get(name);
    if (local !== undefined) {
      hold(id, m);
      edge(from, id);
      keepLocal(id, m, local);
    } else if (re !== undefined) todo.push([re[0], re[1], from]);
    // A name neither its own nor re-exported by name comes from one of its `export *`.
    else for (const s of m.stars) todo.push([s, name, from]);
  }
  return edges;
}

/** The modules `root` loads in {@link shakenGraph}'s graph: itself and all it imports, at any depth. */
export function reachOver(
  graph: ReadonlyMap<string, ReadonlySet<string>>,
  root: string,
): Set<string> {
  const seen = new Set<string>();
  const todo = [root];
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
    if (seen.has(id) || !graph.has(id)) continue;
    seen.add(id);
    todo.push(...graph.get(id)!);
  }
  return seen;
}

/** An estree node, as far as {@link shakenModuleOf} reads it. */
interface AstNode {
  type: string;
  [key: string]: unknown;
}
const isNode = (x: unknown): x is AstNode =>
  typeof x === 'object' && x !== null && typeof (x as AstNode).type === 'string';
const nameOf = (n: unknown) =>
  isNode(n) ? String((n.name as string | undefined) ?? (n.value as string | undefined) ?? '') : '';
const FUNCTIONS = new Set(['FunctionExpression', 'ArrowFunctionExpression', 'FunctionDeclaration']);
const CALLS = new Set(['CallExpression', 'NewExpression', 'TaggedTemplateExpression']);

/** The names `node` reads (identifiers, not property names), and whether it calls at once. */
function readsOf(node: unknown): { reads: Set<string>; impure: boolean } {
  const reads = new Set<string>();
  let impure = false;
  const walk = (x: unknown, inFunction: boolean) => {
    if (Array.isArray(x)) {
      for (const y of x) walk(y, inFunction);
      return;
    }
    if (!isNode(x)) return;
    if (x.type === 'Identifier') reads.add(nameOf(x));
    if (CALLS.has(x.type) && !inFunction) impure = true;
    const fn = inFunction || FUNCTIONS.has(x.type);
    for (const [k, v] of Object.entries(x)) {
      if (k === 'type' || k === 'start' || k === 'end' || k === 'range' || k === 'loc') continue;
      // `a.b` and `{ b: … }` name no binding b.
      if (k === 'property' && x.type === 'MemberExpression' && x.computed !== true) continue;
      if (k === 'key' && x.computed !== true && !(x.shorthand === true)) continue;
      walk(v, fn);
    }
  };
  walk(node, false);
  return { reads, impure };
}

/** The names a declaration statement declares. */
function declaredBy(node: AstNode): string[] {
  if (node.type === 'VariableDeclaration')
    return (node.declarations as AstNode[]).flatMap((d) => [...readsOf(d.id).reads]);
  if (node.id !== undefined && node.id !== null) return [nameOf(node.id)];
  return [];
}

/**
 * Whether importing the module at `id` runs code, by its package's `sideEffects` field
 * (https://webpack.js.org/guides/tree-shaking/#mark-the-file-as-side-effect-free, which the
 * bundler reads too): the bundler does not tell its plugins before chunks are made.
 */
function packageSideEffects(id: string): boolean {
  const file = id.replace(/\?.*$/, '');
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const field = (JSON.parse(readFileSync(manifest, 'utf8')) as { sideEffects?: unknown })
      .sideEffects;
    if (field === undefined || field === true) return true;
    if (!Array.isArray(field)) return false;
    const path = relative(dir, file).split('\\').join('/');
    return field.some((glob: string) => {
      const g = glob.replace(/^\.\//, '');
      const source = (g.includes('/') ? g : `**/${g}`)
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*\*\//g, '\0')
        .replace(/\*/g, '[^/]*')
        .replace(/\0/g, '(?:.*/)?');
      return new RegExp(`^${source}$`).test(path);
    });
  }
  return true;
}

/** A module's {@link ShakenModule} from its code's top-level statements. */
async function shakenModuleOf(
  ctx: {
    parse: (code: string) => { body: unknown[] };
    resolve: (source: string, importer: string) => Promise<{ id: string } | null>;
  },
  id: string,
  code: string,
  sideEffects: boolean,
): Promise<ShakenModule> {
  const body = ctx.parse(code).body.filter(isNode);
  const statements: { declares: string[]; reads: string[]; impure: boolean }[] = [];
  const bindings = new Map<string, readonly [string, string]>();
  const bare: string[] = [];
  const exported = new Map<string, string>();
  const reexports = new Map<string, readonly [string, string]>();
  const stars: string[] = [];
  const resolved = async (source: unknown) =>
    (await ctx.resolve(String((source as { value: string }).value), id))?.id ?? '';
  const statement = (node: AstNode) => {
    const declares = declaredBy(node);
    const { reads, impure } = readsOf(node);
    for (const d of declares) reads.delete(d);
    const pure = node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration';
    statements.push({ declares, reads: [...reads], impure: impure && !pure });
    return declares;
  };
  for (const n of body) {
    if (n.type === 'ImportDeclaration') {
      const from = await resolved(n.source);
      const specifiers = n.specifiers as AstNode[];
      if (specifiers.length === 0) bare.push(from);
      for (const sp of specifiers)
        bindings.set(nameOf(sp.local), [
          from,
          sp.type === 'ImportNamespaceSpecifier'
            ? '*'
            : sp.type === 'ImportDefaultSpecifier'
              ? 'default'
              : nameOf(sp.imported),
        ]);
    } else if (n.type === 'ExportAllDeclaration') {
      const from = await resolved(n.source);
      if (n.exported) reexports.set(nameOf(n.exported), [from, '*']);
      else stars.push(from);
    } else if (n.type === 'ExportNamedDeclaration') {
      if (n.source) {
        const from = await resolved(n.source);
        for (const sp of n.specifiers as AstNode[])
          reexports.set(nameOf(sp.exported), [from, nameOf(sp.local)]);
      } else if (isNode(n.declaration))
        for (const d of statement(n.declaration)) exported.set(d, d);
      else
        for (const sp of n.specifiers as AstNode[])
          exported.set(nameOf(sp.exported), nameOf(sp.local));
    } else if (n.type === 'ExportDefaultDeclaration') {
      const d = n.declaration as AstNode;
      const names = statement(d.id ? d : { type: 'VariableDeclarator', value: d });
      const local = names[0] ?? '*default*';
      if (names.length === 0) statements[statements.length - 1]!.declares = [local];
      exported.set('default', local);
    } else statement(n);
  }
  return { sideEffects, statements, bindings, bare, exported, reexports, stars };
}

/** What a plugin's context offers that {@link shakenModules} reads. */
interface BuildContext {
  getModuleInfo: (id: string) => {
    code: string | null;
    moduleSideEffects: boolean | 'no-treeshake' | null;
    inputFormat: string;
  } | null;
  parse: (code: string) => { body: unknown[] };
  resolve: (source: string, importer: string) => Promise<{ id: string } | null>;
}

/**
 * The modules `ids` as {@link shakenReach} reads them, once the build has loaded them (a
 * plugin's `buildEnd`). A module without code or in CommonJS (React's builds) is unknown: it
 * counts as held where it is reached, and its `require`s are not followed.
 */
export async function shakenModules(
  ctx: BuildContext,
  ids: Iterable<string>,
): Promise<(id: string) => ShakenModule | null> {
  const shaken = new Map<string, ShakenModule>();
  await Promise.all(
    [...new Set(ids)].map(async (id) => {
      const info = ctx.getModuleInfo(id);
      if (info === null || info.code === null || info.inputFormat !== 'es') return;
      // The bundler has not read the packages' `sideEffects` yet where it says null.
      const sideEffects =
        info.moduleSideEffects === null ? packageSideEffects(id) : info.moduleSideEffects !== false;
      shaken.set(id, await shakenModuleOf(ctx, id, info.code, sideEffects));
    }),
  );
  return (id) => shaken.get(id) ?? null;
}
