/** The run cache's key (compute.ts): the canonical JSON itself, so equal scenarios share it. */
import { describe, expect, it } from 'vitest';
import { scenarioKey } from './compute';

describe('scenarioKey', () => {
  it('is the canonical JSON: keys sorted at every depth, arrays kept in order', () => {
    expect(scenarioKey({ b: 1, a: [2, { d: 'x', c: null }] })).toBe(
      '{"a":[2,{"c":null,"d":"x"}],"b":1}',
    );
  });

  it('tells scenarios apart by any value, and not by key order', () => {
    expect(scenarioKey({ seed: 1, name: 'x' })).toBe(scenarioKey({ name: 'x', seed: 1 }));
    expect(scenarioKey({ seed: 1, name: 'x' })).not.toBe(scenarioKey({ seed: 2, name: 'x' }));
    expect(scenarioKey({ a: [1, 2] })).not.toBe(scenarioKey({ a: [2, 1] }));
  });
});
