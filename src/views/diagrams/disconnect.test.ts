/**
 * The event log and the sequence diagram name a broker crash's effect on its clients: the
 * connection reset (NETWORK_EXCEPTION, retried) and the refused connection attempts
 * (reconnect.backoff.ms) — src/engine/connections.ts; the engine's times are derived in
 * src/engine/broker/disconnect.test.ts.
 */
import { expect, it } from 'vitest';
import { parseScenario, simulate, type ScenarioInput } from '../../engine';
import { describeEntry } from './describe';
import { runSequenceDiagram } from './mermaid';
import { toRunView } from '../run/runView';
import { K } from '../run/kinds';

function run(input: Omit<ScenarioInput, 'version' | 'name'>) {
  const r = parseScenario({ version: 1, name: 'disconnect', ...input });
  if (!r.ok) throw new Error(r.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  return simulate(r.scenario);
}

const consumer = (startAtMs: number) =>
  ({
    type: 'consumer',
    'enable.auto.commit': false,
    'auto.offset.reset': 'earliest',
    startAtMs,
  }) as const;

it('a produce in flight when broker-1 crashes: the event log says the connection closed, then each refused attempt', () => {
  // e1 appended at 102, broker-1 dies at 104 (back at 1,104): reset seen at 106, refused at 210
  // (the first attempt, after retry.backoff.ms), 314, 518, 922.
  const r = run({
    workload: { events: [{ id: 'e1', amount: 10, at: 100 }] },
    producer: { 'linger.ms': 0, 'enable.idempotence': false },
    broker: { partitions: 1 },
    processor: consumer(20_000),
    faults: [{ kind: 'crash', target: 'broker-1', at: 104, restartAfterMs: 1000 }],
  });
  const v = toRunView(r);
  const lines: string[] = [];
  for (let i = 0; i < v.n; i++)
    if (v.cols.kind[i] === K.reject) lines.push(`${v.cols.time[i]} ${describeEntry(v, i)}`);
  expect(lines).toEqual([
    "106 broker-1 crashed: producer's connection to it closed and the request of e1 failed with NETWORK_EXCEPTION → retried after retry.backoff.ms, once connected again",
    ...[210, 314, 518, 922].map(
      (x) =>
        `${x} producer cannot connect to broker-1: connection refused (broker-1 is down) → the batch of e1 waits; next attempt after reconnect.backoff.ms`,
    ),
  ]);
  const d = runSequenceDiagram(r);
  expect(d).toContain(
    'Note over P0: broker-1 crashed → connection closed · e1 failed (NETWORK_EXCEPTION), retried',
  );
  expect(d).toContain(
    'Note over P0: connection to broker-1 refused (down) · next try after reconnect.backoff.ms ×4',
  );
});

it('a fetch that meets the crashed leader: drawn as a connection reset, and the log names the fetch', () => {
  // The consumer's fetch leaves at 500 as broker-1 dies, meets it dead at 502, and the consumer
  // sees the reset at 502 (see the engine test for the times).
  const r = run({
    workload: {
      events: [
        { id: 'e1', amount: 10, at: 100 },
        { id: 'e2', amount: 20, at: 1500 },
      ],
    },
    producer: { 'linger.ms': 0 },
    broker: { partitions: 1 },
    processor: consumer(0),
    faults: [{ kind: 'crash', target: 'broker-1', at: 500, restartAfterMs: 1000 }],
  });
  const v = toRunView(r);
  const reset = [...Array(v.n).keys()].find(
    (i) => v.cols.kind[i] === K.reject && v.cols.time[i] === 502,
  )!;
  expect(describeEntry(v, reset)).toBe(
    "broker-1 crashed: consumer-0's connection to it closed and its fetch from events-0@1 failed with NETWORK_EXCEPTION → fetched again once connected (to the new leader if it moved)",
  );
  expect(runSequenceDiagram(r, { fromMs: 400, untilMs: 600 })).toContain(
    'P1-xP0: fetch from offset 1 (receiver down, connection reset)',
  );
});
