/**
 * A crashed broker process closes its clients' connections: requests in flight fail one network
 * latency later with NETWORK_EXCEPTION and are retried, connection attempts to it are refused
 * (reconnect.backoff.ms 50 ms, doubling to reconnect.backoff.max.ms 1 s), and a fetch on its way
 * is sent again once the consumer has connected. Before, the crashed broker was a black hole:
 * every request to it waited for request.timeout.ms (30 s).
 * https://kafka.apache.org/documentation/#producerconfigs_reconnect.backoff.ms
 * https://kafka.apache.org/documentation/#producerconfigs_request.timeout.ms
 * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/Sender.java
 * (handleProduceResponse: `response.wasDisconnected()` → NETWORK_EXCEPTION, retried)
 * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/ClusterConnectionStates.java
 * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/consumer/internals/AbstractFetch.java
 */
import { describe, expect, it } from 'vitest';
import { entriesOf, runScenario, totals } from '../testing';
import { ERROR_CODES } from '../trace';
import type { Run } from '../simulate';

/** `time:actor:code` of every client-side connection failure, in trace order. */
function connectionFailures(run: Run): string[] {
  const t = run.trace;
  return entriesOf(run, 'reject')
    .filter((i) => ['NETWORK_EXCEPTION', 'CONNECTION_REFUSED'].includes(ERROR_CODES[t.aux[i]!]!))
    .map((i) => `${t.time[i]}:${t.actors[t.actor[i]!]}:${ERROR_CODES[t.aux[i]!]}`);
}

/** `time:broker@offset` of every append (or recognised duplicate) of the input topic. */
function writes(run: Run): string[] {
  const t = run.trace;
  return [...entriesOf(run, 'append'), ...entriesOf(run, 'dedupe')]
    .sort((a, b) => a - b)
    .map((i) => `${t.time[i]}:${t.kindOf(i)}:${t.actors[t.actor[i]!]}@${t.offset[i]}`);
}

const refusedAfter106 = [
  '106:producer:NETWORK_EXCEPTION',
  '210:producer:CONNECTION_REFUSED',
  '314:producer:CONNECTION_REFUSED',
  '518:producer:CONNECTION_REFUSED',
  '922:producer:CONNECTION_REFUSED',
];

describe('a produce request in flight when its leader broker crashes (acks=all)', () => {
  // One partition on brokers 1 (leader), 2, 3; the 2 ms network; e1 sent at 100 ms, appended by
  // broker-1 at 102 (offset 0), which answers its followers' fetches with it then: they hold e1
  // at 104 and broker-1 would learn so from their next fetches at 106 (HW 1). But broker-1 dies
  // at 104, before: the request waits for the ISR and is never answered. The
  // producer sees the connection reset at 106 (crash + 2 ms) and fails the request with
  // NETWORK_EXCEPTION (retriable); it retries after retry.backoff.ms (100 ms: 206) and must connect
  // first. Its connection attempts — each a round trip, 4 ms — are refused while broker-1 is down:
  // the first at 206 → 210, then reconnect.backoff.ms after each failure, counted from the reset
  // at 106: 50 (156, passed by 206), 100 (310 → 314), 200 (514 → 518), 400 (918 → 922),
  // 800 (1,722). The controller would notice the crash at 104 + broker.session.timeout.ms 9,000
  // = 9,104.
  const run = (idempotence: boolean, restartAfterMs: number | null) =>
    runScenario({
      workload: { events: [{ id: 'e1', amount: 10, at: 100 }] },
      producer: {
        acks: 'all',
        'linger.ms': 0,
        'enable.idempotence': idempotence,
        'max.in.flight.requests.per.connection': 1,
      },
      broker: { partitions: 1 },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        startAtMs: 20_000,
      },
      faults: [{ id: 'leader dies', kind: 'crash', target: 'broker-1', at: 104, restartAfterMs }],
    });

  it('broker-1 back 1 s later (1,104): without idempotence the retry writes e1 again at offset 1; with it the broker answers offset 0', () => {
    // broker-1 restarts at 1,104, before the controller noticed: it leads again with its log
    // (e1 at offset 0), and its followers fetch from it again: e1 is copied at 1,108 (HW 1). The
    // attempt at 1,722 finds it up: open at 1,726, the retry leaves then and lands at 1,728.
    // Idempotence off: appended again at offset 1, copied at 1,732, acknowledged at 1,734: two
    // copies (e1 at 0 and 1). Idempotence on: the same (producer id, epoch, sequence 0): the
    // broker recognises it and answers with offset 0 at once (HW 1 ≥ 1): acknowledged at 1,730,
    // one copy. Before: the retry left at 30,104 + 100 (request.timeout.ms).
    const off = run(false, 1000);
    expect(connectionFailures(off)).toEqual(refusedAfter106);
    expect(writes(off)).toEqual(['102:append:broker-1@0', '1728:append:broker-1@1']);
    const t = off.trace;
    expect(entriesOf(off, 'retry').map((i) => t.time[i])).toEqual([1726]);
    expect(entriesOf(off, 'ack').map((i) => `${t.time[i]}@${t.offset[i]}`)).toEqual(['1734@1']);
    expect(totals(off)).toEqual({ rows: 2, sum: 20, duplicates: 1, lost: 0 });
    expect(off.verdict.explanations[0]!.sentence).toBe(
      'broker-1 crashed (fault "leader dies") before it answered: the connection closed and the request of e1 failed with NETWORK_EXCEPTION, and broker-1 came back with e1 still in its log → the producer retried the same batch → with idempotence off (enable.idempotence=false) the broker appended e1 a second time → a plain INSERT has no key to collapse the copies',
    );

    const on = run(true, 1000);
    expect(connectionFailures(on)).toEqual(refusedAfter106);
    expect(writes(on)).toEqual(['102:append:broker-1@0', '1728:dedupe:broker-1@0']);
    const u = on.trace;
    expect(entriesOf(on, 'ack').map((i) => `${u.time[i]}@${u.offset[i]}`)).toEqual(['1730@0']);
    expect(totals(on)).toEqual({ rows: 1, sum: 10, duplicates: 0, lost: 0 });
  });

  it('broker-1 stays down: the controller elects broker-2 at 9,104, which holds e1 — without idempotence the retry writes e1 again at offset 1; with it broker-2 answers offset 0', () => {
    // Refused every 1,004 ms from 1,726 (1,000 ms backoff + the 4 ms round trip) up to 8,754.
    // At 9,104 the controller elects broker-2, which got e1 at 104 as broker-1 died (the answer to
    // its fetch had left at 102): nothing is cut. broker-3 holds e1 too but the new leader does not
    // know it yet: it fetches at once and tells it at 9,108 (HW 1). The producer looks the leader
    // up again when its next attempt is due (8,754 + 1,000 = 9,754): broker-2, connected, the retry
    // lands at 9,756. Idempotence off: appended again at offset 1, copied by broker-3 (9,758),
    // known at 9,760 (HW 2), acknowledged at 9,762 — two copies of e1, as Kafka warns of retries
    // without idempotence (https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence).
    // Idempotence on: broker-2's producer state, from its log, knows sequence 0: the broker answers
    // offset 0 at once (HW 1), acknowledged at 9,758 — one copy.
    const refused = [1726, 2730, 3734, 4738, 5742, 6746, 7750, 8754].map(
      (x) => `${x}:producer:CONNECTION_REFUSED`,
    );
    const off = run(false, null);
    expect(connectionFailures(off)).toEqual([...refusedAfter106, ...refused]);
    expect(entriesOf(off, 'truncate')).toEqual([]);
    expect(writes(off)).toEqual(['102:append:broker-1@0', '9756:append:broker-2@1']);
    const t = off.trace;
    expect(entriesOf(off, 'ack').map((i) => `${t.time[i]}@${t.offset[i]}`)).toEqual(['9762@1']);
    expect(totals(off)).toEqual({ rows: 2, sum: 20, duplicates: 1, lost: 0 });

    const on = run(true, null);
    expect(connectionFailures(on)).toEqual([...refusedAfter106, ...refused]);
    expect(writes(on)).toEqual(['102:append:broker-1@0', '9756:dedupe:broker-2@0']);
    const u = on.trace;
    expect(entriesOf(on, 'ack').map((i) => `${u.time[i]}@${u.offset[i]}`)).toEqual(['9758@0']);
    expect(totals(on)).toEqual({ rows: 1, sum: 10, duplicates: 0, lost: 0 });
  });
});

it('a produce sent while the leader broker is down, back 1 s later: refused connections, then acknowledged at 1,682 (not after request.timeout.ms)', () => {
  // broker-1 (leader of the one partition) dies at 50 ms and restarts at 1,050. e1 is sent at
  // 100: the producer has no connection to broker-1 yet and connects first: refused at 104 (a
  // round trip), then again reconnect.backoff.ms after each refusal — 50 (154 → 158), 100
  // (258 → 262), 200 (462 → 466), 400 (866 → 870), 800 (1,670): broker-1 is back, open at 1,674.
  // The request leaves then (the batch waited in the accumulator: no attempt spent, no retry),
  // appended at 1,676, copied by both followers at 1,680, acknowledged at 1,682.
  // Before: the request vanished at the dead broker and was retried after 30 s.
  const run = runScenario({
    workload: { events: [{ id: 'e1', amount: 10, at: 100 }] },
    producer: { 'linger.ms': 0 },
    broker: { partitions: 1 },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      startAtMs: 20_000,
    },
    faults: [{ kind: 'crash', target: 'broker-1', at: 50, restartAfterMs: 1000 }],
  });
  expect(connectionFailures(run)).toEqual(
    [104, 158, 262, 466, 870].map((x) => `${x}:producer:CONNECTION_REFUSED`),
  );
  const t = run.trace;
  expect(entriesOf(run, 'retry')).toEqual([]);
  expect(entriesOf(run, 'msg-lost')).toEqual([]);
  expect(writes(run)).toEqual(['1676:append:broker-1@0']);
  expect(entriesOf(run, 'ack').map((i) => `${t.time[i]}@${t.offset[i]}`)).toEqual(['1682@0']);
  expect(totals(run)).toEqual({ rows: 1, sum: 10, duplicates: 0, lost: 0 });
});

it('a consumer fetch during a leader broker restart: NETWORK_EXCEPTION at 502, refused connections, e2 fetched at 2,072 (not after request.timeout.ms)', () => {
  // The consumer reads from 0 ms; e1 (100 ms) is processed at 111 and the consumer waits at the
  // partition's end. broker-1 (the leader) dies at 500 and restarts at 1,500. The crash wakes the
  // waiting consumer (the partition's leadership changed); it fetches at 500, before the reset
  // reaches it (502): the fetch meets the dead broker at 502, and at 502 the consumer sees its
  // connection reset: NETWORK_EXCEPTION. It fetches again once connected: attempts refused at
  // 556 (50 ms after 502, + 4), 660 (100), 864 (200), 1,268 (400); the next, 800 ms later
  // (2,068), finds broker-1 back: open at 2,072, and the fetch brings e2 — written at 1,506 by
  // the producer, whose own connection was reset by the crash and opened again at 1,504 — at
  // 2,074; polled at 2,076. Before: the fetch was lost and sent again after the consumer's
  // request.timeout.ms (30 s: 30,500).
  const run = runScenario({
    workload: {
      events: [
        { id: 'e1', amount: 10, at: 100 },
        { id: 'e2', amount: 20, at: 1500 },
      ],
    },
    producer: { 'linger.ms': 0 },
    broker: { partitions: 1 },
    processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
    faults: [{ kind: 'crash', target: 'broker-1', at: 500, restartAfterMs: 1000 }],
  });
  expect(connectionFailures(run)).toEqual([
    '502:consumer-0:NETWORK_EXCEPTION',
    '556:consumer-0:CONNECTION_REFUSED',
    '660:consumer-0:CONNECTION_REFUSED',
    '864:consumer-0:CONNECTION_REFUSED',
    '1268:consumer-0:CONNECTION_REFUSED',
  ]);
  const t = run.trace;
  expect(writes(run)).toEqual(['102:append:broker-1@0', '1506:append:broker-1@1']);
  expect(entriesOf(run, 'poll').map((i) => `${t.time[i]}@${t.offset[i]}`)).toEqual([
    '110@0',
    '2076@1',
  ]);
  expect(totals(run)).toEqual({ rows: 2, sum: 30, duplicates: 0, lost: 0 });
});

it('a lost request (a network fault, no reset) still waits for request.timeout.ms', () => {
  // drop-request on the produce link: the broker is up, nothing resets the connection; the
  // producer retries after request.timeout.ms (30 s) + retry.backoff.ms: 30,100 + 100.
  const run = runScenario({
    workload: { events: [{ id: 'e1', amount: 10, at: 100 }] },
    producer: { 'linger.ms': 0 },
    broker: { partitions: 1 },
    processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
    faults: [{ kind: 'drop-request', link: 'produce', match: { event: 'e1' } }],
  });
  const t = run.trace;
  expect(connectionFailures(run)).toEqual([]);
  expect(entriesOf(run, 'reject').map((i) => `${t.time[i]}:${ERROR_CODES[t.aux[i]!]}`)).toEqual([
    '30100:REQUEST_TIMED_OUT',
  ]);
  expect(entriesOf(run, 'retry').map((i) => t.time[i])).toEqual([30200]);
});

it('a broker that never comes back: the batch expires (DELIVERY_TIMEOUT), and the explanation names the crash that closed its connection', () => {
  // One replica (broker-1), down for good at 101 ms. e1 leaves at 100 and meets the dead broker
  // at 102; the producer sees the reset at 103 (crash + 2 ms): NETWORK_EXCEPTION, and every
  // reconnection is refused. The batch expires at 100 + delivery.timeout.ms (5,000) = 5,100.
  const run = runScenario({
    workload: { events: [{ id: 'e1', amount: 10, at: 100 }] },
    producer: { 'linger.ms': 0, 'request.timeout.ms': 1000, 'delivery.timeout.ms': 5000 },
    broker: { partitions: 1, 'replication.factor': 1, 'min.insync.replicas': 1 },
    processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
    faults: [{ id: 'gone', kind: 'crash', target: 'broker-1', at: 101, restartAfterMs: null }],
  });
  const t = run.trace;
  expect(connectionFailures(run).filter((x) => x.includes(':producer:'))[0]).toBe(
    '103:producer:NETWORK_EXCEPTION',
  );
  expect(
    entriesOf(run, 'batch-failed').map((i) => `${t.time[i]}:${ERROR_CODES[t.aux[i]!]}`),
  ).toEqual(['5100:DELIVERY_TIMEOUT']);
  expect(totals(run)).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 1 });
  expect(run.verdict.explanations[0]!.sentence).toBe(
    'the send of e1 failed with DELIVERY_TIMEOUT: delivery.timeout.ms (5000 ms) passed while the producer kept retrying after broker-1 crashed (fault "gone") and closed the connection (NETWORK_EXCEPTION), and the application moved on without it (app.onFailure=skip)',
  );
});

describe('a fetch whose answer was lost on its way fails when the leader crashes', () => {
  // By hand. Latency 2 ms each way. consumer-0 fetches at 2 ms (nothing yet) and at 15 (e1 in
  // the log); that answer is lost. broker-1, the leader, crashes at 1,000: the connection's reset
  // reaches consumer-0 at 1,002 and fails the fetch (NETWORK_EXCEPTION), as the Java client fails
  // every request in flight on a connection that closes — not at its request timeout (30 s), as a
  // lost answer alone would. Connection attempts to broker-1 are refused (50 ms, doubling to
  // 1 s); broker-2 leads from 10,000 (the controller's session timeout) and consumer-0 fetches
  // from it at 10,600, after its reconnect backoff: e1 is processed at 10,605. Before, the fetch
  // waited until 30,015.
  it('the consumer sees the reset at 1,002 and reads e1 from the new leader at 10,605', () => {
    const run = runScenario({
      workload: {
        events: [
          { id: 'e1', amount: 10, at: 0 },
          { id: 'e2', amount: 20, at: 50 },
        ],
      },
      broker: { partitions: 1 },
      network: { latencyMs: 2, jitterMs: 0 },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      faults: [
        { kind: 'drop-response', link: 'fetch', match: { nth: 2 } },
        { kind: 'leader-failover', at: 1000, partition: 0, restartAfterMs: 60_000 },
      ],
    });
    expect(connectionFailures(run).filter((f) => f.includes('consumer-0'))[0]).toBe(
      '1002:consumer-0:NETWORK_EXCEPTION',
    );
    const processed = entriesOf(run, 'process').map((i) => run.trace.time[i]);
    expect(processed[0]).toBe(10_605);
    expect(totals(run)).toEqual({ rows: 2, sum: 30, duplicates: 0, lost: 0 });
  });
});
