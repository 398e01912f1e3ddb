/**
 * The consumer loop's offset commits that fail or are refused, with exact counts derived by hand
 * (docs/semantics/consumer.md): a batch that outlasts `max.poll.interval.ms`, and a lost
 * OffsetCommit request or answer that commitSync resends until `default.api.timeout.ms`.
 */
import { describe, expect, it } from 'vitest';
import { anomalies, entriesOf, events, runScenario, totals } from '../testing';
import { ERROR_CODES } from '../trace';
import { consumer } from './consumerTestRun';

describe('max.poll.interval.ms: a batch that keeps poll() waiting (Kafka consumer config)', () => {
  // "If poll() is not called before expiration of this timeout, then the consumer is considered
  // failed and the group will rebalance"; a static member "will stop sending heartbeats and
  // partitions will be reassigned after expiration of session.timeout.ms"
  // (https://kafka.apache.org/documentation/#consumerconfigs_max.poll.interval.ms).
  // Batches of 5; the 3rd record processed takes 400 s, every other one 1 s. Batch e1..e5 takes
  // 404 s > 300 s: at poll + 300 s consumer-0 leaves the group; it writes e1..e5 at poll + 404 s,
  // its commit fails (it has no generation), it rejoins and reads from offset 0 again: e1..e5
  // (attempts 6..10, 1 s each) are written a second time and committed; then e6..e10 once.
  const slowThird = [1000, 1000, 400_000, ...Array<number>(12).fill(1000)];
  const slow = (extra: Record<string, unknown> = {}, sink: Record<string, unknown> = {}) =>
    consumer({ 'max.poll.records': 5, processing: { durationsMs: slowThird }, ...extra }, sink, []);

  it('default 300 s, plain INSERT: e1..e5 twice → 15 rows, 700; one leave-group, one refused commit', () => {
    const run = slow();
    expect(totals(run)).toEqual({ rows: 15, sum: 700, duplicates: 5, lost: 0 });
    expect(anomalies(run)).toEqual(['e1:2', 'e2:2', 'e3:2', 'e4:2', 'e5:2']);
    const polls = entriesOf(run, 'poll');
    const leaves = entriesOf(run, 'leave-group');
    expect(leaves).toHaveLength(1);
    const t = run.trace;
    expect(t.time[leaves[0]!]! - t.time[polls[0]!]!).toBe(300_000);
    expect(t.until[leaves[0]!]! - t.time[leaves[0]!]!).toBe(45_000);
    expect(t.cause[leaves[0]!]).toBe(polls[0]);
    const refused = entriesOf(run, 'commit-failed');
    expect(refused).toHaveLength(1);
    expect(t.actors[t.actor[refused[0]!]!]).toBe('consumer-0');
    // One story for the whole batch: e1, e2 were processed before the timeout, e3..e5 after it.
    expect(run.verdict.explanations.map((x) => x.events)).toEqual([['e1', 'e2', 'e3', 'e4', 'e5']]);
    expect(run.verdict.explanations[0]!.sentence).toBe(
      'consumer-0 spent longer than max.poll.interval.ms (300000 ms) on the batch holding e1 without calling poll() → it left the group and its offset commit for the batch failed (CommitFailedException) → the batch was read again from the committed offset and e1 was processed again → a plain INSERT has no key to collapse the copies',
    );
  });

  it('with enable.auto.commit: the same replay, and no CommitFailedException is claimed', () => {
    // No commitSync() to throw it (https://kafka.apache.org/42/javadoc/org/apache/kafka/clients/consumer/CommitFailedException.html):
    // the position after e1..e5 is just never auto-committed before the member leaves.
    const run = slow({ 'enable.auto.commit': true });
    expect(anomalies(run)).toEqual(['e1:2', 'e2:2', 'e3:2', 'e4:2', 'e5:2']);
    expect(entriesOf(run, 'commit-failed')).toHaveLength(0);
    expect(run.verdict.explanations[0]!.sentence).toBe(
      'consumer-0 spent longer than max.poll.interval.ms (300000 ms) on the batch holding e1 without calling poll() → it left the group and the position after the batch was never auto-committed → the batch was read again from the committed offset and e1 was processed again → a plain INSERT has no key to collapse the copies',
    );
  });

  it('max.poll.interval.ms above the batch (500 s): nobody leaves, 10 rows once', () => {
    const run = slow({ 'max.poll.interval.ms': 500_000 });
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(entriesOf(run, 'leave-group')).toHaveLength(0);
  });

  it('ON CONFLICT DO NOTHING on the business id absorbs the second pass: 10 rows, 550', () => {
    const run = slow({}, { statement: 'on-conflict-do-nothing' });
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(entriesOf(run, 'leave-group')).toHaveLength(1);
  });

  it('consume-transform-produce (sendOffsetsToTransaction): the late offsets are refused, the transaction aborted — read_committed 10 once, read_uncommitted 15', () => {
    // transaction.timeout.ms (15 min) outlasts the 404 s batch, so only the group fences it: the
    // offsets of e1..e5 are refused at poll + 404 s, the transaction aborts, the rejoin copies
    // e1..e5 again in a new transaction, then e6..e10.
    const run = runScenario({
      workload: { events: events(10) },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        commit: 'with-transaction',
        'isolation.level': 'read_committed',
        'auto.offset.reset': 'earliest',
        startAtMs: 1000,
        'max.poll.records': 5,
        processing: { durationsMs: slowThird },
      },
      sink: {
        type: 'kafka',
        topic: 'out',
        'transactional.id': 'copier-0',
        'transaction.timeout.ms': 900_000,
      },
      readers: [
        { name: 'rc', topic: 'out', 'isolation.level': 'read_committed' },
        { name: 'ru', topic: 'out', 'isolation.level': 'read_uncommitted' },
      ],
    });
    expect(totals(run, 'reader:rc')).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(totals(run, 'reader:ru')).toEqual({ rows: 15, sum: 700, duplicates: 5, lost: 0 });
    expect(entriesOf(run, 'leave-group')).toHaveLength(1);
    expect(entriesOf(run, 'commit-failed')).toHaveLength(1);
  });

  it('commit before processing: the offsets were committed at the poll, so the rejoin reads on from 5 — 10 rows once', () => {
    const run = slow({ commit: 'before-processing' });
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(entriesOf(run, 'leave-group')).toHaveLength(1);
    expect(entriesOf(run, 'commit-failed')).toHaveLength(0);
  });
});

describe('a lost offset commit: commitSync resends it, and gives up after default.api.timeout.ms (KIP-266)', () => {
  // e1..e10 (10..100) are in the log by 1 s. max.poll.records 5; 2 ms a hop, 1 ms per record.
  // assign 1,002 → fetch → poll e1..e5 at 1,006; each record: processed 1 ms later, its INSERT
  // answered 4 ms after that, so e5's row is acknowledged at 1,006 + 5·5 = 1,031 ms and commitSync
  // sends offset 5 then (it lands at the coordinator at 1,033). Unanswered, the request times out
  // after the consumer's request.timeout.ms (30,000 ms: 31,031) and, the error being retriable, is
  // sent again after retry.backoff.ms (100 ms: 31,131; it lands at 31,133) — the coordinator
  // stores the same offset again. commitSync throws TimeoutException once default.api.timeout.ms
  // (60,000 ms) has passed since the call: at 61,031.
  // https://kafka.apache.org/documentation/#consumerconfigs_default.api.timeout.ms,
  // https://cwiki.apache.org/confluence/display/KAFKA/KIP-266+Fix+consumer+indefinite+blocking+behavior
  const lost = (kind: 'drop-request' | 'drop-response', times: number, commit = {}) =>
    consumer(
      { 'max.poll.records': 5, ...commit },
      {},
      Array.from({ length: times }, (_, k) => ({
        id: `lost ${k + 1}`,
        kind,
        link: 'commit',
        match: { nth: k + 1 },
      })),
    );
  /** `offset@time` of the coordinator's stored commits. */
  const commits = (run: ReturnType<typeof consumer>) =>
    entriesOf(run, 'commit').map((i) => `${run.trace.offset[i]}@${run.trace.time[i]}`);
  const timeouts = (run: ReturnType<typeof consumer>) =>
    entriesOf(run, 'reject')
      .filter((i) => ERROR_CODES[run.trace.aux[i]!] === 'REQUEST_TIMED_OUT')
      .map((i) => `${run.trace.actors[run.trace.actor[i]!]}@${run.trace.time[i]}`);

  it('its answer lost: sent again at 31,131, stored again at 31,133, the loop goes on — 10 rows once', () => {
    // Before: commitSync never returned; e6..e10 were never processed (5 rows).
    const run = lost('drop-response', 1);
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(timeouts(run)).toEqual(['consumer-0@31031']);
    // e6..e10 are polled once the retried commit's answer is back (31,135): offset 10 is sent
    // 31,135 + 5·5 = 31,160 and lands at 31,162.
    expect(commits(run)).toEqual(['5@1033', '5@31133', '10@31162']);
    expect(entriesOf(run, 'commit-failed')).toEqual([]);
  });

  it('its request lost: the same, but the first commit never reached the coordinator', () => {
    const run = lost('drop-request', 1);
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(timeouts(run)).toEqual(['consumer-0@31031']);
    expect(commits(run)).toEqual(['5@31133', '10@31162']);
  });

  it('both attempts lost before they arrived: commitSync throws at 61,031, the loop rejoins from offset 0 and writes e1..e5 again — 15 rows, 700', () => {
    // Attempt 2's own timeout would come at 61,131, after the deadline: the failure comes first.
    // Nothing was committed, so the rejoin starts where auto.offset.reset=earliest says: 0.
    const run = lost('drop-request', 2);
    expect(totals(run)).toEqual({ rows: 15, sum: 700, duplicates: 5, lost: 0 });
    expect(anomalies(run)).toEqual(['e1:2', 'e2:2', 'e3:2', 'e4:2', 'e5:2']);
    expect(timeouts(run)).toEqual(['consumer-0@31031']);
    const failed = entriesOf(run, 'commit-failed');
    expect(failed.map((i) => `${ERROR_CODES[run.trace.aux[i]!]}@${run.trace.time[i]}`)).toEqual([
      'COMMIT_TIMEOUT@61031',
    ]);
    expect(entriesOf(run, 'assign').map((i) => run.trace.offset[i])).toEqual([0, 0]);
    // Offset 5, then 10, committed by the second round: 61,033 assign → poll 61,037 → 61,062.
    expect(commits(run)).toEqual(['5@61064', '10@61093']);
    const s = run.verdict.explanations[0]!.sentence;
    expect(s).toContain('its request was lost (fault "lost 1")');
    expect(s).toContain('the retry\'s request was lost (fault "lost 2")');
    expect(s).toContain('request.timeout.ms (30000 ms)');
    expect(s).toContain('default.api.timeout.ms (60000 ms) with TimeoutException');
  });

  it('both answers lost: the coordinator had stored offset 5 twice, so the rejoin reads on from 5 — 10 rows once', () => {
    const run = lost('drop-response', 2);
    expect(totals(run)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(entriesOf(run, 'commit-failed').map((i) => run.trace.time[i])).toEqual([61031]);
    expect(entriesOf(run, 'assign').map((i) => run.trace.offset[i])).toEqual([0, 5]);
    expect(commits(run)).toEqual(['5@1033', '5@31133', '10@61064']);
  });

  it('commit before processing, both answers lost: offset 5 is stored, commitSync throws, the rejoin starts past e1..e5 — lost, 5 rows, 400', () => {
    const run = lost('drop-response', 2, { commit: 'before-processing' });
    expect(totals(run)).toEqual({ rows: 5, sum: 400, duplicates: 0, lost: 5 });
    expect(anomalies(run)).toEqual(['e1:0', 'e2:0', 'e3:0', 'e4:0', 'e5:0']);
    const s = run.verdict.explanations[0]!.sentence;
    expect(s).toContain('its answer was lost (fault "lost 1")');
    expect(s).toContain('although the coordinator had stored it');
    expect(s).toContain('started again from the committed offset 5, past e1');
  });
});
