/**
 * The fault kinds that add records upstream of every exactly-once mechanism — `app-resend` (F10)
 * and `source-duplicate` (F11) — and a seeded `random` fault, each with an exact count.
 *
 * "To take advantage of the idempotent producer, it is imperative to avoid application level
 * re-sends since these cannot be de-duplicated" (KafkaProducer javadoc, https://kafka.apache.org/documentation/#producerapi); an
 * upstream duplicate is likewise a new record. Both pass through idempotence and transactions;
 * only a sink keyed on the business id collapses them (docs/semantics/guarantees.md#r3-record-level-exactly-once-is-not-business-exactly-once, docs/semantics/guarantees.md#failure-kinds).
 */
import { describe, expect, it } from 'vitest';
import { traceHash } from './hash';
import type { Run } from './simulate';
import { anomalies, countsById, entriesOf, events, runScenario, totals } from './testing';
import { MESSAGE_TYPES, SEND_CAUSES } from './trace';

const idOf = (run: Run, event: number) => run.events.identityId(run.events.identity[event]!);
/** The input log's records of business id `id`: [offset, sequence number, why it was sent]. */
const copies = (run: Run, id: string) => {
  const p = run.state.input.partitions[0]!;
  const out: [number, number, string][] = [];
  for (let o = 0; o < p.leo; o++)
    if (idOf(run, p.event.data[o]!) === id)
      out.push([o, p.seq.data[o]!, SEND_CAUSES[run.trace.aux[p.sendEntry.data[o]!]!]!]);
  return out;
};

// e1..e10 (10..100, sum 550), one every 100 ms (e3 at 200 ms); producer defaults (acks=all,
// idempotence on); a consumer commits after writing. The extra send of e3 happens at 450 ms,
// after e3's own send (200 ms) and e5's (400 ms), before e6's (500 ms).
const extraE3 = (
  kind: 'app-resend' | 'source-duplicate',
  opts: { sink?: Record<string, unknown>; producer?: Record<string, unknown> } = {},
) =>
  runScenario({
    workload: { events: events(10, (i) => (i - 1) * 100) },
    producer: opts.producer ?? {},
    processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
    sink: { type: 'table', ...opts.sink },
    faults: [{ kind, event: 'e3', at: 450 }],
  });

describe.each([
  ['app-resend', 'the application sends e3 again (F10)'],
  ['source-duplicate', 'the upstream source emits e3 twice (F11)'],
] as const)('%s: %s', (kind, _what) => {
  it('idempotent producer: a second record with a new sequence number (offset 5, seq 5), never recognised by the broker', () => {
    // Records e1, e2, e3, e4, e5 get offsets/sequences 0..4; the extra e3 at 450 ms comes next:
    // offset 5, seq 5 — not a retry of seq 2, so the broker has nothing to dedupe.
    const run = extraE3(kind);
    expect(entriesOf(run, 'fault')).toHaveLength(1);
    expect(copies(run, 'e3')).toEqual([
      [2, 2, 'first'],
      [5, 5, kind],
    ]);
    expect(entriesOf(run, 'dedupe')).toHaveLength(0);
    expect(countsById(run, 'log:events').e3).toBe(2);
  });

  it('with a plain INSERT the copy is a second row, and the explanation names a labelled fault', () => {
    const run = runScenario({
      workload: { events: events(10, (i) => (i - 1) * 100) },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      faults: [{ kind, event: 'e3', at: 450, id: 'the copy' }],
    });
    expect(anomalies(run)).toEqual(['e3:2']);
    expect(run.verdict.explanations[0]!.sentence).toContain('fault "the copy"');
  });

  it('without an `at`, the copy still follows the original (both at 200 ms): offsets 2 and 3', () => {
    // The fault falls at e3's own time. The application cannot send a copy of an event it has
    // not taken from upstream yet: the original goes first (offset 2), the copy right after it
    // in the same millisecond (offset 3), before e4 (offset 4).
    const run = runScenario({
      workload: { events: events(10, (i) => (i - 1) * 100) },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      faults: [{ kind, event: 'e3' }],
    });
    expect(copies(run, 'e3')).toEqual([
      [2, 2, 'first'],
      [3, 3, kind],
    ]);
    expect(countsById(run, 'log:events').e4).toBe(1);
  });

  it('plain INSERT keeps both: e3 twice, 11 rows, 580', () => {
    // 10 + 1 rows; sum 550 + amount(e3) = 580 (docs/semantics/scenarios.md#s06-payment-re-sent-by-the-application, with e3 for p-77).
    const run = extraE3(kind);
    expect(totals(run)).toEqual({ rows: 11, sum: 580, duplicates: 1, lost: 0 });
    expect(anomalies(run)).toEqual(['e3:2']);
  });

  it('a transactional producer and a read_committed consumer change nothing: both sends commit → 11 rows, 580', () => {
    // docs/semantics/guarantees.md#r3-record-level-exactly-once-is-not-business-exactly-once: transactions make each record take effect once; two records are two.
    const run = runScenario({
      workload: { events: events(10, (i) => (i - 1) * 100) },
      producer: { 'transactional.id': 't-1' },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        'isolation.level': 'read_committed',
      },
      faults: [{ kind, event: 'e3', at: 450 }],
    });
    expect(totals(run)).toEqual({ rows: 11, sum: 580, duplicates: 1, lost: 0 });
    expect(anomalies(run)).toEqual(['e3:2']);
  });

  it('ON CONFLICT (event_id) DO NOTHING collapses them on the business id: 10 rows, 550', () => {
    // "the first write wins" (https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT, docs/semantics/scenarios.md#s06-payment-re-sent-by-the-application).
    const run = extraE3(kind, { sink: { statement: 'on-conflict-do-nothing' } });
    expect(countsById(run, 'log:events').e3).toBe(2);
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
  });
});

describe('the explanation names the cause of the extra e3', () => {
  it('app-resend: idempotence does not recognise an application re-send', () => {
    expect(extraE3('app-resend').verdict.explanations[0]!.sentence).toContain(
      '"application level re-sends cannot be de-duplicated"',
    );
  });
  it('source-duplicate: the upstream emitted it twice', () => {
    expect(extraE3('source-duplicate').verdict.explanations[0]!.sentence).toContain(
      'the upstream source emitted e3 twice',
    );
  });
});

/**
 * A `random` fault: each produce response is dropped with probability 0.2, drawn from the
 * scenario's seed (stream `fault:0`). e1..e20 one every 100 ms, linger.ms=0 (one record per
 * request), max.in.flight.requests.per.connection=1, request.timeout.ms 1 s. Every dropped
 * response is of a request the leader appended: the producer times out and retries the same batch,
 * whose response is drawn again. So each firing costs exactly one extra append of that batch's one
 * record: idempotence off → one more row of that event ("producer retries … may write duplicates",
 * K-PCFG enable.idempotence); on → one 'dedupe' at the broker and no extra row.
 * Pinned from the run with seed 7 (and checked against the trace below): 9 firings —
 * e2 twice (its retry's response was dropped too), e7, e10, e13, e14 twice, e19, e20 — out of
 * 20 + 9 = 29 produce responses.
 */
describe('random drop-response on the produce link (seed 7, probability 0.2)', () => {
  const random = (producer: Record<string, unknown>, seed = 7) =>
    runScenario({
      seed,
      workload: { events: events(20, (i) => (i - 1) * 100) },
      producer: {
        'linger.ms': 0,
        'max.in.flight.requests.per.connection': 1,
        'request.timeout.ms': 1000,
        ...producer,
      },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      faults: [{ kind: 'random', link: 'produce', what: 'drop-response', probability: 0.2 }],
    });
  /** Firings per business id, from the 'fault' entries. */
  const firedOn = (run: Run) => {
    const out: Record<string, number> = {};
    for (const i of entriesOf(run, 'fault')) {
      const id = idOf(run, run.trace.event[i]!);
      out[id] = (out[id] ?? 0) + 1;
    }
    return out;
  };
  const produceResponses = (run: Run, kind: 'msg' | 'msg-lost') =>
    entriesOf(run, kind).filter(
      (i) => run.trace.aux[i] === MESSAGE_TYPES.indexOf('produce-response'),
    ).length;

  it('fires 9 times, on e2 ×2, e7, e10, e13, e14 ×2, e19, e20; each firing is one lost response out of 29', () => {
    const run = random({ 'enable.idempotence': false });
    expect(firedOn(run)).toEqual({ e2: 2, e7: 1, e10: 1, e13: 1, e14: 2, e19: 1, e20: 1 });
    expect(produceResponses(run, 'msg-lost')).toBe(9);
    expect(produceResponses(run, 'msg')).toBe(20);
    expect(entriesOf(run, 'retry')).toHaveLength(9);
  });

  it('idempotence off: rows = 20 + firings = 29, each event 1 + its firings; sum 2,100 + Σ amounts of the firings = 3,110', () => {
    const run = random({ 'enable.idempotence': false });
    const fired = firedOn(run);
    const firings = entriesOf(run, 'fault').length;
    expect(firings).toBe(9);
    const extraSum = entriesOf(run, 'fault').reduce(
      (s, i) => s + run.events.amount[run.trace.event[i]!]!,
      0,
    );
    // 2·20 + 70 + 100 + 130 + 2·140 + 190 + 200 = 1,010.
    expect(extraSum).toBe(1010);
    expect(totals(run)).toEqual({
      rows: 20 + firings,
      sum: 2100 + extraSum,
      duplicates: firings,
      lost: 0,
    });
    expect(totals(run)).toEqual({ rows: 29, sum: 3110, duplicates: 9, lost: 0 });
    expect(anomalies(run)).toEqual(Object.entries(fired).map(([id, n]) => `${id}:${1 + n}`));
  });

  it('idempotence on: the same 9 firings, each retry recognised by the broker → 20 rows, 2,100', () => {
    const run = random({});
    expect(firedOn(run)).toEqual({ e2: 2, e7: 1, e10: 1, e13: 1, e14: 2, e19: 1, e20: 1 });
    expect(entriesOf(run, 'dedupe')).toHaveLength(9);
    expect(totals(run)).toEqual({ rows: 20, sum: 2100, duplicates: 0, lost: 0 });
  });

  it('the draws depend on the seed only: the same seed gives the same trace, seed 42 fires 6 times', () => {
    const a = random({ 'enable.idempotence': false });
    const b = random({ 'enable.idempotence': false });
    expect(traceHash(b.trace)).toBe(traceHash(a.trace));
    const other = random({ 'enable.idempotence': false }, 42);
    expect(firedOn(other)).toEqual({ e3: 2, e6: 1, e10: 1, e16: 1, e20: 1 });
    expect(totals(other)).toEqual({ rows: 26, sum: 2680, duplicates: 6, lost: 0 });
  });
});
