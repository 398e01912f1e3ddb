/**
 * `npm pack` in a checkout makes a tarball that runs (docs/cli.md: `npm pack`, then `npx
 * delivery-lab …`): the bundle is built by the pack itself, not assumed. `dist-cli/` is not in git
 * (.gitignore), so a fresh clone's `npm pack` without a build packed package.json and the README
 * alone, and its `delivery-lab` bin did not exist. npm runs `prepack` before packing:
 * https://docs.npmjs.com/cli/v11/using-npm/scripts#life-cycle-scripts
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import cliConfig from '../../vite.cli.config';

const root = resolve(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  files: string[];
  scripts: Record<string, string>;
};

describe('npm pack builds what it packs', () => {
  it('prepack runs build:cli, which writes the folder the bin and `files` name', () => {
    expect(pkg.scripts.prepack).toMatch(/\bnpm run (--silent )?build:cli\b/);
    expect(pkg.scripts['build:cli']).toContain('vite.cli.config.ts');
    const outDir = (cliConfig as { build?: { outDir?: string } }).build?.outDir;
    expect(outDir).toBe('dist-cli');
    expect(pkg.bin['delivery-lab']).toBe(`${outDir}/delivery-lab.mjs`);
    expect(pkg.files).toEqual([`${outDir}/`]);
  });
});
