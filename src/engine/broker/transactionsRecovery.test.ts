/**
 * Transactions that recover: a lost transactional request sent again, a marker that waits for a live
 * leader (docs/semantics/broker.md#transactions).
 */
import { describe, expect, it } from 'vitest';
import { countsById, entriesOf, runScenario, totals } from '../testing';
import { ERROR_CODES, TXN_STATES } from '../trace';

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

  it('the EndTxn answer of transaction 1 lost: EndTxn again at 31,116, answered as committed — e6..e10 go out in transaction 2, 10 rows once', () => {
    // InitProducerId is answered at 4 ms. e1..e5 (1,000..1,004 ms) go out at 1,004 in
    // transaction 1, appended at 1,006 one request after another. acks=all: the followers'
    // waiting fetches are answered with e1, the first, and their next fetches (1,010: HW 1) with
    // e2..e5 (1,014: HW 5), so the last acknowledgements arrive at 1,016. EndTxn leaves then,
    // lands at 1,018 (PrepareCommit, markers, CompleteCommit), and its answer (the 2nd on the txn
    // link) is dropped. request.timeout.ms (30,000) later, at 31,016, the client sends it again
    // after retry.backoff.ms (100 ms: 31,116); at 31,118 the coordinator finds transaction 1
    // CompleteCommit at the same epoch and answers success (TransactionCoordinator:
    // CompleteCommit + COMMIT → NONE); at 31,120 transaction 2 begins.
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
    expect(rejects(run)).toEqual(['producer@31016']);
    // One decision for transaction 1: the repeated EndTxn changed nothing.
    expect(states(run, 1)).toEqual(['Ongoing@1004', 'PrepareCommit@1018', 'CompleteCommit@1018']);
    expect(states(run, 2)[0]).toBe('Ongoing@31120');
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
