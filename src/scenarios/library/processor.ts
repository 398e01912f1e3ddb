/**
 * Library presets whose failure happens in a Flink job: restored from its last checkpoint, it
 * replays what came after it (S07); a crash between a completed checkpoint and its 2PC commit
 * (S08). Spark's micro-batch (S16) is a module of its own, ./structuredStreaming.ts: a family is
 * loaded whole (src/scenarios/presetFamilies.ts), and an embed of one shows one preset.
 */
import type { ScenarioInput } from '../../engine';
import type { Preset } from '../types';
import { each, ids, indexedEvents } from './helpers';
import { sourceUrls } from './sources';

// ---------------------------------------------------------------- Flink: S07, S08 (and S25f)

/** A crash fault as written in a scenario, without its kind and target. */
type CrashSpec = Omit<
  Extract<NonNullable<ScenarioInput['faults']>[number], { kind: 'crash' }>,
  'kind' | 'target'
>;
/** A Flink processor block as written in a scenario. */
type FlinkInput = Extract<NonNullable<ScenarioInput['processor']>, { type: 'flink' }>;

/** e1..e200 at 0 ms and e201..e250 at 5 s (amount 10·i; true sum 313,750). */
const flinkEvents = indexedEvents(250, (i) => (i <= 200 ? 0 : 5000));

/**
 * The 2PC Kafka sink of S07c/S08: KafkaSink EXACTLY_ONCE, transactionalIdPrefix job-a, and
 * transaction.timeout.ms 15 min — what Flink users set: KafkaSinkBuilder's own 1 h default is above
 * a default broker's transaction.max.timeout.ms (15 min), which refuses it at initTransactions.
 */
export const exactlyOnceKafkaSink = {
  type: 'kafka',
  topic: 'out',
  deliveryGuarantee: 'EXACTLY_ONCE',
  transactionalIdPrefix: 'job-a',
  'transaction.timeout.ms': 900_000,
} as const;

/** Reader `rc` (read_committed) of `out`. */
export const rcReader = { name: 'rc', topic: 'out', 'isolation.level': 'read_committed' } as const;
/** Reader `ru` (read_uncommitted, the Java default) of `out`. */
const ruReader = {
  name: 'ru',
  topic: 'out',
  'isolation.level': 'read_uncommitted',
} as const;

/**
 * S07's job: KafkaSource on `in` → keyed running count and sum → sink, checkpoints every second
 * from its start at 1 s (at 2, 3, 4 s …, traffic or not [F-CKP]). Latency 1 ms and 1 ms per
 * record keep a record's cost (processing + a table round trip) small enough that all 200 first
 * records are processed before checkpoint 1 triggers at 2 s.
 */
export function flinkJob(
  name: string,
  sink: ScenarioInput['sink'],
  readers: ScenarioInput['readers'],
  crash: CrashSpec,
  expect: ScenarioInput['expect'],
  processor: Partial<Omit<FlinkInput, 'type'>> = {},
): ScenarioInput {
  return {
    version: 1,
    name,
    claim: 'exactly-once',
    network: { latencyMs: 1 },
    workload: { topic: 'in', events: flinkEvents },
    // The source re-sends what failed, as the exactly-once recipe has it (nothing fails there).
    producer: { 'linger.ms': 0, app: { onFailure: 'resend' } },
    processor: {
      type: 'flink',
      'execution.checkpointing.interval': 1000,
      startAtMs: 1000,
      processing: { perRecordMs: 1 },
      ...processor,
    },
    sink,
    readers: readers ?? [],
    faults: [{ id: 'TaskManager crash', kind: 'crash', target: 'flink', at: 5000, ...crash }],
    expect,
  };
}

const midBatch = (afterRecords: number): CrashSpec => ({ point: 'mid-batch', afterRecords });

const all250Once = {
  totals: { rows: 250, duplicates: 0, lost: 0, sum: 313_750 },
  rows: { ...each(['e1', 'e200', 'e201', 'e250'], 1) },
};
const last50Twice = {
  totals: { rows: 300, duplicates: 50, lost: 0, sum: 426_500 },
  rows: { e1: 1, e200: 1, ...each(ids(201, 250), 2) },
};
/** The operator state: every event counted once, whatever the sink saw. */
const stateOnce = { state: { totals: { rows: 250, duplicates: 0, sum: 313_750 } } };

/*
 * flink-checkpoint-replay — docs/semantics/scenarios.md#s07-flink-checkpoint-replay. Offsets here start at 0 as
 * in Kafka: e1..e200 sit at offsets 0..199 and C1's source position is "next = 200";
 * the S07 narrative (docs/semantics/scenarios.md#s07-flink-checkpoint-replay) numbers the same records 1..200 ("checkpoint at offset 200", "replaying 201..250"), so the
 * records, the replay and every count are the same. By hand:
 * The job starts at 1 s and processes e1..e200 (~3 ms each with a table round trip). Its
 * checkpoint coordinator triggers a checkpoint every second from then on, traffic or not [F-CKP]:
 * C1 at 2 s, after all 200: C1 = {next 200, state count 200, sum 201,000}. Idle until 5 s: C2, C3
 * and C4 (3, 4 and 5 s) complete with nothing new — C1's position and state (the engine accounts
 * for them when e201 is taken, at 5,005 ms; C4's barrier reached the task at 5,001 ms). At 5 s
 * e201..e250 arrive. The TaskManager crashes once 50 records have been processed since the last
 * barrier (mid-batch, afterRecords 50, armed at 5 s): right after e250 (5,161 ms; 5,071 ms with
 * the Kafka sink, whose writes need no round trip), before C5. It
 * restarts 1 s later, waits the 1 s restart delay (the triggers at 6 and 7 s find no task running
 * and get no id) and restores C4, the latest completed checkpoint: state S1, source rewound to
 * offset 200 [F-SSP]; e201..e250 are processed again and C5 (8 s) completes. State ends at count
 * 250, sum 313,750: exactly once in Flink's state [F-FT], in every variant.
 * - plain-sink (JDBC INSERT): all 50 pre-crash outputs were written (docs/semantics/flink.md#sink-flush-timing, default: all
 *   processed records flushed) and are written again: e201..e250 = 2: 300 rows, sum 313,750 +
 *   Σ10·i (201..250) = 313,750 + 112,750 = 426,500, 50 duplicates.
 * - upsert (ON CONFLICT (id) DO UPDATE SET amount = EXCLUDED.amount): 250 rows, 313,750.
 * - 2pc-read-committed (KafkaSink EXACTLY_ONCE, prefix job-a): e201..e250 went into the
 *   transaction opened at C1's pre-commit (still empty through C2–C4); on restore it is aborted
 *   [F-2PC, F-KAF] and the replay writes into a new one, committed when C5 completes. `out` holds 300 data records (50
 *   aborted). Reader rc: 250 rows, 313,750. Reader ru beside it: 300, 426,500.
 * - 2pc-read-uncommitted: the same run, with ru as the pipeline's end: 300 rows, 426,500,
 *   e201..e250 = 2 [K-DES: aborted records are visible to read_uncommitted]. rc beside it: 250.
 * - 2pc-jdbc-xa (JdbcSink.exactlyOnceSink): e201..e250 were written in XA transaction 2, opened
 *   after C1's prepare (still empty through C2–C4) and never prepared; the restore of C4 rolls it
 *   back and the replay's rows are prepared at C5's barrier and committed when C5 completes: 250
 *   rows, 313,750. Nothing of an epoch is visible before its COMMIT PREPARED (e1 appears at ~2 s,
 *   not at ~1 s).
 * - flushed-20-of-50 (S07.e, A7 with k = 20): the S07 narrative (docs/semantics/scenarios.md#s07-flink-checkpoint-replay) has all 50 processed and only 20
 *   flushed; this engine's table sink writes each record before the next is processed, so "20
 *   reached the sink" is expressed as a crash after 20 records (afterRecords 20). The sink rows
 *   are the same — e201..e220 = 2: 270 rows, sum 313,750 + Σ10·i (201..220) = 313,750 + 42,100 =
 *   355,850, 20 duplicates — but the `processed` point shows 270 attempts here, not 300.
 */
const flinkCheckpointReplay: Preset = {
  id: 'flink-checkpoint-replay',
  title: 'Flink restores a checkpoint and replays 50 records',
  group: 'processor',
  oneLine:
    'Exactly-once in Flink’s state is not exactly-once at the sink: the replay after a restore is written again.',
  illustrates: 'exactly-once',
  setup:
    'A Flink job reads 250 events from Kafka — e1..e200 at the start, e201..e250 five seconds later — keeps a running total per key, checkpoints every second, and writes every record to a JDBC table at once (one flush per row). Its last checkpoint before the crash is at offset 200. The TaskManager will crash after processing 50 new records, e201..e250, before the next checkpoint; the job will restore the checkpoint and read from offset 200 again.',
  story:
    'A Flink job keeps a running total per key with checkpoints every second. Its TaskManager died after processing 50 new records but before the next checkpoint, so the job restored the checkpoint at offset 200 and processed those 50 again. The running totals came out exactly right. The JDBC table downstream, written row by row (its sink set to flush every row, for low latency), had 50 duplicate rows, and a Kafka consumer reading the job’s transactional output with default settings saw them too.',
  watch:
    'Checkpoint 1 at offset 200, then checkpoints 2–4 with nothing new (the job triggers one every second, idle or not), the crash after e250 (after e220 in the crash-after-20 variant), the restore of checkpoint 4 rewinding the source to 200; then the records processed before the crash written to the sink a second time, or held in a transaction that is aborted.',
  fix: 'Try: the 2pc-read-committed variant (KafkaSink EXACTLY_ONCE, readers with isolation.level=read_committed), the 2pc-jdbc-xa variant (XA transactions per checkpoint) or an upsert on event_id → 0 duplicates.',
  predict: {
    needs: [
      '250 events',
      'writes every record to a JDBC table at once',
      'offset 200',
      '50 new records, e201..e250',
    ],
    question:
      'The job restores checkpoint 4 (offset 200, as checkpoint 1: nothing new came in between) and replays e201..e250. With a plain JDBC sink, how many rows end up in the table?',
    answer:
      '300: e201..e250 were written before the crash and again after the restore. The operator state, by contrast, counts each event once.',
    mark: { kind: 'numbers', values: [{ value: 300, what: 'rows' }] },
  },
  sources: sourceUrls('F-FT', 'F-SSP', 'F-CKP', 'F-KAF', 'F-2PC', 'F-GUA', 'K-DES'),
  variants: [
    {
      id: 'plain-sink',
      label: 'plain sink',
      summary:
        'JDBC INSERT flushed per row (withBatchSize(1)): every record processed before the crash was already written',
      scenario: flinkJob(
        'Flink restores a checkpoint and replays 50 records — plain sink',
        { type: 'table', name: 'totals' },
        [],
        midBatch(50),
        { ...last50Twice, observed: 'at-least-once', points: { ...stateOnce } },
      ),
    },
    {
      id: 'upsert',
      label: 'upsert',
      summary: 'INSERT … ON CONFLICT (id) DO UPDATE: the replay rewrites the same rows',
      scenario: flinkJob(
        'Flink restores a checkpoint and replays 50 records — upsert',
        { type: 'table', name: 'totals', statement: 'on-conflict-do-update' },
        [],
        midBatch(50),
        { ...all250Once, observed: 'exactly-once', points: { ...stateOnce } },
      ),
    },
    {
      id: '2pc-read-committed',
      label: '2PC, read_committed',
      summary: 'KafkaSink EXACTLY_ONCE: the pre-crash writes are in an aborted transaction',
      scenario: flinkJob(
        'Flink restores a checkpoint and replays 50 records — 2PC, read_committed',
        exactlyOnceKafkaSink,
        [rcReader, ruReader],
        midBatch(50),
        {
          ...all250Once,
          observed: 'exactly-once',
          points: {
            ...stateOnce,
            'log:out': { totals: { rows: 300, duplicates: 50 } },
            'reader:ru': last50Twice,
          },
        },
      ),
    },
    {
      id: '2pc-read-uncommitted',
      label: '2PC, read_uncommitted',
      summary: 'the same transactions, read with the Java default isolation level',
      scenario: flinkJob(
        'Flink restores a checkpoint and replays 50 records — 2PC, read_uncommitted',
        exactlyOnceKafkaSink,
        [ruReader, rcReader],
        midBatch(50),
        {
          ...last50Twice,
          observed: 'at-least-once',
          points: {
            ...stateOnce,
            'log:out': { totals: { rows: 300, duplicates: 50 } },
            'reader:rc': all250Once,
          },
        },
      ),
    },
    {
      id: '2pc-jdbc-xa',
      label: '2PC, JDBC XA',
      summary:
        "Flink's JDBC exactly-once sink: the pre-crash rows sit in an XA transaction that the restore rolls back",
      scenario: flinkJob(
        'Flink restores a checkpoint and replays 50 records — 2PC, JDBC XA',
        { type: 'table', name: 'totals', xa: true, retries: 0 },
        [],
        midBatch(50),
        { ...all250Once, observed: 'exactly-once', points: { ...stateOnce } },
      ),
    },
    {
      id: 'flushed-20-of-50',
      label: 'crash after 20',
      summary:
        'the TaskManager dies after 20 new records, not 50: only e201..e220 were written before the crash, and only they are written twice',
      scenario: flinkJob(
        'Flink restores a checkpoint and replays 50 records — crash after 20',
        { type: 'table', name: 'totals' },
        [],
        midBatch(20),
        {
          totals: { rows: 270, duplicates: 20, lost: 0, sum: 355_850 },
          rows: { e1: 1, e200: 1, ...each(ids(201, 220), 2), ...each(ids(221, 250), 1) },
          observed: 'at-least-once',
          points: { ...stateOnce, processed: { totals: { rows: 270, duplicates: 20 } } },
        },
      ),
    },
  ],
};

/*
 * flink-commit-phase-crash — docs/semantics/scenarios.md#s08-crash-in-the-2pc-commit-phase (offsets from 0, as above).
 * By hand, with S07c's job (KafkaSink EXACTLY_ONCE, reader rc): checkpoints are triggered every
 * second from 2 s [F-CKP]. C1 (next 200) completes at 2,004 ms and its transaction T1 (e1..e200)
 * commits. Nothing new comes until 5 s: C2 and C3 (3, 4 s) complete with C1's position and state
 * (accounted for at 4.5 s, one interval before the crash point below is armed: from then on the
 * checkpoints are simulated step by step), and so does C4 (5 s, 5,004 ms; its barrier reaches the
 * task before e201; its transaction is empty, nothing to commit). (In during-commit, whose crash
 * point no idle checkpoint reaches, C2–C4 are accounted for together when e201 is taken, at
 * 5,005 ms.) e201..e250 are written in T2.
 * C5's barrier (6 s) reaches the sink after e250: the pre-commit flushes T2, records it as
 * pending for C5 and opens the next epoch's transaction; C5 completes (6,004 ms) with source
 * position "next = 250". (preCommit / recoverAndCommit / recoverAndAbort are
 * the legacy TwoPhaseCommitSinkFunction's names; in KafkaSink the writer's prepareCommit hands the
 * committable over and the Committer commits it, and re-commits it on recovery.)
 * transaction.timeout.ms is set to 60 s explicitly (commitPhaseSink), the plain Kafka producer's
 * default, so that a 10-minute outage outlasts it [F-KAF: above "maximum checkpoint duration +
 * maximum restart duration", or data loss may happen].
 * - timeout-left-unset: Flink's KafkaSinkBuilder then sets 1 h (DEFAULT_KAFKA_TRANSACTION_TIMEOUT),
 *   above a default broker's transaction.max.timeout.ms (15 min): the coordinator refuses the
 *   InitProducerId with INVALID_TRANSACTION_TIMEOUT [K-BCFG]. The job starts at 1 s; the recovery
 *   round trip and the InitProducerId round trip (1 ms each way) end in the refusal at 1,004 ms, the
 *   task fails and runs again after exponential-delay's backoff (1 s, 1.5 s, 2.25 s, 3.375 s):
 *   failures at 1,004, 2,008, 3,512, 5,766 and 9,145 ms before the run stops at 10 s (no crash
 *   fault). Nothing is processed: rc 0 rows, 250 lost.
 * - recovered-in-time (crash after-checkpoint, armed at 5.5 s — after C4's notification, 5,005 ms —
 *   so the first completion notification after it is C5's, 6,005 ms): the TaskManager dies before
 *   notifyCheckpointComplete(C5) commits T2. It is back 1 s later (+1 s restart delay, 8,005 ms),
 *   restores C5 and the recovery commit commits T2 [F-2PC]; the next epoch's transaction never got
 *   a record, so there is nothing to abort. The source resumes at 250: nothing is replayed. rc:
 *   250 rows, 313,750. (Armed at 5 s, the crash would hit C4's notification — a checkpoint with
 *   nothing new, as Flink triggers one every second — and lose nothing.)
 * - after-transaction-timeout (restartAfterMs 600,000, i.e. 10 min > transaction.timeout.ms 60 s):
 *   the coordinator aborts T2 at ~65 s [K-PCFG]; the restored job's recovery commit fails. This is
 *   what the current KafkaSink does (ignoreFailuresAfterTransactionTimeout: true, the schema
 *   default): its KafkaCommitter catches InvalidTxnStateException / ProducerFencedException, logs
 *   "Unable to commit transaction … Most likely the transaction has been aborted" and drops the
 *   committable — silent data loss, the job keeps running; KafkaSink has no option to fail instead
 *   [F-KAF "data loss may happen"]. The source is at 250, so e201..e250 are never written again:
 *   rc 200 rows, sum 201,000, 50 lost.
 * - fail-on-expired (S08.b, A8's optional behaviour): a sink on the legacy
 *   TwoPhaseCommitSinkFunction whose recoverAndCommit throws when the commit fails, without
 *   ignoreFailuresAfterTransactionTimeout() — which is off by default there and does not exist on
 *   KafkaSink [F-2PC]. (Not the legacy FlinkKafkaProducer: its recoverAndCommit catches
 *   ProducerFencedException / InvalidTxnStateException and only logs "Presumably this transaction
 *   has been already committed before" — the loss of the variant above.) The rethrow fails the
 *   task right after each restore; it restarts after exponential-delay's growing backoff (1.5 s,
 *   2.25 s, … 25.6 s; the TaskManager stays up) and fails again: nine restores of C5 before the
 *   run stops at 700 s. It never gets past C5; rc stays at 200 rows, 201,000, 50 lost.
 * - during-commit (S08c: armed at 5 s, the crash comes just after T2's commit request was sent at
 *   C5's notification — the checkpoints before it had no transaction to commit): the coordinator
 *   already has the commit and completes it; the restore's recovery commit finds it done. rc: 250
 *   rows, 313,750.
 * In every variant each record is processed once (no replay: `processed` 250).
 */
/** S08's sink: KafkaSink EXACTLY_ONCE with transaction.timeout.ms set explicitly (60 s). */
const commitPhaseSink = { ...exactlyOnceKafkaSink, 'transaction.timeout.ms': 60_000 } as const;
/** The same sink as a Flink user first writes it: transaction.timeout.ms not set (KafkaSink: 1 h). */
const { 'transaction.timeout.ms': _timeout, ...unsetTimeoutSink } = exactlyOnceKafkaSink;

const flinkCommitPhaseCrash: Preset = {
  id: 'flink-commit-phase-crash',
  title: 'A crash between the checkpoint and the commit',
  group: 'processor',
  oneLine:
    'The checkpoint is complete but its Kafka transaction is not committed yet: recovery must finish it in time.',
  illustrates: 'exactly-once',
  setup:
    'A Flink job copies 250 events from Kafka to a Kafka topic with KafkaSink EXACTLY_ONCE: each checkpoint’s records are written in a transaction that is committed only after the checkpoint completes. transaction.timeout.ms is 60 s: the broker aborts a transaction left open longer. e1..e200 arrive at the start, e201..e250 later. The TaskManager will crash right after the checkpoint that covers e201..e250 completes, before their transaction is committed, and stay down for 10 minutes. A reader downstream reads the topic with read_committed.',
  story:
    'A Flink job writes to Kafka with two-phase commit (KafkaSink, EXACTLY_ONCE), its transaction.timeout.ms set to 60 s — the plain Kafka producer’s default; left unset, Flink’s KafkaSink would ask for 1 h, which a broker at its defaults (transaction.max.timeout.ms, 15 min) refuses: the job would not even start. Its TaskManager died in the short window after checkpoint 5 — the first after e201..e250, checkpoints 2–4 having completed with nothing new while the job was idle — had completed and before the transaction holding e201..e250 was committed. When the job came back within a minute, it committed that transaction and nothing was lost. During an outage that kept it down for ten minutes, Kafka had already aborted the transaction: KafkaSink only logged that it was unable to commit it, the job kept running, and 50 events silently vanished from the output.',
  watch:
    'Checkpoint 5 completing, the crash before the commit marker, and what the restore does with transaction 2: commits it, finds it aborted by the coordinator’s timeout (a data-loss entry), or fails on it at every restart. With transaction.timeout.ms left unset there is no checkpoint at all: InitProducerId is refused at every start.',
  fix: 'Try: keep transaction.timeout.ms above the longest checkpoint plus the longest restart, as Flink’s Kafka connector guide asks (and at most the broker’s transaction.max.timeout.ms, 15 min by default), or restart faster: the after-transaction-timeout variant loses 50 events, recovered-in-time loses none.',
  predict: {
    needs: [
      '250 events',
      'committed only after the checkpoint completes',
      '60 s',
      'e201..e250',
      '10 minutes',
      'read_committed',
    ],
    question:
      'The job is down for 10 minutes; transaction.timeout.ms is 60 s. How many rows does the read_committed reader end with?',
    answer:
      '200. The coordinator aborted the pending transaction after 60 s, so recovery could not commit e201..e250, and the source had already moved past them.',
    variant: 'after-transaction-timeout',
    mark: { kind: 'numbers', values: [{ value: 200, what: 'rows' }] },
  },
  sources: sourceUrls('F-2PC', 'F-KAF', 'F-CKP', 'K-PCFG', 'K-PJD', 'K-BCFG'),
  variants: [
    {
      id: 'recovered-in-time',
      label: 'recovered in time',
      summary:
        'back within transaction.timeout.ms: the pending transaction is committed on restore',
      scenario: flinkJob(
        'A crash between the checkpoint and the commit — recovered in time',
        commitPhaseSink,
        [rcReader],
        { point: 'after-checkpoint', at: 5500 },
        {
          ...all250Once,
          observed: 'exactly-once',
          points: { processed: { totals: { rows: 250, duplicates: 0 } } },
        },
      ),
    },
    {
      id: 'after-transaction-timeout',
      label: 'after transaction.timeout.ms',
      summary:
        'down for 10 minutes: Kafka has aborted the transaction; KafkaSink logs the failed commit and goes on, e201..e250 are silently lost',
      scenario: flinkJob(
        'A crash between the checkpoint and the commit — after transaction.timeout.ms',
        commitPhaseSink,
        [rcReader],
        { point: 'after-checkpoint', at: 5500, restartAfterMs: 600_000 },
        {
          totals: { rows: 200, duplicates: 0, lost: 50, sum: 201_000 },
          rows: { e1: 1, e200: 1, ...each(ids(201, 250), 0) },
          observed: 'at-most-once',
          points: { processed: { totals: { rows: 250, duplicates: 0 } } },
        },
      ),
    },
    {
      id: 'fail-on-expired',
      label: 'after the timeout, a 2PC sink failing on restore',
      summary:
        'a TwoPhaseCommitSinkFunction whose recovery commit throws, without ignoreFailuresAfterTransactionTimeout(): the expired commit fails every restart, the job is stuck (the legacy FlinkKafkaProducer only logs it, and loses the data)',
      scenario: {
        ...flinkJob(
          'A crash between the checkpoint and the commit — after the timeout, a 2PC sink failing on restore',
          { ...commitPhaseSink, ignoreFailuresAfterTransactionTimeout: false },
          [rcReader],
          { point: 'after-checkpoint', at: 5500, restartAfterMs: 600_000 },
          {
            totals: { rows: 200, duplicates: 0, lost: 50, sum: 201_000 },
            rows: { e1: 1, e200: 1, ...each(ids(201, 250), 0) },
            observed: 'at-most-once',
            points: { processed: { totals: { rows: 250, duplicates: 0 } } },
          },
        ),
        stopAtMs: 700_000,
      },
    },
    {
      id: 'during-commit',
      label: 'crash during the commit',
      summary: 'the commit request had reached the coordinator: it completes anyway',
      scenario: flinkJob(
        'A crash between the checkpoint and the commit — crash during the commit',
        commitPhaseSink,
        [rcReader],
        { point: 'during-commit' },
        {
          ...all250Once,
          observed: 'exactly-once',
          points: { processed: { totals: { rows: 250, duplicates: 0 } } },
        },
      ),
    },
    {
      id: 'timeout-left-unset',
      label: 'transaction.timeout.ms left unset',
      summary:
        'KafkaSink’s own 1 h default is above a default broker’s transaction.max.timeout.ms (15 min): InitProducerId is refused, the job fails at every start and writes nothing',
      scenario: {
        ...flinkJob(
          'A crash between the checkpoint and the commit — transaction.timeout.ms left unset',
          unsetTimeoutSink,
          [rcReader],
          { point: 'after-checkpoint' },
          {
            totals: { rows: 0, duplicates: 0, lost: 250, sum: 0 },
            rows: { e1: 0, e250: 0 },
            observed: 'at-most-once',
            points: { processed: { totals: { rows: 0, duplicates: 0 } } },
          },
        ),
        faults: [],
        stopAtMs: 10_000,
      },
    },
  ],
};

/** The Flink presets, in library order (Spark's: ./structuredStreaming.ts). */
export const processorPresets = { flinkCheckpointReplay, flinkCommitPhaseCrash };
