/**
 * The checker's sentences name the cause the run actually had. Each case below had a sentence
 * that named another one (a faithfulness audit found them): the counts were right, the "why" not.
 * Duplicates: copies in the log, replays, retried calls.
 */
import { describe, expect, it } from 'vitest';
import { anomalies, events, point, runScenario, totals } from '../testing';

const sentence = (run: ReturnType<typeof runScenario>) => run.verdict.explanations[0]!.sentence;

describe('duplicates name the cause the run had', () => {
  it('an event with two copies in the log, both replayed after a crash: the replay is named, not "processed twice by consumer-0 and consumer-0"', () => {
    // e1..e3 at 0..2 ms; e2's acknowledgement is lost and, with idempotence off, its retry appends
    // a second copy (offsets 0, 1, 2, 3 = e1, e2, e3, e2). The consumer processes the four records
    // and crashes before its commit; from offset 0 again it processes all four a second time:
    // e1 and e3 have 2 rows, e2 has 4. The second attempt of e2's first record (offset 1) is the
    // replay; the attempt at offset 3 is the other copy's first.
    const run = runScenario({
      claim: 'exactly-once',
      workload: { events: events(3, (i) => i - 1) },
      producer: {
        'enable.idempotence': false,
        'linger.ms': 0,
        'max.in.flight.requests.per.connection': 1,
        'request.timeout.ms': 1000,
      },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        startAtMs: 5000,
      },
      faults: [
        { id: 'lost ack', kind: 'drop-response', link: 'produce', match: { event: 'e2' } },
        {
          id: 'crash',
          kind: 'crash',
          target: 'consumer-0',
          point: 'before-commit',
          restartAfterMs: 1000,
        },
      ],
    });
    expect(anomalies(run)).toEqual(['e1:2', 'e2:4', 'e3:2']);
    const e2 = run.verdict.explanations.find((x) => x.events.includes('e2'))!;
    expect(e2.sentence).toBe(
      'the acknowledgement of e2 was lost (fault "lost ack") → the producer retried the same batch → with idempotence off (enable.idempotence=false) the broker appended e2 a second time; consumer-0 crashed (fault "crash") after processing e2 and before its offset was committed → it restarted from offset 0: the group had no committed offset, so auto.offset.reset=earliest applied → e2 was processed again → a plain INSERT has no key to collapse the copies',
    );
  });

  it('a retried copy read again after a crash: the crash is named, not "processed twice (by consumer-0 and consumer-0)"', () => {
    // e1..e10 at 100..1,000 ms, one in flight at a time. e3's acknowledgement is lost: the
    // consumer reads e3 at offset 2 (316 ms) and commits; after request.timeout.ms (30 s) the
    // producer retries and, idempotence off, the broker appends a second e3 at offset 3. The
    // crash armed at 400 ms strikes at the consumer's next commit point: after it processed
    // offset 3 (30,416 ms), before committing it. Restarted 1 s later from the committed offset
    // 3, it reads that copy again, then e4..e10. e3 has 3 rows (offset 2 once, offset 3 twice):
    // 12 rows, sum 550 + 2 × 30 = 610.
    const run = runScenario({
      claim: 'exactly-once',
      workload: { topic: 'events', generate: { count: 10, startAtMs: 100, intervalMs: 100 } },
      producer: {
        retries: 2147483647,
        'max.in.flight.requests.per.connection': 1,
        'request.timeout.ms': 30000,
        'enable.idempotence': false,
      },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      sink: { type: 'table', name: 'events' },
      faults: [
        { id: 'lost ack', kind: 'drop-response', link: 'produce', match: { event: 'e3' } },
        {
          kind: 'crash',
          target: 'consumer-0',
          point: 'before-commit',
          restartAfterMs: 1000,
          at: 400,
        },
      ],
    });
    expect(anomalies(run)).toEqual(['e3:3']);
    expect(point(run).totals).toMatchObject({ rows: 12, duplicates: 2, observedSum: 610 });
    expect(sentence(run)).toBe(
      'the acknowledgement of e3 was lost (fault "lost ack") → the producer retried the same batch → with idempotence off (enable.idempotence=false) the broker appended e3 a second time; consumer-0 crashed after processing e3 and before its offset was committed → it restarted from the last committed offset 3 → e3 was processed again → a plain INSERT has no key to collapse the copies',
    );
  });

  it('an answer lost on a connection with others in flight: the timeout closes it and fails them too', () => {
    // e1..e4 at 0..3 ms, one request each (linger.ms 0), five in flight, idempotence off. The
    // broker appends all four; e1's answer is lost, and the answers to e2..e4 queue behind it (one
    // connection answers in order). At 1,000 ms e1's request times out and the producer closes
    // the connection, failing all four
    // (https://kafka.apache.org/documentation/#producerconfigs_request.timeout.ms); the retries
    // append e1..e4 again: each twice. e2's answer did arrive: the sentence must not say its
    // acknowledgement was missing. (A lost *request* no longer does this: the requests behind it
    // on the connection never reach the broker either, src/engine/clientRequests.ts.)
    const run = runScenario({
      claim: 'exactly-once',
      workload: { events: events(4, (i) => i - 1) },
      producer: {
        'enable.idempotence': false,
        'linger.ms': 0,
        'request.timeout.ms': 1000,
        'max.in.flight.requests.per.connection': 5,
      },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        startAtMs: 5000,
      },
      faults: [
        { id: 'lost answer', kind: 'drop-response', link: 'produce', match: { event: 'e1' } },
      ],
    });
    expect(anomalies(run)).toEqual(['e1:2', 'e2:2', 'e3:2', 'e4:2']);
    const e2 = run.verdict.explanations.find((x) => x.events.includes('e2'))!;
    expect(e2.sentence).toBe(
      'no answer to the request of e1 arrived within request.timeout.ms (its answer was lost: fault "lost answer") → the producer closed the connection, which failed the request of e2 in flight on it too → the producer retried the same batch → with idempotence off (enable.idempotence=false) the broker appended e2 a second time → a plain INSERT has no key to collapse the copies',
    );
  });
});

describe('an idempotency key pruned before the retry (Stripe, docs/semantics/scenarios.md#s25-side-effects-and-idempotency-keys)', () => {
  // "You can remove keys from the system automatically after they're at least 24 hours old. We
  // generate a new request if a key is reused after the original is pruned."
  // https://docs.stripe.com/idempotency. An email service keeping keys 60 s: e1's call is made,
  // its response lost; the client times out 30 s after sending and retries 120 s later, so the
  // retry reaches the service 150 s after the first call, past the 60 s. The sentence named that
  // as "0 h later … (kept 0 h) … a new charge".
  it('names the gap and the retention in their own unit, and an email as an email', () => {
    const run = runScenario({
      claim: 'exactly-once',
      workload: { events: events(1) },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      sink: {
        type: 'effect',
        service: 'email',
        idempotencyKey: 'business-id',
        retentionMs: 60_000,
        retryDelayMs: 120_000,
      },
      faults: [{ id: 'lost', kind: 'drop-response', link: 'effect', match: { event: 'e1' } }],
    });
    expect(anomalies(run)).toEqual(['e1:2']);
    expect(sentence(run)).toBe(
      'fault "lost" → the writer could not tell whether the call for e1 had been applied and retried it after its timeout; it had been applied, and the retry came 150 s later, after the service had pruned the idempotency key (kept 60 s), so the same key sent a new email',
    );
  });
});

describe('a producer that crashed before its acknowledgement, and the application re-sent (app.onFailure=resend)', () => {
  // e1 at 10 ms; linger.ms 5 (default here) sends it at 15 ms, broker-1 appends it at offset 0 at
  // 17 ms; the producer crashes at 18 ms (fault "pc"), so the acknowledgement (21 ms) reaches a
  // dead process. It restarts at 1,018 ms with a new producer id (InitProducerId) and the
  // application, which never saw e1 acknowledged, sends it again: a second record at offset 1.
  // Idempotence deduplicates a producer's own retries by producer id and sequence number; a new
  // session's record has a new producer id ("application level re-sends cannot be de-duplicated",
  // https://cwiki.apache.org/confluence/display/KAFKA/KIP-98+-+Exactly+Once+Delivery+and+Transactional+Messaging):
  // 4 rows for 3 events, e1 twice.
  const at = (idempotence: boolean) =>
    runScenario({
      workload: { events: events(3, (i) => i * 10) },
      producer: { 'enable.idempotence': idempotence, app: { onFailure: 'resend' } },
      processor: {
        type: 'consumer',
        'auto.offset.reset': 'earliest',
        'enable.auto.commit': false,
      },
      sink: { type: 'table', statement: 'insert' },
      faults: [{ id: 'pc', kind: 'crash', target: 'producer', at: 18, restartAfterMs: 1000 }],
    });
  const crashed =
    'the producer crashed (fault "pc") before it saw e1 acknowledged → after the restart the application sent e1 again from a new producer session';

  it('idempotence on: the crash and the new producer id are named, not the re-send alone', () => {
    const run = at(true);
    expect(totals(run)).toEqual({ rows: 4, sum: 70, duplicates: 1, lost: 0 });
    expect(run.verdict.explanations.map((e) => e.sentence)).toEqual([
      `${crashed} → it is a new record with a new producer id, which idempotence does not recognise (it deduplicates one producer id's retries; "application level re-sends cannot be de-duplicated") → a plain INSERT has no key to collapse the copies`,
    ]);
  });

  it('idempotence off: the crash is named too', () => {
    const run = at(false);
    expect(totals(run)).toEqual({ rows: 4, sum: 70, duplicates: 1, lost: 0 });
    expect(run.verdict.explanations.map((e) => e.sentence)).toEqual([
      `${crashed} → a second record of e1 in the log → a plain INSERT has no key to collapse the copies`,
    ]);
  });
});
