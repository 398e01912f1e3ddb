// @vitest-environment jsdom
// (for DOMParser: the JUnit report is parsed as XML)
/**
 * The CLI as a package, end to end: `npm pack` (which builds the bundle), install the tarball into an
 * empty directory with `npm install --offline` (the tarball has no dependency: the bundle inlines
 * them), and run `npx delivery-lab` there — the preset list, a preset (the same report as the
 * in-process runner), `check` on a passing and a failing file, and the JUnit report.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labPresets } from '../scenarios';
// The parts and presets the executable imports per run, all imported (main is synchronous).
import './cliTesting';
import { main } from './main';

const root = resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-pack-'));
const app = join(dir, 'app');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sh(cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' },
  });
}
const npx = (...args: string[]) =>
  sh('npx', ['--offline', '--no-install', 'delivery-lab', ...args], app);

let packed: string[] = [];

beforeAll(() => {
  // `npm pack` builds the bundle itself (its `prepack`: ./packScripts.test.ts), as in a fresh
  // clone, where dist-cli/ is not there; the build's output goes to stderr, the JSON to stdout.
  const pack = sh('npm', ['pack', '--json', '--pack-destination', dir], root);
  expect(pack.status, pack.stderr).toBe(0);
  const info = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  packed = info[0]!.files.map((f) => f.path).sort();
  sh('mkdir', ['-p', app], dir);
  writeFileSync(
    join(app, 'package.json'),
    '{ "name": "empty", "version": "1.0.0", "private": true }\n',
  );
  const install = sh(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', join(dir, info[0]!.filename)],
    app,
  );
  expect(install.status, install.stderr).toBe(0);
}, 300_000);

describe('npx delivery-lab from the packed tarball', { timeout: 120_000 }, () => {
  it('the tarball holds only what the CLI needs', () => {
    // The entry, and the chunks it loads per command (vite.cli.config.ts): nothing else.
    const chunks = packed.filter((f) => /^dist-cli\/chunks\/[\w-]+\.mjs$/.test(f));
    expect(chunks.length).toBeGreaterThan(0);
    expect(packed.filter((f) => !chunks.includes(f))).toEqual([
      'README.md',
      'dist-cli/delivery-lab.mjs',
      'package.json',
    ]);
  });

  it('--list prints every preset id; --version the package version', () => {
    const list = npx('--list');
    expect(list.status).toBe(0);
    expect(list.stdout).toBe(
      `${labPresets.flatMap((p) => p.variants.map((v) => `${p.id}/${v.id}`)).join('\n')}\n`,
    );
    expect(npx('--version').stdout).toBe(
      `${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}\n`,
    );
  });

  it('a preset: the same JSON report and exit code as the in-process runner (npm run sim)', () => {
    const out: string[] = [];
    const code = main(
      ['lost-ack-retry/acks-1', '--format', 'json'],
      (s) => out.push(s),
      () => {},
    );
    const r = npx('lost-ack-retry/acks-1', '--format', 'json');
    expect(r.status).toBe(code);
    // main writes its report as it is, in chunks, each line ending its own newline.
    expect(r.stdout).toBe(out.join(''));
  });

  it('--explore on two worker threads: the report the in-process runner prints', () => {
    // The bundle's worker threads load its entry again (src/cli/atlasThreads.ts): 277 trials.
    const args = ['at-least-once', '--explore', '--format', 'json'];
    const out: string[] = [];
    const code = main(
      args,
      (s) => out.push(s),
      () => {},
    );
    const r = spawnSync('npx', ['--offline', '--no-install', 'delivery-lab', ...args], {
      cwd: app,
      encoding: 'utf8',
      env: { ...process.env, npm_config_offline: 'true', DELIVERY_LAB_THREADS: '2' },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(code);
    expect(r.stdout).toBe(out.join(''));
  });

  it('a preset run evaluates no zod: its chunks hold none, a scenario file validation does', () => {
    const chunks = join(app, 'node_modules', 'delivery-lab', 'dist-cli', 'chunks');
    const zodIn = (file: string) => /ZodError/.test(readFileSync(join(chunks, file), 'utf8'));
    /** A chunk and what it imports statically (`import … from "./x.mjs"`), transitively. */
    const closure = (file: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(file)) return seen;
      seen.add(file);
      const text = readFileSync(join(chunks, file), 'utf8');
      for (const m of text.matchAll(
        /(?:import|export)\s*(?:[^'"();]*?from\s*)?["']\.\/([\w-]+\.mjs)["']/g,
      ))
        closure(m[1]!, seen);
      return seen;
    };
    const files = readdirSync(chunks);
    const named = (prefix: string) => files.filter((f) => f.startsWith(`${prefix}-`));
    // The runner (main), then the preset's own parsed module (src/scenarios/parsed/): all a run loads.
    const run = [...named('main'), ...named('lost-ack-retry')].flatMap((f) => [...closure(f)]);
    expect(run.length).toBeGreaterThan(2);
    expect(run.filter(zodIn)).toEqual([]);
    // The test can fail: zod is in what a file's validation imports.
    expect(
      named('validate')
        .flatMap((f) => [...closure(f)])
        .some(zodIn),
    ).toBe(true);
  });

  it('check: a passing file exits 0, a failing one 3; the JUnit report is valid XML with the right counts', () => {
    const passing = readFileSync(join(root, 'public/scenarios/lost-ack-duplicate.json'), 'utf8');
    const scenario = JSON.parse(passing) as { expect: { totals: Record<string, number> } };
    // The run has 3 rows (its description derives them); expecting 2 fails.
    scenario.expect.totals.rows = 2;
    writeFileSync(join(app, 'pass.json'), passing);
    writeFileSync(join(app, 'fail.json'), JSON.stringify(scenario));
    expect(npx('check', 'pass.json').status).toBe(0);
    const r = npx(
      'check',
      'pass.json',
      'fail.json',
      '--reporter',
      'junit',
      '--output',
      'report.xml',
    );
    expect(r.status).toBe(3);
    expect(r.stdout).toContain('check: 2 scenarios: 1 passed, 1 failed, 0 malformed');
    const doc = new DOMParser().parseFromString(
      readFileSync(join(app, 'report.xml'), 'utf8'),
      'application/xml',
    );
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    const suite = doc.getElementsByTagName('testsuite')[0]!;
    expect(['tests', 'failures', 'errors'].map((a) => suite.getAttribute(a))).toEqual([
      '2',
      '1',
      '0',
    ]);
  });
});
