import type { Plugin } from 'vite';

/**
 * The page draws two kinds of mermaid diagram, both from src/views/mermaid.ts: `sequenceDiagram`
 * (a run, an event's chain, the anomaly slide) and `flowchart LR` (the topology). Mermaid 11
 * registers every diagram type it knows with a loader, `import("./chunks/mermaid.core/<type>-….mjs")`
 * in dist/mermaid.core.mjs, so a bundler emits all of them (and what they pull in: cytoscape for
 * mindmap and architecture, the ELK and cose-bilkent layouts…) though the page never loads them.
 *
 * In the production build only, this plugin turns every diagram loader but those two, the
 * cose-bilkent layout (cytoscape) and KaTeX (`$$…$$` in labels, which src/views/mermaidText.ts
 * encodes so it never acts) into a rejected promise: the same subset mermaid's own tiny build
 * drops (https://github.com/mermaid-js/mermaid/blob/develop/packages/tiny/README.md: "Mindmap
 * Diagram, Architecture Diagram, Katex rendering"), with the flowchart and sequence loaders kept
 * lazy. Mermaid stays the published package (≥ 11.15, see src/platform/mermaid.ts); a diagram of
 * another type would fail to load with the message below, shown as any mermaid error is.
 */
export const MERMAID_DIAGRAMS_KEPT = ['sequenceDiagram', 'flowDiagram'] as const;

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
      : `Promise.reject(new Error(${JSON.stringify(`mermaid: ${importedName(spec)} is not in Delivery Lab's build (vite.mermaid.ts)`)}))`,
  );
}

/** The plugin (vite.config.ts): production build only; dev and tests load mermaid as published. */
export function mermaidUsedDiagramsOnly(): Plugin {
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
