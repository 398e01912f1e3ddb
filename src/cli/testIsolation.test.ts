/**
 * Which test files vitest runs each in a module registry of its own (scripts/testIsolation.ts,
 * vite.config.ts `test.projects`: node-isolated, dom-isolated), on sources written out here.
 * (This file's sources name what they test: it runs in a registry of its own itself.)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { needsOwnRegistry, testsNeedingOwnRegistry } from '../../scripts/testIsolation';

describe('needsOwnRegistry', () => {
  it('a file that mocks, stubs, fakes the clock, changes the environment or asks for another', () => {
    for (const source of [
      "vi.mock('../platform/mermaid', () => ({}));",
      "vi.doMock('./x');",
      'vi.resetModules();',
      "vi.stubGlobal('matchMedia', () => null);",
      "vi.stubEnv('CI', '1');",
      'vi.useFakeTimers();',
      'vi.setSystemTime(0);',
      '// @vitest-environment jsdom',
      "process.chdir('/tmp');",
      "process.env.CI = '1';",
      'delete process.env.CI;',
      'globalThis.fetch = stub;',
      "Object.defineProperty(globalThis, 'crypto', { value: {} });",
    ])
      expect([source, needsOwnRegistry(source)]).toEqual([source, true]);
  });

  it('a file that spies (vitest restores spies after each file) or compares shares', () => {
    for (const source of [
      "vi.spyOn(console, 'error');",
      'expect(process.env.CI === undefined).toBe(true);',
      'if (globalThis.window === undefined) return;',
      "render(<App lab={presetLab('at-least-once')} />);",
    ])
      expect([source, needsOwnRegistry(source)]).toEqual([source, false]);
  });

  it("says so itself: a comment line 'Own module registry:' and why", () => {
    const marked = [
      "import { Rows } from './Rows';",
      '',
      '// Own module registry: a lazy chunk not loaded yet (React.lazy keeps it once loaded).',
      'afterEach(cleanup);',
    ].join('\n');
    expect(needsOwnRegistry(marked)).toBe(true);
    expect(needsOwnRegistry('  // Own module registry: indented in a block')).toBe(true);
    // No reason given, or the words elsewhere than a comment line of their own: not a marker.
    expect(needsOwnRegistry('// Own module registry:')).toBe(false);
    expect(needsOwnRegistry('// Own module registry:   ')).toBe(false);
    expect(needsOwnRegistry("const s = 'x'; // Own module registry: trailing")).toBe(false);
    expect(needsOwnRegistry('// own module registry: lower case')).toBe(false);
  });
});

describe('testsNeedingOwnRegistry', () => {
  let root = '';
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("lists the tests it takes that need one, under the folders given, sorted, as vitest's include paths", () => {
    root = mkdtempSync(join(tmpdir(), 'test-isolation-'));
    const files: Record<string, string> = {
      'src/ui/App.test.tsx': "render(<App lab={presetLab('at-least-once')} />);",
      'src/ui/pipeline/Rows.test.tsx': '// Own module registry: the virtualizer not loaded yet\n',
      'src/ui/hooks/useLaidOutStyle.test.tsx': 'vi.useFakeTimers();',
      'src/ui/hooks/useLaidOutStyle.ts': 'vi.useFakeTimers();',
      'src/store/labStore.test.ts': "vi.mock('./x');",
      'server/a.test.ts': "vi.mock('./x');",
    };
    for (const [file, source] of Object.entries(files)) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), source);
    }
    // The dom projects' choice: component tests under src/ui.
    expect(testsNeedingOwnRegistry(root, ['src/ui'], (f) => /\.test\.tsx$/.test(f))).toEqual([
      'src/ui/hooks/useLaidOutStyle.test.tsx',
      'src/ui/pipeline/Rows.test.tsx',
    ]);
    expect(testsNeedingOwnRegistry(root, ['src', 'server'], (f) => /\.test\.ts$/.test(f))).toEqual([
      'src/store/labStore.test.ts',
      'server/a.test.ts',
    ]);
  });
});
