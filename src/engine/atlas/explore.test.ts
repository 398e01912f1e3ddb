import { describe, expect, it } from 'vitest';
import { classify } from './explore';
import { K } from '../traceCodes';
import type { Run } from '../simulate';

/**
 * A finished run reduced to what `classify` reads: a scenario with `faults` faults, a trace of
 * 'fault' entries for the fault indexes `fired` (in order, between 'process' entries), a verdict
 * that held.
 */
function runWith(faults: number, fired: number[]): Run {
  const n = fired.length * 2 + 1;
  const kind = new Uint8Array(n).fill(K.process);
  const aux = new Int32Array(n).fill(faults + 7);
  fired.forEach((f, i) => {
    kind[2 * i + 1] = K.fault;
    aux[2 * i + 1] = f;
  });
  return {
    scenario: { faults: new Array(faults).fill({ kind: 'crash' }) },
    trace: { length: n, kind, aux },
    verdict: { fate: new Uint8Array([1, 1]), points: [], sideEffects: false, held: true },
    cutOff: false,
  } as unknown as Run;
}

describe('classify: whether every added fault fired', () => {
  it('two added faults (indexes 3 and 4 of 5): fired only once each has a fault entry, whatever fired of the own faults or twice', () => {
    // Own faults 0..2 fire; added fault 4 fires twice: fault 3 never did.
    expect(classify(runWith(5, [0, 4, 2, 4, 1]), false, 2).fired).toBe(false);
    expect(classify(runWith(5, [4, 0, 3]), false, 2).fired).toBe(true);
    expect(classify(runWith(5, [3, 3, 4]), false, 2).fired).toBe(true);
    // One added fault (index 4): the own ones firing do not count.
    expect(classify(runWith(5, [0, 1, 2, 3]), false, 1).fired).toBe(false);
    expect(classify(runWith(5, [4]), false, 1).fired).toBe(true);
    // No added fault: nothing to fire.
    expect(classify(runWith(5, []), false, 0)).toEqual({
      outcome: 'held',
      duplicated: 0,
      lost: 0,
      fired: true,
    });
  });
});
