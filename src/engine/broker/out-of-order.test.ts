/**
 * The broker refusing a sequence gap from an idempotent producer (OUT_OF_ORDER_SEQUENCE_NUMBER,
 * BrokerNode.produce), and the producer's recovery: no duplicate, no loss, order kept.
 *
 * Kafka's producer configs (SEMANTICS K-PCFG, https://kafka.apache.org/documentation/#producerconfigs):
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
 * producer", SEMANTICS K-OOS).
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

describe('a sequence gap from an idempotent producer (OUT_OF_ORDER_SEQUENCE_NUMBER)', () => {
  // By hand. The producer id arrives after the InitProducerId round trip (4 ms); e1..e5 are then
  // ready, each its own batch with seq 0..4, and 5 may be in flight: all five go out at 4 ms. e3's
  // request (seq 2) is lost. At 6 ms the leader appends e1 (seq 0) and e2 (seq 1), then gets e4
  // with seq 3 while it expects 2 → OUT_OF_ORDER_SEQUENCE_NUMBER, and e5 (seq 4) likewise. Answers
  // come back in request order on the connection, so those two refusals wait behind e3's answer,
  // which never comes; e1's and e2's acknowledgements free two slots, e6 (seq 5) and e7 (seq 6) go
  // out and are refused the same way. e8..e10 wait: e3..e7 fill the 5 slots. At 4 + 1000 ms e3's
  // request times out; the client closes the connection (failing e4..e7's requests too) and after
  // retry.backoff.ms (100) resends e3..e7 in sequence order: appended at offsets 2..6, then e8..e10.
  it('the broker refuses e4, e5, e6 and e7 (seq 3..6 while it expects 2); e8..e10 never leave before the gap is filled', () => {
    const run = gap({});
    expect(rejects(run, 'OUT_OF_ORDER_SEQUENCE_NUMBER')).toEqual([
      ['broker-1', 'e4'],
      ['broker-1', 'e5'],
      ['broker-1', 'e6'],
      ['broker-1', 'e7'],
    ]);
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
    // Nothing refused had been appended, so no retry is a recognised duplicate.
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

  it('contrast, idempotence off: e4..e7 are appended ahead of e3, and their retries append them again → 14 rows, 770, e3 out of order', () => {
    // No sequence numbers: the leader appends e1, e2, e4, e5, e6, e7 as they come (offsets 0..5).
    // Their acknowledgements wait behind e3's on the connection; when e3 times out the connection
    // is closed and all five are resent: e3 lands at offset 6 (after e7: "reordering … due to
    // retries") and e4..e7 a second time ("may write duplicates of the retried message").
    // 10 + 4 rows; sum 550 + 40 + 50 + 60 + 70 = 770.
    const run = gap({ 'enable.idempotence': false });
    expect(rejects(run, 'OUT_OF_ORDER_SEQUENCE_NUMBER')).toEqual([]);
    expect(log(run)).toEqual([
      'e1',
      'e2',
      'e4',
      'e5',
      'e6',
      'e7',
      'e3',
      'e4',
      'e5',
      'e6',
      'e7',
      'e8',
      'e9',
      'e10',
    ]);
    expect(totals(run)).toEqual({ rows: 14, sum: 770, duplicates: 4, lost: 0 });
    expect(anomalies(run)).toEqual(['e4:2', 'e5:2', 'e6:2', 'e7:2']);
  });
});
