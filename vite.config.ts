import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { mermaidUsedDiagramsOnly } from './vite.mermaid';

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

// Content-Security-Policy: index.html's meta policy (script-src 'self', no inline script) applies
// to the built page as written. The dev server needs no change either: Vite injects its client and
// React Fast Refresh's inline preamble at the top of <head>, before the meta tag, and a meta policy
// governs only what follows it, so those two dev-only scripts run while everything after them (the
// app's modules, hot updates, HMR's same-origin websocket) is held to the policy.
export default defineConfig({
  // Relative asset URLs: the build works from any path on any static host.
  base: './',
  plugins: [react(), withoutZodJsonSchema(), mermaidUsedDiagramsOnly()],
  server: { port: 5173 },
  preview: { port: 4173 },
  test: {
    passWithNoTests: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          // *.prop.test.ts is matched by the first glob already; listed for the reader.
          include: ['src/**/*.test.{ts,tsx}', 'src/**/*.prop.test.ts', 'server/**/*.test.ts'],
          exclude: [
            ...configDefaults.exclude,
            'e2e/**',
            'src/ui/**/*.test.tsx',
            'src/store/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/ui/**/*.test.tsx', 'src/store/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'e2e/**'],
        },
      },
    ],
  },
});
