/**
 * Followers that come back while their partition has no leader catch up with the leader elected
 * later and rejoin the ISR. Found by the property tests (random leader failovers): before the fix
 * nothing started their fetch — no acks=all write is accepted while the ISR is below
 * min.insync.replicas — so the partitions refused every write for good.
 */
import { expect, it } from 'vitest';
import { entriesOf, runScenario, totals } from '../testing';

it('three brokers down in turn, each back 1,050 ms later: the ISRs grow back to 3 and e1..e3 are written once', () => {
  // broker-2 (leader of p1) fails at 38 ms, broker-3 at 176 ms, broker-1 (by then leader of
  // every partition) at 1,091 ms. broker-2 and broker-3 are back at 1,088 and 1,226 ms, while
  // broker-1 is down: the partitions have no leader until it is back (2,141 ms, clean election).
  // Then both followers fetch from it and rejoin every ISR 4 ms later (one round trip).
  const run = runScenario({
    workload: {
      events: [
        { id: 'e1', key: 'k1', amount: 10, at: 163 },
        { id: 'e2', key: 'k3', amount: 20, at: 31 },
        { id: 'e3', key: 'k2', amount: 30, at: 1084 },
      ],
    },
    broker: { partitions: 3, 'broker.session.timeout.ms': 1000 },
    processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
    faults: [
      { kind: 'crash', target: 'broker-2', at: 38, restartAfterMs: 1050 },
      { kind: 'crash', target: 'broker-3', at: 176, restartAfterMs: 1050 },
      { kind: 'crash', target: 'broker-1', at: 1091, restartAfterMs: 1050 },
    ],
  });
  const t = run.trace;
  const rejoined = entriesOf(run, 'isr').filter((i) => t.count[i] === 1);
  expect(rejoined.map((i) => `${t.time[i]}:p${t.partition[i]}+broker-${t.aux[i]}`).sort()).toEqual([
    '2145:p0+broker-2',
    '2145:p0+broker-3',
    '2145:p1+broker-2',
    '2145:p1+broker-3',
    '2145:p2+broker-2',
    '2145:p2+broker-3',
  ]);
  for (const p of run.state.input.partitions) expect(p.isr.size).toBe(3);
  expect(run.cutOff).toBe(false);
  expect(totals(run)).toEqual({ rows: 3, sum: 60, duplicates: 0, lost: 0 });
});
