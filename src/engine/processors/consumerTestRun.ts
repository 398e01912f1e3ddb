/**
 * The consumer-loop tests' run (consumer.test.ts, consumerCommitFailures.test.ts): e1..e10
 * (10..100) produced at 1..10 ms; the consumer starts at 1 s, when all ten are in the log, with
 * manual commits from the earliest offset, into a table.
 */
import { events, runScenario } from '../testing';

/** Run the loop with `processor`'s settings over the defaults, into a table with `sink`'s. */
export const consumer = (
  processor: Record<string, unknown>,
  sink: Record<string, unknown>,
  faults: unknown[],
) =>
  runScenario({
    workload: { events: events(10) },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      startAtMs: 1000,
      ...processor,
    },
    sink: { type: 'table', ...sink },
    faults: faults as never,
  });
