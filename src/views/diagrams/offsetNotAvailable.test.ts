/**
 * The event log and the sequence diagram name a new leader's high watermark, learned as a
 * follower, and a latest-offset lookup it refuses (OFFSET_NOT_AVAILABLE, retried); the engine's
 * times are derived in src/engine/broker/newLeaderHw.test.ts and listOffsets.test.ts.
 */
import { expect, it } from 'vitest';
import { parseScenario, simulate } from '../../engine';
import { describeEntry } from './describe';
import { runSequenceDiagram } from './mermaid';
import { toRunView } from '../run/runView';
import { K } from '../run/kinds';

it("Flink's latest() during the new leader's first fetch round: the log and the diagram say OFFSET_NOT_AVAILABLE, asked again", () => {
  // broker-1 acknowledges e1..e4 and dies at 410 ms while its followers know HW 3; broker-2 leads
  // from 9,410 ms (HW 3, its epoch from offset 4) and reaches HW 4 at 9,414; the job starts at
  // 9,411 ms: refused, then started at 9,511.
  const r = parseScenario({
    version: 1,
    name: 'offset-not-available',
    workload: {
      events: [1, 2, 3, 4].map((k) => ({ id: `e${k}`, amount: 10 * k, at: 100 * k })),
    },
    producer: { acks: 'all', 'linger.ms': 0 },
    broker: { partitions: 1 },
    processor: { type: 'flink', offsetsInitializer: 'latest', startAtMs: 9411 },
    faults: [{ kind: 'leader-failover', at: 410, restartAfterMs: null }],
  });
  if (!r.ok) throw new Error(r.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  const run = simulate(r.scenario);
  const v = toRunView(run);
  const lines: string[] = [];
  for (let i = 0; i < v.n; i++)
    if (v.cols.kind[i] === K.reject) lines.push(`${v.cols.time[i]} ${describeEntry(v, i)}`);
  expect(lines).toEqual([
    "9411 broker-2 cannot yet answer flink's ListOffsets for the latest offset of events-0: its high watermark is behind the start of its leader epoch (OFFSET_NOT_AVAILABLE) → asked again after retry.backoff.ms",
  ]);
  const d = runSequenceDiagram(run);
  expect(d).toContain(
    "OFFSET_NOT_AVAILABLE (the new leader's high watermark is behind its epoch's start) · asked again after retry.backoff.ms",
  );
  // The election's high watermark (3, below the old leader's 4), then the round's move to 4.
  const hw: string[] = [];
  for (let i = 0; i < v.n; i++)
    if (v.cols.kind[i] === K.hw && v.cols.time[i]! > 9000)
      hw.push(`${v.cols.time[i]} ${describeEntry(v, i)}`);
  expect(hw).toEqual([
    "9410 high watermark of events-0 is 3: the new leader's own, learned as a follower a fetch round behind the old leader's; it moves again as its followers fetch",
    '9414 high watermark of events-0 moves to 4',
  ]);
});
