/**
 * A lost produce request among pipelined ones (no gap reaches the broker: TCP keeps a
 * connection's order), and the broker refusing a real sequence gap from an idempotent producer
 * (OUT_OF_ORDER_SEQUENCE_NUMBER, BrokerNode.produce) after an unclean election, and the
 * producer's recovery: no duplicate, no loss, order kept.
 *
 * Kafka's producer configs (https://kafka.apache.org/documentation/#producerconfigs):
 * - enable.idempotence: "When set to 'true', the producer will ensure that exactly one copy of
 *   each message is written in the stream. If 'false', producer retries due to broker failures,
 *   etc., may write duplicates of the retried message in the stream. Note that enabling idempotence
 *   requires max.in.flight.requests.per.connection to be less than or equal to 5 (with message
 *   ordering preserved for any allowable value)";
 * - max.in.flight.requests.per.connection: "if this configuration is set to be greater than 1 and
 *   enable.idempotence is set to false, there is a risk of message reordering after a failed send
 *   due to retries".
 * The broker "deduplicates messages using a sequence number" per producer id (K-DES, KIP-98); a
 * batch whose first sequence is not the next expected one is refused
 * (OutOfOrderSequenceException: "the broker received an unexpected sequence number from the
 * producer", https://kafka.apache.org/36/javadoc/org/apache/kafka/common/errors/OutOfOrderSequenceException.html).
 */
import { describe, expect, it } from 'vitest';
import type { Run } from '../simulate';
import { anomalies, entriesOf, events, runScenario, totals } from '../testing';
import { ERROR_CODES } from '../trace';

// e1..e10 (10..100, sum 550) one per millisecond (0..9 ms), latency 2 ms each way, linger.ms=0
// (one record per batch, one batch per request), max.in.flight.requests.per.connection=5 (the
// default), request.timeout.ms 1 s. The request carrying e3 is lost on its first attempt.
const gap = (producer: Record<string, unknown>) =>
  runScenario({
    workload: { events: events(10, (i) => i - 1) },
    network: { latencyMs: 2, jitterMs: 0 },
    producer: { 'linger.ms': 0, 'request.timeout.ms': 1000, ...producer },
    processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
    faults: [{ kind: 'drop-request', link: 'produce', match: { event: 'e3' } }],
  });
const idOf = (run: Run, event: number) => run.events.identityId(run.events.identity[event]!);
/** The input partition's log, record by record, as business ids. */
const log = (run: Run) => {
  const p = run.state.input.partitions[0]!;
  return Array.from({ length: p.leo }, (_, o) => idOf(run, p.event.data[o]!));
};
/** Rejections with `code`, as [actor, business id of the batch's first record]. */
const rejects = (run: Run, code: (typeof ERROR_CODES)[number]) =>
  entriesOf(run, 'reject')
    .filter((i) => run.trace.aux[i] === ERROR_CODES.indexOf(code))
    .map((i) => [run.trace.actors[run.trace.actor[i]!], idOf(run, run.trace.event[i]!)]);

describe('a lost request on a pipelined connection: no sequence gap reaches the broker', () => {
  // By hand. The producer id arrives after the InitProducerId round trip (4 ms); e1..e5 are then
  // ready, each its own batch with seq 0..4, and 5 may be in flight: all five go out at 4 ms on
  // one connection. e3's request (seq 2) is lost: a network partition the client learns of only
  // by its request.timeout.ms. TCP delivers a connection's bytes in order, so e4's and e5's
  // requests, sent behind it, never reach the broker either ("on a single TCP connection,
  // requests will be processed in the order they are sent",
  // https://kafka.apache.org/protocol.html#protocol_network). At 6 ms the leader appends e1 and
  // e2; their acknowledgements free two slots, and e6 (seq 5) and e7 (seq 6) go out behind e3 —
  // lost the same way. e8..e10 wait: e3..e7 fill the 5 slots. At 4 + 1000 ms e3's request times
  // out; the client closes the connection (failing e4..e7's requests too) and after
  // retry.backoff.ms (100) resends e3..e7 in sequence order on a new one: appended at offsets
  // 2..6, then e8..e10. The broker never sees seq 3 before seq 2: no OUT_OF_ORDER_SEQUENCE_NUMBER.
  // (Before, the model delivered e4..e7 past the lost e3, refused them out of sequence and —
  // idempotence off — appended them ahead of e3 and again on their retries: 14 rows.)
  it('e4..e7 are lost behind e3 on its connection; the timeout resends e3..e7 in order, nothing refused', () => {
    const run = gap({});
    expect(rejects(run, 'OUT_OF_ORDER_SEQUENCE_NUMBER')).toEqual([]);
    // The five first attempts of e3..e7, lost; nothing else.
    const lost = entriesOf(run, 'msg-lost').map((i) => idOf(run, run.trace.event[i]!));
    expect(lost).toEqual(['e3', 'e4', 'e5', 'e6', 'e7']);
    const timedOut = entriesOf(run, 'reject').filter(
      (i) => run.trace.aux[i] === ERROR_CODES.indexOf('REQUEST_TIMED_OUT'),
    );
    expect(timedOut.map((i) => [run.trace.time[i], idOf(run, run.trace.event[i]!)])).toEqual([
      [1004, 'e3'],
    ]);
    const retries = entriesOf(run, 'retry');
    expect(retries.map((i) => [run.trace.time[i], idOf(run, run.trace.event[i]!)])).toEqual([
      [1104, 'e3'],
      [1104, 'e4'],
      [1104, 'e5'],
      [1104, 'e6'],
      [1104, 'e7'],
    ]);
    // Nothing lost had been appended, so no retry is a recognised duplicate.
    expect(entriesOf(run, 'dedupe')).toHaveLength(0);
  });

  it('the log is e1..e10 in order with sequence numbers 0..9; the sink has each once: 10 rows, 550', () => {
    const run = gap({});
    expect(log(run)).toEqual(events(10).map((e) => e.id));
    const p = run.state.input.partitions[0]!;
    expect(Array.from({ length: p.leo }, (_, o) => p.seq.data[o])).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(anomalies(run)).toEqual([]);
    expect(run.verdict.falseFailures).toEqual([]);
  });

  it('idempotence off: the same — e4..e7 never got ahead of e3, so nothing is reordered or written twice: 10 rows, 550', () => {
    // Kafka's "reordering … due to retries" and "duplicates of the retried message" need the
    // broker to have taken a later batch (a refused or unanswered earlier one: a lost
    // acknowledgement, src/engine/idempotent-retry.test.ts), not a request it never received.
    const run = gap({ 'enable.idempotence': false });
    expect(rejects(run, 'OUT_OF_ORDER_SEQUENCE_NUMBER')).toEqual([]);
    expect(log(run)).toEqual(events(10).map((e) => e.id));
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
  });
});

/**
 * A real gap: the next batch in line is refused OUT_OF_ORDER_SEQUENCE_NUMBER because records
 * before it are gone from the log (an unclean election) while the new leader still holds state
 * for the producer id (an earlier batch of it survived). Resending the same sequence can never
 * succeed. Kafka's TransactionManager.canRetry / handleFailedBatch
 * (https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionManager.java):
 * an idempotent producer retries it after bumping its epoch and numbering its batches from 0
 * (KIP-360); for a transactional one OutOfOrderSequenceException is not retriable and becomes an
 * abortable error: the transaction aborts, and the abort bumps the epoch.
 * https://kafka.apache.org/42/javadoc/org/apache/kafka/common/errors/OutOfOrderSequenceException.html
 *
 * When every batch of the producer was cut, the new leader has no state for its producer id and
 * accepts any first sequence: there is no refusal at all (ProducerAppendInfo.checkSequence, Kafka
 * ≥ 2.5: "If there is no current producer epoch … accept writes with any sequence number";
 * https://github.com/apache/kafka/pull/19902: "For Transactions V1 with empty state: ANY sequence
 * number is allowed").
 *
 * e1..e3 (12.0, 12.1, 12.2 s) are acknowledged by broker-1 alone (min.insync.replicas=1, broker-2
 * and broker-3 down since 0.5 s); broker-1 dies at 20 s, broker-2 comes back at 30.5 s and is
 * elected although it never had them (unclean.leader.election.enable). e4 (40 s, seq 3) and e5
 * (40.1 s) go to broker-2. Latency 2 ms each way, linger.ms 0, retry.backoff.ms 100.
 */
describe('a sequence gap the producer cannot fill (OUT_OF_ORDER_SEQUENCE_NUMBER on the next batch in line)', () => {
  const ev = [
    { id: 'e1', amount: 10, at: 12000 },
    { id: 'e2', amount: 20, at: 12100 },
    { id: 'e3', amount: 30, at: 12200 },
    { id: 'e4', amount: 40, at: 40000 },
    { id: 'e5', amount: 50, at: 40100 },
  ];
  const unclean = (producer: Record<string, unknown> = {}, events = ev, b1 = 20_000, b2 = 500) =>
    runScenario({
      claim: 'at-least-once',
      workload: { topic: 'events', events },
      producer: { acks: 'all', 'linger.ms': 0, ...producer },
      broker: { partitions: 1, 'min.insync.replicas': 1, 'unclean.leader.election.enable': true },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        startAtMs: 60_000,
      },
      sink: { type: 'table', name: 't' },
      faults: [
        { kind: 'crash', target: 'broker-2', at: b2, restartAfterMs: 30_500 - b2 },
        { kind: 'crash', target: 'broker-3', at: 500, restartAfterMs: null },
        { kind: 'crash', target: 'broker-1', at: b1, restartAfterMs: null },
      ],
    });
  const at = (run: Run, kind: string, code?: (typeof ERROR_CODES)[number]) =>
    entriesOf(run, kind)
      .filter((i) => code === undefined || run.trace.aux[i] === ERROR_CODES.indexOf(code))
      .map((i) => [idOf(run, run.trace.event[i]!), run.trace.time[i]]);
  /** (epoch, sequence) of each record in the input log. */
  const seqs = (run: Run) => {
    const p = run.state.input.partitions[0]!;
    return Array.from({ length: p.leo }, (_, o) => [p.epoch.get(o), p.seq.get(o)]);
  };

  it('idempotent, the new leader with no state for the producer id: e4 (epoch 0, seq 3) is appended at 40,002 ms as it is — no refusal, no epoch bump', () => {
    // broker-2 never had e1..e3, so after the election it holds no state for the producer id:
    // e4 (epoch 0, seq 3) reaches it at 40,002 ms and is appended at offset 0 as it is,
    // acknowledged at 40,004; e5 (seq 4) is appended at 40,102 (offset 1), acknowledged at
    // 40,104. Kafka ≥ 2.5 (KIP-360): with no producer state, any first sequence is accepted
    // (ProducerAppendInfo.checkSequence; https://github.com/apache/kafka/pull/19902).
    // Before: e4 was refused OUT_OF_ORDER_SEQUENCE_NUMBER, the producer bumped its epoch and
    // resent it as (epoch 1, seq 0) at 40,104.
    const run = unclean();
    expect(at(run, 'reject', 'OUT_OF_ORDER_SEQUENCE_NUMBER')).toEqual([]);
    expect(at(run, 'retry')).toEqual([]);
    expect(at(run, 'append').slice(3)).toEqual([
      ['e4', 40_002],
      ['e5', 40_102],
    ]);
    expect(at(run, 'ack').slice(3)).toEqual([
      ['e4', 40_004],
      ['e5', 40_104],
    ]);
    expect(at(run, 'batch-failed')).toEqual([]);
    expect(log(run)).toEqual(['e4', 'e5']);
    expect(seqs(run)).toEqual([
      [0, 3],
      [0, 4],
    ]);
    // e1..e3 were cut from the log by the election; e4 and e5 are there: 40 + 50.
    expect(totals(run)).toEqual({ rows: 2, sum: 90, duplicates: 0, lost: 3 });
  });

  it('idempotent, the new leader holding e1 (its producer state expects seq 1): the same recovery', () => {
    // broker-2 has e1 (seq 0) and dies at 12,050 ms; it leaves the ISR at 21,050, so e2 (22 s)
    // and e3 (22.1 s) are acknowledged by broker-1 alone; broker-1 dies at 25 s and broker-2,
    // back at 30.5 s, is elected leader (34 s) with e1 only. A real broker refuses e4's seq 3
    // here too (it expects 1; only a broker with no state for the producer id accepts any
    // sequence). e4: refused at 40,002, resent (epoch 1, seq 0) at 40,104; e5 follows.
    const moved = ev.map((e) =>
      e.id === 'e2' ? { ...e, at: 22_000 } : e.id === 'e3' ? { ...e, at: 22_100 } : e,
    );
    const run = unclean({}, moved, 25_000, 12_050);
    expect(at(run, 'reject', 'OUT_OF_ORDER_SEQUENCE_NUMBER')).toEqual([['e4', 40_002]]);
    expect(at(run, 'retry')).toEqual([['e4', 40_104]]);
    expect(log(run)).toEqual(['e1', 'e4', 'e5']);
    expect(seqs(run)).toEqual([
      [0, 0],
      [1, 0],
      [1, 1],
    ]);
    expect(totals(run)).toEqual({ rows: 3, sum: 100, duplicates: 0, lost: 2 });
  });

  it('transactional, the new leader with no state for the producer id: e4 is appended in its transaction at 40,002 ms and committed — no abort', () => {
    // As above: no state on broker-2, e4 (epoch 0, seq 3, transaction 4) appended at offset 0 at
    // 40,002, acknowledged at 40,004, committed (marker at offset 1, 40,006); e5 (seq 4,
    // transaction 5) at offset 2 at 40,102, marker at offset 3 (40,106). No epoch bump.
    const run = unclean({ 'transactional.id': 'app-tx' });
    expect(at(run, 'reject', 'OUT_OF_ORDER_SEQUENCE_NUMBER')).toEqual([]);
    expect(at(run, 'batch-failed')).toEqual([]);
    expect(at(run, 'append').filter(([id]) => id === 'e4' || id === 'e5')).toEqual([
      ['e4', 40_002],
      ['e5', 40_102],
    ]);
    expect(entriesOf(run, 'fenced').filter((i) => run.trace.time[i]! > 40_000)).toEqual([]);
    expect(entriesOf(run, 'marker').map((i) => [run.trace.offset[i], run.trace.time[i]])).toEqual([
      [1, 12_006],
      [3, 12_106],
      [5, 12_206],
      [1, 40_006],
      [3, 40_106],
    ]);
    const p = run.state.input.partitions[0]!;
    const data = Array.from({ length: p.leo }, (_, o) => o).filter((o) => p.event.get(o) >= 0);
    expect(data.map((o) => [idOf(run, p.event.get(o)), p.epoch.get(o), p.seq.get(o)])).toEqual([
      ['e4', 0, 3],
      ['e5', 0, 4],
    ]);
    expect(totals(run)).toEqual({ rows: 2, sum: 90, duplicates: 0, lost: 3 });
  });

  it('transactional, the new leader holding e1: e4 fails at once, the transaction aborts and bumps the epoch, and e4 is sent again in the next one', () => {
    // The timeline of the idempotent case above with e1 on broker-2 (its state expects seq 1).
    // e4's batch (seq 3) is refused at 40,002 and fails at 40,004 (no retry): abortable. EndTxn
    // (abort) round trip 40,004 → 40,008, then InitProducerId with the current epoch: the
    // coordinator bumps it (40,010), the producer has epoch 1 at 40,012 and sends e4 again in a
    // new transaction (seq 0): appended at 40,014 (offset 2, after e1 and its marker). e5 (send
    // at 40,100) is appended at 40,102 (offset 4).
    const moved = ev.map((e) =>
      e.id === 'e2' ? { ...e, at: 22_000 } : e.id === 'e3' ? { ...e, at: 22_100 } : e,
    );
    const run = unclean({ 'transactional.id': 'app-tx' }, moved, 25_000, 12_050);
    expect(at(run, 'reject', 'OUT_OF_ORDER_SEQUENCE_NUMBER')).toEqual([['e4', 40_002]]);
    expect(at(run, 'batch-failed', 'OUT_OF_ORDER_SEQUENCE_NUMBER')).toEqual([['e4', 40_004]]);
    expect(at(run, 'retry')).toEqual([]);
    expect(at(run, 'append').filter(([id]) => id === 'e4' || id === 'e5')).toEqual([
      ['e4', 40_014],
      ['e5', 40_102],
    ]);
    // The coordinator's epoch bump for this producer: epoch 1 at 40,010 (after initTransactions'
    // epoch 0).
    const bumps = entriesOf(run, 'fenced').filter((i) => run.trace.time[i]! > 40_000);
    expect(bumps.map((i) => [run.trace.time[i], run.trace.aux[i]])).toEqual([[40_010, 1]]);
    // e4 in the aborted transaction never reached the log; in the next one it is (epoch 1, seq 0).
    const p = run.state.input.partitions[0]!;
    const data = Array.from({ length: p.leo }, (_, o) => o).filter((o) => p.event.get(o) >= 0);
    expect(data.map((o) => [idOf(run, p.event.get(o)), p.epoch.get(o), p.seq.get(o)])).toEqual([
      ['e1', 0, 0],
      ['e4', 1, 0],
      ['e5', 1, 1],
    ]);
    expect(totals(run)).toEqual({ rows: 3, sum: 100, duplicates: 0, lost: 2 });
  });
});
