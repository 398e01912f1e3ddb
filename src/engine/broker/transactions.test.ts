/**
 * Kafka transactions: markers, the last stable offset, isolation levels, fencing, the coordinator's
 * timeout, and consume-transform-produce (docs/semantics/broker.md#transactions, docs/semantics/scenarios.md#s09-aborted-transaction-and-readers, docs/semantics/scenarios.md#s15-consume-transform-produce).
 */
import { describe, expect, it } from 'vitest';
import { anomalies, countsById, entriesOf, events, runScenario, totals } from '../testing';
import { ERROR_CODES, TXN_REASON_TIMEOUT, TXN_STATES } from '../trace';

const readers = [
  { name: 'rc', topic: 'events', 'isolation.level': 'read_committed' },
  { name: 'ru', topic: 'events', 'isolation.level': 'read_uncommitted' },
] as const;

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

describe('consume-transform-produce with sendOffsetsToTransaction (docs/semantics/scenarios.md#s15-consume-transform-produce)', () => {
  // Input e1..e10 (non-transactional); batches of 5; the copier's transaction holds its outputs
  // and its input offsets. Batch 1 commits with offset 5; batch 2 sends e6..e10 and offset 10, and
  // the process dies before commitTransaction. The restart's initTransactions aborts it; the group
  // offset is still 5, so e6..e10 are processed again in a new transaction, which commits.
  const s15 = (
    reader: 'read_committed' | 'read_uncommitted',
    point = 'before-commit-transaction',
  ) =>
    runScenario({
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
      readers: [{ name: 'r', topic: 'out', 'isolation.level': reader }],
      faults: [
        {
          kind: 'crash',
          target: 'consumer-0',
          point: point as 'before-commit-transaction',
          nth: 2,
        },
      ],
    });

  it('read_committed: 10, 550 — the aborted attempt is invisible', () => {
    expect(totals(s15('read_committed'))).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
  });

  it('read_uncommitted: e6..e10 twice — 15, 950', () => {
    const run = s15('read_uncommitted');
    expect(totals(run)).toEqual({ rows: 15, sum: 950, duplicates: 5, lost: 0 });
    expect(run.verdict.explanations.some((e) => e.sentence.includes('initTransactions'))).toBe(
      true,
    );
  });

  it('(c) a crash after the commit decision: initTransactions "awaits its completion" → committed once', () => {
    expect(totals(s15('read_uncommitted', 'after-commit-decision'))).toEqual({
      rows: 10,
      sum: 550,
      duplicates: 0,
      lost: 0,
    });
  });

  it('a zombie copier is fenced: its writes never reach a read_committed reader', () => {
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
      readers: [{ name: 'r', topic: 'out', 'isolation.level': 'read_committed' }],
      faults: [{ kind: 'zombie', target: 'consumer-0', at: 1012, pauseMs: 60_000 }],
    });
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(entriesOf(run, 'fenced').length).toBeGreaterThanOrEqual(1);
  });

  it('enable.auto.commit left out: the copier commits each transaction (it used to skip the commit and lose both events at the 60 s transaction timeout)', () => {
    // e1 at 0 ms and e2 at 10 ms, one batch each: transaction 1 copies e1 with offset 1,
    // transaction 2 copies e2 with offset 2. Both commit: each event once in the log and in the
    // read_committed view, and the run is over well before any transaction.timeout.ms.
    const run = runScenario({
      workload: {
        topic: 't',
        events: [
          { id: 'e1', amount: 1, at: 0 },
          { id: 'e2', amount: 2, at: 10 },
        ],
      },
      processor: { type: 'consumer', commit: 'with-transaction' },
      sink: { type: 'kafka', 'transactional.id': 'tx', 'transaction.timeout.ms': 60_000 },
    });
    expect(totals(run)).toEqual({ rows: 2, sum: 3, duplicates: 0, lost: 0 });
    expect(totals(run, 'log:out:read_committed')).toEqual({
      rows: 2,
      sum: 3,
      duplicates: 0,
      lost: 0,
    });
    expect(run.verdict.observed).toBe('exactly-once');
    // Two transactions complete as commits, none aborts.
    const ended = (state: (typeof TXN_STATES)[number]) =>
      entriesOf(run, 'txn').filter((i) => run.trace.aux[i] === TXN_STATES.indexOf(state)).length;
    expect([ended('CompleteCommit'), ended('PrepareAbort')]).toEqual([2, 0]);
  });

  it('a transaction the coordinator aborted on timeout: the copier aborts, claims the bumped epoch (KIP-588) and copies its batch again — each event once', () => {
    // transaction.timeout.ms 3 s; the first 5 records take 1 s each. The copier polls e1..e5 at
    // 1,010 ms; transaction 1 begins with e1's output (2,010 ms) and the coordinator aborts it
    // 3 s later (5,010 ms), which bumps the producer's epoch. e4's and e5's sends are
    // refused with INVALID_PRODUCER_EPOCH — abortable, not fatal, since no other instance took
    // the transactional.id: the copier's commit fails, abortTransaction sends InitProducerId with
    // its own epoch and gets the bumped one, and the group offset (still 0) brings e1..e5 back.
    // Before: the copier was fenced for good and its 10 events were lost.
    const run = runScenario({
      workload: { topic: 'in', generate: { count: 10, startAtMs: 10, intervalMs: 10 } },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        commit: 'with-transaction',
        'isolation.level': 'read_committed',
        'max.poll.records': 5,
        'auto.offset.reset': 'earliest',
        startAtMs: 1000,
        processing: {
          mode: 'sync',
          perRecordMs: 1, // The list is used in turn, again and again: 5 slow records, then 40 quick ones.
          durationsMs: [1000, 1000, 1000, 1000, 1000, ...new Array<number>(40).fill(1)],
        },
      },
      sink: {
        type: 'kafka',
        topic: 'out',
        'transactional.id': 'copier-0',
        'transaction.timeout.ms': 3000,
      },
      readers: [
        { name: 'rc', topic: 'out', 'isolation.level': 'read_committed' },
        { name: 'ru', topic: 'out', 'isolation.level': 'read_uncommitted' },
      ],
    });
    const t = run.trace;
    const refused = entriesOf(run, 'reject').filter(
      (i) => ERROR_CODES[t.aux[i]!] === 'INVALID_PRODUCER_EPOCH',
    );
    expect(refused.map((i) => `${t.time[i]}:${run.events.id(t.event[i]!)}`)).toEqual([
      '5012:e4',
      '6012:e5',
    ]);
    expect(entriesOf(run, 'fenced')).toEqual([]);
    expect(totals(run, 'reader:rc')).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    // e1..e3 were written in the aborted transaction: read_uncommitted sees them twice.
    expect(totals(run, 'reader:ru')).toEqual({ rows: 13, sum: 610, duplicates: 3, lost: 0 });
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

describe('a lost transactional request is sent again after request.timeout.ms', () => {
  // The client's TransactionManager re-enqueues a request whose connection dropped ("Will
  // retry"); the coordinator answers a repeated request as it answered the first. KafkaProducer
  // javadoc (commitTransaction: "It is safe to retry"), https://kafka.apache.org/documentation/#producerapi
  const rejects = (run: ReturnType<typeof runScenario>) =>
    entriesOf(run, 'reject')
      .filter((i) => ERROR_CODES[run.trace.aux[i]!] === 'REQUEST_TIMED_OUT')
      .map((i) => `${run.trace.actors[run.trace.actor[i]!]}@${run.trace.time[i]}`);
  const states = (run: ReturnType<typeof runScenario>, no: number) =>
    entriesOf(run, 'txn')
      .filter((i) => run.trace.txn[i] === no)
      .map((i) => `${TXN_STATES[run.trace.aux[i]!]}@${run.trace.time[i]}`);

  it('the EndTxn answer of transaction 1 lost: EndTxn again at 31,112, answered as committed — e6..e10 go out in transaction 2, 10 rows once', () => {
    // InitProducerId is answered at 4 ms. e1..e5 (1,000..1,004 ms) go out at 1,004 in
    // transaction 1 and are acknowledged at 1,012 (acks=all: appended 1,006, replicated, HW at
    // 1,010); EndTxn leaves at 1,012, lands at 1,014 (PrepareCommit, markers, CompleteCommit), and
    // its answer (the 2nd on the txn link) is dropped. request.timeout.ms (30,000) later, at
    // 31,012, the client sends it again after retry.backoff.ms (100 ms: 31,112); at 31,114 the
    // coordinator finds transaction 1 CompleteCommit at the same epoch and answers success
    // (TransactionCoordinator: CompleteCommit + COMMIT → NONE); at 31,116 transaction 2 begins.
    // Before: commitTransaction never returned and e6..e10 were never sent (5 rows).
    const run = runScenario({
      workload: { topic: 'events', generate: { count: 10, startAtMs: 1000, intervalMs: 1 } },
      producer: { 'transactional.id': 't-1', 'linger.ms': 0, app: { eventsPerTransaction: 5 } },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        'isolation.level': 'read_committed',
        startAtMs: 5000,
      },
      sink: { type: 'table', name: 't' },
      faults: [{ id: 'lost txn answer', kind: 'drop-response', link: 'txn', match: { nth: 2 } }],
    });
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(totals(run, 'log:events:read_committed')).toEqual({
      rows: 10,
      sum: 550,
      duplicates: 0,
      lost: 0,
    });
    expect(rejects(run)).toEqual(['producer@31012']);
    // One decision for transaction 1: the repeated EndTxn changed nothing.
    expect(states(run, 1)).toEqual(['Ongoing@1004', 'PrepareCommit@1014', 'CompleteCommit@1014']);
    expect(states(run, 2)[0]).toBe('Ongoing@31116');
    expect(entriesOf(run, 'marker')).toHaveLength(2);
  });

  it('the initTransactions answer lost: InitProducerId again at 30,100, which bumps the epoch to 1 — the events go out from 30,104, 10 rows once', () => {
    // Sent at 0, landed at 2 (epoch 0), answer dropped; timed out at 30,000 and sent again at
    // 30,100. The repeat is a second initTransactions for the id: the coordinator bumps the epoch
    // (the 'fenced' entry at 30,102) and the producer takes epoch 1 from its answer (30,104).
    // Before: initTransactions never returned and nothing was sent.
    const run = runScenario({
      workload: { topic: 'events', generate: { count: 10, startAtMs: 1000, intervalMs: 1 } },
      producer: { 'transactional.id': 't-1', 'linger.ms': 0, app: { eventsPerTransaction: 5 } },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        'isolation.level': 'read_committed',
        startAtMs: 5000,
      },
      sink: { type: 'table', name: 't' },
      faults: [{ kind: 'drop-response', link: 'txn', match: { nth: 1 } }],
    });
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(rejects(run)).toEqual(['producer@30000']);
    expect(entriesOf(run, 'fenced').map((i) => `${run.trace.aux[i]}@${run.trace.time[i]}`)).toEqual(
      ['1@30102'],
    );
    expect(states(run, 1)[0]).toBe('Ongoing@30104');
  });

  it('a copier whose TxnOffsetCommit answer and then its EndTxn answer are lost: each sent again, each event once at read_committed', () => {
    // Answers on the txn link: 1 the source's InitProducerId, 2 the copier's, 3 TxnOffsetCommit
    // of transaction 1 (dropped), 4 its repeat (31,117), 5 EndTxn (dropped at 31,121, after the
    // commit), 6 its repeat (61,221: CompleteCommit → success). The offsets are stored once
    // more, the same ones; transaction 2 then copies e6..e10.
    const run = runScenario({
      workload: { topic: 'in', generate: { count: 10, startAtMs: 10, intervalMs: 10 } },
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
      readers: [
        { name: 'rc', topic: 'out', 'isolation.level': 'read_committed' },
        { name: 'ru', topic: 'out', 'isolation.level': 'read_uncommitted' },
      ],
      faults: [
        { id: 'lost offsets answer', kind: 'drop-response', link: 'txn', match: { nth: 3 } },
        { id: 'lost EndTxn answer', kind: 'drop-response', link: 'txn', match: { nth: 5 } },
      ],
    });
    expect(totals(run, 'reader:rc')).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(totals(run, 'reader:ru')).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    // TxnOffsetCommit sent at 1,015 → timed out 31,015; EndTxn sent at 31,119 → timed out 61,119.
    expect(rejects(run)).toEqual(['consumer-0@31015', 'consumer-0@61119']);
    expect(states(run, 1)).toEqual(['Ongoing@1011', 'PrepareCommit@31121', 'CompleteCommit@31121']);
    expect(run.state.cluster.coordinator.committed('group-1', 0, 0)).toBe(10);
  });

  it('the answer to a KIP-588 epoch claim lost: the repeated claim gets the same epoch, not a fence', () => {
    // The scenario of the KIP-588 test above: transaction 1 is aborted on timeout at 5,010; the
    // copier's TxnOffsetCommit is refused (6,012) and abortTransaction claims the bumped epoch
    // with InitProducerId (the 4th answer on the txn link, dropped at 6,016). Sent again at
    // 36,114 (6,014 + 30,000 + 100), it is a retry of a granted claim: "If the expected epoch
    // matches the previous epoch, it is a retry of a successful call, so just return the current
    // epoch without incrementing" (TransactionCoordinator). Before: the copier waited for good.
    const run = runScenario({
      workload: { topic: 'in', generate: { count: 10, startAtMs: 10, intervalMs: 10 } },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        commit: 'with-transaction',
        'isolation.level': 'read_committed',
        'max.poll.records': 5,
        'auto.offset.reset': 'earliest',
        startAtMs: 1000,
        processing: {
          mode: 'sync',
          perRecordMs: 1,
          durationsMs: [1000, 1000, 1000, 1000, 1000, ...new Array<number>(40).fill(1)],
        },
      },
      sink: {
        type: 'kafka',
        topic: 'out',
        'transactional.id': 'copier-0',
        'transaction.timeout.ms': 3000,
      },
      readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
      faults: [{ kind: 'drop-response', link: 'txn', match: { nth: 4 } }],
    });
    expect(rejects(run)).toEqual(['consumer-0@36014']);
    expect(entriesOf(run, 'fenced')).toEqual([]);
    expect(totals(run, 'reader:rc')).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(states(run, 2)[0]).toBe('Ongoing@36125');
  });
});

describe('a transaction marker due while its partition has no live leader waits for one', () => {
  // /tmp/sc/marker5.json: one partition, one replica (broker-1), broker.session.timeout.ms 1. The
  // source sends e1..e15 (12,000..12,014 ms) in transactions of 5. Transaction 1 (e1..e5)
  // commits at 12,010 (marker at offset 5). Transaction 2 (e6..e10, offsets 6..10) is aborted by
  // the application: its EndTxn leaves at 12,016, when broker-1 crashes; the controller notices
  // 1 ms later (12,017: no leader) and the EndTxn lands at 12,018 (PrepareAbort). The abort
  // marker cannot be written: the coordinator keeps it queued and the transaction PrepareAbort,
  // and writes it when broker-1, back at 17,016, is elected again — at offset 11, the log's end —
  // then marks transaction 2 CompleteAbort. The application re-sends e6..e10 in transaction 3
  // (offsets 12..16, marker 17) and e11..e15 in transaction 4 (18..22, marker 23).
  // Transaction 3 cannot begin while transaction 2 is PrepareAbort: its AddPartitionsToTxn
  // (sent at 12,020, when the EndTxn answer is back) is refused with CONCURRENT_TRANSACTIONS at
  // 12,022 (TransactionCoordinator.handleAddPartitionsToTransaction), and its records wait in the
  // producer. Asked again 20 ms after transaction 2 completes (the Java client's
  // ADD_PARTITIONS_RETRY_BACKOFF_MS): 17,036, accepted at 17,038 (Ongoing), answer back at 17,040.
  // The producer's connection to broker-1 was reset by the crash: it connects again first (a
  // round trip, open at 17,044; src/engine/connections.ts), so transaction 3's records are
  // appended at 17,046 and acknowledged at 17,048, its EndTxn lands at 17,050 (marker 17);
  // transaction 4 begins at 17,052 and its marker follows at 17,058.
  // Kafka: TransactionMarkerChannelManager keeps a marker for a partition without a leader
  // queued, and TransactionMarkerRequestCompletionHandler re-enqueues one refused with
  // NOT_LEADER_OR_FOLLOWER; the transaction completes once every marker is written.
  // Before: the marker was dropped, transaction 2 marked complete, and the LSO stayed at 6: 5 rows.
  // Before the AddPartitionsToTxn refusal was modelled, transaction 3 began at 12,020 and its
  // records were appended at 17,026 (marker 17 at 17,030, marker 23 at 17,038).
  const marker5 = (
    broker: Record<string, unknown> = {},
    restartAfterMs = 5000,
    faults: unknown[] = [],
    app: Record<string, unknown> = {},
  ) =>
    runScenario({
      workload: { topic: 'events', generate: { count: 15, startAtMs: 12_000, intervalMs: 1 } },
      producer: {
        'transactional.id': 't-1',
        'linger.ms': 0,
        app: { eventsPerTransaction: 5, ...app },
      },
      broker: {
        partitions: 1,
        'replication.factor': 1,
        'min.insync.replicas': 1,
        'broker.session.timeout.ms': 1,
        ...broker,
      },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        'isolation.level': 'read_committed',
        startAtMs: 60_000,
      },
      sink: { type: 'table', name: 't' },
      faults: [
        { id: 'app aborts txn 2', kind: 'abort-transaction', transaction: 2 },
        { id: 'leader down', kind: 'crash', target: 'broker-1', at: 12_016, restartAfterMs },
        ...faults,
      ] as never,
    });
  const states = (run: ReturnType<typeof runScenario>, no: number) =>
    entriesOf(run, 'txn')
      .filter((i) => run.trace.txn[i] === no)
      .map((i) => `${TXN_STATES[run.trace.aux[i]!]}@${run.trace.time[i]}`);
  const markers = (run: ReturnType<typeof runScenario>) =>
    entriesOf(run, 'marker').map(
      (i) =>
        `${run.trace.txn[i]}:${run.trace.aux[i] === 1 ? 'commit' : 'abort'}@${run.trace.offset[i]}/${run.trace.time[i]}`,
    );

  it('marker5: the abort marker is written when broker-1 leads again (17,016) — every event once at read_committed, 15 rows', () => {
    const run = marker5();
    expect(totals(run)).toEqual({ rows: 15, sum: 1200, duplicates: 0, lost: 0 });
    expect(totals(run, 'log:events:read_committed')).toEqual({
      rows: 15,
      sum: 1200,
      duplicates: 0,
      lost: 0,
    });
    // e6..e10's aborted copies stay in the log: 20 records of 15 events.
    expect(totals(run, 'log:events')).toEqual({ rows: 20, sum: 1600, duplicates: 5, lost: 0 });
    expect(states(run, 2)).toEqual(['Ongoing@12012', 'PrepareAbort@12018', 'CompleteAbort@17016']);
    expect(states(run, 3)).toEqual([
      'Ongoing@17038',
      'PrepareCommit@17050',
      'CompleteCommit@17050',
    ]);
    expect(markers(run)).toEqual([
      '1:commit@5/12010',
      '2:abort@11/17016',
      '3:commit@17/17050',
      '4:commit@23/17058',
    ]);
    const t = run.trace;
    expect(
      entriesOf(run, 'reject')
        .filter((i) => ERROR_CODES[t.aux[i]!] === 'CONCURRENT_TRANSACTIONS')
        .map((i) => t.time[i]),
    ).toEqual([12022]);
    // Transaction 3's records (e6..e10 again) reach the log only after transaction 2's marker.
    expect(
      entriesOf(run, 'append')
        .filter((i) => t.txn[i] === 3)
        .map((i) => `${t.offset[i]}@${t.time[i]}`),
    ).toEqual(['12@17046', '13@17046', '14@17046', '15@17046', '16@17046']);
    const p = run.state.input.partitions[0]!;
    expect([p.leo, p.hw, p.lso]).toEqual([24, 24, 24]);
  });

  it('broker-1 back (14,016) before the controller noticed it was gone (9 s): it leads again, and the marker waits for it all the same', () => {
    // broker.session.timeout.ms 9,000: no election; the dead broker stays the partition's leader
    // on paper, and a marker is not written to a dead process. It is written when broker-1
    // restarts (14,016). Transaction 3's records (12,020) wait in the producer's accumulator:
    // its AddPartitionsToTxn is refused with CONCURRENT_TRANSACTIONS at 12,022 while transaction
    // 2 is PrepareAbort, and accepted when asked again 20 ms after transaction 2 completes
    // (14,036 → 14,038); the answer is back at 14,040. The producer saw its connection reset at
    // 12,018 (the crash + one 2 ms latency) and has not tried it since: it connects (open at
    // 14,044), and the records are appended at 14,046 (offsets 12..16), acknowledged at 14,048,
    // committed at 14,050 (marker 17). No connection attempt is refused: none is made while
    // broker-1 is down. Before the AddPartitionsToTxn refusal was modelled, the records were sent
    // at once, waited while connection attempts were refused (12,072 … 13,588, see
    // src/engine/connections.ts) and were appended at 14,594.
    const run = marker5({ 'broker.session.timeout.ms': 9000 }, 2000);
    expect(totals(run)).toEqual({ rows: 15, sum: 1200, duplicates: 0, lost: 0 });
    expect(states(run, 2)).toEqual(['Ongoing@12012', 'PrepareAbort@12018', 'CompleteAbort@14016']);
    expect(states(run, 3)[0]).toBe('Ongoing@14038');
    expect(markers(run).slice(0, 3)).toEqual([
      '1:commit@5/12010',
      '2:abort@11/14016',
      '3:commit@17/14050',
    ]);
    const t = run.trace;
    const rejected = (code: string) =>
      entriesOf(run, 'reject')
        .filter((i) => ERROR_CODES[t.aux[i]!] === code)
        .map((i) => t.time[i]);
    expect(rejected('CONCURRENT_TRANSACTIONS')).toEqual([12022]);
    expect(rejected('CONNECTION_REFUSED')).toEqual([]);
    expect(
      entriesOf(run, 'append')
        .filter((i) => t.offset[i] === 12)
        .map((i) => t.time[i]),
    ).toEqual([14046]);
  });

  it('a restarted application’s initTransactions waits for the marker: CONCURRENT_TRANSACTIONS at 12,118, asked again at 17,116', () => {
    // The application dies right after its EndTxn (abort) leaves (12,016) and restarts 100 ms
    // later; its InitProducerId lands at 12,118 while transaction 2 is PrepareAbort: "If the last
    // transaction had begun completion, but not yet finished, this method awaits its completion"
    // (KafkaProducer#initTransactions) — the coordinator answers CONCURRENT_TRANSACTIONS
    // (TransactionCoordinator.handleInitProducerId). The client asks again retry.backoff.ms
    // (100 ms) after the transaction completes (17,016): the epoch is bumped at 17,118, and
    // transaction 3 begins at 17,120.
    const run = marker5({}, 5000, [
      {
        id: 'app dies',
        kind: 'crash',
        target: 'producer',
        point: 'after-commit-decision',
        nth: 2,
        restartAfterMs: 100,
      },
    ]);
    const t = run.trace;
    expect(
      entriesOf(run, 'reject')
        .filter((i) => ERROR_CODES[t.aux[i]!] === 'CONCURRENT_TRANSACTIONS')
        .map((i) => t.time[i]),
    ).toEqual([12118]);
    expect(entriesOf(run, 'fenced').map((i) => `${t.aux[i]}@${t.time[i]}`)).toEqual(['1@17118']);
    expect(states(run, 2)).toEqual(['Ongoing@12012', 'PrepareAbort@12018', 'CompleteAbort@17016']);
    expect(states(run, 3)[0]).toBe('Ongoing@17120');
    const c = countsById(run);
    expect(['e11', 'e12', 'e13', 'e14', 'e15'].map((id) => c[id])).toEqual([1, 1, 1, 1, 1]);
  });

  it('a leader that never comes back: transaction 2 stays PrepareAbort, and the loss is explained by its waiting marker', () => {
    const run = marker5({}, null as never);
    expect(states(run, 2)).toEqual(['Ongoing@12012', 'PrepareAbort@12018']);
    const e = run.verdict.explanations.find((x) => x.events[0] === 'e6')!;
    expect(e.sentence).toBe(
      'e6 is in transaction 2: transaction 2 was aborted at 12018 ms, but its abort marker is not written: partition 0 has had no leader since 12017 ms, and the coordinator writes it only to a live leader (the transaction stays PrepareAbort until then) → read_committed readers stop at the last stable offset, so the consumer has not seen it (nor anything after it)',
    );
  });
});

/**
 * The next transaction waits for the previous one's markers. EndTxn is answered as soon as the
 * decision (PrepareCommit / PrepareAbort) is in the transaction log — "we can respond to the client
 * immediately and continue to write the txn markers" — and until every marker is written the
 * coordinator refuses the next transaction's AddPartitionsToTxn (and AddOffsetsToTxn) with
 * CONCURRENT_TRANSACTIONS: TransactionCoordinator.handleAddPartitionsToTransaction,
 * "txnMetadata.state == PrepareCommit || txnMetadata.state == PrepareAbort →
 * CONCURRENT_TRANSACTIONS"
 * (https://github.com/apache/kafka/blob/trunk/core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala).
 * The producer keeps the new transaction's batches in its accumulator
 * (RecordAccumulator: !transactionManager.isSendToPartitionAllowed(tp)) and asks again after
 * ADD_PARTITIONS_RETRY_BACKOFF_MS = 20 ms, its backoff for a transaction's first AddPartitionsToTxn
 * refused so
 * (https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionManager.java).
 * The model asks once, and again 20 ms after the previous transaction has completed.
 * Latency 2 ms each way; broker.session.timeout.ms 1; replication.factor 1.
 */
describe('the next transaction waits for the previous one’s markers (CONCURRENT_TRANSACTIONS)', () => {
  const states = (run: ReturnType<typeof runScenario>, no: number) =>
    entriesOf(run, 'txn')
      .filter((i) => run.trace.txn[i] === no)
      .map((i) => `${TXN_STATES[run.trace.aux[i]!]}@${run.trace.time[i]}`);
  const concurrent = (run: ReturnType<typeof runScenario>) =>
    entriesOf(run, 'reject')
      .filter((i) => ERROR_CODES[run.trace.aux[i]!] === 'CONCURRENT_TRANSACTIONS')
      .map((i) => run.trace.time[i]);
  /** Appends of transaction `no`, as topic:partition/offset@time. */
  const appends = (run: ReturnType<typeof runScenario>, no: number) =>
    entriesOf(run, 'append')
      .filter((i) => run.trace.txn[i] === no)
      .map(
        (i) =>
          `${run.trace.topic[i]}:${run.trace.partition[i]}/${run.trace.offset[i]}@${run.trace.time[i]}`,
      );

  it('a transaction over two partitions, one leaderless at its commit: the next one writes nothing — not even to the healthy partition — until that marker is written', () => {
    // Two partitions, partition 0 on broker-1 (key "a"), partition 1 on broker-2 (key "d");
    // transactions of 2 events, transaction.timeout.ms 3,000. By hand: transaction 1 = e1 (p0),
    // e2 (p1) from 12,000: appended at 12,002 (offset 0 of each), acknowledged at 12,004, EndTxn
    // (commit) sent. broker-2 crashes at 12,005. The EndTxn lands at 12,006: PrepareCommit, the
    // p0 marker is written (offset 1), the p1 marker waits for a leader; the answer is back at
    // 12,008 and the application begins transaction 2 = e3 (p0), e4 (p1). Its AddPartitionsToTxn
    // is refused at 12,010. broker-2 is back at 17,005 and elected: the p1 marker (offset 1),
    // transaction 1 CompleteCommit. AddPartitionsToTxn again at 17,025, accepted at 17,027
    // (transaction 2 Ongoing, its timeout running from here), answer at 17,029: e3 is appended to
    // p0 at 17,031 (offset 2); e4 waits for the producer to reconnect to broker-2 (a round trip,
    // 17,029 → 17,033) and is appended to p1 at 17,035 (offset 2), acknowledged at 17,037;
    // EndTxn lands at 17,039: markers at offset 3 of both. 4 records of 4 events, each once.
    // Before: transaction 2 began at 12,008 and e3 was appended to p0 at 12,010 while transaction
    // 1 was still PrepareCommit; the coordinator aborted transaction 2 on timeout at 15,008, and
    // e3/e4 were written again in transaction 3 — an aborted copy of e3 in p0 (5 records).
    const run = runScenario({
      workload: {
        topic: 'events',
        events: [
          { id: 'e1', amount: 10, at: 12_000, key: 'a' },
          { id: 'e2', amount: 20, at: 12_000, key: 'd' },
          { id: 'e3', amount: 30, at: 12_001, key: 'a' },
          { id: 'e4', amount: 40, at: 12_001, key: 'd' },
        ],
      },
      producer: {
        'transactional.id': 't-1',
        'linger.ms': 0,
        'transaction.timeout.ms': 3000,
        app: { eventsPerTransaction: 2 },
      },
      broker: {
        partitions: 2,
        'replication.factor': 1,
        'min.insync.replicas': 1,
        'broker.session.timeout.ms': 1,
      },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        'isolation.level': 'read_committed',
        startAtMs: 60_000,
      },
      sink: { type: 'table', name: 't' },
      faults: [{ kind: 'crash', target: 'broker-2', at: 12_005, restartAfterMs: 5000 }],
    });
    expect(states(run, 1)).toEqual([
      'Ongoing@12000',
      'PrepareCommit@12006',
      'CompleteCommit@17005',
    ]);
    expect(states(run, 2)).toEqual([
      'Ongoing@17027',
      'PrepareCommit@17039',
      'CompleteCommit@17039',
    ]);
    expect(concurrent(run)).toEqual([12010]);
    expect(appends(run, 2)).toEqual(['0:0/2@17031', '0:1/2@17035']);
    expect(
      entriesOf(run, 'marker').map(
        (i) =>
          `${run.trace.txn[i]}:p${run.trace.partition[i]}/${run.trace.offset[i]}@${run.trace.time[i]}`,
      ),
    ).toEqual(['1:p0/1@12006', '1:p1/1@17005', '2:p0/3@17039', '2:p1/3@17039']);
    expect(
      entriesOf(run, 'txn').some((i) => run.trace.aux[i] === TXN_STATES.indexOf('PrepareAbort')),
    ).toBe(false);
    expect(totals(run, 'log:events')).toEqual({ rows: 4, sum: 100, duplicates: 0, lost: 0 });
    expect(totals(run)).toEqual({ rows: 4, sum: 100, duplicates: 0, lost: 0 });
  });

  it('a copier (sendOffsetsToTransaction): its offsets are committed in transaction order, so a restart does not copy e2 again', () => {
    // Input 'in': one partition (broker-1). Output 'out': three partitions, out-0 on broker-1,
    // out-2 on broker-3; e1 (key "b") goes to out-2, e2 (key "f") to out-0. By hand: the copier's
    // initTransactions 1,000 → 1,002; e1 polled at 1,010, transaction 1 begins at 1,011, e1's
    // copy appended to out-2 at 1,013 (offset 0), TxnOffsetCommit (in-0 → 1) 1,011 → 1,013,
    // acknowledged at 1,015, EndTxn sent. broker-3 crashes at 1,016; the EndTxn lands at 1,017:
    // PrepareCommit, the out-2 marker waits for a leader. e2 (2,000) is polled at 2,011:
    // transaction 2's AddPartitionsToTxn (2,012) is refused at 2,014, so its copy and its
    // sendOffsetsToTransaction wait. broker-3 is back at 6,016: out-2 marker (offset 1),
    // transaction 1 CompleteCommit, in-0 → 1 stored. AddPartitionsToTxn again at 6,036, accepted
    // at 6,038: e2's copy appended to out-0 at 6,042 (offset 0), TxnOffsetCommit (in-0 → 2)
    // 6,040 → 6,042, EndTxn lands at 6,046: out-0 marker (offset 1), CompleteCommit, in-0 → 2
    // stored. The copier crashes at 7,000 and starts again at 7,100 from offset 2: nothing to
    // copy. The read_committed reader has e1 and e2 once.
    // Before: transaction 2 began at 2,012 and completed at 2,018 (in-0 → 2) while transaction 1
    // was PrepareCommit; transaction 1's completion at 6,016 then stored in-0 → 1 over it, and the
    // restarted copier copied e2 again: 3 rows, e2 twice.
    const run = runScenario({
      workload: {
        topic: 'in',
        events: [
          { id: 'e1', amount: 10, at: 10, key: 'b' },
          { id: 'e2', amount: 20, at: 2000, key: 'f' },
        ],
      },
      broker: {
        partitions: 1,
        'replication.factor': 1,
        'min.insync.replicas': 1,
        'broker.session.timeout.ms': 1,
      },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        commit: 'with-transaction',
        'isolation.level': 'read_committed',
        'auto.offset.reset': 'earliest',
        startAtMs: 1000,
      },
      sink: { type: 'kafka', topic: 'out', partitions: 3, 'transactional.id': 'copier-0' },
      readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
      faults: [
        { kind: 'crash', target: 'broker-3', at: 1016, restartAfterMs: 5000 },
        { kind: 'crash', target: 'consumer-0', at: 7000, restartAfterMs: 100 },
      ],
    });
    expect(states(run, 1)).toEqual(['Ongoing@1011', 'PrepareCommit@1017', 'CompleteCommit@6016']);
    expect(states(run, 2)).toEqual(['Ongoing@6038', 'PrepareCommit@6046', 'CompleteCommit@6046']);
    expect(concurrent(run)).toEqual([2014]);
    expect(appends(run, 1)).toEqual(['1:2/0@1013']);
    expect(appends(run, 2)).toEqual(['1:0/0@6042']);
    expect(run.state.cluster.coordinator.committed('group-1', 0, 0)).toBe(2);
    expect(totals(run, 'reader:rc')).toEqual({ rows: 2, sum: 30, duplicates: 0, lost: 0 });
  });
});
