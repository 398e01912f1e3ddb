/**
 * Which test files need a module registry of their own (vite.config.ts `test.projects`: the node
 * tests' `node-isolated`, the components' `dom-isolated`). The others share one per vitest worker
 * (`isolate: false`): the setup file's imports (every preset, the validation, src/testSetup.ts)
 * and the engine are evaluated once per worker, not once per file — ~0.9 s per file on CI (ci37:
 * "setup 248.76s" summed over 277 files); the components' tests share one jsdom too, and React
 * (their 51 files: 551 s → 164 s wall on a loaded 2-core machine; src/ui/testSetupDom.ts gives
 * each file the page a fresh jsdom has).
 * A file needs its own registry when it changes what the next file would import or see: it mocks
 * a module, resets the registry, stubs a global or the environment, fakes the clock, sets an
 * environment variable, changes directory, or asks for another environment (jsdom). Vitest
 * restores spies after each file (`vi.restoreAllMocks`), not mocked modules, stubs or timers
 * (https://vitest.dev/guide/improving-performance.html#test-isolation).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const OWN_REGISTRY = [
  /\bvi\.(mock|doMock|unmock|doUnmock|resetModules|stubGlobal|stubEnv|useFakeTimers|setSystemTime)\(/,
  /@vitest-environment\b/,
  /\bprocess\.chdir\(/,
  /\bprocess\.env\.\w+\s*=[^=]|\bdelete process\.env\b/,
  /\bglobalThis\.\w+\s*=[^=]|defineProperty\(globalThis\b/,
  // What no pattern can see, said by the file itself: a test of what a module does before its
  // module-level state is first set (a lazy component not loaded yet, a cache still empty) —
  // which a file before it in a shared registry may already have set.
  /^\s*\/\/ Own module registry: \S/m,
];

/** Whether a test file's source does something the next file in its worker would inherit. */
export function needsOwnRegistry(source: string): boolean {
  return OWN_REGISTRY.some((pattern) => pattern.test(source));
}

/**
 * The test files under `dirs` (relative to `root`) that `isTest` takes and that need a registry of
 * their own, as paths relative to `root` (vitest's `include` form).
 */
export function testsNeedingOwnRegistry(
  root: string,
  dirs: readonly string[],
  isTest: (file: string) => boolean,
): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .map((file) => `${dir}/${file.replaceAll('\\', '/')}`)
      .filter((file) => isTest(file) && needsOwnRegistry(readFileSync(join(root, file), 'utf8')))
      .sort(),
  );
}
