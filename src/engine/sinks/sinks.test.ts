/**
 * SQL statement semantics of the sink (PostgreSQL INSERT … ON CONFLICT and MERGE; docs/semantics/sinks.md,
 * S19, A11–A13), the dedupe table's retention, and the external service's idempotency keys (S25).
 */
import { describe, expect, it } from 'vitest';
import { anomalies, countsById, entriesOf, events, runScenario, totals } from '../testing';
import { ERROR_CODES } from '../trace';

/** One statement for all the rows: a consumer that polls them in one batch after they are all in the log. */
const oneStatement = (rows: { id: string; amount: number }[], sink: Record<string, unknown>) =>
  runScenario({
    workload: { events: rows.map((r, i) => ({ ...r, at: i })) },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      startAtMs: 1000,
      onStatementError: 'halt',
    },
    sink: {
      type: 'table',
      name: 'orders',
      statementPer: 'batch',
      initialRows: [{ id: 'o1', amount: 100 }],
      ...sink,
    },
  });
const amounts = (run: ReturnType<typeof runScenario>) => {
  const rows = run.state.sink!.rows;
  const out: string[] = [];
  for (let i = 0; i < rows.length; i++)
    if (rows.live.get(i))
      out.push(`${rows.labels.get(i) ?? run.events.id(rows.event.get(i))}=${rows.amount.get(i)}`);
  return out;
};
const stmtErrors = (run: ReturnType<typeof runScenario>) =>
  entriesOf(run, 'stmt-error').map((i) => ERROR_CODES[run.trace.aux[i]!]);
const merge = { statement: 'merge', merge: { whenMatched: 'update' } };

describe('MERGE with a duplicated source key (docs/semantics/scenarios.md#s19-merge-with-a-duplicated-source-key)', () => {
  it('(a) the key exists and two source rows update it: cardinality violation, the whole statement rolls back', () => {
    const run = oneStatement(
      [
        { id: 'o1', amount: 120 },
        { id: 'o1', amount: 130 },
        { id: 'o2', amount: 50 },
      ],
      merge,
    );
    expect(stmtErrors(run)).toEqual(['CARDINALITY_VIOLATION']);
    expect(amounts(run)).toEqual(['o1=100']);
    expect(countsById(run)).toEqual({ o1: 1, o2: 0 });
  });

  it('(b) a key new to the target twice, no unique constraint: both NOT MATCHED, both inserted', () => {
    const run = oneStatement(
      [
        { id: 'o3', amount: 70 },
        { id: 'o3', amount: 70 },
      ],
      merge,
    );
    expect(amounts(run)).toEqual(['o1=100', 'o3=70', 'o3=70']);
    expect(totals(run)).toMatchObject({ rows: 3, sum: 240, duplicates: 1 });
  });

  it('(c) the same with a primary key: uniqueness violation, nothing written', () => {
    const run = oneStatement(
      [
        { id: 'o3', amount: 70 },
        { id: 'o3', amount: 70 },
      ],
      { ...merge, uniqueKey: true },
    );
    expect(stmtErrors(run)).toEqual(['UNIQUE_VIOLATION']);
    expect(amounts(run)).toEqual(['o1=100']);
  });

  it('(d) insert-only MERGE (no WHEN MATCHED) with two matching rows: no modification, no error', () => {
    const run = oneStatement(
      [
        { id: 'o1', amount: 120 },
        { id: 'o1', amount: 130 },
      ],
      { statement: 'merge', merge: { whenMatched: 'none' } },
    );
    expect(stmtErrors(run)).toEqual([]);
    expect(amounts(run)).toEqual(['o1=100']);
  });

  it('(e) the source deduplicated first (keep the last): a′ {o1: 130, o2: 50}, b′ {o1: 100, o3: 70}', () => {
    const a = oneStatement(
      [
        { id: 'o1', amount: 120 },
        { id: 'o1', amount: 130 },
        { id: 'o2', amount: 50 },
      ],
      { statement: 'merge', merge: { whenMatched: 'update', dedupeSource: true } },
    );
    expect(amounts(a)).toEqual(['o1=130', 'o2=50']);
    const b = oneStatement(
      [
        { id: 'o3', amount: 70 },
        { id: 'o3', amount: 70 },
      ],
      { statement: 'merge', merge: { whenMatched: 'update', dedupeSource: true } },
    );
    expect(amounts(b)).toEqual(['o1=100', 'o3=70']);
  });
});

describe('INSERT … ON CONFLICT with one key twice in one statement (docs/semantics/sinks.md#on-conflict-do-nothing)', () => {
  it('DO NOTHING: the first row is inserted, the second skipped, no error', () => {
    const run = oneStatement(
      [
        { id: 'o3', amount: 70 },
        { id: 'o3', amount: 75 },
      ],
      { statement: 'on-conflict-do-nothing', initialRows: [] },
    );
    expect(amounts(run)).toEqual(['o3=70']);
    expect(stmtErrors(run)).toEqual([]);
  });

  it('DO UPDATE: "a cardinality violation error will be raised" and nothing is written', () => {
    const run = oneStatement(
      [
        { id: 'o3', amount: 70 },
        { id: 'o3', amount: 75 },
      ],
      { statement: 'on-conflict-do-update', initialRows: [] },
    );
    expect(stmtErrors(run)).toEqual(['CARDINALITY_VIOLATION']);
    expect(amounts(run)).toEqual([]);
  });
});

describe('a dedupe table with a retention window (docs/semantics/guarantees.md#r6-dedupe-memory-is-bounded)', () => {
  // e1 is emitted again by the source 2 s later; the consumer writes one statement per record.
  const dedupe = (retentionMs: number) =>
    runScenario({
      workload: {
        events: [
          { id: 'e1', amount: 10, at: 0 },
          { id: 'e1', amount: 10, at: 2000 },
        ],
      },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      sink: { type: 'table', dedupe: { retentionMs } },
    });
  it('within the window the second copy is skipped', () => {
    expect(countsById(dedupe(60_000))).toEqual({ e1: 1 });
  });
  it('after the window it is a new effect', () => {
    expect(countsById(dedupe(1000))).toEqual({ e1: 2 });
  });
});

describe('a sink write whose answer is lost (docs/semantics/sinks.md#statement-timeout)', () => {
  // e1..e3; the response to e2's INSERT is lost; the writer retries after statement.timeout.ms.
  const lostAnswer = (sink: Record<string, unknown>) =>
    runScenario({
      workload: { events: events(3) },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      sink: { type: 'table', ...sink },
      faults: [{ kind: 'drop-response', link: 'sink', match: { event: 'e2' } }],
    });
  it('a plain INSERT is applied twice', () => {
    expect(anomalies(lostAnswer({}))).toEqual(['e2:2']);
  });
  it('an upsert on the business id absorbs the retry', () => {
    expect(anomalies(lostAnswer({ statement: 'on-conflict-do-update' }))).toEqual([]);
  });
  it('with retries=0 the writer gives up and skips (at-most-once); e2 was written anyway — the outcome was unknown', () => {
    const run = runScenario({
      workload: { events: events(3) },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        onStatementError: 'skip',
      },
      sink: { type: 'table', retries: 0 },
      faults: [{ kind: 'drop-response', link: 'sink', match: { event: 'e2' } }],
    });
    expect(anomalies(run)).toEqual([]);
    expect(
      entriesOf(run, 'reject').some((i) => ERROR_CODES[run.trace.aux[i]!] === 'STATEMENT_TIMEOUT'),
    ).toBe(true);
  });
});

describe('card charges and idempotency keys (docs/semantics/scenarios.md#s25-side-effects-and-idempotency-keys)', () => {
  // p-77 (40) is charged; the response is lost; the client retries after its 30 s timeout.
  const charge = (sink: Record<string, unknown>, stopAtMs?: number) =>
    runScenario({
      workload: { events: [{ id: 'p-77', amount: 40, at: 0 }] },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      sink: { type: 'effect', service: 'card-charge', ...sink },
      faults: [{ kind: 'drop-response', link: 'effect', match: { event: 'p-77' } }],
      ...(stopAtMs ? { stopAtMs } : {}),
    });
  it('(a) key from the payment id, retried after 10 s: 1 charge, 40', () => {
    expect(totals(charge({ idempotencyKey: 'business-id', retryDelayMs: 10_000 }))).toEqual({
      rows: 1,
      sum: 40,
      duplicates: 0,
      lost: 0,
    });
    expect(
      entriesOf(charge({ idempotencyKey: 'business-id', retryDelayMs: 10_000 }), 'effect-replayed'),
    ).toHaveLength(1);
  });
  it('(b) a new key per attempt: 2 charges, 80', () => {
    expect(totals(charge({ idempotencyKey: 'per-attempt', retryDelayMs: 10_000 }))).toEqual({
      rows: 2,
      sum: 80,
      duplicates: 1,
      lost: 0,
    });
  });
  it('(c) the same key retried 30 h later, after the 24 h retention: 2 charges, 80', () => {
    expect(
      totals(charge({ idempotencyKey: 'business-id', retryDelayMs: 30 * 3600_000 }, 40 * 3600_000)),
    ).toEqual({ rows: 2, sum: 80, duplicates: 1, lost: 0 });
  });
  it('(d) the retry changes the amount to 45: the key refuses it, no new charge: 1 charge, 40', () => {
    const run = charge({
      idempotencyKey: 'business-id',
      retryDelayMs: 10_000,
      retryAmountDelta: 5,
    });
    expect(totals(run)).toEqual({ rows: 1, sum: 40, duplicates: 0, lost: 0 });
    expect(
      entriesOf(run, 'reject').some(
        (i) => ERROR_CODES[run.trace.aux[i]!] === 'IDEMPOTENCY_KEY_MISMATCH',
      ),
    ).toBe(true);
  });
});
