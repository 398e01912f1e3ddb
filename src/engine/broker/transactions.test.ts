/**
 * Kafka transactions: markers, the last stable offset, isolation levels, fencing and the coordinator's
 * timeout (docs/semantics/broker.md#transactions, docs/semantics/scenarios.md#s09-aborted-transaction-and-readers).
 */
import { describe, expect, it } from 'vitest';
import { anomalies, entriesOf, events, runScenario, totals } from '../testing';
import { ERROR_CODES, TXN_REASON_TIMEOUT, TXN_STATES } from '../trace';
import { readers } from './transactionsTesting';

describe('a transactional source and its readers (docs/semantics/scenarios.md#s09-aborted-transaction-and-readers)', () => {
  // T1 = e1..e5 is aborted by the application and re-sent as T2; T3 = e6..e10 commits.
  const s09 = (extra: Record<string, unknown> = {}) =>
    runScenario({
      workload: { events: events(10) },
      producer: { 'transactional.id': 't-1', app: { eventsPerTransaction: 5 } },
      processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
      readers: [...readers],
      faults: [{ kind: 'abort-transaction', transaction: 1 }],
      ...extra,
    });

  it('read_committed sees every event once: 10 rows, 550', () => {
    expect(totals(s09(), 'reader:rc')).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
  });

  it('read_uncommitted also sees the aborted copies of e1..e5: 15 rows, 700', () => {
    const run = s09();
    expect(totals(run, 'reader:ru')).toEqual({ rows: 15, sum: 700, duplicates: 5, lost: 0 });
    expect(anomalies(run, 'reader:ru')).toEqual(['e1:2', 'e2:2', 'e3:2', 'e4:2', 'e5:2']);
  });

  it('each marker takes an offset: 15 records + 3 markers = 18 offsets', () => {
    const run = s09();
    const p = run.state.input.partitions[0]!;
    expect(p.leo).toBe(18);
    expect(entriesOf(run, 'marker')).toHaveLength(3);
  });

  it('(c) an open transaction holds read_committed readers at the last stable offset', () => {
    // e11 opens T4, which never completes before the run stops at 30 s (transaction.timeout.ms is
    // 60 s): read_committed stops at the LSO and never sees e11; read_uncommitted sees it.
    const run = runScenario({
      workload: { events: [...events(10), { id: 'e11', amount: 110, at: 20 }] },
      producer: { 'transactional.id': 't-1', app: { eventsPerTransaction: 5 } },
      processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
      readers: [...readers],
      stopAtMs: 30_000,
      faults: [
        { kind: 'abort-transaction', transaction: 1 },
        { kind: 'hang-transaction', transaction: 4 },
      ],
    });
    expect(anomalies(run, 'reader:rc')).toEqual(['e11:0']);
    expect(anomalies(run, 'reader:ru')).toEqual(['e1:2', 'e2:2', 'e3:2', 'e4:2', 'e5:2']);
    const p = run.state.input.partitions[0]!;
    expect(p.lso).toBeLessThan(p.hw);
  });

  it('the coordinator aborts a transaction open longer than transaction.timeout.ms', () => {
    // T4 hangs; with transaction.timeout.ms = 5 s and no stop, the coordinator aborts it: e11 stays
    // invisible to read_committed and the LSO catches up with the high watermark.
    const run = runScenario({
      workload: { events: [...events(10), { id: 'e11', amount: 110, at: 20 }] },
      producer: {
        'transactional.id': 't-1',
        'transaction.timeout.ms': 5000,
        app: { eventsPerTransaction: 5 },
      },
      processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
      readers: [...readers],
      faults: [
        { kind: 'abort-transaction', transaction: 1 },
        { kind: 'hang-transaction', transaction: 4 },
      ],
    });
    expect(anomalies(run, 'reader:rc')).toEqual(['e11:0']);
    const p = run.state.input.partitions[0]!;
    expect(p.lso).toBe(p.hw);
    // The 'txn' entry of the abort says why: 1 = the coordinator's timeout.
    const timedOut = entriesOf(run, 'txn').filter(
      (i) =>
        run.trace.aux[i] === TXN_STATES.indexOf('PrepareAbort') &&
        run.trace.count[i] === TXN_REASON_TIMEOUT,
    );
    expect(timedOut).toHaveLength(1);
  });
});

describe('a transactional producer process that restarts', () => {
  // e1..e15 at 1 s + 0..14 ms, five per transaction: T1 = e1..e5 commits; T2 = e6..e10 is sent,
  // acknowledged, and then hangs open (the application stalls). The process dies at 10 s and
  // restarts at 11 s: initTransactions bumps the epoch and the coordinator aborts T2
  // (https://kafka.apache.org/documentation/#producerapi, KafkaProducer#initTransactions: "If the
  // previous instance had failed with a transaction in progress, it will be aborted"). An
  // acknowledged record in a transaction is not written until the commit, so the application,
  // which never saw T2 commit, sends e6..e10 again (app.onFailure=resend), then e11..e15.
  const restart = (onFailure: 'resend' | 'skip') =>
    runScenario({
      workload: { events: events(15, (i) => 1000 + i - 1) },
      producer: {
        'transactional.id': 't-1',
        'linger.ms': 0,
        app: { eventsPerTransaction: 5, onFailure },
      },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        'isolation.level': 'read_committed',
        startAtMs: 100_000,
      },
      faults: [
        { kind: 'hang-transaction', transaction: 2 },
        { kind: 'crash', target: 'producer', at: 10_000, restartAfterMs: 1000 },
      ],
    });

  it('the new process is not stalled in the old one’s transaction, and re-sends its events', () => {
    const run = restart('resend');
    // Every event once at read_committed: 15 rows, 10 + 20 + … + 150 = 1,200.
    expect(totals(run)).toEqual({ rows: 15, sum: 1200, duplicates: 0, lost: 0 });
    // The log also holds T2's aborted copies of e6..e10: 20 records.
    expect(anomalies(run, 'log:events')).toEqual(['e6:2', 'e7:2', 'e8:2', 'e9:2', 'e10:2']);
  });

  it('an application that does not re-send loses only the aborted transaction’s events', () => {
    const run = restart('skip');
    // e11..e15 are still sent by the new process (before, it stayed stalled and lost them too).
    expect(anomalies(run)).toEqual(['e6:0', 'e7:0', 'e8:0', 'e9:0', 'e10:0']);
  });
});

describe('the checker sees a transactional topic at both isolation levels', () => {
  it('log:<topic> counts every record; log:<topic>:read_committed only committed ones (S15 RU run)', () => {
    const run = runScenario({
      workload: { events: events(10) },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        commit: 'with-transaction',
        'isolation.level': 'read_committed',
        'max.poll.records': 5,
        'auto.offset.reset': 'earliest',
        startAtMs: 1000,
      },
      sink: { type: 'kafka', topic: 'out', 'transactional.id': 'copier-0' },
      readers: [{ name: 'r', topic: 'out', 'isolation.level': 'read_uncommitted' }],
      faults: [{ kind: 'crash', target: 'consumer-0', point: 'before-commit-transaction', nth: 2 }],
    });
    // e6..e10 are in the log twice (the aborted attempt and the committed one).
    expect(totals(run, 'log:out')).toEqual({ rows: 15, sum: 950, duplicates: 5, lost: 0 });
    expect(totals(run, 'log:out:read_committed')).toEqual({
      rows: 10,
      sum: 550,
      duplicates: 0,
      lost: 0,
    });
    // The input topic has no transactions: no read_committed point for it.
    expect(run.verdict.points.some((p) => p.name === 'log:events:read_committed')).toBe(false);
  });
});

/**
 * The coordinator refuses an InitProducerId whose transaction.timeout.ms is above the broker's
 * transaction.max.timeout.ms (default 900,000 ms) with INVALID_TRANSACTION_TIMEOUT, before fencing
 * anything; initTransactions throws (https://kafka.apache.org/documentation/#brokerconfigs_transaction.max.timeout.ms).
 */
describe('transaction.timeout.ms above the broker’s transaction.max.timeout.ms', () => {
  /** A transactional source asking for 900,001 ms: one more than a default broker accepts. */
  const source = (broker: Record<string, unknown> = {}) =>
    runScenario({
      workload: { events: events(10) },
      producer: { 'transactional.id': 't-1', 'transaction.timeout.ms': 900_001 },
      broker,
      processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
      readers: [...readers],
    });
  const refusals = (run: ReturnType<typeof runScenario>) =>
    entriesOf(run, 'reject').filter(
      (i) => ERROR_CODES[run.trace.aux[i]!] === 'INVALID_TRANSACTION_TIMEOUT',
    );

  it('a transactional source application never sends: 10 events, none in the log', () => {
    const run = source();
    expect(refusals(run)).toHaveLength(1);
    expect(entriesOf(run, 'app-send')).toHaveLength(0);
    expect(totals(run, 'reader:rc')).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 10 });
    expect(run.verdict.explanations[0]!.sentence).toMatch(
      /^the application never sent e1: the transaction coordinator refused producer's InitProducerId with INVALID_TRANSACTION_TIMEOUT: its transaction.timeout.ms, 900001 ms, is above the broker's transaction.max.timeout.ms, 900000 ms/,
    );
  });

  it('the same application runs when the broker allows it: 10 rows', () => {
    const run = source({ 'transaction.max.timeout.ms': 900_001 });
    expect(refusals(run)).toHaveLength(0);
    expect(totals(run, 'reader:rc').rows).toBe(10);
  });

  it('a consume-transform-produce copier stops at initTransactions: its input is never processed', () => {
    const run = runScenario({
      workload: { events: events(10) },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        commit: 'with-transaction',
        'auto.offset.reset': 'earliest',
        startAtMs: 1000,
      },
      sink: {
        type: 'kafka',
        topic: 'out',
        'transactional.id': 'copier-0',
        'transaction.timeout.ms': 1_800_000,
      },
      readers: [{ name: 'r', topic: 'out', 'isolation.level': 'read_committed' }],
    });
    expect(refusals(run)).toHaveLength(1);
    expect(entriesOf(run, 'crash')).toHaveLength(1);
    expect(totals(run)).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 10 });
    expect(totals(run, 'processed').rows).toBe(0);
    expect(run.verdict.explanations[0]!.sentence).toContain(
      'initTransactions threw and consumer-0 stopped',
    );
  });
});
