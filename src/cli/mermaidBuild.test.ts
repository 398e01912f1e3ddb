/**
 * The production build keeps mermaid's sequence and flowchart loaders and refuses the rest
 * (vite.config.ts), checked on the installed mermaid's own files (here, beside the other tests
 * that read files in Node).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withoutUnusedMermaidDiagrams } from '../../vite.config';

const dist = dirname(createRequire(import.meta.url).resolve('mermaid'));
const entry = join(dist, 'mermaid.core.mjs');
const chunks = join(dist, 'chunks', 'mermaid.core');
const importsOf = (code: string) =>
  [...code.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1]!.split('/').pop()!);

describe('mermaid in the production build', () => {
  it('the entry loads only the sequence and flowchart diagrams', () => {
    const code = readFileSync(entry, 'utf8');
    // Published: one loader per diagram type (38 in 11.17), three of them the flowchart's
    // (flowchart, flowchart-v2, flowchart-elk share one module).
    expect(importsOf(code).length).toBeGreaterThan(20);
    const kept = importsOf(withoutUnusedMermaidDiagrams(code, entry));
    expect(new Set(kept.map((f) => f.replace(/-[A-Z0-9]{8}\.mjs$/, '')))).toEqual(
      new Set(['sequenceDiagram', 'flowDiagram']),
    );
  });

  it('KaTeX and the cose-bilkent layout (cytoscape) are never loaded; dagre stays', () => {
    const all = readdirSync(chunks)
      .filter((f) => f.startsWith('chunk-'))
      .map((f) => join(chunks, f));
    const before = all.flatMap((f) => importsOf(readFileSync(f, 'utf8')));
    const after = all.flatMap((f) =>
      importsOf(withoutUnusedMermaidDiagrams(readFileSync(f, 'utf8'), f)),
    );
    // Published, the helpers import katex once and the cose-bilkent layout once.
    expect(before.filter((s) => s === 'katex' || s.startsWith('cose-bilkent-'))).toHaveLength(2);
    expect(after.filter((s) => s === 'katex' || s.startsWith('cose-bilkent-'))).toHaveLength(0);
    expect(after.some((s) => s.startsWith('dagre-'))).toBe(true);
  });
});
