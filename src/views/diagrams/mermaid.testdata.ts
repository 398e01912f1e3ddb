/**
 * Small scenarios shared by the views' tests (and, through `mermaid.diagrams.json`, the platform's).
 * Their outcomes are worked out by hand in the comments.
 */
import { parseScenario, simulate, type Run, type ScenarioInput } from '../../engine';
import hostile from '../../../public/scenarios/hostile-strings.json' with { type: 'json' };

/**
 * Two payments; the acknowledgement of e1's produce request is lost; idempotence is off and one
 * request is in flight, so the producer's retry (request.timeout.ms = 1000, retry.backoff.ms =
 * 100 → at 1100 ms) appends e1 a second time (offsets 0 and 1). The consumer starts at 5 s, reads
 * all three records in one poll, INSERTs each and commits offset 3: e1 has two rows (sum 40 for a
 * true 30). Latency is 2 ms per hop (the default network); the times in the tests follow from it.
 */
export const LOST_ACK: ScenarioInput = {
  version: 1,
  name: 'Lost ack, idempotence off',
  workload: {
    topic: 'payments',
    events: [
      { id: 'e1', amount: 10, at: 0 },
      { id: 'e2', amount: 20, at: 10 },
    ],
  },
  producer: {
    'enable.idempotence': false,
    'max.in.flight.requests.per.connection': 1,
    'request.timeout.ms': 1000,
    'linger.ms': 0,
  },
  processor: {
    type: 'consumer',
    'enable.auto.commit': false,
    'auto.offset.reset': 'earliest',
    startAtMs: 5000,
  },
  sink: { type: 'table', name: 'payments' },
  faults: [{ id: 'lost ack', kind: 'drop-response', link: 'produce', match: { event: 'e1' } }],
};

/**
 * A Flink job reading `in`, writing `out` with an EXACTLY_ONCE KafkaSink (a transaction per
 * checkpoint, every 100 ms), read by a read_committed reader; the job crashes at 150 ms. The run
 * stops at 2 s (checkpoints would otherwise go on for the default hour).
 */
export const FLINK_EXACTLY_ONCE: ScenarioInput = {
  version: 1,
  name: 'Flink, two-phase commit',
  stopAtMs: 2000,
  workload: {
    topic: 'in',
    events: [
      { id: 'a', amount: 1, at: 0 },
      { id: 'b', amount: 2, at: 10 },
      { id: 'c', amount: 3, at: 20 },
    ],
  },
  processor: { type: 'flink', 'execution.checkpointing.interval': 100 },
  sink: {
    type: 'kafka',
    topic: 'out',
    deliveryGuarantee: 'EXACTLY_ONCE',
    transactionalIdPrefix: 'job',
  },
  readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
  faults: [{ kind: 'crash', target: 'flink', at: 150 }],
};

/** `public/scenarios/hostile-strings.json`: every string is markup, a directive or a formula. */
export const HOSTILE: unknown = hostile;

/** Validate and run a scenario; throws with the issues if it is invalid. */
export function runOf(input: unknown): Run {
  const parsed = parseScenario(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return simulate(parsed.scenario);
}
