/**
 * An idempotent producer (acks=all, enable.idempotence unset → on) never appends a retried batch
 * twice: it bumps its epoch and numbers its batches from 0 only once no other batch of the
 * partition is unresolved (KIP-360, TransactionManager.canRetry / maybeResolveSequences), and a
 * batch behind an acknowledged sequence is retried without a bump.
 * https://cwiki.apache.org/confluence/display/KAFKA/KIP-360%3A+Improve+reliability+of+idempotent%2Ftransactional+producer
 * https://kafka.apache.org/documentation/#semantics
 * The two scenarios are the counterexamples the exactly-once property found (C7).
 */
import { describe, expect, it } from 'vitest';
import { check, simulate } from './index';
import { parseScenario } from './scenario/validate';
import { countsById, entriesOf, runScenario, totals } from './testing';
import { ERROR_CODES } from './trace';
import type { Run } from './simulate';

function run(raw: object): Run {
  const r = parseScenario(raw);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return simulate(r.scenario);
}

// Every second produce request lost (the 1st, 3rd, … on the link). A lost request stalls its TCP
// connection: the requests sent behind it never reach the broker either, until request.timeout.ms
// (30 s) closes it (https://kafka.apache.org/protocol.html#protocol_network: "requests will be
// processed in the order they are sent"); no later sequence gets ahead of a lost one.
const lostRequests = {
  version: 1,
  name: 'property spark-delta',
  seed: 944,
  workload: {
    events: [0, 18, 36, 55, 73, 91, 110, 128, 146].map((at, i) => ({
      id: `e${i + 1}`,
      key: `k${i % 3}`,
      amount: 10 * (i + 1),
      at,
    })),
  },
  broker: { partitions: 2 },
  processor: { type: 'spark' },
  sink: { type: 'delta', txnAppId: 'query-1' },
  faults: [{ kind: 'drop-request', at: 0, link: 'produce', match: { nth: 1, every: 2 } }],
  claim: 'exactly-once',
};

// e2's answer lost, e3/e4's answers queued behind it on the connection; broker-1, the leader,
// crashes at 320 ms (a failover).
const failover = {
  version: 1,
  name: 'property flink-xa',
  seed: 831,
  workload: {
    events: [0, 94, 188, 282, 376, 471, 565, 659, 753].map((at, i) => ({
      id: `e${i + 1}`,
      key: `k${i % 3}`,
      amount: 10 * (i + 1),
      at,
    })),
  },
  broker: { partitions: 1 },
  processor: {
    type: 'flink',
    'execution.checkpointing.interval': 1000,
    offsetsInitializer: 'committedOffsets',
    'execution.checkpointing.mode': 'EXACTLY_ONCE',
  },
  sink: { type: 'table', xa: true, retries: 0 },
  faults: [
    { kind: 'random', at: 1755, link: 'sink', what: 'drop-request', probability: 0.001 },
    { kind: 'leader-failover', at: 320, partition: 0, restartAfterMs: 16639 },
    { kind: 'drop-response', at: 22, link: 'produce' },
  ],
  claim: 'exactly-once',
};

const explanationsText = (r: Run) => JSON.stringify(check(r).explanations);

describe('an idempotent producer appends a retried batch once (C7)', () => {
  it('lost produce requests: one batch through per request timeout, in sequence order, nothing twice', () => {
    const r = run(lostRequests);
    // By hand. e1's request (the link's 1st) is lost at 9 ms and e2..e5, sent behind it on the
    // same connection (2nd–5th), are lost with it. e1 times out at 30,009; the connection closes
    // and e1..e5 go again at 30,109 (backoff 100) on a new one: e1 (6th) is appended, e2 (7th) is
    // lost, and e3..e5 and e6 (freed by e1's ack) behind it. Each round a request timeout later
    // lets one batch through — e2 at 60,309, e3 at 90,709 — in sequence order: nothing refused
    // OUT_OF_ORDER, nothing appended twice. The next round would come after 120,055, e4's
    // delivery.timeout.ms: e4..e9 expire. 3 rows (10 + 20 + 30 = 60), 6 lost.
    const log = countsById(r, 'log:events');
    expect(Object.entries(log).filter(([, c]) => c > 0)).toEqual([
      ['e1', 1],
      ['e2', 1],
      ['e3', 1],
    ]);
    expect(totals(r)).toEqual({ rows: 3, sum: 60, duplicates: 0, lost: 6 });
    expect(
      entriesOf(r, 'reject').filter(
        (i) => r.trace.aux[i] === ERROR_CODES.indexOf('OUT_OF_ORDER_SEQUENCE_NUMBER'),
      ),
    ).toEqual([]);
    expect(explanationsText(r)).not.toContain('idempotence off');
  });

  it('leader failover: each of the 9 events once in the log and once in the XA table (sum 450)', () => {
    const r = run(failover);
    // By hand (latency 2 ms). e1..e4 are appended by broker-1 and replicated; e2's answer is
    // lost, and e3's and e4's wait behind it. The crash resets broker-1's connections: the
    // producer sees it at 322 ms and fails e2..e4 (NETWORK_EXCEPTION), as the Java client fails
    // every request in flight on a connection that closes — not at request.timeout.ms, as a
    // lost answer alone would. broker-2 leads from 9,320 (the controller's session timeout);
    // e2..e4, retried at 9,970, are batches it holds (replicated, among the producer's last 5):
    // duplicates, acknowledged. e5..e9 are appended after them.
    const at = (kind: string) =>
      entriesOf(r, kind).map((i) => [
        r.trace.time[i],
        r.events.identityId(r.events.identity[r.trace.event[i]!]!),
      ]);
    expect(at('dedupe')).toEqual([
      [9972, 'e2'],
      [9972, 'e3'],
      [9972, 'e4'],
    ]);
    expect(Object.values(countsById(r, 'log:events'))).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(totals(r)).toEqual({ rows: 9, sum: 450, duplicates: 0, lost: 0 });
    // Every send is acknowledged: none reported failed though written.
    expect(check(r).falseFailures).toEqual([]);
    expect(explanationsText(r)).not.toContain('idempotence off');
  });

  it('a batch that expires while a later one is unresolved bumps no epoch: the later one is deduplicated, in the log once', () => {
    // e1's four requests are lost; e2 (sent at 100,005 ms, seq 1 — the broker has no state for
    // the producer yet and takes any first sequence) is appended, its answer lost. e1 expires at
    // 120,004 ms (delivery.timeout.ms) while e2 is unanswered: no bump (Kafka waits for the
    // partition's in-flight batches, maybeResolveSequences), so e2's retry after its request
    // timeout carries (epoch 0, seq 1) and is acknowledged as a duplicate: e2 once, e1 lost.
    const lost = (nth: number) => ({
      kind: 'drop-request',
      link: 'produce',
      match: { event: 'e1', nth },
    });
    const r = run({
      version: 1,
      name: 'expired under an unresolved batch',
      seed: 1,
      workload: {
        events: [
          { id: 'e1', key: 'k0', amount: 10, at: 0 },
          { id: 'e2', key: 'k0', amount: 20, at: 100_000 },
        ],
      },
      broker: { partitions: 1 },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      faults: [
        ...[1, 2, 3, 4].map(lost),
        { kind: 'drop-response', link: 'produce', match: { event: 'e2', nth: 1 } },
      ],
    });
    expect(countsById(r, 'log:events')).toEqual({ e1: 0, e2: 1 });
    expect(totals(r)).toEqual({ rows: 1, sum: 20, duplicates: 0, lost: 1 });
  });
});

/**
 * An epoch bump renumbers only the partition whose batch failed: "When the epoch is bumped,
 * rewrite all in-flight sequences for the partition(s) that triggered the epoch bump"
 * (TransactionManager.bumpIdempotentProducerEpoch). Another partition's batches keep their
 * epoch and sequences, and its new batches wait until those are resolved, then start again from
 * 0 in the new epoch (RecordAccumulator.shouldStopDrainBatchesForPartition,
 * TransactionManager.maybeUpdateProducerIdAndEpoch).
 * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionManager.java
 */
describe("an idempotent producer's epoch bump for one partition leaves the others' sequences alone", () => {
  // Keys "a" → partition 0 (leader broker-1) and "k0" → partition 1 (broker-2), by murmur2.
  // Latency 2 ms each way, linger.ms 0, request.timeout.ms 1000, retries 1, retry.backoff.ms 100.
  const bumped = () =>
    runScenario({
      workload: {
        events: [
          { id: 'e1', key: 'a', amount: 10, at: 0 },
          { id: 'e2', key: 'k0', amount: 20, at: 1500 },
          { id: 'e3', key: 'k0', amount: 30, at: 2200 },
        ],
      },
      broker: { partitions: 2 },
      network: { latencyMs: 2, jitterMs: 0 },
      producer: { 'linger.ms': 0, 'request.timeout.ms': 1000, retries: 1 },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      faults: [
        { kind: 'drop-request', link: 'produce', match: { event: 'e1', every: 1 } },
        { kind: 'drop-response', link: 'produce', match: { event: 'e2' } },
      ],
    });
  const at = (r: Run, kind: string, id: string) =>
    entriesOf(r, kind)
      .filter((i) => r.events.identityId(r.events.identity[r.trace.event[i]!]!) === id)
      .map((i) => r.trace.time[i]);

  // By hand. The producer id comes back at 4 ms. e1 (partition 0, seq 0) is sent at 4 ms and
  // lost, times out at 1,004, is sent again at 1,104 and lost again: at 2,104 its one retry is
  // spent and it fails (REQUEST_TIMED_OUT), and the producer bumps its epoch to 1 for partition 0.
  // e2 (partition 1, seq 0, epoch 0) is appended at 1,502 and its answer lost; it times out at
  // 2,500 and is sent again at 2,600 still as (epoch 0, seq 0): the broker's partition holds that
  // batch, so the retry is a duplicate (2,602), acknowledged at 2,604. e3 (partition 1) is ready
  // at 2,200, but partition 1 still has e2 unresolved in epoch 0: it waits, and once e2 is
  // acknowledged partition 1 starts again from 0 in epoch 1 — e3 goes at 2,604 and is appended at
  // 2,606 (a new epoch at sequence 0). Before, the bump renumbered partition 1 too: e2's retry
  // went as (epoch 1, seq 0) and was appended a second time, and e3 (epoch 1, seq 1), sent at
  // 2,200, was refused OUT_OF_ORDER_SEQUENCE_NUMBER.
  it('the other partition’s retry is a duplicate, answered as one: e2 and e3 once each, e1 lost', () => {
    const r = bumped();
    expect(at(r, 'batch-failed', 'e1')).toEqual([2104]);
    expect(at(r, 'dedupe', 'e2')).toEqual([2602]);
    expect(at(r, 'append', 'e2')).toEqual([1502]);
    expect(countsById(r, 'log:events')).toEqual({ e1: 0, e2: 1, e3: 1 });
    expect(totals(r)).toEqual({ rows: 2, sum: 50, duplicates: 0, lost: 1 });
  });

  it('a new batch of that partition waits for it, then starts from sequence 0 in the new epoch', () => {
    const r = bumped();
    expect(at(r, 'append', 'e3')).toEqual([2606]);
    expect(
      entriesOf(r, 'reject').filter(
        (i) => r.trace.aux[i] === ERROR_CODES.indexOf('OUT_OF_ORDER_SEQUENCE_NUMBER'),
      ),
    ).toEqual([]);
    const p = r.state.input.partitions[1]!;
    // Partition 1's log: e2 (epoch 0, seq 0), e3 (epoch 1, seq 0).
    expect([0, 1].map((o) => [p.epoch.data[o], p.seq.data[o]])).toEqual([
      [0, 0],
      [1, 0],
    ]);
  });
});

/**
 * A lost request with a later one sent behind it on the connection: the later one cannot be
 * appended first (TCP keeps the connection's order; the broker reads requests in the order they
 * are sent, https://kafka.apache.org/protocol.html#protocol_network). It used to be: e2 (seq 1)
 * appended ahead of the lost e1, whose retries were then refused OUT_OF_ORDER behind the
 * acknowledged seq 1 until e1 expired — lost, on a producer configured for no loss.
 */
describe('a lost request and one sent behind it on its connection', () => {
  // By hand. One partition, latency 2 ms each way, linger.ms 0, request.timeout.ms 1000. The
  // application sends e1 at 4 ms (the producer id has arrived) and e2 at 17. e1's request (seq 0)
  // is lost; e2's (seq 1), behind it on the connection, never reaches the broker either. At 1,004
  // e1 times out and the connection closes, failing e2's request too; both go again at 1,104
  // (retry.backoff.ms 100) on a new connection, in sequence order: e1 appended at offset 0, e2 at
  // 1, each acknowledged. One retry each, nothing refused, nothing lost.
  it('both are retried once at 1,104, in order: e1 and e2 in the log once each', () => {
    const r = runScenario({
      workload: {
        events: [
          { id: 'e1', amount: 10, at: 0 },
          { id: 'e2', amount: 20, at: 17 },
        ],
      },
      broker: { partitions: 1 },
      network: { latencyMs: 2, jitterMs: 0 },
      producer: { 'linger.ms': 0, 'request.timeout.ms': 1000 },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      faults: [{ kind: 'drop-request', link: 'produce', match: { event: 'e1' } }],
    });
    const times = (kind: string, id: string) =>
      entriesOf(r, kind)
        .filter((i) => r.events.identityId(r.events.identity[r.trace.event[i]!]!) === id)
        .map((i) => r.trace.time[i]);
    expect(times('msg-lost', 'e1')).toEqual([4]);
    expect(times('msg-lost', 'e2')).toEqual([17]);
    expect(times('retry', 'e1')).toEqual([1104]);
    expect(times('retry', 'e2')).toEqual([1104]);
    expect(times('batch-failed', 'e1')).toEqual([]);
    expect(countsById(r, 'log:events')).toEqual({ e1: 1, e2: 1 });
  });
});
