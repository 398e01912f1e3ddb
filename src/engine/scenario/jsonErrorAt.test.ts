import { describe, expect, it } from 'vitest';
import { jsonErrorAt } from './jsonErrorAt';

describe('jsonErrorAt', () => {
  it('is null for valid JSON, as JSON.parse takes it', () => {
    for (const t of [
      '1',
      ' {"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"]} ',
      '[]',
      '{}',
      '""',
    ])
      expect(jsonErrorAt(t), t).toBeNull();
  });

  it('names the first character that breaks the grammar, where V8 says no position', () => {
    expect(jsonErrorAt('{"a": [}]}')).toBe(7);
    expect(jsonErrorAt('{"a":tru}')).toBe(8);
    expect(jsonErrorAt('{"a": 01}')).toBe(7);
    expect(jsonErrorAt('{"a": "x\\q"}')).toBe(9);
    expect(jsonErrorAt('{"a": 1} x')).toBe(9);
    expect(jsonErrorAt('{"a": ')).toBe(6);
  });

  it('agrees with V8 where V8 gives the position', () => {
    for (const t of ['{"a":1,}', '{"a" 1}', '{a:1}', '[1 2]', '{"a":"x\ny"}']) {
      let position = -1;
      try {
        JSON.parse(t);
      } catch (e) {
        position = Number(/at position (\d+)/.exec((e as Error).message)?.[1]);
      }
      expect(jsonErrorAt(t), t).toBe(position);
    }
  });
});
