import { describe, expect, it } from 'vitest';
import { ScenarioSchema } from '../engine';
import { CLAIMS, claimOf, DEFAULT_CLAIM } from './claim';

describe('claimOf (without zod)', () => {
  const claim = ScenarioSchema.shape.claim;
  it('accepts what the schema accepts, and its default is the schema’s', () => {
    expect(claim.parse(undefined)).toBe(DEFAULT_CLAIM);
    expect(claim.unwrap().options).toEqual(CLAIMS);
  });
  it('answers as the schema does for a claim, none, and a refused one', () => {
    for (const c of [...CLAIMS, undefined, 'twice', 3, null]) {
      const r = claim.safeParse(c);
      const bySchema = r.success ? r.data : claim.parse(undefined);
      expect(claimOf({ claim: c } as never)).toBe(bySchema);
    }
    expect(claimOf({ claim: 'exactly-once' } as never)).toBe('exactly-once');
    expect(claimOf({ claim: 'twice' } as never)).toBe('at-least-once');
  });
});
