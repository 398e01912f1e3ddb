/**
 * Followers that come back while their partition has no leader catch up with the leader elected
 * later and rejoin the ISR. Found by the property tests (random leader failovers): before the fix
 * nothing started their fetch — no acks=all write is accepted while the ISR is below
 * min.insync.replicas — so the partitions refused every write for good.
 */
import { expect, it } from 'vitest';
import { entriesOf, runScenario, totals } from '../testing';
import { ERROR_CODES } from '../trace';

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

it('replica.lag.time.max.ms: the leader drops a dead follower from the ISR at its next check past the lag, unless the controller does first', () => {
  // One partition on brokers 1 (leader), 2, 3; acks=all; broker-3 dies at 500 ms, caught up (the
  // log is empty), and stays down past the run. e1 is appended at 1,007 ms and is acknowledged
  // only once the ISR no longer waits for broker-3. The leader checks its ISR every lag / 2 from
  // its start (0) and drops a follower whose last catch-up is more than lag ago (Kafka's
  // ReplicaManager "isr-expiration"); the controller drops a dead broker at
  // broker.session.timeout.ms (9 s) after the crash: 9,500 ms.
  const at = (lag: number) => {
    const run = runScenario({
      workload: { events: [{ id: 'e1', amount: 10, at: 1000 }] },
      broker: { partitions: 1, 'replica.lag.time.max.ms': lag },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      faults: [{ kind: 'crash', target: 'broker-3', at: 500, restartAfterMs: 60_000 }],
    });
    const t = run.trace;
    const left = entriesOf(run, 'isr').filter((i) => t.count[i] === 0 && t.aux[i] === 3);
    expect(left).toHaveLength(1);
    expect(totals(run)).toEqual({ rows: 1, sum: 10, duplicates: 0, lost: 0 });
    return { isr: t.time[left[0]!], ack: t.time[entriesOf(run, 'ack')[0]!] };
  };
  // 2 s: checks at 0, 1000, 2000, …; 3,000 − 500 = 2,500 > 2,000 → dropped at 3,000, acked 2 ms later.
  expect(at(2000)).toEqual({ isr: 3000, ack: 3002 });
  // 1 s: checks every 500 ms; at 1,500 broker-3 is exactly 1,000 behind, not more → dropped at 2,000.
  expect(at(1000)).toEqual({ isr: 2000, ack: 2002 });
  // The default 30 s: the controller's 9,500 ms comes first.
  expect(at(30_000)).toEqual({ isr: 9500, ack: 9502 });
});

it('acks=all: a batch whose wait ends because the ISR fell below min.insync.replicas gets NOT_ENOUGH_REPLICAS_AFTER_APPEND; without idempotence its retry writes it twice', () => {
  // One partition on brokers 1 (leader), 2, 3; min.insync.replicas 2 (the default here).
  // broker-2 and broker-3 die at 500 ms and are back at 60,500 ms. e1 (sent at 1,000 ms, alone
  // in flight: max.in.flight 1) is appended at 1,002 ms and waits for the ISR. The controller
  // drops both dead brokers at 500 + broker.session.timeout.ms 9,000 = 9,500 ms: the ISR is the
  // leader alone, the HW moves up to 1 and the waiting request is answered
  // NOT_ENOUGH_REPLICAS_AFTER_APPEND (Kafka's Partition.checkEnoughReplicasReachOffset). Its
  // retries get NOT_ENOUGH_REPLICAS until the followers are back in the ISR; then the retry is
  // appended again: e1 twice (idempotence off), e2 and e3 once. With idempotence on, the broker
  // recognises the retry's sequence: e1 once.
  const at = (idempotence: boolean) =>
    runScenario({
      workload: { generate: { count: 3, startAtMs: 1000, intervalMs: 100 } },
      producer: {
        acks: 'all',
        'linger.ms': 0,
        'enable.idempotence': idempotence,
        'max.in.flight.requests.per.connection': 1,
      },
      broker: { partitions: 1 },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      faults: [
        { kind: 'crash', target: 'broker-2', at: 500, restartAfterMs: 60_000 },
        { kind: 'crash', target: 'broker-3', at: 500, restartAfterMs: 60_000 },
      ],
    });
  const off = at(false);
  const t = off.trace;
  const afterAppend = entriesOf(off, 'reject').filter(
    (i) => ERROR_CODES[t.aux[i]!] === 'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  );
  expect(afterAppend.map((i) => `${t.time[i]}:${off.events.id(t.event[i]!)}`)).toEqual(['9500:e1']);
  expect(totals(off)).toEqual({ rows: 4, sum: 70, duplicates: 1, lost: 0 });
  // The retries back off exponentially (Kafka ≥ 3.7): each answer comes 2 ms after its request,
  // and the next attempt leaves 100, 200, 400, 800, then 1,000 ms (retry.backoff.max.ms) later.
  expect(
    entriesOf(off, 'retry')
      .slice(0, 6)
      .map((i) => t.time[i]),
  ).toEqual([9602, 9806, 10210, 11014, 12018, 13022]);
  expect(off.verdict.explanations[0]!.sentence).toContain(
    'fell below min.insync.replicas=2 before e1 was copied, so the leader answered NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  );
  expect(totals(at(true))).toEqual({ rows: 3, sum: 60, duplicates: 0, lost: 0 });
});

it('a record cut by a leader change names the leader that failed, the one elected, and an unclean election', () => {
  // Unclean: brokers 2 and 3 die at 500 ms (out of the ISR at 9,500 ms); with
  // min.insync.replicas=1, e1..e3 (12 s) are acknowledged by broker-1 alone; broker-1 dies at
  // 20 s; broker-2 is back at 30.5 s and, with unclean.leader.election.enable=true, is elected
  // without e1..e3, which are cut below the old high watermark.
  const unclean = runScenario({
    workload: { generate: { count: 3, startAtMs: 12_000, intervalMs: 100 } },
    producer: { acks: 'all', 'linger.ms': 0 },
    broker: { partitions: 1, 'min.insync.replicas': 1, 'unclean.leader.election.enable': true },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      startAtMs: 60_000,
    },
    faults: [
      { kind: 'crash', target: 'broker-2', at: 500, restartAfterMs: 30_000 },
      { kind: 'crash', target: 'broker-3', at: 500, restartAfterMs: null },
      { kind: 'crash', target: 'broker-1', at: 20_000, restartAfterMs: null },
    ],
  });
  expect(totals(unclean)).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 3 });
  expect(unclean.verdict.explanations.map((x) => x.sentence)[0]).toBe(
    'e1 was written to the leader broker-1 (offset 0) while no follower was in sync (min.insync.replicas=1), so it was acknowledged without a copy → broker-1 failed, and with unclean.leader.election.enable=true the out-of-sync broker-2 was elected leader although it never had e1: e1 was cut from the log',
  );
  // Clean, acks=1: the leader of p0 (broker-1) fails at 302 ms, right after appending e3 and
  // before answering its followers' fetches with it; broker-2 is elected from the ISR.
  const clean = runScenario({
    workload: { topic: 'events', generate: { count: 6, startAtMs: 100, intervalMs: 100 } },
    producer: { acks: '1', 'linger.ms': 0 },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      startAtMs: 5000,
    },
    faults: [
      {
        id: 'fo',
        kind: 'random',
        what: 'leader-failover',
        topic: 'events',
        at: 302,
        untilMs: 302,
        probability: 1,
      },
    ],
  });
  expect(clean.verdict.explanations.map((x) => x.sentence)).toEqual([
    'e3 was written to the leader broker-1 (offset 2) and acknowledged with acks=1 but not yet copied to a follower → broker-1 failed (fault "fo") and the new leader broker-2, which never had it, became the reference: e3 was cut from the log',
  ]);
});
