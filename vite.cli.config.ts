import { execFileSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** `--list`'s output exactly as the source prints it (`npm run sim -- --list`). */
function presetList(): string {
  const root = fileURLToPath(new URL('.', import.meta.url));
  return execFileSync(
    process.execPath,
    [`${root}node_modules/tsx/dist/cli.mjs`, `${root}src/cli/bin.ts`, '--list'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
}

/**
 * The CLI as a package (`npx delivery-lab`): src/cli/bin.ts bundled ahead of time into Node ESM
 * files, dist-cli/delivery-lab.mjs and the chunks it loads (dist-cli/chunks/), with everything it
 * imports inlined (engine, presets, zod, fflate, @noble/hashes, yaml), so the installed package
 * runs with plain node — no tsx, no TypeScript at run time, no dependency to resolve. Only
 * Node's built-in modules stay imports. The page's build (vite.config.ts) is separate and unchanged.
 *
 * Start-up (issue 28, ≤ 300 ms): `--list` prints a text fixed at build time, the source's own
 * `--list` output (src/cli/dispatch.ts), and each command's modules are parsed and evaluated only
 * when that command runs (dispatch's dynamic imports, each a chunk).
 */
export default defineConfig({
  // public/ is the page's: none of it belongs in the CLI package.
  publicDir: false,
  logLevel: 'warn',
  ssr: { noExternal: true, target: 'node' },
  define: { __DELIVERY_LAB_PRESET_LIST__: JSON.stringify(presetList()) },
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
        // Each command's modules in chunks of their own beside the entry, loaded when it runs:
        // node parses only what the command needs (the whole bundle is ~100 ms of parsing here).
        chunkFileNames: 'chunks/[name]-[hash].mjs',
        // npm links `bin` entries as they are: the file must say which interpreter runs it.
        banner: (chunk) => (chunk.isEntry ? '#!/usr/bin/env node' : ''),
      },
    },
  },
});
