/**
 * The source application is part of every pipeline's chain: a Flink job or a Spark query can only
 * deliver what reached the input log. The at-least-once and exactly-once recipes of every
 * processor type protect the source the same way (acks=all and the application re-sending what
 * failed, `producer.app.onFailure: "resend"`); before, the Flink and Spark ones left it at
 * `skip`, so a producer crash or a delivery timeout lost events under a claimed exactly-once
 * (issue 30, item 5).
 *
 * Kafka's delivery semantics (https://kafka.apache.org/documentation/#semantics): a producer that
 * "failed to receive a response indicating that a message was committed" has "little choice but
 * to resend the message"; with the idempotent producer its own retry is written once, and an
 * application re-send is a new record the rest of the chain must absorb.
 */
import { describe, expect, it } from 'vitest';
import { formatIssues, parseScenario, simulate } from '../engine';
import type { Guarantee, Run, ScenarioInput } from '../engine';
import { applyGuarantee, guaranteeKnobs } from './guarantees';

function run(s: ScenarioInput): Run {
  const r = parseScenario(s);
  if (!r.ok) throw new Error(formatIssues(r.issues));
  return simulate(r.scenario);
}

/** The trace entries of a kind, as [time, aux] pairs. */
function entries(r: Run, kind: string): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < r.trace.length; i++) {
    const e = r.trace.get(i);
    if (e.kind === kind) out.push([e.time, e.aux]);
  }
  return out;
}

const totalsAt = (r: Run, point: string) => r.verdict.points.find((p) => p.name === point)!.totals;

/** The issue's Spark reproducer, with no claim or producer settings of its own. */
const sparkLostProduceThenCrash = (): ScenarioInput => ({
  version: 1,
  name: 'r',
  workload: { events: [{ id: 'e1', amount: 1, at: 0 }] },
  processor: { type: 'spark' },
  sink: { type: 'delta', txnAppId: 'query-1' },
  faults: [
    { kind: 'drop-request', link: 'produce' },
    { kind: 'crash', target: 'producer', at: 100, restartAfterMs: 1000 },
  ],
});

describe('the exactly-once and at-least-once recipes protect the source for every processor type', () => {
  it('one rule: the producer knobs of each recipe are the same for a consumer loop, a Flink job and a Spark query', () => {
    const s: ScenarioInput = { version: 1, name: 's', workload: { events: [] as never } };
    for (const g of ['at-least-once', 'exactly-once'] as Guarantee[]) {
      const producerKnobs = (kind: 'consumer' | 'flink' | 'spark') =>
        guaranteeKnobs(g, kind, s)
          .filter((k) => k.path.startsWith('producer.'))
          .map((k) => [k.path, k.value]);
      expect(producerKnobs('flink'), g).toEqual(producerKnobs('consumer'));
      expect(producerKnobs('spark'), g).toEqual(producerKnobs('consumer'));
      expect(producerKnobs('spark'), g).toContainEqual(['producer.app.onFailure', 'resend']);
    }
  });

  it("the issue's Spark reproducer under the exactly-once recipe: e1 re-sent after the producer's restart, one record, one Delta row", () => {
    const r = run(applyGuarantee(sparkLostProduceThenCrash(), 'exactly-once'));
    // By hand: e1 is sent at 4 ms; its produce request is lost (first produce request); the
    // producer crashes at 100 ms with e1 still in flight and restarts at 1,100 ms. The
    // application re-sends what failed (onFailure=resend): a second send of e1 (aux 1 = a
    // re-send) at 1,104 ms after the restarted producer's metadata round trip, appended once at
    // offset 0. The query's first batch (at 2,000 ms) reads it and Delta writes one row.
    expect(entries(r, 'app-send')).toEqual([
      [4, 0],
      [1104, 1],
    ]);
    expect(totalsAt(r, 'log:events')).toMatchObject({ rows: 1, duplicates: 0, lost: 0 });
    expect(totalsAt(r, 'sink')).toMatchObject({ rows: 1, duplicates: 0, lost: 0, observedSum: 1 });
    expect(r.verdict).toMatchObject({ claimed: 'exactly-once', observed: 'exactly-once' });
    expect(r.verdict.held).toBe(true);
    expect(r.verdict.explanations).toEqual([]);
  });

  it('the same reproducer under the at-least-once recipe: nothing lost (e1 once: the lost request never reached the log)', () => {
    const r = run(applyGuarantee(sparkLostProduceThenCrash(), 'at-least-once'));
    expect(entries(r, 'app-send').length).toBe(2);
    expect(totalsAt(r, 'sink')).toMatchObject({ rows: 1, duplicates: 0, lost: 0 });
    expect(r.verdict.held).toBe(true);
  });

  it('a Flink job under the exactly-once recipe: a send that failed after delivery.timeout.ms is re-sent, e1 reaches the table once', () => {
    const s = applyGuarantee(
      {
        version: 1,
        name: 'r',
        workload: { events: [{ id: 'e1', amount: 1, at: 0 }] },
        producer: { 'request.timeout.ms': 500, 'delivery.timeout.ms': 1000 },
        processor: { type: 'flink' },
        sink: { type: 'table' },
        faults: [
          { kind: 'drop-request', link: 'produce' },
          { kind: 'drop-request', link: 'produce', match: { nth: 2 } },
        ],
      },
      'exactly-once',
    );
    const r = run(s);
    // By hand: sent at 4 ms, lost; timed out at 509 (request.timeout.ms 500), retried at 609
    // (retry.backoff.ms 100), lost again; the batch expires at 1,004 ms (4 + delivery.timeout.ms
    // 1,000) and the application re-sends e1 then (a new record: appended at offset 0). The
    // retry still in flight is answered at 1,209 ms as a duplicate of that sequence (the
    // idempotent producer's dedupe), so the log holds e1 once, and so does the upserted table.
    expect(entries(r, 'app-send-failed').map(([t]) => t)).toEqual([1004]);
    expect(entries(r, 'app-send')).toEqual([
      [4, 0],
      [1004, 1],
    ]);
    expect(totalsAt(r, 'log:events')).toMatchObject({ rows: 1, duplicates: 0, lost: 0 });
    expect(totalsAt(r, 'sink')).toMatchObject({ rows: 1, duplicates: 0, lost: 0, observedSum: 1 });
    expect(r.verdict.held).toBe(true);
  });
});
