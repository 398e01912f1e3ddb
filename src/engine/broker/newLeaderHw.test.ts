/**
 * A new leader starts from the high watermark it learned as a follower, a fetch round behind the
 * old leader's, and moves it again only as its followers fetch from it
 * (docs/semantics/broker.md#a-new-leaders-high-watermark).
 */
import { expect, it } from 'vitest';
import { entriesOf, runScenario, totals } from '../testing';
import { MESSAGE_TYPES } from '../traceCodes';

/**
 * One partition on brokers 1 (leader), 2, 3; acks=all, one record a batch; e1..e4 sent at 100,
 * 200, 300, 400 ms; 2 ms a message. Each append's answer to the followers' waiting fetches
 * carries the leader's high watermark before the append; the followers' next fetches tell the
 * leader they hold it 4 ms after the append, and the HW moves: to 1, 2, 3 at 106, 206, 306 ms,
 * and to 4 at 406 ms — the followers hold e4 (since 404 ms) but learned only HW 3, from e4's
 * answer. The leader dies at 410 ms, before any further answer, and stays down; the controller
 * elects broker-2 9 s later (9,410 ms).
 */
function failover(consumerStartAtMs: number, stopAtMs?: number) {
  return runScenario({
    ...(stopAtMs === undefined ? {} : { stopAtMs }),
    workload: {
      events: [
        { id: 'e1', amount: 10, at: 100 },
        { id: 'e2', amount: 20, at: 200 },
        { id: 'e3', amount: 30, at: 300 },
        { id: 'e4', amount: 40, at: 400 },
      ],
    },
    producer: { acks: 'all', 'linger.ms': 0 },
    broker: { partitions: 1 },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      startAtMs: consumerStartAtMs,
    },
    faults: [{ kind: 'leader-failover', at: 410, restartAfterMs: null }],
  });
}

it('the new leader starts from the HW it learned (3, not the old 4) and reaches 4 one fetch round later', () => {
  const run = failover(9408);
  const t = run.trace;
  const hw = entriesOf(run, 'hw').map((i) => `${t.time[i]}:${t.offset[i]}`);
  // Down from 4 to 3 at the election: e4 (offset 3) is on broker-2 but above the HW it knew.
  // broker-2 answers its followers at once (HW 3); they fetch again 4 ms later, telling it they
  // hold offset 4 — only then does the HW reach 4.
  expect(hw).toEqual(['106:1', '206:2', '306:3', '406:4', '9410:3', '9414:4']);
  // The election's entry is marked as the new leader's own (aux 1), caused by the 'leader' entry.
  const learned = entriesOf(run, 'hw').filter((i) => t.aux[i] === 1);
  expect(learned.map((i) => `${t.time[i]}:${t.offset[i]}:${t.kindOf(t.cause[i]!)}`)).toEqual([
    '9410:3:leader',
  ]);
  // broker-3 learned 3 from broker-2's answer at the election, and no append since has answered
  // it again; broker-1 keeps the 4 it had as leader.
  const p = run.state.input.partitions[0]!;
  expect(p.leader).toBe(2);
  expect(p.hw).toBe(4);
  expect(p.replica(3)!.hw).toBe(3);
  expect(p.replica(1)!.hw).toBe(4);
});

it('a consumer reading in that round gets exactly the 3 records below the new HW, then e4 after it', () => {
  // Assigned at 9,410 ms, its first fetch reaches broker-2 at 9,412: HW 3, so e1..e3 (3 records);
  // its next fetch reaches broker-2 at 9,416, after the HW moved to 4 at 9,414: e4 (1 record).
  const run = failover(9408);
  const t = run.trace;
  const fetchResponse = MESSAGE_TYPES.indexOf('fetch-response');
  const reads = entriesOf(run, 'msg')
    .filter((i) => t.aux[i] === fetchResponse && t.time[i]! > 9000)
    .map((i) => `${t.time[i]}:${t.offset[i]}+${t.count[i]}`);
  expect(reads.slice(0, 2)).toEqual(['9412:0+3', '9416:3+1']);
  expect(totals(run)).toEqual({ rows: 4, sum: 100, duplicates: 0, lost: 0 });
});

it('inside the round a fetch at or past the new HW returns nothing, not an error; below it, the records up to it', () => {
  // Stopped at 9,412 ms: broker-2 leads with HW 3 and log end 4. A reader that had read e4 from
  // broker-1 (position 4) gets an empty answer with NONE and stays at 4; one at 3 too; one from 0
  // gets offsets 0..2.
  const run = failover(20_000, 9412);
  const { cluster, input } = run.state;
  const p = input.partitions[0]!;
  expect({ leader: p.leader, hw: p.hw, leo: p.leo }).toEqual({ leader: 2, hw: 3, leo: 4 });
  const at = (offset: number) => {
    const r = cluster.broker(2).fetch(input, 0, offset, 10, false);
    return { error: r.error, offsets: Array.from(r.offsets), next: r.next };
  };
  expect(at(4)).toEqual({ error: 'NONE', offsets: [], next: 4 });
  expect(at(3)).toEqual({ error: 'NONE', offsets: [], next: 3 });
  expect(at(0)).toEqual({ error: 'NONE', offsets: [0, 1, 2], next: 3 });
});
