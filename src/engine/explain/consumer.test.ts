/**
 * The checker's sentences name the cause the run actually had. Each case below had a sentence
 * that named another one (a faithfulness audit found them): the counts were right, the "why" not.
 * Consumers: where a restarted or replaced member read from.
 */
import { describe, expect, it } from 'vitest';
import { anomalies, entriesOf, runScenario, totals } from '../testing';

const sentence = (run: ReturnType<typeof runScenario>) => run.verdict.explanations[0]!.sentence;

describe('where a restarted consumer read from', () => {
  it('no offset ever committed: the sentence names auto.offset.reset, not a committed offset', () => {
    // e1 (10) at 0 ms and e2 (20) at 10 ms; the consumer starts at 5 s and polls both, inserts
    // them and crashes before its first commit. The group has no committed offset: the restart
    // starts from auto.offset.reset=earliest, offset 0, and inserts both again — 4 rows, 60.
    const run = runScenario({
      workload: {
        topic: 'payments',
        events: [
          { id: 'e1', amount: 10, at: 0 },
          { id: 'e2', amount: 20, at: 10 },
        ],
      },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        startAtMs: 5000,
      },
      faults: [{ kind: 'crash', target: 'consumer-0', point: 'before-commit' }],
    });
    expect(totals(run)).toEqual({ rows: 4, sum: 60, duplicates: 2, lost: 0 });
    // The only commit is the restarted instance's, offset 2, after its replay.
    const assigns = entriesOf(run, 'assign');
    const commits = entriesOf(run, 'commit');
    expect(commits.map((i) => run.trace.offset[i])).toEqual([2]);
    expect(assigns.map((i) => run.trace.offset[i])).toEqual([0, 0]);
    expect(commits[0]! > assigns[1]!).toBe(true);
    expect(run.verdict.explanations.map((e) => e.sentence)).toEqual([
      'consumer-0 crashed after processing e1 and before its offset was committed → it restarted from offset 0: the group had no committed offset, so auto.offset.reset=earliest applied → e1 was processed again → a plain INSERT has no key to collapse the copies',
    ]);
  });
});

/**
 * A crashed member that stays down past session.timeout.ms does not read its partition again
 * itself: the group coordinator expires its session and gives the partition to another member,
 * which starts from the committed offset
 * (https://kafka.apache.org/documentation/#consumerconfigs_session.timeout.ms). The sentences
 * said "it restarted from its last committed position" — a restart that came 50 s later, after
 * the records had been read again by someone else.
 */
describe('a crashed member whose partition another member takes over', () => {
  // Ten events e1..e10 at 0..9 ms over 2 partitions (keys k0..k9, Kafka's murmur2): p0 holds e4,
  // e5, e6, e8, e9, e10 (offsets 0..5), p1 e1, e2, e3, e7. Both members join at 1 s: consumer-0
  // is assigned p0, consumer-1 p1 (1,002 ms). consumer-0 polls e4, e5, e6 (max.poll.records 3),
  // processes e4 and e5 and crashes mid-batch (1,016 ms), before any commit of p0; it is down
  // for 60 s. Its session expires 10 s after the crash (session.timeout.ms = 10,000): the
  // coordinator gives p0 to consumer-1, told 2 ms later (11,018 ms), which reads p0 from the
  // committed offset.
  const takeover = (commit: 'after-processing' | 'before-processing') =>
    runScenario({
      claim: 'exactly-once',
      workload: {
        topic: 'events',
        generate: { count: 10, startAtMs: 0, intervalMs: 1, keys: 10 },
      },
      broker: { partitions: 2 },
      processor: {
        type: 'consumer',
        instances: 2,
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        'session.timeout.ms': 10_000,
        'max.poll.records': 3,
        startAtMs: 1000,
        commit,
      },
      sink: { type: 'table', name: 't' },
      faults: [
        {
          kind: 'crash',
          target: 'consumer-0',
          point: 'mid-batch',
          afterRecords: 2,
          restartAfterMs: 60_000,
        },
      ],
    });
  const p0Owners = (run: ReturnType<typeof runScenario>) =>
    entriesOf(run, 'assign')
      .filter((i) => run.trace.partition[i] === 0)
      .map((i) => `${run.trace.actors[run.trace.actor[i]!]}@${run.trace.time[i]}`);

  it('after processing: e4 and e5 are read again by consumer-1 from offset 0, and the sentence says so', () => {
    // Nothing of p0 committed: consumer-1 starts at offset 0 and writes e4 and e5 a second time
    // (12 rows); consumer-0 gets p0 back at its restart (61,018 ms).
    const run = takeover('after-processing');
    expect(p0Owners(run)).toEqual(['consumer-0@1002', 'consumer-1@11018', 'consumer-0@61018']);
    expect(anomalies(run)).toEqual(['e4:2', 'e5:2']);
    expect(sentence(run)).toBe(
      "consumer-0 crashed after processing e4 and before its offset was committed → consumer-0's session expired (session.timeout.ms = 10000 ms) and the group gave partition 0 to consumer-1, which started from offset 0: the group had no committed offset, so auto.offset.reset=earliest applied → e4 was processed again → a plain INSERT has no key to collapse the copies",
    );
  });

  it('before processing: offset 3 was committed first, so consumer-1 starts past e6, which is lost', () => {
    // consumer-0 commits offset 3 (e4..e6 polled) before processing, processes e4 and e5 and
    // crashes: consumer-1 reads p0 from offset 3 (e8 on); e6 has no row.
    const run = takeover('before-processing');
    expect(anomalies(run)).toEqual(['e6:0']);
    expect(sentence(run)).toBe(
      "the loop committed offset 3 before processing the batch holding e6 → consumer-0 crashed → consumer-0's session expired (session.timeout.ms = 10000 ms) and the group gave partition 0 to consumer-1, which started from the last committed offset 3, past e6",
    );
  });
});
