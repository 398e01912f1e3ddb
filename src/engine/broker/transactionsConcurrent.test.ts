/**
 * The next transaction waits for the previous one's markers: CONCURRENT_TRANSACTIONS
 * (docs/semantics/broker.md#transactions).
 */
import { describe, expect, it } from 'vitest';
import { entriesOf, runScenario, totals } from '../testing';
import { ERROR_CODES, TXN_STATES } from '../trace';

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
