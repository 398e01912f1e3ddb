import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

/**
 * The CLI as a package (`npx delivery-lab`): src/cli/bin.ts bundled ahead of time into one Node
 * ESM file, dist-cli/delivery-lab.mjs, with everything it imports inlined (engine, presets, zod,
 * fflate, @noble/hashes, yaml), so the installed package runs with plain node — no tsx, no
 * TypeScript at run time, no dependency to resolve. Only Node's built-in modules stay imports.
 * The page's build (vite.config.ts) is separate and unchanged.
 */
export default defineConfig({
  // public/ is the page's: none of it belongs in the CLI package.
  publicDir: false,
  logLevel: 'warn',
  ssr: { noExternal: true, target: 'node' },
  build: {
    ssr: 'src/cli/bin.ts',
    outDir: 'dist-cli',
    emptyOutDir: true,
    target: 'node20',
    minify: true,
    sourcemap: false,
    rolldownOptions: {
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
      output: {
        entryFileNames: 'delivery-lab.mjs',
        // npm links `bin` entries as they are: the file must say which interpreter runs it.
        banner: '#!/usr/bin/env node',
        codeSplitting: false,
      },
    },
  },
});
