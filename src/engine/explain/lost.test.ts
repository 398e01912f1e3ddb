/**
 * Losses: each sentence is about the record it names, including the second and later records of
 * a batch (a batch's request and append carry its first event only).
 */
import { describe, expect, it } from 'vitest';
import { cutBatchInput, runScenario, totals } from '../testing';

describe('a multi-record batch cut from the log by a leader failover (acks=1)', () => {
  // e1..e3 at 295, 296, 297 ms; linger.ms=5, so one batch of three leaves at 300 ms (the first
  // record's arrival + linger.ms, https://kafka.apache.org/documentation/#producerconfigs_linger.ms).
  // broker-1, the leader, appends it at offsets 0..2 at 302 ms and, with acks=1, answers at once
  // (https://kafka.apache.org/documentation/#producerconfigs_acks: "the leader will write the
  // record to its local log but will respond without awaiting full acknowledgement from all
  // followers"). The failover at 302 ms kills broker-1 before any follower copied the batch;
  // broker-2, elected from the ISR, never had it, and the three records are cut: 3 lost. Each is
  // at its own offset, so each has its own sentence — none "never reached the broker".
  const run = runScenario(cutBatchInput);
  const cut = (id: string, offset: number) =>
    `${id} was written to the leader broker-1 (offset ${offset}) and acknowledged with acks=1 but not yet copied to a follower → broker-1 failed (fault "fo") and the new leader broker-2, which never had it, became the reference: ${id} was cut from the log`;

  it('every record of the batch is told as appended, acknowledged and cut, at its own offset', () => {
    expect(totals(run)).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 3 });
    expect(run.verdict.explanations.map((x) => [x.events, x.sentence])).toEqual([
      [['e1'], cut('e1', 0)],
      [['e2'], cut('e2', 1)],
      [['e3'], cut('e3', 2)],
    ]);
  });

  it('the later records cite the batch append and the truncation', () => {
    const t = run.trace;
    const e3 = run.verdict.explanations.find((x) => x.events[0] === 'e3')!;
    expect(e3.entries.map((i) => t.kindOf(i))).toEqual(['append', 'fault', 'crash', 'truncate']);
  });
});

// The requests sent behind a lost one on its connection are lost with it; when the first one
// times out the producer closes the connection and fails them all. With retries=0 none is sent
// again. e2..e5's sentence said only "the send of e2 failed (NETWORK_EXCEPTION)", as if their own
// connection had broken, and named no fault.
describe('requests lost behind a lost one on their connection, retries=0', () => {
  // e1..e5 at 0..4 ms, one request each (linger.ms 0), five in flight, acks=1, idempotence off.
  // e1's request is lost (fault "partition"); e2..e5's, behind it on the connection, never reach
  // the broker (https://kafka.apache.org/protocol.html#protocol_network). At request.timeout.ms
  // (1,000 ms) after e1's send, the producer closes the connection: e1 fails with
  // REQUEST_TIMED_OUT, e2..e5 with NETWORK_EXCEPTION; retries=0 sends none again: 5 lost.
  const run = runScenario({
    workload: {
      events: Array.from({ length: 5 }, (_, i) => ({
        id: `e${i + 1}`,
        amount: 10 * (i + 1),
        at: i,
      })),
    },
    producer: {
      acks: 1,
      'enable.idempotence': false,
      retries: 0,
      'linger.ms': 0,
      'request.timeout.ms': 1000,
      'max.in.flight.requests.per.connection': 5,
    },
    processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
    faults: [{ id: 'partition', kind: 'drop-request', link: 'produce', match: { event: 'e1' } }],
  });
  it('e2..e5 are told as failed with the connection e1 timed out on, naming the fault', () => {
    expect(totals(run)).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 5 });
    expect(run.verdict.explanations.map((x) => [x.events, x.sentence])).toEqual([
      [
        ['e1'],
        'the send of e1 failed (REQUEST_TIMED_OUT) and the application moved on without it (app.onFailure=skip)',
      ],
      [
        ['e2', 'e3', 'e4', 'e5'],
        'the request of e1, sent before the request of {id} on the same connection, got no answer within request.timeout.ms (it was lost: fault "partition"; the requests behind it on the connection never reached the broker either) → the producer closed the connection, failing the request of {id} too (NETWORK_EXCEPTION), not retried (retries=0) → the application moved on without it (app.onFailure=skip)'.replaceAll(
          '{id}',
          'e2',
        ),
      ],
    ]);
  });
});
