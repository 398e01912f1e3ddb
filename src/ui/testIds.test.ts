import { describe, expect, it } from 'vitest';
import { testIds } from './testIds';

describe('testIds', () => {
  const values = Object.values(testIds);

  it('are non-empty kebab-case strings', () => {
    for (const id of values) expect(id).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
  });

  it('are unique, so no selector matches two different things', () => {
    expect(new Set(values).size).toBe(values.length);
  });
});
