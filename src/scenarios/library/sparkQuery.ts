/**
 * S16's Structured Streaming query (docs/semantics/scenarios.md#s16-spark-batch-re-execution),
 * shared by the presets that re-execute its batch 2 into different sinks (spark-batch-replay,
 * raw-clean-layer).
 */
import type { ScenarioInput } from '../../engine';

/** S16's query: e1..e30 on `orders`, 10 offsets per trigger, crash after batch 2's sink write. */
export function sparkQuery(
  name: string,
  sink: ScenarioInput['sink'],
  expect: ScenarioInput['expect'],
): ScenarioInput {
  return {
    version: 1,
    name,
    claim: 'exactly-once',
    workload: { topic: 'orders', generate: { count: 30, startAtMs: 10, intervalMs: 10 } },
    // The source re-sends what failed, as the exactly-once recipe has it (nothing fails there).
    producer: { app: { onFailure: 'resend' } },
    processor: {
      type: 'spark',
      maxOffsetsPerTrigger: 10,
      startingOffsets: 'earliest',
      startAtMs: 1000,
    },
    sink,
    faults: [
      { id: 'driver crash', kind: 'crash', target: 'spark', point: 'after-sink-write', nth: 3 },
    ],
    expect,
  };
}
