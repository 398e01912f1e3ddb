/**
 * The scenario format, version 1: a complete, plain-data description of a run.
 *
 * Knobs carry the real systems' names (`acks`, `enable.idempotence`, `isolation.level`,
 * `execution.checkpointing.interval`, `txnAppId`, …) with the real defaults, each documented
 * with the page it comes from. Units: every `…Ms` / `….ms` field is virtual milliseconds.
 *
 * The schema is also exported as JSON Schema (`public/scenario.schema.json`, see
 * `scripts/schema.ts`), so the limits are visible to editors and other tools.
 *
 * One concept per file: schemaFields (the shared field shapes), schemaWorkload, schemaKafka
 * (producer and cluster), schemaProcessors, schemaSinks (and readers), schemaFaults and
 * schemaExpect (guarantees and `expect`); this file puts them together into a scenario and
 * re-exports them all.
 */
import { z } from 'zod';
import { LIMITS } from './limits';
import { PACE_MAX, PACE_MIN } from './pace';
import { BatchSchema } from '../batch/schema';
import { int, ms, name } from './schemaFields';
import { WorkloadSchema } from './schemaWorkload';
import { BrokerSchema, ProducerSchema } from './schemaKafka';
import { ConsumerProcessorSchema, ProcessorSchema } from './schemaProcessors';
import { ReaderSchema, SinkSchema, TableSinkSchema } from './schemaSinks';
import { FaultSchema } from './schemaFaults';
import { ExpectSchema, GuaranteeSchema } from './schemaExpect';

export * from './schemaWorkload';
export * from './schemaKafka';
export * from './schemaProcessors';
export * from './schemaSinks';
export * from './schemaFaults';
export * from './schemaExpect';
// The plain rules a run reads, kept apart so that a run builds no schema (docs/ARCHITECTURE.md,
// "Our presets without zod"); re-exported for the modules that read them with the schemas.
export * from './transactionTimeouts';
export * from './flinkRestart';
export * from './generateInterval';
export * from './seedDraws';
export * from './pace';

export const ScenarioSchema = z.strictObject({
  /** Where editors find this schema (`scenario.schema.json`); ignored by the engine. */
  $schema: z.string().max(LIMITS.stringLength).optional(),
  version: z.literal(1),
  name: name(),
  description: z.string().max(LIMITS.textLength).optional(),
  seed: int(0, 0xffffffff).default(1),
  /** The guarantee the configuration is meant to give; the checker compares the run with it. */
  claim: GuaranteeSchema.default('at-least-once'),
  /** End of the run (ms). Default: when nothing is left to happen. */
  stopAtMs: ms().optional(),
  network: z
    .strictObject({
      /** One-way latency of every link (ms). */
      latencyMs: ms().default(2),
      /** Extra uniform latency in [0, jitterMs] per message, from the seed. */
      jitterMs: ms().default(0),
    })
    .default({ latencyMs: 2, jitterMs: 0 }),
  workload: WorkloadSchema,
  producer: ProducerSchema.default(() => ProducerSchema.parse({})),
  broker: BrokerSchema.default(() => BrokerSchema.parse({})),
  processor: ProcessorSchema.default(() => ConsumerProcessorSchema.parse({ type: 'consumer' })),
  sink: SinkSchema.default(() => TableSinkSchema.parse({ type: 'table' })),
  readers: z.array(ReaderSchema).max(LIMITS.readers).default([]),
  faults: z.array(FaultSchema).max(LIMITS.faults).default([]),
  /**
   * A batch pipeline (a scheduled job over a partitioned source table), judged by the batch
   * checker instead of the streaming one: src/engine/batch/, docs/semantics/batch.md.
   */
  batch: BatchSchema.optional(),
  expect: ExpectSchema.optional(),
  /**
   * How the page plays the run; no part of the run itself (the trace is the same with or without).
   * `pace`: playback speed in virtual ms per real ms (0.01: 1 ms of the run takes 0.1 s on
   * screen), from {@link PACE_MIN} to {@link PACE_MAX}; default: the speed that plays the story in
   * about 30 s with idle stretches cut (src/views/run/pace.ts).
   */
  display: z
    .strictObject({
      pace: z.number().min(PACE_MIN).max(PACE_MAX).optional(),
    })
    .optional(),
});

/** A scenario as written (defaults not yet applied). */
export type ScenarioInput = z.input<typeof ScenarioSchema>;
/** A validated scenario with every default applied. */
export type Scenario = z.output<typeof ScenarioSchema>;
