/**
 * The challenges shipped with the lab, in the order the Challenges list shows them. Each is a
 * goal over the student's own run, decided by the engine; its reference solution is the minimal
 * one, and src/scenarios/challenges/challenges.test.ts proves each solvable, its start failing, its
 * solution passing and its rules refusing what they forbid. The number of solutions each has is
 * counted by running them (src/views/challenge/solutions.ts) and kept in solutionCounts.json.
 */
import type { ChallengeInput, ScenarioInput } from '../../engine';
import { findPreset } from '../index';

/** A small Flink job writing to a plain table: 12 events, one every 200 ms, a checkpoint a second. */
function smallFlinkJob(): ScenarioInput {
  const base = structuredClone(findPreset('flink-checkpoint-replay/plain-sink')!.variant.scenario);
  delete base.expect;
  return {
    ...base,
    name: 'A Flink job writing to a plain table',
    workload: {
      topic: 'in',
      events: Array.from({ length: 12 }, (_, i) => ({
        id: `e${i + 1}`,
        amount: 10 * (i + 1),
        at: 200 * i,
      })),
    },
    processor: {
      type: 'flink',
      'execution.checkpointing.interval': 1000,
      startAtMs: 0,
      processing: { perRecordMs: 1 },
    },
    faults: [],
  };
}

/**
 * commit-before-process with five records a poll: commitSync() right after each poll, a crash after
 * 2 records of the second batch (docs/semantics/scenarios.md#s12-commit-before-processing).
 */
function commitFirstFivePerPoll(): ScenarioInput {
  return {
    version: 1,
    name: 'Commit first, five at a time',
    claim: 'exactly-once',
    workload: { topic: 'events', generate: { count: 10, startAtMs: 10, intervalMs: 10 } },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      commit: 'before-processing',
      'auto.offset.reset': 'earliest',
      'max.poll.records': 5,
      startAtMs: 1000,
    },
    sink: { type: 'table', name: 'events' },
    faults: [
      {
        id: 'crash',
        kind: 'crash',
        target: 'consumer-0',
        point: 'mid-batch',
        afterRecords: 2,
        nth: 2,
      },
    ],
  };
}

export const shippedChallenges: readonly ChallengeInput[] = [
  {
    version: 1,
    id: 'acks-one-loses',
    title: 'acks=1: the leader’s word alone',
    area: 'producer',
    intro:
      'This producer sends with acks=1: the partition leader acknowledges a record as soon as it has written it to its own log, before any follower has a copy. Make one acknowledged event disappear with a single fault.',
    start: { preset: 'lost-ack-retry/acks-1', withoutFaults: true },
    goal: { kind: 'lose', atLeast: 1 },
    allow: { faults: { max: 1 }, knobs: { max: 0, locked: [] } },
    hints: [
      {
        after: 2,
        text: 'A lost message is retried: the producer or the consumer sends it again. Look at the broker instead.',
      },
      {
        after: 4,
        text: 'What happens when the leader fails right after appending a record, before its followers have copied it?',
      },
    ],
    solution: {
      faults: [
        {
          id: 'leader fails',
          kind: 'leader-failover',
          at: 100,
          point: 'after-append',
          partition: 0,
          restartAfterMs: 60_000,
        },
      ],
      knobs: [],
      why: 'The leader of events-0 fails right after appending e1 and acknowledging it (acks=1), before it answers its followers’ fetches with it. A follower becomes the leader without e1, and the producer, told it was written, never sends it again (https://kafka.apache.org/documentation/#producerconfigs_acks).',
    },
  },
  {
    version: 1,
    id: 'duplicate-with-idempotence-on',
    title: 'A duplicate with idempotence on',
    area: 'producer',
    intro:
      'The producer is idempotent: a retried batch is never appended twice to the log. Idempotence must stay on. Lose or delay one message on the network so that an event is still applied twice.',
    start: {
      preset: 'lost-ack-retry/idempotence-on',
      withoutFaults: true,
      set: [{ path: 'producer.enable.idempotence', value: true }],
    },
    goal: { kind: 'duplicate', atLeast: 1 },
    allow: {
      faults: { max: 1, kinds: ['drop-request', 'drop-response', 'delay-response'] },
      knobs: { max: 0, locked: ['producer.enable.idempotence'] },
    },
    hints: [
      { after: 2, text: 'Idempotence protects the log. Where else is a request retried?' },
      {
        after: 4,
        text: 'The consumer writes each record to a table with a plain INSERT, and retries a statement that timed out.',
      },
    ],
    solution: {
      faults: [{ kind: 'drop-response', at: 118, link: 'sink', match: { nth: 1 } }],
      knobs: [],
      why: 'The table’s answer to the INSERT of e1 is lost: the consumer’s JDBC client stops waiting for it (its socketTimeout: https://jdbc.postgresql.org/documentation/use/) and runs the statement again, and a plain INSERT adds a second row. The producer’s idempotence covers the log, not the sink (https://kafka.apache.org/documentation/#semantics).',
    },
  },
  {
    version: 1,
    id: 'acks-zero-loses',
    title: 'Fire and forget',
    area: 'producer',
    intro:
      'This producer sends with acks=0: it never waits for the broker. Make one event disappear with a single fault.',
    start: { preset: 'acks0-dropped-request/default', withoutFaults: true },
    goal: { kind: 'lose', atLeast: 1 },
    allow: { faults: { max: 1 }, knobs: { max: 0, locked: [] } },
    hints: [
      {
        after: 2,
        text: 'With acks=0 there is no acknowledgement, so nothing tells the producer to retry.',
      },
      { after: 4, text: 'Click a produce request in flight on its way to the broker.' },
    ],
    solution: {
      faults: [{ kind: 'drop-request', at: 105, link: 'produce', match: { nth: 1 } }],
      knobs: [],
      why: 'The produce request carrying e1 never reaches the broker; with acks=0 the producer expects no answer, so nothing fails and nothing is retried (https://kafka.apache.org/documentation/#producerconfigs_acks).',
    },
  },
  {
    version: 1,
    id: 'commit-before-crash-point',
    title: 'Find the crash point that loses data',
    area: 'consumer',
    intro:
      'This consumer calls commitSync() right after poll(), then writes the batch. Crash it once, at the right point, so that some events are never written.',
    start: { preset: 'commit-before-process/default', withoutFaults: true },
    goal: { kind: 'lose', atLeast: 1 },
    allow: { faults: { max: 1, kinds: ['crash'] }, knobs: { max: 0, locked: [] } },
    hints: [
      { after: 2, text: 'Once the offset is committed, a restart resumes after it.' },
      { after: 4, text: 'Crash the consumer in the middle of its batch.' },
    ],
    solution: {
      faults: [{ kind: 'crash', target: 'consumer-0', point: 'after-commit' }],
      knobs: [],
      why: 'The consumer commits the batch’s offsets, then dies before writing it: the restart resumes after the committed offset, so the whole batch is never written — at-most-once (https://kafka.apache.org/documentation/#semantics).',
    },
  },
  {
    version: 1,
    id: 'fix-at-least-once',
    title: 'Make the sink exact with at most two knobs',
    area: 'consumer',
    intro:
      'Under these two faults — a lost produce acknowledgement and a consumer crash mid-batch — this at-least-once pipeline writes duplicates. Change at most two knobs so that every payment is in the table exactly once. The faults stay.',
    start: { preset: 'at-least-once/default' },
    goal: { kind: 'exact' },
    allow: { faults: { max: 0 }, knobs: { max: 2, locked: [] } },
    hints: [
      {
        after: 2,
        text: 'The duplicates have two causes — a retried produce request and a replayed batch — but both end in the same table.',
      },
      { after: 4, text: 'Could the table itself refuse a second row for the same payment?' },
    ],
    solution: {
      faults: [],
      knobs: [{ path: 'sink.statement', value: 'on-conflict-do-nothing' }],
      why: 'One knob is enough: INSERT … ON CONFLICT (id) DO NOTHING on the payment id skips both the second copy of p-4 in the log and the rows the crashed batch wrote before its commit (https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT).',
    },
  },
  {
    version: 1,
    id: 'flink-crash-writes-twice',
    title: 'The crash that writes twice',
    area: 'flink',
    intro:
      'A Flink job checkpoints every second and writes each record to a table with a plain INSERT as it goes. Crash the TaskManager once so that an event lands in the table twice.',
    start: { scenario: smallFlinkJob() },
    goal: { kind: 'duplicate', atLeast: 1 },
    allow: { faults: { max: 1, kinds: ['crash'] }, knobs: { max: 0, locked: [] } },
    hints: [
      {
        after: 2,
        text: 'A restore rewinds the job to its last completed checkpoint, and the source offsets with it.',
      },
      {
        after: 4,
        text: 'Crash it after it has written a record but before the next checkpoint completes.',
      },
    ],
    solution: {
      faults: [{ kind: 'crash', target: 'flink', point: 'mid-batch', afterRecords: 1 }],
      knobs: [],
      why: 'The TaskManager dies after writing e1, before any checkpoint has completed: the job restarts from the source offsets of the last checkpoint and writes e1 again — the table is outside Flink’s checkpoint (https://nightlies.apache.org/flink/flink-docs-stable/docs/learn-flink/fault_tolerance/).',
    },
  },
  {
    version: 1,
    id: 'flink-fix-sink',
    title: 'Make the Flink replay harmless',
    area: 'flink',
    intro:
      'The TaskManager crashes between two checkpoints, and the restore replays what the table already has. Change one knob so that the table holds every event once.',
    start: {
      scenario: {
        ...smallFlinkJob(),
        faults: [
          {
            id: 'TaskManager crash',
            kind: 'crash',
            target: 'flink',
            at: 1500,
            point: 'mid-batch',
            afterRecords: 1,
          },
        ],
      },
    },
    goal: { kind: 'exact' },
    allow: { faults: { max: 0 }, knobs: { max: 1, locked: [] } },
    hints: [
      { after: 2, text: 'The replay cannot be avoided; its effect can.' },
      { after: 4, text: 'The sink statement: what if writing a row again changed nothing?' },
    ],
    solution: {
      faults: [],
      knobs: [{ path: 'sink.statement', value: 'on-conflict-do-update' }],
      why: 'The replay still happens, but an upsert on the event id writes the same rows again instead of adding new ones: an idempotent sink makes an at-least-once replay exact (https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/jdbc/).',
    },
  },
  {
    version: 1,
    id: 'spark-exactly-once-duplicate',
    title: 'Exactly-once, and yet twice',
    area: 'spark',
    intro:
      'This Spark query writes each micro-batch to Delta with txnAppId and txnVersion: a batch run again after a failure is skipped. Make one event appear twice in the table with a single fault.',
    start: { preset: 'spark-batch-replay/delta-txn', withoutFaults: true },
    goal: { kind: 'duplicate', atLeast: 1 },
    allow: { faults: { max: 1 }, knobs: { max: 0, locked: [] } },
    hints: [
      {
        after: 2,
        text: 'Crash the driver wherever you like: the batch id makes the rerun a no-op.',
      },
      {
        after: 4,
        text: 'Exactly-once starts at the source: what if the input itself holds the event twice?',
      },
    ],
    solution: {
      faults: [{ kind: 'app-resend', at: 0, event: 'e1' }],
      knobs: [],
      why: 'The application sends e1 again as a new record: the log holds it twice at two offsets, and Spark, exactly-once from the log to Delta, faithfully writes both. No sink can tell a second send from a second event without a business key (https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#fault-tolerance-semantics).',
    },
  },
  {
    version: 1,
    id: 'spark-fix-append',
    title: 'A rerun batch, appended again',
    area: 'spark',
    intro:
      'The Spark driver crashes after writing micro-batch 3 and before committing it; the restart runs batch 3 again, and the plain append writes it twice. Change one knob so that the table is exact.',
    start: { preset: 'spark-batch-replay/append' },
    goal: { kind: 'exact' },
    allow: { faults: { max: 0 }, knobs: { max: 1, locked: [] } },
    hints: [
      {
        after: 2,
        text: 'The rerun is the same batch with the same rows: let the table recognise them.',
      },
    ],
    solution: {
      faults: [],
      knobs: [{ path: 'sink.statement', value: 'on-conflict-do-nothing' }],
      why: 'The rerun of batch 3 writes the same rows; ON CONFLICT DO NOTHING on the event id skips them (https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#using-foreach-and-foreachbatch).',
    },
  },
  {
    version: 1,
    id: 'sink-generated-ids',
    title: 'Keys that change on a replay',
    area: 'sink',
    intro:
      'The table skips a row whose key it already has — but the key is a uuid4() drawn when the record is processed. The consumer crashes before its commit and replays a batch. Change one knob of the sink so that the replay changes nothing (the consumer stays as it is).',
    start: { preset: 'pipeline-generated-ids/random-id' },
    goal: { kind: 'exact' },
    allow: { faults: { max: 0 }, knobs: { max: 1, locked: ['processor'] } },
    hints: [
      { after: 2, text: 'A replayed record gets a fresh uuid4(): the table sees a new row.' },
      {
        after: 4,
        text: 'Key the rows on something the replay keeps: the event id, or the record’s offset.',
      },
    ],
    solution: {
      faults: [],
      knobs: [{ path: 'sink.key', value: 'business-id' }],
      why: 'Keyed on the event id, the replayed rows conflict with the ones already written and are skipped. A key made at processing time (uuid4) is new on every replay, so the conflict never happens (https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT).',
    },
  },
  {
    version: 1,
    id: 'commit-first-exactly-once',
    title: 'Exactly once, the crash left in',
    area: 'consumer',
    intro:
      'This consumer polls five records at a time and commits each batch right after its poll, before writing it; it crashes after writing 2 records of its second batch, and three events never reach the table. Make the table hold every event exactly once without touching the fault: change at most two knobs.',
    start: { scenario: commitFirstFivePerPoll() },
    goal: { kind: 'exact' },
    allow: { faults: { max: 0 }, knobs: { max: 2, locked: [] } },
    hints: [
      { after: 2, text: 'When is the offset committed: before the batch is written, or after?' },
      {
        after: 4,
        text: 'A replayed batch writes its first rows again: can the table refuse them?',
      },
    ],
    solution: {
      faults: [],
      knobs: [
        { path: 'processor.commit', value: 'after-processing' },
        { path: 'sink.statement', value: 'on-conflict-do-nothing' },
      ],
      why: 'Committing after the writes turns the loss into a replay of the second batch (https://kafka.apache.org/documentation/#semantics), and INSERT … ON CONFLICT (id) DO NOTHING skips the rows the replay writes again (https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT).',
    },
  },
];
