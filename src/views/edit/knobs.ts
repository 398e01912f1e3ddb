/**
 * Every knob the dashboard lets you edit, as data: its path in the scenario (as `getKnob`/`setKnob`
 * address it), its real name, what it does, its real default, and the official page it comes from.
 * The texts follow the schema's TSDoc (src/engine/scenario/schema.ts) and the linked docs.
 *
 * `realDefault` is the system's own default; where our simulator starts from another value (three
 * brokers instead of one, …) `note` says so. Knobs that exist only in the simulator (how the
 * application uses the producer, when the consumer starts) say "simulator" instead of a link.
 */
import type { Scenario, ScenarioInput } from '../../engine';
import { CONTENT_COLUMNS, EVENT_CONTENT_COLUMNS, outputTransactionTimeoutMs } from '../../engine';
import { getKnob, setKnob, type KnobSetting } from '../../scenarios';

/** Where a knob lives in the pipeline. */
export type KnobGroup = 'producer' | 'broker' | 'processor' | 'sink' | 'reader' | 'network';

/** How a knob is edited. */
type KnobEditor =
  /** One of `options`; with `unsetLabel`, also unset (undefined: the default rule applies). */
  | { type: 'enum'; options: readonly string[]; unsetLabel?: string }
  | { type: 'boolean' }
  /** Unset (the default rule applies), true or false. */
  | { type: 'tristate'; unsetLabel: string }
  | { type: 'number'; min: number; max: number; unit?: 'ms' | 'records' | 'bytes' }
  /**
   * A number, or off (null). Turned back on, it takes the last number it had in the undo
   * history, else `onValue` — and the notice says why (`onWhy`).
   */
  | {
      type: 'nullable-number';
      min: number;
      max: number;
      unit?: 'ms';
      offLabel: string;
      onValue: number;
      onWhy: string;
    }
  /** A name; empty = unset (undefined) or null when `nullable`. */
  | { type: 'text'; nullable?: boolean }
  /** A list of numbers, written comma-separated; empty = unset. */
  | { type: 'number-list'; unit: 'ms' }
  /**
   * A key: one of `options` (an identifying column), or a tuple of the content `columns` (at
   * least one), the rules in ./knobsKey.ts.
   */
  | { type: 'key'; options: readonly string[]; columns: readonly string[] };

/** One editable knob. */
export interface KnobMeta {
  /** Dotted path, e.g. `producer.enable.idempotence`, `readers.0.isolation.level`. */
  path: string;
  /** The real name as the system spells it (`enable.idempotence`). */
  name: string;
  group: KnobGroup;
  /** System it belongs to, for the tooltip ("Kafka producer", "PostgreSQL", "simulator"). */
  system: string;
  editor: KnobEditor;
  /** What it does, in one or two sentences. */
  what: string;
  /** The real system's default, as text. */
  realDefault: string;
  /** Anything our model does differently (a different starting value, a simplification). */
  note?: string;
  /** Official documentation, or null for simulator-only knobs. */
  doc: string | null;
  /** Whether the knob exists for this scenario's pipeline. */
  applies: (s: Scenario) => boolean;
  /**
   * The value in effect when the scenario leaves the knob unset and the default depends on the
   * pipeline (a Kafka sink's transaction.timeout.ms: 1 h under Flink, 60 s otherwise).
   */
  defaultFor?: (s: Scenario) => unknown;
  /**
   * Other knobs that setting this one to `value` must change for the scenario to stay valid (an
   * XA sink needs statement retries 0): set in the same, single undoable edit — as a guarantee's
   * knobs are ({@link KnobSetting}) — and named in the notice, each `why` ending it.
   * Only what conflicts is listed: an empty list when nothing has to change.
   */
  alsoSets?: (value: unknown, s: ScenarioInput) => KnobSetting[];
}

const KAFKA = 'https://kafka.apache.org/documentation/';
const producerDoc = (n: string) => `${KAFKA}#producerconfigs_${n}`;
const consumerDoc = (n: string) => `${KAFKA}#consumerconfigs_${n}`;
const brokerDoc = (n: string) => `${KAFKA}#brokerconfigs_${n}`;
const FLINK_CONFIG = 'https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/config/';
const FLINK_KAFKA_START =
  'https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/#starting-offset';
const FLINK_KAFKA =
  'https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/';
const SPARK_KAFKA =
  'https://spark.apache.org/docs/latest/streaming/structured-streaming-kafka-integration.html';
const SPARK_TRIGGERS =
  'https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#triggers';
const PG_INSERT = 'https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT';
const PG_MERGE = 'https://www.postgresql.org/docs/current/sql-merge.html';
const DELTA =
  'https://docs.delta.io/latest/delta-streaming.html#idempotent-table-writes-in-foreachbatch';
const STRIPE = 'https://docs.stripe.com/api/idempotent_requests';

const always = () => true;
const consumer = (s: Scenario) => s.processor.type === 'consumer';
const durationList = (s: Scenario) =>
  s.processor.type === 'consumer' && (s.processor.processing.durationsMs?.length ?? 0) > 0;
const flink = (s: Scenario) => s.processor.type === 'flink';
const spark = (s: Scenario) => s.processor.type === 'spark';
const table = (s: Scenario) => s.sink.type === 'table';
const kafkaSink = (s: Scenario) => s.sink.type === 'kafka';
const delta = (s: Scenario) => s.sink.type === 'delta';
const effect = (s: Scenario) => s.sink.type === 'effect';

const ms = (min: number, max = 7 * 24 * 3_600_000) => ({
  type: 'number' as const,
  min,
  max,
  unit: 'ms' as const,
});

/** Said beside a knob left unset whose value in effect is the pipeline's default ({@link KnobMeta.defaultFor}). */
export const UNSET_DEFAULT_NOTE = 'unset: the default here';

/** The knob table, grouped by component in pipeline order. */
export const KNOBS: readonly KnobMeta[] = [
  // ── Producer ──────────────────────────────────────────────────────────────────────────
  {
    path: 'producer.acks',
    name: 'acks',
    group: 'producer',
    system: 'Kafka producer',
    editor: { type: 'enum', options: ['0', '1', 'all'] },
    what: 'How many replicas must have a record before the leader answers: 0 = do not wait for any answer, 1 = the leader only, all = every in-sync replica.',
    realDefault: 'all (since Kafka 3.0)',
    doc: producerDoc('acks'),
    applies: always,
  },
  {
    path: 'producer.enable.idempotence',
    name: 'enable.idempotence',
    group: 'producer',
    system: 'Kafka producer',
    editor: { type: 'tristate', unsetLabel: 'default' },
    what: 'The broker recognises a retried batch by producer id and sequence number and does not append it twice. Unset, it is on unless acks≠all or retries=0 silently turn it off; set to true with such a setting, the producer refuses to start.',
    realDefault:
      'true (since Kafka 3.0; in effect from 3.0.1 / 3.1.1 / 3.2.0, KAFKA-13598), unless conflicting settings',
    doc: producerDoc('enable.idempotence'),
    applies: always,
  },
  {
    path: 'producer.retries',
    name: 'retries',
    group: 'producer',
    system: 'Kafka producer',
    editor: { type: 'number', min: 0, max: 2147483647 },
    what: 'How many times the producer re-sends a batch that failed or timed out (within delivery.timeout.ms).',
    realDefault: '2147483647',
    doc: producerDoc('retries'),
    applies: always,
  },
  {
    path: 'producer.request.timeout.ms',
    name: 'request.timeout.ms',
    group: 'producer',
    system: 'Kafka producer',
    editor: ms(1),
    what: 'How long the producer waits for the answer to a request before it retries it. A lost acknowledgement is only noticed after this.',
    realDefault: '30000 (30 s)',
    doc: producerDoc('request.timeout.ms'),
    applies: always,
  },
  {
    path: 'producer.delivery.timeout.ms',
    name: 'delivery.timeout.ms',
    group: 'producer',
    system: 'Kafka producer',
    editor: ms(0),
    what: 'Upper bound on the time to report success or failure of a send, retries included. Left unset, it is raised to linger.ms + request.timeout.ms when that is longer; set shorter than that sum, the producer refuses to start.',
    realDefault: '120000 (2 min)',
    doc: producerDoc('delivery.timeout.ms'),
    applies: always,
  },
  {
    path: 'producer.retry.backoff.ms',
    name: 'retry.backoff.ms',
    group: 'producer',
    system: 'Kafka producer',
    editor: ms(0),
    what: 'Wait before re-sending a failed request; it doubles with each further failed attempt, up to retry.backoff.max.ms.',
    realDefault: '100',
    doc: producerDoc('retry.backoff.ms'),
    applies: always,
  },
  {
    path: 'producer.retry.backoff.max.ms',
    name: 'retry.backoff.max.ms',
    group: 'producer',
    system: 'Kafka producer',
    editor: ms(0),
    what: 'The longest wait between attempts (Kafka 3.7 and later; its ±20 % jitter is not drawn here).',
    realDefault: '1000',
    doc: producerDoc('retry.backoff.max.ms'),
    applies: always,
  },
  {
    path: 'producer.linger.ms',
    name: 'linger.ms',
    group: 'producer',
    system: 'Kafka producer',
    editor: ms(0),
    what: 'How long the producer waits for more records to fill a batch before sending it.',
    realDefault: '5 (since Kafka 4.0; 0 before)',
    doc: producerDoc('linger.ms'),
    applies: always,
  },
  {
    path: 'producer.batch.size',
    name: 'batch.size',
    group: 'producer',
    system: 'Kafka producer',
    editor: { type: 'number', min: 0, max: 16 * 1024 * 1024, unit: 'bytes' },
    what: 'Maximum bytes of records per partition batch.',
    realDefault: '16384',
    doc: producerDoc('batch.size'),
    applies: always,
  },
  {
    path: 'producer.max.in.flight.requests.per.connection',
    name: 'max.in.flight.requests.per.connection',
    group: 'producer',
    system: 'Kafka producer',
    editor: { type: 'number', min: 1, max: 100 },
    what: 'Unacknowledged requests the producer may have outstanding. Above 1 without idempotence, a retry can reorder records; idempotence requires ≤ 5 (Kafka 4: more is a ConfigException unless enable.idempotence=false).',
    realDefault: '5',
    doc: producerDoc('max.in.flight.requests.per.connection'),
    applies: always,
  },
  {
    path: 'producer.transactional.id',
    name: 'transactional.id',
    group: 'producer',
    system: 'Kafka producer',
    editor: { type: 'text' },
    what: 'Makes the producer transactional (and idempotent): its records become visible to read_committed readers only when the transaction commits; a new instance with the same id fences the old one.',
    realDefault: 'null (not transactional)',
    doc: producerDoc('transactional.id'),
    applies: always,
  },
  {
    path: 'producer.transaction.timeout.ms',
    name: 'transaction.timeout.ms',
    group: 'producer',
    system: 'Kafka producer',
    editor: ms(1),
    what: 'The coordinator aborts a transaction left open longer than this. Above the broker’s transaction.max.timeout.ms, initTransactions fails (INVALID_TRANSACTION_TIMEOUT).',
    realDefault: '60000 (1 min)',
    doc: producerDoc('transaction.timeout.ms'),
    applies: always,
  },
  {
    path: 'producer.app.onFailure',
    name: 'on send failure',
    group: 'producer',
    system: 'simulator (the application)',
    editor: { type: 'enum', options: ['skip', 'resend', 'halt'] },
    what: 'What the application does when send() fails or times out: skip (log and go on), resend (send the same business event again as a new record — not a producer retry), halt.',
    realDefault: 'skip',
    doc: null,
    applies: always,
  },
  {
    path: 'producer.app.mode',
    name: 'send mode',
    group: 'producer',
    system: 'simulator (the application)',
    editor: { type: 'enum', options: ['async', 'sync'] },
    what: 'async: send() with a callback, the next event at its own time; sync: send().get(timeout), one after another.',
    realDefault: 'async',
    doc: null,
    applies: always,
  },
  {
    path: 'producer.app.eventsPerTransaction',
    name: 'events per transaction',
    group: 'producer',
    system: 'simulator (the application)',
    editor: { type: 'number', min: 1, max: 100_000 },
    what: 'Transactional producers: business events per transaction.',
    realDefault: '1',
    doc: null,
    applies: (s) => s.producer['transactional.id'] !== undefined,
  },
  // ── Broker ────────────────────────────────────────────────────────────────────────────
  {
    path: 'broker.brokers',
    name: 'brokers',
    group: 'broker',
    system: 'Kafka cluster',
    editor: { type: 'number', min: 1, max: 9 },
    what: 'Brokers in the cluster.',
    realDefault: '—',
    note: 'Our default is 3.',
    doc: `${KAFKA}#brokerconfigs`,
    applies: always,
  },
  {
    path: 'broker.partitions',
    name: 'partitions',
    group: 'broker',
    system: 'Kafka topic',
    editor: { type: 'number', min: 1, max: 64 },
    what: 'Partitions of the input topic, set when it is created (kafka-topics.sh --partitions). Records with the same key go to the same partition.',
    realDefault: '1 (num.partitions, the broker’s default for auto-created topics)',
    doc: brokerDoc('num.partitions'),
    applies: always,
  },
  {
    path: 'broker.replication.factor',
    name: 'replication.factor',
    group: 'broker',
    system: 'Kafka broker',
    editor: { type: 'number', min: 1, max: 9 },
    what: 'Copies of each partition, on different brokers.',
    realDefault: '1 (default.replication.factor)',
    note: 'Our default is 3.',
    doc: brokerDoc('default.replication.factor'),
    applies: always,
  },
  {
    path: 'broker.min.insync.replicas',
    name: 'min.insync.replicas',
    group: 'broker',
    system: 'Kafka broker',
    editor: { type: 'number', min: 1, max: 9 },
    what: 'With acks=all, a write is refused (NOT_ENOUGH_REPLICAS) when fewer in-sync replicas than this are alive; one already appended and waiting when the ISR shrinks gets NOT_ENOUGH_REPLICAS_AFTER_APPEND, and its retry writes it again unless the producer is idempotent.',
    realDefault: '1',
    note: 'Our default is 2.',
    doc: brokerDoc('min.insync.replicas'),
    applies: always,
  },
  {
    path: 'broker.unclean.leader.election.enable',
    name: 'unclean.leader.election.enable',
    group: 'broker',
    system: 'Kafka broker',
    editor: { type: 'boolean' },
    what: 'Allow a replica that is not in sync to become leader when no in-sync one is left: the partition stays available, at the price of losing acknowledged records.',
    realDefault: 'false',
    doc: brokerDoc('unclean.leader.election.enable'),
    applies: always,
  },
  {
    path: 'broker.replica.lag.time.max.ms',
    name: 'replica.lag.time.max.ms',
    group: 'broker',
    system: 'Kafka broker',
    editor: ms(0),
    what: 'The leader drops a follower that has not caught up for longer than this from the ISR, at its ISR check (every half of it), so acks=all writes stop waiting for it. Here a follower falls behind only when its broker is down, and the controller removes a dead broker after broker.session.timeout.ms anyway: this matters when it is the shorter of the two.',
    realDefault: '30000 (30 s)',
    doc: brokerDoc('replica.lag.time.max.ms'),
    applies: always,
  },
  {
    path: 'broker.broker.session.timeout.ms',
    name: 'broker.session.timeout.ms',
    group: 'broker',
    system: 'Kafka broker (KRaft)',
    editor: ms(0),
    what: 'How long the controller waits before declaring a silent broker dead and electing new leaders.',
    realDefault: '9000 (9 s)',
    doc: brokerDoc('broker.session.timeout.ms'),
    applies: always,
  },
  {
    path: 'broker.transaction.max.timeout.ms',
    name: 'transaction.max.timeout.ms',
    group: 'broker',
    system: 'Kafka broker',
    editor: ms(1),
    what: 'The longest transaction.timeout.ms the transaction coordinator accepts. A transactional producer asking for more is refused at initTransactions (INVALID_TRANSACTION_TIMEOUT) and cannot start — Flink’s KafkaSink, which asks for 1 h unless told otherwise, included.',
    realDefault: '900000 (15 min)',
    doc: brokerDoc('transaction.max.timeout.ms'),
    applies: (s) =>
      s.producer['transactional.id'] !== undefined ||
      (s.sink.type === 'kafka' &&
        (s.sink.deliveryGuarantee === 'EXACTLY_ONCE' || s.sink['transactional.id'] !== undefined)),
  },
  // ── Processor: Kafka consumer loop ───────────────────────────────────────────────────
  {
    path: 'processor.enable.auto.commit',
    name: 'enable.auto.commit',
    group: 'processor',
    system: 'Kafka consumer',
    editor: { type: 'boolean' },
    what: 'Commit the position returned by the last poll() — during a later poll() (or close() / a rebalance) once auto.commit.interval.ms has passed — whether or not the records were processed.',
    realDefault: 'true',
    note: 'Our default is false with commit with-transaction: sendOffsetsToTransaction needs it off.',
    doc: consumerDoc('enable.auto.commit'),
    applies: consumer,
  },
  {
    path: 'processor.auto.commit.interval.ms',
    name: 'auto.commit.interval.ms',
    group: 'processor',
    system: 'Kafka consumer',
    editor: ms(1),
    what: 'How often auto-commit commits.',
    realDefault: '5000 (5 s)',
    doc: consumerDoc('auto.commit.interval.ms'),
    applies: consumer,
  },
  {
    path: 'processor.commit',
    name: 'commit (manual)',
    group: 'processor',
    system: 'Kafka consumer loop',
    editor: {
      type: 'enum',
      options: ['after-processing', 'before-processing', 'with-transaction'],
    },
    what: 'With enable.auto.commit=false, when the loop calls commitSync(): after writing the batch (a crash replays it), before (a crash skips it), or with-transaction: sendOffsetsToTransaction in the output producer’s transaction.',
    realDefault: '— (your code decides)',
    doc: `${KAFKA}#consumerapi`,
    // Auto-commit commits by itself: the manual choice means nothing then.
    applies: (s) => s.processor.type === 'consumer' && !s.processor['enable.auto.commit'],
  },
  {
    path: 'processor.processing.mode',
    name: 'processing (poll loop)',
    group: 'processor',
    system: 'Kafka consumer loop',
    editor: { type: 'enum', options: ['sync', 'handoff', 'parallel'] },
    what: "sync: the loop processes each polled batch before it polls again. handoff: poll() hands the records to a worker thread and returns at once — auto-commit then saves positions the worker has not reached; a manual commit before processing is made right after poll(), after processing for each record the worker finished. parallel: up to concurrency records at once, finishing out of order; only the contiguous prefix of finished offsets is committed. A rebalance does not stop work already started: it finishes and writes, but its offset is no longer this member's to commit.",
    realDefault: '— (your code decides)',
    doc: `${KAFKA}#consumerapi`,
    applies: consumer,
  },
  {
    path: 'processor.processing.concurrency',
    name: 'concurrency (parallel)',
    group: 'processor',
    system: 'Kafka consumer loop',
    editor: { type: 'number', min: 1, max: 1000 },
    what: 'Records processed at once by the parallel loop.',
    realDefault: '— (your code decides)',
    doc: null,
    applies: (s) => s.processor.type === 'consumer' && s.processor.processing.mode === 'parallel',
  },
  {
    path: 'processor.max.poll.records',
    name: 'max.poll.records',
    group: 'processor',
    system: 'Kafka consumer',
    editor: { type: 'number', min: 1, max: 100_000, unit: 'records' },
    what: 'Most records one poll() returns — the size of a batch, and of what a crash replays.',
    realDefault: '500',
    doc: consumerDoc('max.poll.records'),
    applies: consumer,
  },
  {
    path: 'processor.isolation.level',
    name: 'isolation.level',
    group: 'processor',
    system: 'Kafka consumer',
    editor: { type: 'enum', options: ['read_uncommitted', 'read_committed'] },
    what: 'read_committed reads only up to the last stable offset and skips aborted transactions; read_uncommitted reads everything up to the high watermark.',
    realDefault: 'read_uncommitted',
    doc: consumerDoc('isolation.level'),
    applies: consumer,
  },
  {
    path: 'processor.auto.offset.reset',
    name: 'auto.offset.reset',
    group: 'processor',
    system: 'Kafka consumer',
    editor: { type: 'enum', options: ['earliest', 'latest'] },
    what: 'Where a group with no committed offset starts: the beginning of the log, or its end (skipping what is already there).',
    realDefault: 'latest',
    doc: consumerDoc('auto.offset.reset'),
    applies: consumer,
  },
  {
    path: 'processor.session.timeout.ms',
    name: 'session.timeout.ms',
    group: 'processor',
    system: 'Kafka consumer',
    editor: ms(0),
    what: 'A member that sends no heartbeat for this long is removed from the group and its partitions move. A default broker accepts 6 s to 30 min (group.min/max.session.timeout.ms).',
    realDefault: '45000 (45 s)',
    doc: consumerDoc('session.timeout.ms'),
    applies: consumer,
  },
  {
    path: 'processor.partition.assignment.strategy',
    name: 'partition.assignment.strategy',
    group: 'processor',
    system: 'Kafka consumer',
    editor: { type: 'enum', options: ['range', 'cooperative-sticky'] },
    what: 'range (RangeAssignor, eager protocol): at each rebalance every member revokes all its partitions, the ones it keeps too, and reads them again from the committed offset — nothing is read until all have given up. cooperative-sticky: members keep what the balance allows and only the partitions that move are revoked.',
    realDefault: '[RangeAssignor, CooperativeStickyAssignor] (range: eager)',
    doc: consumerDoc('partition.assignment.strategy'),
    applies: consumer,
  },
  {
    path: 'processor.max.poll.interval.ms',
    name: 'max.poll.interval.ms',
    group: 'processor',
    system: 'Kafka consumer',
    editor: ms(1),
    what: 'A sync loop that spends longer than this on one batch without calling poll() leaves the group: its offset commit for the batch fails (CommitFailedException) and the batch is read again from the committed offset. A static member (as here) is removed session.timeout.ms later unless it polls first.',
    realDefault: '300000 (5 min)',
    doc: consumerDoc('max.poll.interval.ms'),
    applies: consumer,
  },
  {
    path: 'processor.instances',
    name: 'instances',
    group: 'processor',
    system: 'simulator (consumer group)',
    editor: { type: 'number', min: 1, max: 8 },
    what: 'Members of the consumer group; partitions are spread over the live ones.',
    realDefault: '1',
    doc: null,
    applies: consumer,
  },
  {
    path: 'processor.onStatementError',
    name: 'on statement error',
    group: 'processor',
    system: 'simulator (your code)',
    editor: { type: 'enum', options: ['retry', 'skip', 'halt'] },
    what: 'What the loop does when a sink statement fails (in every processing mode): retry it a second later, skip it (losing its rows), or stop.',
    realDefault: 'halt',
    doc: null,
    applies: consumer,
  },
  {
    path: 'processor.processing.perRecordMs',
    name: 'processing time per record',
    group: 'processor',
    system: 'simulator',
    editor: ms(0),
    what: 'Virtual time spent on each record before its output is written.',
    realDefault: '1 ms',
    doc: null,
    // A list of processing times replaces it (the list's own knob shows then).
    applies: (s) => !durationList(s),
  },
  {
    path: 'processor.processing.durationsMs',
    name: 'processing times (list)',
    group: 'processor',
    system: 'simulator',
    editor: { type: 'number-list', unit: 'ms' },
    what: 'Per-record processing times in place of the fixed time per record: an instance’s n-th record takes the n-th time, cycling through the list (a record processed again takes the next one). One long time is one slow record. Empty: the fixed time per record applies.',
    realDefault: 'none (the fixed time per record)',
    doc: null,
    applies: consumer,
  },
  {
    path: 'processor.startAtMs',
    name: 'starts at',
    group: 'processor',
    system: 'simulator',
    editor: ms(0),
    what: 'When the processor starts reading (virtual ms).',
    realDefault: '0',
    doc: null,
    applies: always,
  },
  // ── Processor: Flink ─────────────────────────────────────────────────────────────────
  {
    path: 'processor.execution.checkpointing.interval',
    name: 'execution.checkpointing.interval',
    group: 'processor',
    system: 'Apache Flink',
    editor: {
      type: 'nullable-number',
      min: 1,
      max: 7 * 24 * 3_600_000,
      unit: 'ms',
      offLabel: 'off',
      onValue: 1000,
      onWhy:
        'Flink has no default interval (unset, checkpointing is off); 1000 ms is what the at-least-once and exactly-once guarantees set',
    },
    what: 'How often the job takes a checkpoint. A restart resumes from the last completed one: the state is exactly-once, the sink sees the replayed records again.',
    realDefault: 'none (checkpointing disabled)',
    doc: `${FLINK_CONFIG}#execution-checkpointing-interval`,
    applies: flink,
  },
  {
    path: 'processor.execution.checkpointing.mode',
    name: 'execution.checkpointing.mode',
    group: 'processor',
    system: 'Apache Flink',
    editor: { type: 'enum', options: ['EXACTLY_ONCE', 'AT_LEAST_ONCE'] },
    what: 'EXACTLY_ONCE aligns the barriers of all inputs before snapshotting; AT_LEAST_ONCE skips the alignment, so records that arrive after a barrier may be processed before the checkpoint completes and be replayed after a restore. (Unaligned checkpoints are a separate exactly-once feature, execution.checkpointing.unaligned.) With one input chain, as here, both behave alike.',
    realDefault: 'EXACTLY_ONCE',
    doc: `${FLINK_CONFIG}#execution-checkpointing-mode`,
    applies: flink,
  },
  {
    path: 'processor.execution.checkpointing.timeout',
    name: 'execution.checkpointing.timeout',
    group: 'processor',
    system: 'Apache Flink',
    editor: ms(10),
    what: 'A checkpoint not completed this long after its trigger expires ("Checkpoint expired before completing") — a lost barrier or acknowledgement ends this way — and counts as a failed checkpoint.',
    realDefault: '10 min',
    doc: `${FLINK_CONFIG}#execution-checkpointing-timeout`,
    applies: flink,
  },
  {
    path: 'processor.execution.checkpointing.tolerable-failed-checkpoints',
    name: 'execution.checkpointing.tolerable-failed-checkpoints',
    group: 'processor',
    system: 'Apache Flink',
    editor: { type: 'number', min: 0, max: 1000 },
    what: 'Failed checkpoints in a row the job tolerates. One more fails the job over to its last completed checkpoint; the records since then are replayed. Tolerated, the job runs on and the next checkpoint covers them — with KafkaSink EXACTLY_ONCE, only if its transaction has not outlived transaction.timeout.ms by then.',
    realDefault: '0',
    doc: `${FLINK_CONFIG}#execution-checkpointing-tolerable-failed-checkpoints`,
    applies: flink,
  },
  {
    path: 'processor.restart-strategy.type',
    name: 'restart-strategy.type',
    group: 'processor',
    system: 'Apache Flink',
    editor: {
      type: 'enum',
      options: ['exponential-delay', 'fixed-delay', 'none'],
      unsetLabel: 'default',
    },
    what: 'Whether and when the job restarts after a failure (from its last completed checkpoint): exponential-delay waits 1 s, then 1.5× longer after each further failure up to 1 min (back to 1 s after an hour without failure); fixed-delay waits restart-strategy.fixed-delay.delay every time, for at most restart-strategy.fixed-delay.attempts restarts (1 by default); none leaves the job failed.',
    realDefault: 'none without checkpointing; exponential-delay with it',
    note: 'As Flink’s defaults (1.19+), except that exponential-delay’s ±10 % jitter is not drawn: restart times do not depend on the seed.',
    doc: 'https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/task_failure_recovery/',
    applies: flink,
  },
  {
    path: 'processor.restart-strategy.fixed-delay.delay',
    name: 'restart-strategy.fixed-delay.delay',
    group: 'processor',
    system: 'Apache Flink',
    editor: ms(0),
    what: 'Wait before the job restarts after a failure, with restart-strategy fixed-delay.',
    realDefault: '1 s',
    doc: `${FLINK_CONFIG}#restart-strategy-fixed-delay-delay`,
    applies: flink,
  },
  {
    path: 'processor.restart-strategy.fixed-delay.attempts',
    name: 'restart-strategy.fixed-delay.attempts',
    group: 'processor',
    system: 'Apache Flink',
    editor: { type: 'number', min: 0, max: 2147483647 },
    what: 'With restart-strategy fixed-delay, how many times the job is restarted in all: the next failure fails the job for good, and what it had not processed is never processed. The count never resets.',
    realDefault: '1',
    doc: `${FLINK_CONFIG}#restart-strategy-fixed-delay-attempts`,
    applies: (s) =>
      s.processor.type === 'flink' && s.processor['restart-strategy.type'] === 'fixed-delay',
  },
  {
    path: 'processor.offsetsInitializer',
    name: 'setStartingOffsets(OffsetsInitializer)',
    group: 'processor',
    system: 'Flink Kafka source',
    editor: { type: 'enum', options: ['committedOffsets', 'earliest', 'latest'] },
    what: 'Where the job reads from when it starts with no checkpoint to restore — its first start, or a restart before any checkpoint completed or without checkpointing. committedOffsets: the offsets the job last committed, else the earliest (committedOffsets(OffsetResetStrategy.EARLIEST); without a reset strategy it would fail when there are none); earliest: everything again; latest: the end of each partition at that moment (what was not processed yet is skipped).',
    realDefault: 'earliest()',
    note: 'Our default is committedOffsets(OffsetResetStrategy.EARLIEST).',
    doc: FLINK_KAFKA_START,
    applies: flink,
  },
  {
    path: 'processor.enable.auto.commit',
    name: 'enable.auto.commit',
    group: 'processor',
    system: 'Flink Kafka source',
    editor: { type: 'boolean' },
    what: 'The source consumer’s own periodic offset commit (every 5 s), used only while checkpointing is off. KafkaSource switches it off unless the job sets it: then a job without checkpoints commits nothing, and a restart from committedOffsets starts from the earliest offset again.',
    realDefault: 'false (set by KafkaSourceBuilder)',
    doc: 'https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/#consumer-offset-committing',
    applies: (s) =>
      flink(s) &&
      s.processor.type === 'flink' &&
      s.processor['execution.checkpointing.interval'] === null,
  },
  {
    path: 'processor.sinkFlushDelayMs',
    name: 'sink flush delay',
    group: 'processor',
    system: 'simulator',
    editor: ms(0),
    what: 'A non-transactional sink flushes a record this long after it is processed; a crash before the flush loses it (and the replay then writes it once). 0: a flush per record, as a JDBC sink built with JdbcExecutionOptions.withBatchSize(1).',
    realDefault: 'JdbcSink: 5,000 rows or the next checkpoint',
    note: 'JdbcExecutionOptions defaults to a batch of 5,000 rows with no time-based flush, and flushes at each checkpoint: with it, records processed after the last checkpoint are still buffered at a crash and are written once, by the replay. Our default flushes each row.',
    doc: 'https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/jdbc/',
    applies: flink,
  },
  // ── Processor: Spark ─────────────────────────────────────────────────────────────────
  {
    path: 'processor.trigger.processingTime',
    name: 'trigger(processingTime)',
    group: 'processor',
    system: 'Spark Structured Streaming',
    editor: ms(1),
    what: 'A micro-batch starts at most once per interval, on the interval boundaries; one that took longer than the interval is followed at once, without waiting for the next boundary. No new data: no batch.',
    realDefault: 'unspecified: the next batch as soon as the previous one ends',
    note: 'Our default is 1 s.',
    doc: SPARK_TRIGGERS,
    applies: spark,
  },
  {
    path: 'processor.startingOffsets',
    name: 'startingOffsets',
    group: 'processor',
    system: 'Spark Kafka source',
    editor: { type: 'enum', options: ['earliest', 'latest'] },
    what: 'Where a query without a checkpoint starts reading.',
    realDefault: 'latest',
    doc: SPARK_KAFKA,
    applies: spark,
  },
  // ── Sink ─────────────────────────────────────────────────────────────────────────────
  {
    path: 'sink.statement',
    name: 'statement',
    group: 'sink',
    system: 'PostgreSQL',
    editor: {
      type: 'enum',
      options: ['insert', 'on-conflict-do-nothing', 'on-conflict-do-update', 'merge'],
    },
    what: 'INSERT (every write is a new row), INSERT … ON CONFLICT (key) DO NOTHING (first write wins), … DO UPDATE (last write wins), or MERGE … ON key.',
    realDefault: '— (your SQL)',
    doc: PG_INSERT,
    applies: table,
  },
  {
    path: 'sink.set',
    name: 'DO UPDATE SET',
    group: 'sink',
    system: 'PostgreSQL',
    editor: { type: 'enum', options: ['excluded', 'add-excluded'] },
    what: 'excluded: SET amount = EXCLUDED.amount (a replay changes nothing); add-excluded: SET amount = t.amount + EXCLUDED.amount (a replay adds again).',
    realDefault: '— (your SQL)',
    doc: PG_INSERT,
    applies: (s) => s.sink.type === 'table' && s.sink.statement === 'on-conflict-do-update',
  },
  {
    path: 'sink.key',
    name: 'key column',
    group: 'sink',
    system: 'PostgreSQL',
    editor: {
      type: 'key',
      options: ['business-id', 'uuid-per-attempt', 'source-offset'],
      columns: EVENT_CONTENT_COLUMNS,
    },
    what: 'The key’s value: the business id (stable across replays and re-sends), a UUID generated per attempt (a replay gets a new one), the source topic/partition/offset, or a tuple of the event’s content columns (e.g. event time and amount: ON CONFLICT (event_time, amount)) — two real events with equal content then share one key and merge, a false merge. ON CONFLICT, MERGE and the dedupe table all use it.',
    realDefault: '— (your schema)',
    doc: PG_INSERT,
    applies: table,
  },
  {
    path: 'batch.dedupeKey',
    name: 'dedupe key',
    group: 'sink',
    system: 'batch job',
    editor: { type: 'key', options: ['event-id'], columns: CONTENT_COLUMNS },
    what: 'What every dedupe mechanism of the job takes for the same event — its dedupe store’s key, MERGE’s ON, dbt’s unique_key, the DISTINCT ON before a MERGE: the event id, or a tuple of content columns. Two real events with equal content then share one key and merge, a false merge.',
    realDefault: '— (your SQL or dbt config)',
    doc: 'https://docs.getdbt.com/reference/resource-configs/unique_key',
    applies: (s) => s.batch !== undefined,
  },
  {
    path: 'sink.uniqueKey',
    name: 'UNIQUE / PRIMARY KEY',
    group: 'sink',
    system: 'PostgreSQL',
    editor: { type: 'tristate', unsetLabel: 'auto' },
    what: 'Whether the key column has a unique index. ON CONFLICT needs one; a plain INSERT with one fails on a duplicate (UNIQUE_VIOLATION).',
    realDefault: '— (your schema)',
    note: 'Unset: yes for ON CONFLICT, no otherwise.',
    doc: PG_INSERT,
    applies: table,
  },
  {
    path: 'sink.statementPer',
    name: 'statement per',
    group: 'sink',
    system: 'simulator (your code)',
    editor: { type: 'enum', options: ['record', 'batch'] },
    what: 'One statement per record, or one per poll batch / micro-batch (atomic as a whole).',
    realDefault: 'record',
    doc: null,
    applies: table,
  },
  {
    path: 'sink.merge.whenMatched',
    name: 'MERGE WHEN MATCHED',
    group: 'sink',
    system: 'PostgreSQL',
    editor: { type: 'enum', options: ['update', 'do-nothing', 'none'] },
    what: 'MERGE: update the matched row, do nothing, or have no WHEN MATCHED clause.',
    realDefault: '— (your SQL)',
    doc: PG_MERGE,
    applies: (s) => s.sink.type === 'table' && s.sink.statement === 'merge',
  },
  {
    path: 'sink.statement.timeout.ms',
    name: 'socketTimeout (client)',
    group: 'sink',
    system: 'PostgreSQL JDBC client',
    editor: ms(1),
    what: 'How long the writer waits for a statement’s answer. After it the client gives up without knowing whether the statement applied — the server may have committed it. (Not the server’s statement_timeout, which cancels the statement with SQLSTATE 57014: a retry after that cannot duplicate.)',
    realDefault: '0 (no timeout)',
    note: 'Our default is 5 s.',
    doc: 'https://jdbc.postgresql.org/documentation/use/',
    applies: table,
  },
  {
    path: 'sink.retries',
    name: 'statement retries',
    group: 'sink',
    system: 'simulator (your code)',
    editor: { type: 'number', min: 0, max: 1000 },
    what: 'How many times the writer retries a statement that timed out (it may have applied).',
    realDefault: '3',
    note: 'Behind Flink this is JdbcExecutionOptions’ maxRetries: once they are spent, JdbcOutputFormat.flush throws, the task fails and the job restarts from its last completed checkpoint.',
    doc: null,
    applies: (s) => s.sink.type === 'table' || s.sink.type === 'effect',
  },
  {
    path: 'sink.xa',
    name: 'JdbcSink.exactlyOnceSink (XA)',
    group: 'sink',
    system: 'Apache Flink',
    editor: { type: 'boolean' },
    what: "Write through Flink's JDBC exactly-once sink: one XA transaction per checkpoint, prepared at the barrier (PREPARE TRANSACTION) and committed when the checkpoint completes (COMMIT PREPARED); a restore rolls back what its checkpoint did not cover. Rows become visible only at the commit. Needs statement retries 0 (Flink refuses more) and checkpointing.",
    realDefault: 'off (JdbcSink.sink, at-least-once)',
    note: 'PostgreSQL needs max_prepared_transactions > 0 (its default is 0); the simulator assumes it is set. A prepared transaction never times out, unlike a Kafka transaction.',
    doc: 'https://nightlies.apache.org/flink/flink-docs-release-1.17/docs/connectors/datastream/jdbc/',
    applies: (s) => flink(s) && table(s),
    // JdbcXaSinkFunction's constructor refuses maxRetries ≠ 0 (FLINK-22311), as the validator does.
    alsoSets: (value, s) =>
      value === true && getKnob(s, 'sink.retries') !== 0
        ? [{ path: 'sink.retries', value: 0, why: 'as Flink’s XA sink requires' }]
        : [],
  },
  {
    path: 'sink.deliveryGuarantee',
    name: 'deliveryGuarantee',
    group: 'sink',
    system: 'Flink KafkaSink',
    editor: { type: 'enum', options: ['NONE', 'AT_LEAST_ONCE', 'EXACTLY_ONCE'] },
    what: 'NONE: send and forget. AT_LEAST_ONCE: flush on every checkpoint. EXACTLY_ONCE: one Kafka transaction per checkpoint, committed when the checkpoint completes.',
    realDefault: 'NONE',
    doc: FLINK_KAFKA,
    applies: (s) => kafkaSink(s) && s.processor.type === 'flink',
  },
  {
    path: 'sink.transactionalIdPrefix',
    name: 'transactionalIdPrefix',
    group: 'sink',
    system: 'Flink KafkaSink',
    editor: { type: 'text' },
    what: 'Prefix of the sink’s transactional ids; required with EXACTLY_ONCE, unique per job.',
    realDefault: 'none (required for EXACTLY_ONCE)',
    doc: FLINK_KAFKA,
    applies: (s) => kafkaSink(s) && s.processor.type === 'flink',
  },
  {
    path: 'sink.transactional.id',
    name: 'transactional.id (output)',
    group: 'sink',
    system: 'Kafka producer',
    editor: { type: 'text' },
    what: 'The output producer’s transactional.id: writes and offsets commit atomically, and a zombie instance is fenced.',
    realDefault: 'null',
    doc: producerDoc('transactional.id'),
    applies: (s) => kafkaSink(s) && s.processor.type === 'consumer',
  },
  {
    path: 'sink.transaction.timeout.ms',
    name: 'transaction.timeout.ms (output)',
    group: 'sink',
    system: 'Kafka producer',
    editor: ms(1),
    what: 'The coordinator aborts an output transaction left open longer than this — with Flink, a transaction recovered too late is lost. Flink’s Kafka connector guide: set it above the maximum checkpoint duration plus the maximum restart time, or data loss may happen. The broker’s transaction.max.timeout.ms (default 900000, 15 min) caps it: a larger value fails the producer’s initTransactions, so the job cannot start.',
    realDefault:
      '60000 (1 min) for a plain Kafka producer; Flink’s KafkaSinkBuilder sets 3600000 (1 h) unless you set it — above a default broker’s cap',
    defaultFor: outputTransactionTimeoutMs,
    doc: producerDoc('transaction.timeout.ms'),
    applies: kafkaSink,
  },
  {
    path: 'sink.txnAppId',
    name: 'txnAppId',
    group: 'sink',
    system: 'Delta Lake',
    editor: { type: 'text', nullable: true },
    what: 'With txnAppId (and txnVersion = the batch id) Delta skips a write whose batch id is not above the last txnVersion recorded for that txnAppId: a re-run batch — or, after the checkpoint is deleted and batch ids start again from 0, new batches too.',
    realDefault: 'none',
    doc: DELTA,
    applies: delta,
  },
  {
    path: 'sink.mode',
    name: 'write mode',
    group: 'sink',
    system: 'Delta Lake',
    editor: { type: 'enum', options: ['append', 'merge'] },
    what: 'append, or MERGE ON id WHEN NOT MATCHED THEN INSERT.',
    realDefault: 'append',
    doc: DELTA,
    applies: delta,
  },
  {
    path: 'sink.idempotencyKey',
    name: 'Idempotency-Key',
    group: 'sink',
    system: 'Stripe-style API',
    editor: { type: 'enum', options: ['none', 'business-id', 'per-attempt'] },
    what: 'none: every call is an effect; business-id: a retried call is answered from the saved result; per-attempt: a new key each call (no protection).',
    realDefault: 'none (you send the header or not)',
    doc: STRIPE,
    applies: effect,
  },
  {
    path: 'sink.retentionMs',
    name: 'key retention',
    group: 'sink',
    system: 'Stripe-style API',
    editor: ms(0),
    what: 'How long the service remembers an idempotency key; a retry after that is a new effect.',
    realDefault: '24 h (keys may be pruned after)',
    doc: STRIPE,
    applies: effect,
  },
  // ── Readers ──────────────────────────────────────────────────────────────────────────
  ...[0, 1, 2, 3].map((i): KnobMeta => ({
    path: `readers.${i}.isolation.level`,
    name: 'isolation.level',
    group: 'reader',
    system: 'Kafka consumer (downstream reader)',
    editor: { type: 'enum', options: ['read_uncommitted', 'read_committed'] },
    what: 'read_committed reads only committed transactions (up to the last stable offset); read_uncommitted also sees open and aborted ones.',
    realDefault: 'read_uncommitted',
    doc: consumerDoc('isolation.level'),
    applies: (s) => s.readers.length > i,
  })),
  // ── Network ──────────────────────────────────────────────────────────────────────────
  {
    path: 'network.latencyMs',
    name: 'latency',
    group: 'network',
    system: 'simulator',
    editor: ms(0),
    what: 'One-way latency of every link.',
    realDefault: '2 ms',
    doc: null,
    applies: always,
  },
  {
    path: 'network.jitterMs',
    name: 'jitter',
    group: 'network',
    system: 'simulator',
    editor: ms(0),
    what: 'Extra uniform latency in [0, jitter] per message, drawn from the seed.',
    realDefault: '0',
    doc: null,
    applies: always,
  },
];

/** The knobs that exist for a scenario, in table order. */
export function knobsFor(s: Scenario): KnobMeta[] {
  return KNOBS.filter((k) => k.applies(s));
}

/** The knob at `path`, if the table has it. */
export function knobMeta(path: string): KnobMeta | undefined {
  return KNOBS.find((k) => k.path === path);
}

/**
 * One knob edit as the Knobs tab makes it: the knob set to `value`, with the knobs it brings along
 * ({@link KnobMeta.alsoSets}), and the notice for the status line ("Set JdbcSink.exactlyOnceSink (XA)
 * to true — and statement retries to 0, as Flink’s XA sink requires"). `note` (why this value) ends the notice.
 */
export function editKnob(
  s: ScenarioInput,
  path: string,
  value: unknown,
  note?: string,
): { scenario: ScenarioInput; notice: string } {
  const also = knobMeta(path)?.alsoSets?.(value, s) ?? [];
  let scenario = setKnob(s, path, value);
  for (const k of also) scenario = setKnob(scenario, k.path, k.value);
  const meta = knobMeta(path);
  // The real name, as the Knobs tab shows it (the path's prefix doubled "broker.broker…"), and the
  // component when two knobs share that name (a processor's and a reader's isolation.level).
  const shared = meta && KNOBS.some((k) => k !== meta && k.name === meta.name);
  const parts = [
    meta
      ? `Set ${meta.name}${shared ? ` of the ${meta.system}` : ''} to ${formatKnobValue(meta, value)}`
      : `Set ${path}`,
    ...(note ? [note] : []),
    ...also.map((k) => {
      const meta = knobMeta(k.path);
      return `and ${meta?.name ?? k.path} to ${formatKnobValue(meta, k.value)}, ${k.why}`;
    }),
  ];
  return { scenario, notice: parts.join(' — ') };
}

/**
 * The last number `path` had in the undo history (newest first), or undefined: what a knob that
 * can be off (a checkpoint interval) goes back to when it is turned on again.
 */
export function lastNumberIn(history: readonly unknown[], path: string): number | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const v = getKnob(history[i], path);
    if (typeof v === 'number') return v;
  }
  return undefined;
}

/** A knob value as shown: `all`, `true`, `30000 ms`, `off`, `(unset)`. */
export function formatKnobValue(meta: KnobMeta | undefined, value: unknown): string {
  if (value === undefined)
    return meta?.editor.type === 'tristate' ? meta.editor.unsetLabel : '(unset)';
  if (value === null)
    return meta?.editor.type === 'nullable-number' ? meta.editor.offLabel : 'null';
  if (meta?.path === 'producer.acks') return value === -1 || value === '-1' ? 'all' : String(value);
  if (
    typeof value === 'number' &&
    (meta?.editor.type === 'number' || meta?.editor.type === 'nullable-number') &&
    meta.editor.unit === 'ms'
  )
    return `${value} ms`;
  // A content tuple as the conflict target spells it: (time, amount).
  if (Array.isArray(value) && meta?.editor.type === 'key') return `(${value.join(', ')})`;
  if (Array.isArray(value))
    return `${value.join(', ')}${meta?.editor.type === 'number-list' ? ' ms' : ''}`;
  return String(value);
}
