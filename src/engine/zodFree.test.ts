/**
 * A run needs no zod (issue 28, docs/ARCHITECTURE.md "Our presets without zod"): `simulate` and
 * everything it imports build no schema, so the CLI's preset run and the page's first run never
 * pay for the scenario schemas. Each module is imported in a fresh module graph with `zod` mocked
 * to throw the moment any schema is built or any zod value is read.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

function zodThatThrows() {
  return new Proxy(
    {},
    {
      get(_, key) {
        if (key === 'then') return undefined;
        throw new Error(`zod.${String(key)} used while importing a run's modules`);
      },
    },
  );
}

describe('a run imports no zod', () => {
  afterEach(() => {
    vi.doUnmock('zod');
    vi.resetModules();
  });

  it.each([
    ['simulate', () => import('./simulate')],
    ['checker', () => import('./checker')],
    ['explain', () => import('./explain')],
    ['batch run', () => import('./batch/run')],
  ])(
    '%s',
    async (_, load) => {
      vi.resetModules();
      vi.doMock('zod', zodThatThrows);
      await expect(load()).resolves.toBeTypeOf('object');
      // Transforming a fresh module graph takes seconds on a busy machine.
    },
    60_000,
  );

  it('the mock does throw on a module that builds a schema', async () => {
    vi.resetModules();
    vi.doMock('zod', zodThatThrows);
    await expect(import('./scenario/schema')).rejects.toThrow(/zod\.\w+ used/);
  });
});
