/**
 * Guarantees (the one a scenario claims, the one a run shows) and the `expect` block: what a run
 * must show, which `--check` and the tests compare it with.
 */
import { z } from 'zod';
import { LIMITS } from './limits';
import { count } from './schemaFields';
import { echoValue } from './echo';

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

const OutcomeCountsExpectSchema = z.strictObject({
  held: count(1e9).optional(),
  duplicates: count(1e9).optional(),
  losses: count(1e9).optional(),
  both: count(1e9).optional(),
  stuck: count(1e9).optional(),
});

/**
 * What the scenario's fault atlas must show (docs/format.md#the-fault-atlas-in-expect), as `--explore` runs it: a doc's
 * "this configuration survives every single fault" pinned with the rest (`breaks: 0`), checked by
 * `--check` and `delivery-lab check`. The kinds must be its engine's
 * (./semanticIssues.ts checks them).
 */
const AtlasExpectSchema = z.strictObject({
  /** The kinds of fault placed (`--kinds`); default every kind of the scenario's engine. */
  kinds: z.array(z.string().max(LIMITS.stringLength)).min(1).max(20).optional(),
  /** 1: every single fault; 2: every pair (`--depth`). Default 1. */
  depth: z
    .union([z.literal(1), z.literal(2)], {
      error: (iss) =>
        `got ${echoValue(iss.input)}; depth is 1 (every single fault) or 2 (every pair of faults), as --explore --depth takes it`,
    })
    .optional(),
  /** Trials that break the claim (every outcome but held); 0: the claim survives them all. */
  breaks: count(1e9).optional(),
  /** Trials per outcome, for the outcomes listed. */
  outcomes: OutcomeCountsExpectSchema.optional(),
});

/** What the run must show; `--check` and the tests compare the run with it. */
export const ExpectSchema = z.strictObject({
  totals: TotalsExpectSchema.optional(),
  rows: z.record(z.string().max(LIMITS.stringLength), count(1e9)).optional(),
  observed: ObservedGuaranteeSchema.optional(),
  /** Other observation points by name (`log:events`, `sink`, `reader:rc`, `effects`, `state`). */
  points: z.record(z.string().max(LIMITS.stringLength), PointExpectSchema).optional(),
  /** The fault atlas: its trials' outcomes (run only by `--check` and `check`, not by a run). */
  atlas: AtlasExpectSchema.optional(),
});

export type Guarantee = z.output<typeof GuaranteeSchema>;
export type ObservedGuarantee = z.output<typeof ObservedGuaranteeSchema>;
export type Expect = z.output<typeof ExpectSchema>;
export type AtlasExpect = z.output<typeof AtlasExpectSchema>;
