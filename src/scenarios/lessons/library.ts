/**
 * The lessons shipped with the lab, each a walk through library presets (src/scenarios/library,
 * src/scenarios/foundation.ts) in the order a room meets the problems. Every step plays a preset
 * as shipped, so its run and its answer are the preset's, pinned by its `expect` and derived by
 * hand there (docs/semantics/scenarios.md); a step on a variant its preset's question is not
 * about gets its own setup and question, or the question any run can be asked (four choices,
 * judged against the run's verdict). ./library.test.ts checks every step runs and is answerable.
 */
import type { LessonInput } from './schema';

/** "Delivery guarantees in 45 minutes": producer → consumer → exactly-once end to end. */
const deliveryGuarantees: LessonInput = {
  version: 1,
  id: 'delivery-guarantees-45',
  title: 'Delivery guarantees in 45 minutes',
  description:
    'At-most-once, at-least-once and exactly-once, from the producer to the consumer to the sink: ten stories, each predicted before it plays, and a closing question.',
  steps: [
    {
      title: 'At-most-once: commit first, never retry',
      preset: 'at-most-once',
      note: 'Start with the cheapest guarantee. Ask for hands: who has seen a pipeline lose data without an error?',
    },
    {
      title: 'At-least-once: retry everything, dedupe nothing',
      preset: 'at-least-once',
      note: 'The mirror image: nothing lost, some twice. After the reveal, point at p-4 (a producer retry) and p-5..p-7 (a consumer replay): two different causes, one symptom.',
      thenFlipTo: { guarantee: 'exactly-once' },
    },
    {
      title: 'Effectively-once: at-least-once plus an idempotent write',
      preset: 'effectively-once',
      note: 'The consumer still writes twice; the sink absorbs it. This is what most teams mean by “exactly-once”.',
    },
    {
      title: 'acks=0: a request lost on the wire',
      preset: 'acks0-dropped-request',
      pace: 0.02,
      note: 'The multiple-choice question: most rooms expect an error somewhere. There is none.',
    },
    {
      title: 'A lost acknowledgement, retried',
      preset: 'lost-ack-retry',
      note: 'The broker has the record; the producer does not know. After the reveal, flip idempotence on and compare.',
      thenFlipTo: { knob: 'producer.enable.idempotence', value: true },
    },
    {
      title: 'The same lost ack, idempotent producer',
      preset: 'lost-ack-retry/idempotence-on',
      // The default took effect in 3.0.1, 3.1.1 and 3.2.0 (KIP-679; KAFKA-13598 kept 3.0.0 and
      // 3.1.0 from applying it): https://kafka.apache.org/30/getting-started/upgrade
      setup:
        'The same ten events, e1..e10 (sum 550), the same lost acknowledgement of e3 and the same retry — now with enable.idempotence=true, the producer’s default since Kafka 3.0.1, 3.1.1 and 3.2: the broker keeps each producer’s sequence numbers.',
      note: 'The broker drops the retry by its sequence number (KIP-98). Ask: what does idempotence NOT cover? Then Ask the challenge: each student looks for a duplicate with idempotence left on (the sink’s retried INSERT: idempotence covers the log only). The next step is the application’s own re-send.',
      // After the reveal, the room finds what idempotence does not cover on its own laptops.
      challenge: 'duplicate-with-idempotence-on',
    },
    {
      title: 'The application sends p-77 twice',
      preset: 'payment-resent-by-app',
      note: 'Idempotence is per producer session and per record sent, not per business event.',
    },
    {
      title: 'Commit first, then process',
      preset: 'commit-before-process',
      note: 'The consumer side of at-most-once: the offset moved before the work was done.',
    },
    {
      title: 'Process, then commit: the replayed batch',
      preset: 'commit-after-process/additive-upsert',
      note: 'At-least-once on the consumer side, and an upsert that is not idempotent: the value doubles.',
    },
    {
      title: 'Consume, transform, produce in one transaction',
      preset: 'consume-transform-produce',
      note: 'Exactly-once end to end inside Kafka: the output and the offsets commit together, and the reader must read committed data.',
    },
    {
      // "Which single fault breaks at-least-once?" has no answer among the faults: the fault
      // atlas of step 2's story holds the claim under every one of its 277 placements
      // (`npm run --silent sim -- at-least-once --explore`; ./library.test.ts pins it). Asked as
      // the choice it is, with "none" the right one, the room's answer exists.
      title: 'One more fault: can at-least-once lose a payment?',
      preset: 'at-least-once',
      setup:
        'Step 2’s pipeline again: 20 payments, p-1..p-20, sent with acks=all and retries (idempotence off), and a consumer that commits only after writing them. Add one more fault to its run, anywhere: a request or an acknowledgement lost or delayed, a crash of the consumer at any point, a leader failover, a rebalance, a zombie, a re-send.',
      question: {
        question: 'Which single fault makes this pipeline lose a payment?',
        answer:
          'None: it re-sends what was not acknowledged and replays from its last commit, so a fault adds duplicates at most (the fault atlas: all 277 placements of one more fault hold).',
        mark: {
          kind: 'choice',
          options: [
            {
              id: 'lost-ack',
              text: 'A lost acknowledgement',
              whyNot: 'The producer sends the record again: it lands twice, never zero times.',
            },
            {
              id: 'crash-before-commit',
              text: 'A consumer crash before its commit',
              whyNot: 'It restarts from its last commit and writes the batch again: duplicates.',
            },
            {
              id: 'leader-failover',
              text: 'A leader failover after an append',
              whyNot:
                'With acks=all the producer hears back once the followers hold the record; one it did not hear back about, it sends again.',
            },
            { id: 'none', text: 'None of them', right: true },
          ],
        },
        needs: ['acks=all and retries', 'commits only after writing'],
      },
      note: 'The closing question: after the reveal, open Explore faults on at-least-once — 277 placements, every one held. Losses came from configuration (acks=0, commit first), never from a fault alone.',
    },
  ],
};

/** "Exactly-once in Flink and Spark": checkpoints, two-phase commit, micro-batches. */
const flinkAndSpark: LessonInput = {
  version: 1,
  id: 'exactly-once-flink-spark',
  title: 'Exactly-once in Flink and Spark',
  description:
    'What a checkpoint restore or a re-run micro-batch does to each kind of sink, and what it takes to make the output exact.',
  steps: [
    {
      title: 'Flink restores a checkpoint and replays 50 records',
      preset: 'flink-checkpoint-replay',
      note: 'Flink’s state is exactly-once; its side effects are not. Keep the state counter on screen.',
    },
    {
      title: 'The same replay into an upsert',
      preset: 'flink-checkpoint-replay/upsert',
      setup:
        'The same Flink job: 250 events, the crash after e201..e250 are written, the restore from offset 200 — but the JDBC sink writes INSERT … ON CONFLICT (id) DO UPDATE.',
      question: {
        question: 'How many rows does the table end with?',
        answer: '250: the replay rewrites the rows of e201..e250 in place.',
        mark: { kind: 'numbers', values: [{ value: 250, what: 'rows', units: ['rows'] }] },
        needs: ['250 events', 'e201..e250', 'ON CONFLICT (id) DO UPDATE'],
      },
      note: 'An idempotent sink makes the replay harmless — as long as the record carries a stable key.',
    },
    {
      title: 'KafkaSink EXACTLY_ONCE, read committed',
      preset: 'flink-checkpoint-replay/2pc-read-committed',
      setup:
        'The same job and crash, but the sink is KafkaSink with EXACTLY_ONCE: each checkpoint’s records go into a Kafka transaction committed when the checkpoint completes. The reader uses read_committed.',
      note: 'Two-phase commit: the pre-crash writes are in a transaction that is aborted on restore.',
    },
    {
      title: 'The same transactions, read uncommitted',
      preset: 'flink-checkpoint-replay/2pc-read-uncommitted',
      setup:
        'The same KafkaSink EXACTLY_ONCE job and crash, read by a consumer left at the Java client’s default isolation level, read_uncommitted.',
      note: 'Exactly-once is a property of the whole chain, reader included.',
    },
    {
      title: 'A crash between the checkpoint and the commit, back in time',
      preset: 'flink-commit-phase-crash/recovered-in-time',
      setup:
        'A Flink job copies 250 events to Kafka with KafkaSink EXACTLY_ONCE. It crashes right after the checkpoint covering e201..e250 completes, before the commit, and is back within transaction.timeout.ms (60 s). The reader uses read_committed.',
      note: 'On restore, the sink commits the pending transaction: the commit is idempotent.',
    },
    {
      title: 'Down for 10 minutes: the transaction timed out',
      // The variant named: the preset's first is recovered-in-time, whose run held exactly-once
      // under this step's title and its setup's "stay down for 10 minutes".
      preset: 'flink-commit-phase-crash/after-transaction-timeout',
      note: 'The silent loss: transaction.timeout.ms must cover the longest outage you expect.',
    },
    {
      title: 'An aborted transaction, read anyway',
      preset: 'aborted-transaction-dirty-read',
      note: 'Why read_committed matters downstream of every transactional writer.',
    },
    {
      title: 'Spark re-runs a micro-batch',
      preset: 'spark-batch-replay',
      note: 'foreachBatch is at-least-once: Spark re-runs a batch it did not record as done, with the same offsets and the same batchId.',
      thenFlipTo: { guarantee: 'exactly-once' },
    },
    {
      title: 'The re-run, written with Delta’s txnAppId/txnVersion',
      preset: 'spark-batch-replay/delta-txn',
      setup:
        'The same query, crash and re-run of batch 2 (e21..e30), but foreachBatch writes to Delta with txnAppId and txnVersion = batchId: Delta skips a version it already has.',
      note: 'Idempotent by batch id: the documented way to make foreachBatch exactly-once.',
    },
    {
      title: 'The re-run, written with MERGE',
      preset: 'spark-batch-replay/merge',
      setup:
        'The same query, crash and re-run of batch 2 (e21..e30), but foreachBatch runs a Delta MERGE ON event_id WHEN NOT MATCHED THEN INSERT.',
      note: 'Idempotent by key: fine here, as long as the key is stable and the source has no duplicates.',
    },
    {
      title: 'The built-in file sink',
      preset: 'spark-batch-replay/file-sink',
      setup:
        'The same query, crash and re-run of batch 2 (e21..e30), written by Spark’s built-in parquet file sink, which records each batch’s files in its metadata log.',
      note: 'End-to-end exactly-once from a replayable source to the file sink, as the Structured Streaming guide says.',
    },
  ],
};

/** The lessons of the library, as written (parsed where used: ./catalog.ts). */
export const LESSON_FILES: readonly LessonInput[] = [deliveryGuarantees, flinkAndSpark];
