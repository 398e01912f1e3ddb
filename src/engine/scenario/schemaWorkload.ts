/**
 * The workload part of a scenario: the business events, listed one by one or generated from the
 * seed, and the input topic they are written to.
 */
import { z } from 'zod';
import { LIMITS } from './limits';
import { amount, int, ms, name, topicName } from './schemaFields';
import { generateIntervalMs } from './generateInterval';
import { contentFields } from '../batch/schema';

/** One business event, listed explicitly. The same `id` listed twice is the upstream source emitting it twice. */
export const EventSchema = z.strictObject({
  /** Business id, e.g. `p-77`. */
  id: name(),
  /** Record key (partitioning). Default: the id. */
  key: name().optional(),
  /** Amount in the workload's currency units; sums are compared against the true sum. */
  amount: amount(),
  /** Virtual time (ms) at which the application hands the event to the producer. */
  at: ms(),
  /**
   * Content columns (free text): an event time "09:15:00", a user, an item — what a sink keyed by
   * content (`sink.key: ["time", "amount"]`) reads; two real events with equal content then merge.
   */
  ...contentFields(),
});

const GenerateObjectSchema = z
  .strictObject({
    count: int(1, LIMITS.generatedEvents),
    /** Time of the first event (ms). */
    startAtMs: ms().default(0),
    /**
     * Time between two events (ms, may be fractional: 0.01 = 100 events per ms); times are floored.
     * Default 10 (see {@link generateIntervalMs}) — not filled in, so that a parsed scenario with
     * `ratePerSec` parses again (a default here would then read as "both given").
     */
    intervalMs: z.number().min(0.0001).max(3_600_000).optional(),
    /**
     * Events per virtual second: the other way to give the spacing (200 = one every 5 ms from
     * `startAtMs`; times are floored). Give it or `intervalMs`, not both.
     */
    ratePerSec: z.number().min(0.001).max(10_000_000).optional(),
    /**
     * `uniform`: one event every interval. `poisson`: a Poisson process of the same mean rate, the
     * first event at `startAtMs` and the gaps exponential, drawn from the seed; times are floored
     * to whole ms, so events can share a millisecond.
     */
    arrivals: z.enum(['uniform', 'poisson']).default('uniform'),
    /** Number of distinct keys, `k0`…; with `round-robin`, event i gets key `k{(i-1) % keys}`. */
    keys: int(1, 1_000_000).default(100),
    /** `round-robin` (above), or `random`: each event's key drawn uniformly from the keys, by the seed. */
    keyChoice: z.enum(['round-robin', 'random']).default('round-robin'),
    /**
     * `index`: amount(e_i) = 10·i (the convention of docs/semantics/README.md#amounts); `fixed`: every amount is
     * `fixedAmount`; `random`: a whole number drawn uniformly from `amountRange`, by the seed.
     */
    amounts: z.enum(['index', 'fixed', 'random']).default('index'),
    fixedAmount: amount().default(10),
    /** `amounts: "random"` only: the range of the amounts, both ends included. */
    amountRange: z
      .strictObject({
        min: int(-1e12, 1e12),
        max: int(-1e12, 1e12),
      })
      .refine((r) => r.min <= r.max, { message: 'max is below min', path: ['max'] })
      .optional(),
    idPrefix: z.string().max(20).default('e'),
  })
  .superRefine(
    (g, ctx) => {
      if (g.amounts === 'random' && g.amountRange === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['amountRange'],
          message: 'amounts "random" needs amountRange { min, max }',
        });
      if (g.amounts !== 'random' && g.amountRange !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['amountRange'],
          message: `amountRange applies to amounts "random" only (amounts is "${g.amounts}")`,
        });
      // Generated times are Int32 ms (workload.ts): the nominal last event must be within the limit.
      const last = g.startAtMs + (g.count - 1) * generateIntervalMs(g);
      if (last > LIMITS.timeMs)
        ctx.addIssue({
          code: 'custom',
          path: ['count'],
          message: `the last event would come at ${Math.floor(last)} ms, beyond the time limit (${LIMITS.timeMs} ms)`,
        });
    },
    // Across fields only once every field is valid: a ratePerSec of 0 is one problem, not two.
    { when: (payload) => payload.issues.length === 0 },
  );

/**
 * A seeded generator of events `e1..eN`. By default, fixed spacing, round-robin keys and
 * `amount = 10·i`, with no random draw; `arrivals`, `keyChoice` and `amounts` make them random,
 * each from its own stream of the scenario's `seed`.
 */
export const GenerateSchema = z.preprocess((g: z.input<typeof GenerateObjectSchema>, ctx) => {
  // Checked before the defaults apply: `intervalMs` has one, so afterwards it always looks set.
  // The value is still unchecked input here (typed for ScenarioInput), hence the plain reads.
  const raw = g as unknown as Record<string, unknown> | null;
  if (typeof raw === 'object' && raw?.intervalMs !== undefined && raw.ratePerSec !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['ratePerSec'],
      message: 'give intervalMs or ratePerSec, not both',
      input: raw,
    });
  return g;
}, GenerateObjectSchema);

export const WorkloadSchema = z
  .strictObject({
    /** Name of the input topic. */
    topic: topicName().default('events'),
    events: z.array(EventSchema).min(1).max(LIMITS.explicitEvents).optional(),
    generate: GenerateSchema.optional(),
    /** Serialized size of one record, used to fill `batch.size` (bytes). */
    recordBytes: int(1, 1_000_000).default(100),
  })
  .refine((w) => (w.events === undefined) !== (w.generate === undefined), {
    message: 'give exactly one of workload.events or workload.generate',
  });

export type EventSpec = z.output<typeof EventSchema>;
