import { describe, expect, it } from 'vitest';
import { KNOB_NAMES, knobNameOf } from './knobNames';
import { KNOBS, knobMeta } from './knobs';

describe('KNOB_NAMES', () => {
  it('names every knob of the table as the table does, and nothing else', () => {
    const paths = new Set(KNOBS.map((k) => k.path));
    expect(Object.keys(KNOB_NAMES).sort()).toEqual([...paths].sort());
    for (const path of paths) expect(knobNameOf(path)).toBe(knobMeta(path)!.name);
  });

  it('has no name for a path outside the table (the switch then shows the path)', () => {
    expect(knobMeta('producer.nope')).toBeUndefined();
    expect(knobNameOf('producer.nope')).toBeUndefined();
    // Not an inherited property either.
    expect(knobNameOf('constructor')).toBeUndefined();
  });
});
