/**
 * Producer and broker behaviour, each with an exact count derived by hand from the documented
 * semantics (docs/semantics/producer.md, docs/semantics/broker.md and the scenario numbers of docs/semantics/scenarios.md).
 */
import { describe, expect, it } from 'vitest';
import { anomalies, countsById, entriesOf, events, runScenario, totals } from './testing';
import { effectiveIdempotence } from './scenario/validate';
import { ProducerSchema } from './scenario/schema';
import { parseScenario } from './scenario/validate';
import { ERROR_CODES } from './trace';

// e1..e10 (10..100, sum 550), one every 100 ms; a consumer commits after writing to a plain INSERT.
const lostAckOfE3 = (producer: Record<string, unknown>) =>
  runScenario({
    workload: { events: events(10, (i) => (i - 1) * 100) },
    producer: { retries: 2147483647, 'max.in.flight.requests.per.connection': 1, ...producer },
    processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
    faults: [{ kind: 'drop-response', link: 'produce', match: { event: 'e3' } }],
  });

describe('lost acknowledgement of e3 (docs/semantics/scenarios.md#s01-lost-acknowledgement)', () => {
  it('(a) idempotence off: the retry "will simply resend the same record" → e3 twice, 11 rows, 580', () => {
    const run = lostAckOfE3({ 'enable.idempotence': false });
    expect(totals(run)).toEqual({ rows: 11, sum: 580, duplicates: 1, lost: 0 });
    expect(anomalies(run)).toEqual(['e3:2']);
    expect(countsById(run, 'log:events').e3).toBe(2);
  });

  it('(b) idempotence on (the default): the broker recognises (pid, epoch, seq) → 10 rows, 550', () => {
    const run = lostAckOfE3({});
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(entriesOf(run, 'dedupe')).toHaveLength(1);
  });

  it('(c) acks=1 silently turns idempotence off → same as (a)', () => {
    const run = lostAckOfE3({ acks: '1' });
    expect(totals(run)).toEqual({ rows: 11, sum: 580, duplicates: 1, lost: 0 });
  });

  it('(d) retries=0 turns idempotence off and disables the retry → 10 rows, but the app believes e3 failed', () => {
    const run = lostAckOfE3({ retries: 0 });
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(run.verdict.falseFailures).toEqual(['e3']);
  });
});

describe("lost acknowledgement of e3 with retries=1 (the issue's example)", () => {
  // "ack of e3 lost with retries=1, idempotence off → e3 has 2 rows in an append sink; on → 1".
  // One retry is enough for one lost ack: the request times out, the batch is resent once. Off:
  // the retry "will simply resend the same record" and is appended again (K-PCFG retries,
  // enable.idempotence) → 11 rows, 550 + 30. On (retries=1 > 0 keeps the default on, or set
  // explicitly): the retry carries the same (pid, epoch, seq=2) and the broker acknowledges it
  // without appending (K-DES) → 10 rows, 550.
  it('idempotence off: e3 has 2 rows → 11 rows, 580', () => {
    const run = lostAckOfE3({ retries: 1, 'enable.idempotence': false });
    expect(entriesOf(run, 'retry')).toHaveLength(1);
    expect(totals(run)).toEqual({ rows: 11, sum: 580, duplicates: 1, lost: 0 });
    expect(anomalies(run)).toEqual(['e3:2']);
    expect(run.verdict.falseFailures).toEqual([]);
  });

  it.each([[{}], [{ 'enable.idempotence': true }]])(
    'idempotence on (%o): e3 has 1 row, the retry is a recognised duplicate → 10 rows, 550',
    (extra) => {
      const run = lostAckOfE3({ retries: 1, ...extra });
      expect(entriesOf(run, 'retry')).toHaveLength(1);
      expect(entriesOf(run, 'dedupe')).toHaveLength(1);
      expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
      expect(anomalies(run)).toEqual([]);
    },
  );

  it('both acks of e3 lost: the one retry is spent, the send fails (REQUEST_TIMED_OUT) although e3 is in the log — twice with idempotence off, once with it on', () => {
    // Attempt 1 is appended, its response lost → timeout → retry (the only one) is appended again
    // (off) or deduped (on), its response lost too → retries exhausted: the batch fails and the
    // application is told e3 failed, while the log holds it.
    const twice = [1, 2].map((nth) => ({
      kind: 'drop-response' as const,
      link: 'produce' as const,
      match: { event: 'e3', nth },
    }));
    const run = (producer: Record<string, unknown>) =>
      runScenario({
        workload: { events: events(10, (i) => (i - 1) * 100) },
        producer: { retries: 1, 'max.in.flight.requests.per.connection': 1, ...producer },
        processor: {
          type: 'consumer',
          'enable.auto.commit': false,
          'auto.offset.reset': 'earliest',
        },
        faults: twice,
      });
    const off = run({ 'enable.idempotence': false });
    expect(entriesOf(off, 'batch-failed').map((i) => ERROR_CODES[off.trace.aux[i]!])).toEqual([
      'REQUEST_TIMED_OUT',
    ]);
    expect(totals(off)).toEqual({ rows: 11, sum: 580, duplicates: 1, lost: 0 });
    expect(off.verdict.falseFailures).toEqual(['e3']);
    const on = run({});
    expect(entriesOf(on, 'dedupe')).toHaveLength(1);
    expect(totals(on)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(on.verdict.falseFailures).toEqual(['e3']);
  });
});

describe('acks=0 (docs/semantics/scenarios.md#s02-acks0-dropped-request)', () => {
  it('a dropped request is never retried → e3 lost: 9 rows, 520', () => {
    const run = runScenario({
      workload: { events: events(10, (i) => (i - 1) * 100) },
      producer: { acks: '0' },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      faults: [{ kind: 'drop-request', link: 'produce', match: { event: 'e3' } }],
    });
    expect(totals(run)).toEqual({ rows: 9, sum: 520, duplicates: 0, lost: 1 });
    expect(anomalies(run)).toEqual(['e3:0']);
    expect(run.verdict.observed).toBe('at-most-once');
  });
});

describe('idempotence rules (ProducerConfig, docs/semantics/producer.md#idempotence-defaults-and-conflicts)', () => {
  const cfg = (p: Record<string, unknown>) => ProducerSchema.parse(p);
  it('is on by default, off when acks≠all or retries=0 and it was not set, on with a transactional.id', () => {
    expect(effectiveIdempotence(cfg({}))).toBe(true);
    expect(effectiveIdempotence(cfg({ acks: '1' }))).toBe(false);
    expect(effectiveIdempotence(cfg({ acks: 0 }))).toBe(false);
    expect(effectiveIdempotence(cfg({ retries: 0 }))).toBe(false);
    expect(effectiveIdempotence(cfg({ 'enable.idempotence': false }))).toBe(false);
    expect(effectiveIdempotence(cfg({ 'transactional.id': 't' }))).toBe(true);
  });

  it('refuses an explicitly idempotent producer with conflicting settings (ConfigException), naming the field', () => {
    const bad = (producer: Record<string, unknown>) => {
      const r = parseScenario({ version: 1, name: 'x', workload: { events: events(1) }, producer });
      return r.ok ? [] : r.issues.map((i) => i.path);
    };
    expect(bad({ 'enable.idempotence': true, acks: '1' })).toEqual(['producer.acks']);
    expect(bad({ 'enable.idempotence': true, retries: 0 })).toEqual(['producer.retries']);
    expect(bad({ 'max.in.flight.requests.per.connection': 6 })).toEqual([
      'producer.max.in.flight.requests.per.connection',
    ]);
    expect(
      bad({ 'max.in.flight.requests.per.connection': 6, 'enable.idempotence': false }),
    ).toEqual([]);
  });
});

describe('application re-send after a timeout (docs/semantics/scenarios.md#s06-payment-re-sent-by-the-application, docs/semantics/producer.md#application-re-sends)', () => {
  // p-75..p-79 (100, 250, 40, 75, 310; true sum 775). p-77's acknowledgement arrives after 3 s;
  // the application waits 2 s on send().get() and sends p-77 again: a new record with the next
  // sequence number, which idempotence does not recognise.
  const payments = [100, 250, 40, 75, 310].map((amount, i) => ({
    id: `p-${75 + i}`,
    amount,
    at: i * 10,
  }));
  const resent = (sink: Record<string, unknown>) =>
    runScenario({
      workload: { topic: 'payments', events: payments },
      producer: { app: { mode: 'sync', 'get.timeout.ms': 2000, onFailure: 'resend' } },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        startAtMs: 5000,
      },
      sink: { type: 'table', ...sink },
      faults: [
        { kind: 'delay-response', link: 'produce', match: { event: 'p-77' }, delayMs: 3000 },
      ],
    });

  it('the log holds p-77 twice although the producer is idempotent; a plain INSERT keeps both: 6 rows, 815', () => {
    const run = resent({});
    expect(countsById(run, 'log:payments')['p-77']).toBe(2);
    expect(totals(run)).toEqual({ rows: 6, sum: 815, duplicates: 1, lost: 0 });
    expect(run.verdict.explanations[0]!.sentence).toContain(
      'send().get() gave up waiting for the acknowledgement of p-77 after 2000 ms',
    );
  });

  // Faults count matching messages each on its own; two due on the same message: the second
  // takes the next one. Either way the 1st and 2nd responses of p-77 are late.
  it.each([
    [1, 2],
    [1, 1],
  ])(
    'two timed-out waits (faults nth %i and %i): p-77 three times in the log, 7 rows, 855 (two extra copies); the explanation tells the re-send once, "(2 times)"',
    (...nths) => {
      const run = runScenario({
        workload: { topic: 'payments', events: payments },
        producer: { app: { mode: 'sync', 'get.timeout.ms': 2000, onFailure: 'resend' } },
        processor: { type: 'consumer', 'auto.offset.reset': 'earliest', startAtMs: 10_000 },
        sink: { type: 'table' },
        faults: nths.map((nth) => ({
          kind: 'delay-response' as const,
          link: 'produce' as const,
          match: { event: 'p-77', nth },
          delayMs: 3000,
        })),
      });
      expect(countsById(run, 'log:payments')['p-77']).toBe(3);
      expect(totals(run)).toEqual({ rows: 7, sum: 855, duplicates: 2, lost: 0 });
      const sentence = run.verdict.explanations[0]!.sentence;
      expect(sentence.match(/sent it again/g)).toHaveLength(1);
      expect(sentence).toContain('(2 times)');
    },
  );

  it('ON CONFLICT DO NOTHING on the payment id collapses it: 5 rows, 775', () => {
    expect(totals(resent({ statement: 'on-conflict-do-nothing' }))).toEqual({
      rows: 5,
      sum: 775,
      duplicates: 0,
      lost: 0,
    });
  });

  it('a dedupe table in the same transaction collapses it too', () => {
    expect(totals(resent({ dedupe: { retentionMs: 86_400_000 } }))).toEqual({
      rows: 5,
      sum: 775,
      duplicates: 0,
      lost: 0,
    });
  });
});

describe('broker: leader failover (docs/semantics/broker.md#leader-failover)', () => {
  // e1..e20 one every 10 ms (latency 2 ms, linger.ms=0: one record per request). broker-1 leads
  // partition 0. e10 is sent at 100 ms and appended by the leader at 102 ms, which answers its
  // followers' waiting fetches with it at once: they hold e10 at 104 ms, and the leader would
  // learn so from their next fetches at 106 ms (its high watermark moving then). The controller
  // notices a dead leader after broker.session.timeout.ms (1 s here) and elects broker-2, an ISR
  // follower. Requests sent to the dead leader (e11…) fail as its connection closes and are
  // retried to broker-2 (docs/semantics/broker.md#replication-and-isr).
  const failover = (
    producer: Record<string, unknown>,
    fault: Record<string, unknown> = { kind: 'leader-failover', at: 103, partition: 0 },
  ) =>
    runScenario({
      workload: { events: events(20, (i) => i * 10) },
      producer: { 'linger.ms': 0, ...producer },
      broker: { 'broker.session.timeout.ms': 1000 },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        startAtMs: 40_000,
      },
      faults: [{ ...fault, restartAfterMs: 60_000 } as never],
    });
  // Armed at 100 ms, the leader fails right after its next append — e10's, at 102 ms — having
  // acknowledged it with acks=1 and before it answers its followers' fetches: e10 is on broker-1
  // alone.
  const rightAfterAppend = {
    kind: 'leader-failover',
    at: 100,
    point: 'after-append',
    partition: 0,
  };

  it('acks=1: e10, acknowledged at 102 ms and never replicated, is cut by the new leader → lost', () => {
    // "should the leader fail immediately after acknowledging the record but before the followers
    // have replicated it then the record will be lost" (ProducerConfig, acks=1).
    const run = failover({ acks: '1' }, rightAfterAppend);
    expect(entriesOf(run, 'truncate')).toHaveLength(1);
    expect(anomalies(run)).toEqual(['e10:0']);
    expect(totals(run)).toEqual({ rows: 19, sum: 2100 - 100, duplicates: 0, lost: 1 });
    expect(run.verdict.observed).toBe('at-most-once');
    const lost = run.verdict.explanations.find((e) => e.fate === 'lost')!.sentence;
    expect(lost).toContain('acknowledged with acks=1');
    // The fault that took the leader down is named.
    expect(lost).toContain(
      '→ broker-1 failed (a failure of the leader of partition 0 right after an append) and the new leader broker-2',
    );
  });

  it('acks=1, the leader failing at 103 ms: its followers already hold e10 (104 ms), so the new leader has it → nothing lost', () => {
    const run = failover({ acks: '1' });
    expect(entriesOf(run, 'truncate')).toHaveLength(0);
    expect(totals(run)).toEqual({ rows: 20, sum: 2100, duplicates: 0, lost: 0 });
  });

  it('acks=all with min.insync.replicas=2: e10 was never acknowledged, so it is retried to the new leader → nothing lost', () => {
    // "acknowledgement happens as soon as all the current in-sync replicas have received the message"
    const run = failover({ acks: 'all' }, rightAfterAppend);
    expect(anomalies(run)).toEqual([]);
    expect(totals(run)).toEqual({ rows: 20, sum: 2100, duplicates: 0, lost: 0 });
  });

  it('acks=all, the leader failing at 103 ms between its followers copying e10 and its answer: without idempotence the retry writes e10 twice', () => {
    // The leader dies before it learns its followers hold e10, so it never acknowledges it; the
    // producer retries e10 to broker-2, which already has it at offset 9. Without idempotence it
    // is appended again (offset 10): "retries … may cause duplicates"
    // (https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence). With it, the
    // new leader's producer state, rebuilt from its log, knows the batch and answers offset 9.
    const off = failover({ acks: 'all', 'enable.idempotence': false });
    expect(entriesOf(off, 'truncate')).toHaveLength(0);
    expect(anomalies(off)).toEqual(['e10:2']);
    expect(totals(off)).toEqual({ rows: 21, sum: 2100 + 100, duplicates: 1, lost: 0 });
    const on = failover({ acks: 'all', 'enable.idempotence': true });
    expect(entriesOf(on, 'dedupe')).toHaveLength(1);
    expect(totals(on)).toEqual({ rows: 20, sum: 2100, duplicates: 0, lost: 0 });
  });

  it('acks=all refuses writes when the ISR shrinks below min.insync.replicas (NOT_ENOUGH_REPLICAS)', () => {
    // RF=2, min.insync=2: once broker-2 (the only follower) is dead and out of the ISR, every
    // acks=all produce is refused; the producer retries until delivery.timeout.ms and fails.
    const run = runScenario({
      workload: { events: events(3, (i) => 20_000 + i * 10) },
      producer: { 'delivery.timeout.ms': 40_000, 'request.timeout.ms': 30_000 },
      broker: { brokers: 2, 'replication.factor': 2, 'broker.session.timeout.ms': 1000 },
      processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
      faults: [{ kind: 'crash', target: 'broker-2', at: 0, restartAfterMs: null }],
    });
    expect(
      entriesOf(run, 'reject').some(
        (i) => run.trace.aux[i] === ERROR_CODES.indexOf('NOT_ENOUGH_REPLICAS'),
      ),
    ).toBe(true);
    expect(totals(run)).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 3 });
  });
});

describe('delivery.timeout.ms: a batch retried until its deadline fails at the deadline, with a timeout', () => {
  // delivery.timeout.ms: "An upper bound on the time to report success or failure after a call
  // to send() returns … the time allowed for retriable send failures"
  // (https://kafka.apache.org/documentation/#producerconfigs_delivery.timeout.ms). The Java
  // client retries while the deadline has not passed (Sender.canRetry:
  // !hasReachedDeliveryTimeout) and the batch then expires in the accumulator with a
  // TimeoutException ("Expiring 1 record(s) … ms has passed since batch creation").
  //
  // e1..e3 at 12,000, 12,100, 12,200 ms; broker-2 and broker-3 are down (0.5 s to 60.5 s) and out
  // of the ISR, so every acks=all produce is refused NOT_ENOUGH_REPLICAS (min.insync.replicas 2).
  // delivery.timeout.ms 20 s, latency 2 ms each way, retry.backoff.ms 100 doubling to
  // retry.backoff.max.ms 1,000 (KIP-580, no jitter). e1's attempts: 12,000, then each answer
  // (+4 ms) plus the backoff: 12,104, 12,308, 12,712, 13,516, 14,520, and every 1,004 ms after:
  // the 22nd resend at 14,520 + 17 · 1,004 = 31,588, answered at 31,592. Its next resend would be
  // at 32,592, past the deadline 12,000 + 20,000 = 32,000: the batch expires at 32,000 (e2 at
  // 32,100, e3 at 32,200), not at 31,592 with NOT_ENOUGH_REPLICAS as before.
  const run = runScenario({
    claim: 'at-least-once',
    workload: { topic: 'events', generate: { count: 3, startAtMs: 12_000, intervalMs: 100 } },
    producer: { 'delivery.timeout.ms': 20_000, 'linger.ms': 0, 'request.timeout.ms': 5000 },
    broker: { partitions: 1 },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      startAtMs: 100_000,
    },
    sink: { type: 'table', name: 't' },
    faults: [
      { kind: 'crash', target: 'broker-2', at: 500, restartAfterMs: 60_000 },
      { kind: 'crash', target: 'broker-3', at: 500, restartAfterMs: 60_000 },
    ],
  });
  const t = run.trace;

  it('e1, e2, e3 fail with DELIVERY_TIMEOUT at 32,000, 32,100 and 32,200 ms', () => {
    const failed = entriesOf(run, 'batch-failed');
    expect(failed.map((i) => [t.time[i], ERROR_CODES[t.aux[i]!]])).toEqual([
      [32_000, 'DELIVERY_TIMEOUT'],
      [32_100, 'DELIVERY_TIMEOUT'],
      [32_200, 'DELIVERY_TIMEOUT'],
    ]);
    const e1 = entriesOf(run, 'retry').filter((i) => t.event[i] === 0);
    expect(e1.map((i) => t.time[i]).slice(0, 6)).toEqual([
      12_104, 12_308, 12_712, 13_516, 14_520, 15_524,
    ]);
    expect(e1.length).toBe(22);
    expect(t.time[e1.at(-1)!]).toBe(31_588);
    expect(totals(run)).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 3 });
  });

  it('the explanation names delivery.timeout.ms and the error retried', () => {
    expect(run.verdict.explanations[0]!.sentence).toBe(
      'the send of e1 failed with DELIVERY_TIMEOUT: delivery.timeout.ms (20000 ms) passed while the producer kept retrying NOT_ENOUGH_REPLICAS, and the application moved on without it (app.onFailure=skip)',
    );
  });
});

describe('batch.size', () => {
  it('0 disables batching: five records sent at once travel in five requests, not one', () => {
    // "a batch size of zero will disable batching entirely"
    // https://kafka.apache.org/documentation/#producerconfigs_batch.size
    const run = (producer: Record<string, unknown>) =>
      runScenario({
        workload: { events: events(5, () => 0) },
        producer,
        processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
      });
    expect(entriesOf(run({}), 'append')).toHaveLength(1);
    expect(entriesOf(run({ 'batch.size': 0 }), 'append')).toHaveLength(5);
    expect(totals(run({ 'batch.size': 0 }))).toMatchObject({ rows: 5, duplicates: 0, lost: 0 });
  });
});

describe('a message fault matching an event counts the messages that carry it', () => {
  it("a later batch's column, whose room past its records reads as event 0 (e1), does not carry e1", () => {
    // e1 at 0 ms and e2 at 100 ms, each alone in its batch (linger.ms 5): one produce request
    // each, both answered. Only e1's carries e1, so the 2nd request carrying it never comes and
    // the fault never fires: no 'fault' entry, both records in the log once. A batch's column
    // has room for 16 records, zeros past its one: read past the batch's record count, e2's
    // request would count as e1's 2nd and be dropped.
    const run = runScenario({
      workload: { events: events(2, (i) => (i - 1) * 100) },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      faults: [{ kind: 'drop-request', link: 'produce', match: { event: 'e1', nth: 2 } }],
    });
    expect(entriesOf(run, 'fault')).toHaveLength(0);
    expect(countsById(run, 'log:events')).toEqual({ e1: 1, e2: 1 });
    expect(totals(run)).toEqual({ rows: 2, sum: 30, duplicates: 0, lost: 0 });
  });
});
