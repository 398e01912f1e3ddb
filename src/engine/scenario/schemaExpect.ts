/**
 * Guarantees (the one a scenario claims, the one a run shows) and the `expect` block: what a run
 * must show, which `--check` and the tests compare it with.
 */
import { z } from 'zod';
import { LIMITS } from './limits';
import { count } from './schemaFields';

export const GuaranteeSchema = z.enum(['at-most-once', 'at-least-once', 'exactly-once']);
export const ObservedGuaranteeSchema = z.enum([
  'exactly-once',
  'at-least-once',
  'at-most-once',
  'none',
]);

const TotalsExpectSchema = z.strictObject({
  rows: count(1e9).optional(),
  duplicates: count(1e9).optional(),
  lost: count(1e9).optional(),
  sum: z.number().optional(),
  events: count(1e9).optional(),
});

const PointExpectSchema = z.strictObject({
  totals: TotalsExpectSchema.optional(),
  /** Rows (effects) per business id, for the ids listed. */
  rows: z.record(z.string().max(LIMITS.stringLength), count(1e9)).optional(),
});

/** What the run must show; `--check` and the tests compare the run with it. */
export const ExpectSchema = z.strictObject({
  totals: TotalsExpectSchema.optional(),
  rows: z.record(z.string().max(LIMITS.stringLength), count(1e9)).optional(),
  observed: ObservedGuaranteeSchema.optional(),
  /** Other observation points by name (`log:events`, `sink`, `reader:rc`, `effects`, `state`). */
  points: z.record(z.string().max(LIMITS.stringLength), PointExpectSchema).optional(),
});

export type Guarantee = z.output<typeof GuaranteeSchema>;
export type ObservedGuarantee = z.output<typeof ObservedGuaranteeSchema>;
export type Expect = z.output<typeof ExpectSchema>;
