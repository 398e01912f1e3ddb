/**
 * The consumer loop's commit semantics and its failure modes, with exact counts derived by hand
 * (docs/semantics/consumer.md, docs/semantics/scenarios.md#s12-commit-before-processing, docs/semantics/scenarios.md#s13-commit-after-processing, docs/semantics/scenarios.md#s18-pipeline-generated-keys; the incidents of the scenario library).
 */
import { describe, expect, it } from 'vitest';
import { faultsNeverFired } from '../neverFired';
import { anomalies, countsById, entriesOf, events, runScenario, totals } from '../testing';
import { consumer } from './consumerTestRun';

describe('commit before processing = at-most-once (docs/semantics/scenarios.md#s12-commit-before-processing)', () => {
  it('poll e1..e10, commit 10, insert e1..e4, crash → resume at 10: e5..e10 lost, 4 rows, 100', () => {
    const run = consumer({ commit: 'before-processing', 'max.poll.records': 10 }, {}, [
      { kind: 'crash', target: 'consumer-0', point: 'mid-batch', afterRecords: 4 },
    ]);
    expect(totals(run)).toEqual({ rows: 4, sum: 100, duplicates: 0, lost: 6 });
    expect(anomalies(run)).toEqual(['e5:0', 'e6:0', 'e7:0', 'e8:0', 'e9:0', 'e10:0']);
    expect(run.verdict.explanations[0]!.sentence).toContain(
      'committed offset 10 before processing',
    );
  });
});

describe('a mid-batch crash without afterRecords', () => {
  it('comes after the first record: poll e1..e10, commit 10, insert e1, crash → 1 row, e2..e10 lost', () => {
    const run = consumer({ commit: 'before-processing', 'max.poll.records': 10 }, {}, [
      { kind: 'crash', target: 'consumer-0', point: 'mid-batch' },
    ]);
    expect(totals(run)).toEqual({ rows: 1, sum: 10, duplicates: 0, lost: 9 });
  });
});

describe('commit after processing = at-least-once (docs/semantics/scenarios.md#s13-commit-after-processing)', () => {
  // Batch e1..e5 written, offset 5 committed; batch e6..e10 written; crash before the commit;
  // the restart resumes at 5 and writes e6..e10 again.
  const crash = [{ kind: 'crash', target: 'consumer-0', point: 'before-commit', nth: 2 }];
  it('(a) plain INSERT: e6..e10 twice → 15 rows, 950', () => {
    const run = consumer({ 'max.poll.records': 5 }, {}, crash);
    expect(totals(run)).toEqual({ rows: 15, sum: 950, duplicates: 5, lost: 0 });
    expect(anomalies(run)).toEqual(['e6:2', 'e7:2', 'e8:2', 'e9:2', 'e10:2']);
    expect(run.verdict.explanations[0]!.sentence).toMatch(
      /crashed .* restarted from the last committed offset 5/,
    );
  });
  it('(b) ON CONFLICT DO NOTHING: 10 rows, 550', () => {
    expect(
      totals(consumer({ 'max.poll.records': 5 }, { statement: 'on-conflict-do-nothing' }, crash)),
    ).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
  });
  it('(c) additive upsert SET amount = amount + EXCLUDED.amount: 10 rows but sum 950 (values counted twice)', () => {
    const run = consumer(
      { 'max.poll.records': 5 },
      { statement: 'on-conflict-do-update', set: 'add-excluded' },
      crash,
    );
    expect(totals(run)).toEqual({ rows: 10, sum: 950, duplicates: 0, lost: 0 });
    expect(run.verdict.points.find((p) => p.name === 'sink')!.totals.doubleCounted).toBe(5);
    expect(run.verdict.observed).toBe('at-least-once');
  });
  it('(d) absolute upsert SET amount = EXCLUDED.amount: the replay changes nothing → 10 rows, 550', () => {
    expect(
      totals(consumer({ 'max.poll.records': 5 }, { statement: 'on-conflict-do-update' }, crash)),
    ).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
  });
});

// A crash right after the offset commit (commitSync returned, the next poll() not yet made) is a
// point of every committing loop, not only of commit-before-processing: the schema takes
// `point: "after-commit"` for any consumer loop, and the atlas's crash points are "before and
// after a commit" (docs/cli.md). With commit after processing it never fired ("its condition
// never came") though the commit was in the trace.
describe('a crash right after the offset commit, committing after processing', () => {
  it('batch e1..e5 written, offset 5 committed, crash; the restart resumes at 5: 10 rows, 550, none twice', () => {
    const run = consumer({ 'max.poll.records': 5 }, {}, [
      { kind: 'crash', target: 'consumer-0', point: 'after-commit' },
    ]);
    expect(faultsNeverFired(run)).toEqual([]);
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    // Its one crash, after the first of the two commits (offsets 5 and 10).
    const crashes = entriesOf(run, 'crash');
    const commits = entriesOf(run, 'commit');
    expect(crashes).toHaveLength(1);
    expect(commits.filter((i) => i < crashes[0]!)).toHaveLength(1);
  });
  // A loop that never waits on its commits has no such moment: the never-fired notice says why,
  // not "its condition never came".
  it('auto-commit, a hand-off worker, a parallel pool: never fires, and says why', () => {
    const fault = [{ kind: 'crash', target: 'consumer-0', point: 'after-commit' }];
    const why = (processor: Record<string, unknown>) =>
      faultsNeverFired(consumer(processor, {}, fault)).map((u) => u.why);
    expect(why({ 'enable.auto.commit': true })).toEqual([
      'with enable.auto.commit=true its offsets are committed by commitAsync() inside poll(), which the loop never waits on: there is no moment right after a commit',
    ]);
    expect(why({ processing: { mode: 'handoff' } })).toEqual([
      'a hand-off worker commits its finished offsets with commitAsync(), which the loop never waits on: there is no moment right after a commit',
    ]);
    expect(why({ processing: { mode: 'parallel' } })).toEqual([
      'a parallel pool commits its finished offsets with commitAsync(), which the loop never waits on: there is no moment right after a commit',
    ]);
    // A hand-off worker's commit before processing is a commitSync(): it fires there.
    expect(why({ processing: { mode: 'handoff' }, commit: 'before-processing' })).toEqual([]);
  });
  it('with nth 2, after the commit of offset 10: nothing left to replay, 10 rows', () => {
    const run = consumer({ 'max.poll.records': 5 }, {}, [
      { kind: 'crash', target: 'consumer-0', point: 'after-commit', nth: 2 },
    ]);
    expect(faultsNeverFired(run)).toEqual([]);
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
  });
});

describe('pipeline-generated keys defeat the upsert (docs/semantics/scenarios.md#s18-pipeline-generated-keys, docs/semantics/guarantees.md#r5-idempotent-sinks-need-stable-keys-and-absolute-updates)', () => {
  const crash = [{ kind: 'crash', target: 'consumer-0', point: 'before-commit', nth: 2 }];
  it('(a) uuid per attempt: the replay brings new keys → 15 rows, 950', () => {
    expect(
      totals(
        consumer(
          { 'max.poll.records': 5 },
          { statement: 'on-conflict-do-nothing', key: 'uuid-per-attempt' },
          crash,
        ),
      ),
    ).toEqual({ rows: 15, sum: 950, duplicates: 5, lost: 0 });
  });
  it('(b) a key from the source coordinate (topic/partition/offset) is stable → 10 rows, 550', () => {
    expect(
      totals(
        consumer(
          { 'max.poll.records': 5 },
          { statement: 'on-conflict-do-nothing', key: 'source-offset' },
          crash,
        ),
      ),
    ).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
  });
});

describe('enable.auto.commit (docs/semantics/consumer.md#auto-commit, https://kafka.apache.org/documentation/#consumerapi)', () => {
  it('with processing done before the next poll it is at-least-once: a crash replays since the last auto-commit', () => {
    // auto.commit.interval.ms = 5000, so nothing is committed before the crash at 1,045 ms. Each
    // record costs 1 ms of processing and a 4 ms INSERT round trip, so e_k is written at
    // 1,009 + 5·(k−1) ms: e1..e8 by 1,044 ms. The restart finds no committed offset and starts
    // from auto.offset.reset=earliest: e1..e8 are written twice, e9 and e10 once.
    const run = consumer({ 'enable.auto.commit': true, 'max.poll.records': 5 }, {}, [
      { kind: 'crash', target: 'consumer-0', at: 1045 },
    ]);
    expect(anomalies(run)).toEqual([
      'e1:2',
      'e2:2',
      'e3:2',
      'e4:2',
      'e5:2',
      'e6:2',
      'e7:2',
      'e8:2',
    ]);
    expect(totals(run)).toEqual({ rows: 18, sum: 550 + 360, duplicates: 8, lost: 0 });
  });

  it('with records handed to a worker, the committed offset gets ahead of the work: a crash loses them', () => {
    // handoff: poll() hands records to a worker and returns at once; the worker takes 100 ms per
    // record plus a 4 ms INSERT round trip. The first poll (1,006 ms) hands over e1..e10, so the
    // position is 10; the idle loop's next poll after auto.commit.interval.ms (100 ms, ~1,102 ms)
    // commits 10 while the worker has written nothing yet. The worker writes e1 at 1,110 ms and
    // e2 at 1,214 ms; the crash at 1,250 ms kills it mid-e3. The restart resumes at the committed
    // 10: e3..e10 are never written — "the committed offset [got] ahead of the consumed position".
    const run = consumer(
      {
        'enable.auto.commit': true,
        'auto.commit.interval.ms': 100,
        processing: { mode: 'handoff', perRecordMs: 100 },
      },
      {},
      [{ kind: 'crash', target: 'consumer-0', at: 1250, restartAfterMs: 1000 }],
    );
    expect(countsById(run)).toMatchObject({ e1: 1, e2: 1, e3: 0, e10: 0 });
    expect(totals(run)).toEqual({ rows: 2, sum: 30, duplicates: 0, lost: 8 });
  });
});

describe('rebalance with out-of-order completion (incident: only the contiguous prefix is committed)', () => {
  it('1,2,3,5,6,7 done and 4 in flight when the partition moves → the new owner redoes 4..7, the old one still writes 4: 4..7 twice', () => {
    // e1..e7; two instances, consumer-0 owns the one partition. Parallel processing, 7 at a
    // time, with durations 10,10,10,500,10,10,10 ms: e1-e3 and e5-e7 are written by ~1,018 ms,
    // e4 (offset 3) needs 500 ms. Only the contiguous prefix is committed: offset 3. The rebalance
    // at 1,100 ms moves the partition to consumer-1, which starts at offset 3 and processes e4..e7.
    // The revoke does not stop consumer-0's task for e4 (cancelling or awaiting in-flight work in
    // onPartitionsRevoked is the application's job, KafkaConsumer javadoc "Multi-threaded
    // Processing"): it finishes at ~1,506 ms and writes e4, uncommitted. Rows: e4..e7 twice.
    const run = runScenario({
      workload: { events: events(7) },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        startAtMs: 1000,
        instances: 2,
        'max.poll.records': 7,
        processing: {
          mode: 'parallel',
          concurrency: 7,
          durationsMs: [10, 10, 10, 500, 10, 10, 10],
        },
      },
      faults: [{ kind: 'rebalance', target: 'consumer-0', at: 1100 }],
    });
    expect(anomalies(run)).toEqual(['e4:2', 'e5:2', 'e6:2', 'e7:2']);
    expect(entriesOf(run, 'revoke')).toHaveLength(1);
    expect(run.verdict.explanations[0]!.sentence).toContain('rebalance');
    const e4 = run.verdict.explanations.find((x) => x.sentence.startsWith('consumer-0 was still'));
    expect(e4?.sentence).toContain('the revoke does not stop');
  });
});

describe('zombie consumer (docs/semantics/consumer.md#zombie-consumer)', () => {
  it('a paused instance is replaced; when it wakes it still writes its batch, and its commit fails', () => {
    // consumer-0 pauses at 1,012 ms (mid-batch) for 60 s > session.timeout.ms (45 s): the group
    // removes it and a replacement starts from the committed offset 0 and writes e1..e10. The
    // zombie wakes at 61 s, finishes its batch (e1..e5 again), and its commit is refused.
    const run = consumer({ 'max.poll.records': 5 }, {}, [
      { kind: 'zombie', target: 'consumer-0', at: 1012, pauseMs: 60_000 },
    ]);
    expect(entriesOf(run, 'commit-failed').length).toBeGreaterThanOrEqual(1);
    expect(totals(run).lost).toBe(0);
    expect(anomalies(run)).toEqual(['e1:2', 'e2:2', 'e3:2', 'e4:2', 'e5:2']);
    // e1 was written at ~1,010 ms, before the pause: its offset was never committed, so the
    // replacement wrote it again. e2..e5 were still in hand: the zombie wrote them on waking.
    const [first, rest] = run.verdict.explanations;
    expect(first!.events).toEqual(['e1']);
    expect(first!.sentence).toMatch(
      /^consumer-0 wrote e1, then paused longer than session\.timeout\.ms before its offset was committed → the group gave its partition to consumer-0-replacement, which started from the committed offset and processed e1 again/,
    );
    expect(rest!.events).toEqual(['e2', 'e3', 'e4', 'e5']);
    expect(rest!.sentence).toMatch(
      /^consumer-0 paused longer than session\.timeout\.ms while it held e2 → the group gave its partition to .*, which started from the committed offset and processed e2.*the paused instance .*wrote its own copy when it woke up/,
    );
  });
});

describe('zombie consumer with auto-commit (docs/semantics/consumer.md#zombie-consumer)', () => {
  it('awake again, it finishes its batch and its next poll() rejoins the group', () => {
    // As above, with enable.auto.commit: the zombie's refused auto-commit is only logged, but its
    // heartbeat learns it was removed (UNKNOWN_MEMBER_ID), so the next poll() rejoins instead of
    // processing the rest of its old buffer (e6..e10) as an owner it no longer is.
    const run = consumer({ 'max.poll.records': 5, 'enable.auto.commit': true }, {}, [
      { kind: 'zombie', target: 'consumer-0', at: 1012, pauseMs: 60_000 },
    ]);
    expect(run.cutOff).toBe(false);
    expect(anomalies(run)).toEqual(['e1:2', 'e2:2', 'e3:2', 'e4:2', 'e5:2']);
    const t = run.trace;
    const c0 = t.actors.indexOf('consumer-0');
    const assigns = entriesOf(run, 'assign').filter((i) => t.actor[i] === c0);
    // Assigned at its start and again after it woke at 61 s.
    expect(assigns.some((i) => t.time[i]! >= 61_012)).toBe(true);
  });
});

describe('zombie with a standby member (docs/semantics/consumer.md#zombie-consumer)', () => {
  it('the replacement writes first, the zombie later: the explanation still names the pause', () => {
    // Two members, consumer-0 owns the partition, 10 ms per record, batches of 5. It pauses at
    // 1,012 ms with e1..e5 polled and none written; consumer-1 takes over from offset 0 and
    // writes e1..e10; consumer-0 wakes at 61 s and writes e1..e5 again.
    const run = runScenario({
      workload: { events: events(10) },
      processor: {
        type: 'consumer',
        instances: 2,
        'max.poll.records': 5,
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        startAtMs: 1000,
        processing: { perRecordMs: 10 },
      },
      faults: [{ kind: 'zombie', target: 'consumer-0', at: 1012, pauseMs: 60_000 }],
    });
    expect(anomalies(run)).toEqual(['e1:2', 'e2:2', 'e3:2', 'e4:2', 'e5:2']);
    expect(run.verdict.explanations[0]!.sentence).toMatch(
      /^consumer-0 paused longer than session\.timeout\.ms while it held e1 → the group gave its partition to consumer-1, which started from the committed offset and processed e1, while the paused instance still wrote its own copy when it woke up/,
    );
  });
});

describe('auto.offset.reset=latest with no committed offset (Kafka consumer config)', () => {
  it('a consumer starting after e1..e10 were written begins at offset 10: all ten lost, and the explanation says why', () => {
    // "latest: automatically reset the offset to the latest offset" — the group has no committed
    // offset, so the consumer starting at 1 s reads from the end of the log (offset 10).
    const run = consumer({ 'auto.offset.reset': 'latest' }, {}, []);
    expect(totals(run)).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 10 });
    expect(run.verdict.explanations[0]!.sentence).toBe(
      'e1 was already in the log when consumer-0 took partition 0 with no committed offset → auto.offset.reset=latest started it at offset 10, after e1',
    );
    // One story for the ten records that one start skipped (no per-record offset in the words).
    expect(run.verdict.explanations.map((x) => x.events.length)).toEqual([10]);
  });

  // One transaction of e1..e10 (10, 20, …, 100), sent at 1,000..1,009 ms with linger.ms 0: e1..e5
  // are appended at 1,011 ms, one request after another. The followers' fetches waiting at the
  // leader are answered with the first, e1; e2..e5 go in the answers to their next fetches, which
  // tell the leader they hold e1 (high watermark 1 at 1,015 ms; 5 at 1,019). The consumer takes
  // the partition at 1,018 ms, while the transaction is still open (last stable offset 0); e6..e10
  // are appended from 1,019 ms, then the transaction commits. The latest offset a consumer is given is
  // the one its isolation level reads to (ListOffsets' isolation_level,
  // https://kafka.apache.org/protocol.html#The_Messages_ListOffsets).
  const latestDuringTxn = (level: 'read_committed' | 'read_uncommitted') =>
    runScenario({
      workload: { events: events(10, (i) => 999 + i) },
      producer: { 'transactional.id': 't-1', 'linger.ms': 0, app: { eventsPerTransaction: 10 } },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'latest',
        'isolation.level': level,
        startAtMs: 1016,
      },
    });

  it('read_committed resets to the last stable offset: the open transaction is read whole once it commits', () => {
    expect(totals(latestDuringTxn('read_committed'))).toEqual({
      rows: 10,
      sum: 550,
      duplicates: 0,
      lost: 0,
    });
  });

  it('read_uncommitted resets to the high watermark (1): e1 is behind it, e2..e10 read', () => {
    const run = latestDuringTxn('read_uncommitted');
    // 550 − 10 = 540.
    expect(totals(run)).toEqual({ rows: 9, sum: 540, duplicates: 0, lost: 1 });
    expect(anomalies(run)).toEqual(['e1:0']);
  });
});

describe('manual commits with a worker thread (processing.mode handoff)', () => {
  // poll() hands e1..e5, then e6..e10, to one worker (10 ms a record) and returns at once. The
  // worker dies after its 4th record (mid-batch afterRecords 1 counts single records here).
  const crash = [
    { kind: 'crash', target: 'consumer-0', point: 'mid-batch', afterRecords: 1, nth: 4 },
  ];
  const handoff = (commit: string) =>
    consumer(
      { commit, 'max.poll.records': 5, processing: { mode: 'handoff', perRecordMs: 10 } },
      {},
      crash,
    );
  it('before-processing: commitSync after each poll, before the hand-off (10 committed) → e5..e10 lost, 4 rows, 100', () => {
    const run = handoff('before-processing');
    expect(totals(run)).toEqual({ rows: 4, sum: 100, duplicates: 0, lost: 6 });
    expect(anomalies(run)).toEqual(['e5:0', 'e6:0', 'e7:0', 'e8:0', 'e9:0', 'e10:0']);
  });
  it('after-processing: each finished offset is committed; the 4th was not → e4 twice, 11 rows, 590', () => {
    const run = handoff('after-processing');
    expect(totals(run)).toEqual({ rows: 11, sum: 590, duplicates: 1, lost: 0 });
    expect(anomalies(run)).toEqual(['e4:2']);
    expect(run.verdict.explanations[0]!.sentence).toMatch(
      /crashed .* restarted from the last committed offset 3/,
    );
  });
});
