/**
 * The build's gzipped copies (scripts/precompress.ts): the plugin compresses the output directory
 * once a build has written it, and leaves it alone after a build that writes nothing
 * (`build.write: false`, as src/cli/labChunkBuild.test.ts builds in memory).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResolvedConfig } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { precompress } from '../../scripts/precompress';

let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A project whose `dist/` holds one compressible file of 2,000 bytes, as an earlier build left it. */
function project(): string {
  root = mkdtempSync(join(tmpdir(), 'precompress-'));
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'dist', 'lab.js'), 'x'.repeat(2000));
  return root;
}

/** The plugin's hooks, called as Vite calls them for a build with this `write`. */
function build(dir: string, write: boolean): void {
  const plugin = precompress();
  const config = { root: dir, build: { outDir: 'dist', write } } as unknown as ResolvedConfig;
  (plugin.configResolved as (c: ResolvedConfig) => void)(config);
  (plugin.closeBundle as { handler: () => void }).handler();
}

describe('the precompress plugin', () => {
  it('writes the gzipped copy beside each file once the build has written them', () => {
    const dir = project();
    build(dir, true);
    expect(readdirSync(join(dir, 'dist')).sort()).toEqual(['lab.js', 'lab.js.gz']);
  });

  it('compresses nothing after a build in memory (write: false): dist/ is an earlier build’s', () => {
    const dir = project();
    build(dir, false);
    expect(existsSync(join(dir, 'dist', 'lab.js.gz'))).toBe(false);
    expect(readdirSync(join(dir, 'dist'))).toEqual(['lab.js']);
  });
});
