/**
 * The configuration keys the import knows: each recognised key with the scenario knob it sets and
 * how its text becomes the knob's value, and each known key the lab does not model with why it
 * does not change delivery. Real names: Kafka https://kafka.apache.org/documentation/#producerconfigs
 * and #consumerconfigs, Flink https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/config/
 * and the Kafka connector's sink options
 * https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/table/kafka/#sink-delivery-guarantee,
 * Spark https://spark.apache.org/docs/latest/structured-streaming-kafka-integration.html.
 */
import { distance } from '../../engine/core/editDistance';
import { clipEcho, notOneOf } from '../../engine/scenario/echo';

/** The processor the configuration describes. */
export type ConfigKind = 'consumer' | 'flink' | 'spark';

/** A value, or why the text is not one (naming what was expected). */
type Converted = { value: unknown } | { error: string };

export interface RecognisedKey {
  /** The scenario knob (a setKnob path). */
  path: string;
  convert: (text: string) => Converted;
  /** Which processor the key belongs to; undefined: any (a producer key). */
  kind?: ConfigKind;
}

const integer = (text: string): Converted =>
  /^-?\d+$/.test(text.trim())
    ? { value: Number(text.trim()) }
    : { error: `expected an integer, got "${text}"` };

// Kafka's ConfigDef reads a BOOLEAN case-insensitively: "true" or "false".
const boolean = (text: string): Converted => {
  const t = text.trim().toLowerCase();
  return t === 'true' || t === 'false'
    ? { value: t === 'true' }
    : { error: notOneOf(['true', 'false'], `"${clipEcho(text)}"`) };
};

const string = (text: string): Converted => ({ value: text.trim() });

// Flink and Spark read their enumerated options case-insensitively; Kafka's clients do not (below).
const oneOf =
  (values: Record<string, unknown>, exact = false) =>
  (text: string): Converted => {
    const t = exact ? text.trim() : text.trim().toLowerCase();
    return Object.hasOwn(values, t)
      ? { value: values[t] }
      : {
          error: notOneOf(
            Object.keys(values),
            `"${clipEcho(text)}"`,
            exact && Object.hasOwn(values, t.toLowerCase())
              ? 'Kafka reads them case-sensitively'
              : undefined,
          ),
        };
  };

/** writeStream.format(…): the streaming sinks the lab models, as the library workload's sink. */
const sparkFormat = oneOf({
  delta: { type: 'delta', name: 'orders' },
  kafka: { type: 'kafka', topic: 'orders-out' },
  parquet: { type: 'file', name: 'orders' },
  json: { type: 'file', name: 'orders' },
  csv: { type: 'file', name: 'orders' },
  orc: { type: 'file', name: 'orders' },
  foreachbatch: { type: 'table', name: 'orders', statementPer: 'batch' },
});

/**
 * A Kafka client's enumerated string: ConfigDef.ValidString compares exactly, so `acks=ALL` is a
 * ConfigException in the client (ProducerConfig's `in("all", "-1", "0", "1")`;
 * https://kafka.apache.org/documentation/#producerconfigs_acks).
 */
const kafkaOneOf = (values: Record<string, unknown>) => oneOf(values, true);

const UNITS: Record<string, number> = {
  ms: 1,
  milli: 1,
  millis: 1,
  millisecond: 1,
  milliseconds: 1,
  s: 1000,
  sec: 1000,
  secs: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
};

/**
 * A duration as Flink's TimeUtils.parseDuration reads it ("10 s", "500ms", "1 min"; no unit is
 * milliseconds) and as Spark reads a trigger interval ("10 seconds"; Trigger.ProcessingTime).
 */
const duration = (text: string): Converted => {
  const m = /^(?:processingtime\s*\(?\s*)?"?(\d+)\s*([a-z]*)"?\s*\)?$/i.exec(text.trim());
  const unit = m ? (m[2] ?? '').toLowerCase() : '';
  if (!m || (unit !== '' && !Object.hasOwn(UNITS, unit)))
    return { error: `expected a duration such as "10 s", "500 ms" or "1 min", got "${text}"` };
  return { value: Number(m[1]) * (unit === '' ? 1 : UNITS[unit]!) };
};

/**
 * A Kafka client's or broker's time (`request.timeout.ms`, a LONG or INT in ConfigDef): digits
 * only. Written with a unit, as Flink's files write durations ("30s"), it is a ConfigException in
 * Kafka; the message gives the milliseconds to write instead.
 */
const millis = (text: string): Converted => {
  const read = integer(text);
  if ('value' in read) return read;
  const asDuration = duration(text);
  return 'value' in asDuration
    ? {
        error: `expected an integer number of milliseconds (Kafka reads no unit), got "${text}": write ${asDuration.value}`,
      }
    : read;
};

/** Kafka's `acks`: all and -1 are the same setting. */
const acks = kafkaOneOf({ all: 'all', '-1': 'all', '0': 0, '1': 1 });

export const RECOGNISED: Record<string, RecognisedKey> = {
  // Producer.
  acks: { path: 'producer.acks', convert: acks },
  'enable.idempotence': { path: 'producer.enable.idempotence', convert: boolean },
  retries: { path: 'producer.retries', convert: integer },
  'delivery.timeout.ms': { path: 'producer.delivery.timeout.ms', convert: millis },
  'request.timeout.ms': { path: 'producer.request.timeout.ms', convert: millis },
  'retry.backoff.ms': { path: 'producer.retry.backoff.ms', convert: millis },
  'retry.backoff.max.ms': { path: 'producer.retry.backoff.max.ms', convert: millis },
  'linger.ms': { path: 'producer.linger.ms', convert: millis },
  'batch.size': { path: 'producer.batch.size', convert: integer },
  'max.in.flight.requests.per.connection': {
    path: 'producer.max.in.flight.requests.per.connection',
    convert: integer,
  },
  'transactional.id': { path: 'producer.transactional.id', convert: string },
  'transaction.timeout.ms': { path: 'producer.transaction.timeout.ms', convert: millis },
  // Broker and topic (server.properties, or the topic's own configuration): the Knobs tab's
  // Broker group, under Kafka's names (https://kafka.apache.org/documentation/#brokerconfigs,
  // https://kafka.apache.org/documentation/#topicconfigs). Any processor reads from Kafka.
  'min.insync.replicas': { path: 'broker.min.insync.replicas', convert: integer },
  'unclean.leader.election.enable': {
    path: 'broker.unclean.leader.election.enable',
    convert: boolean,
  },
  'replica.lag.time.max.ms': { path: 'broker.replica.lag.time.max.ms', convert: millis },
  'replica.fetch.wait.max.ms': { path: 'broker.replica.fetch.wait.max.ms', convert: millis },
  'broker.session.timeout.ms': { path: 'broker.broker.session.timeout.ms', convert: millis },
  'transaction.max.timeout.ms': { path: 'broker.transaction.max.timeout.ms', convert: millis },
  // Consumer (a consumer loop's; a Flink KafkaSource's enable.auto.commit too, below).
  'group.id': { path: 'processor.group.id', convert: string, kind: 'consumer' },
  'enable.auto.commit': { path: 'processor.enable.auto.commit', convert: boolean },
  'auto.commit.interval.ms': {
    path: 'processor.auto.commit.interval.ms',
    convert: millis,
    kind: 'consumer',
  },
  'max.poll.records': { path: 'processor.max.poll.records', convert: integer, kind: 'consumer' },
  'max.poll.interval.ms': {
    path: 'processor.max.poll.interval.ms',
    convert: millis,
    kind: 'consumer',
  },
  'session.timeout.ms': {
    path: 'processor.session.timeout.ms',
    convert: millis,
    kind: 'consumer',
  },
  'isolation.level': {
    path: 'processor.isolation.level',
    convert: kafkaOneOf({
      read_committed: 'read_committed',
      read_uncommitted: 'read_uncommitted',
    }),
    kind: 'consumer',
  },
  'auto.offset.reset': {
    path: 'processor.auto.offset.reset',
    convert: oneOf({ earliest: 'earliest', latest: 'latest' }),
    kind: 'consumer',
  },
  'partition.assignment.strategy': {
    path: 'processor.partition.assignment.strategy',
    // The value is the assignor's class name (or a list of them; the first is used).
    convert: (text) => {
      const first = text.split(',')[0]!.trim();
      if (/RangeAssignor$/.test(first)) return { value: 'range' };
      if (/CooperativeStickyAssignor$/.test(first)) return { value: 'cooperative-sticky' };
      return { error: `the lab models RangeAssignor and CooperativeStickyAssignor, got "${text}"` };
    },
    kind: 'consumer',
  },
  // Flink.
  'execution.checkpointing.interval': {
    path: 'processor.execution.checkpointing.interval',
    convert: duration,
    kind: 'flink',
  },
  'execution.checkpointing.mode': {
    path: 'processor.execution.checkpointing.mode',
    convert: oneOf({ exactly_once: 'EXACTLY_ONCE', at_least_once: 'AT_LEAST_ONCE' }),
    kind: 'flink',
  },
  'execution.checkpointing.timeout': {
    path: 'processor.execution.checkpointing.timeout',
    convert: duration,
    kind: 'flink',
  },
  'execution.checkpointing.tolerable-failed-checkpoints': {
    path: 'processor.execution.checkpointing.tolerable-failed-checkpoints',
    convert: integer,
    kind: 'flink',
  },
  // Flink's aliases of the strategy names (RestartStrategyOptions), as its docs list them.
  'restart-strategy.type': {
    path: 'processor.restart-strategy.type',
    convert: oneOf({
      'fixed-delay': 'fixed-delay',
      fixeddelay: 'fixed-delay',
      'exponential-delay': 'exponential-delay',
      exponentialdelay: 'exponential-delay',
      none: 'none',
      off: 'none',
      disable: 'none',
    }),
    kind: 'flink',
  },
  'restart-strategy.fixed-delay.delay': {
    path: 'processor.restart-strategy.fixed-delay.delay',
    convert: duration,
    kind: 'flink',
  },
  'restart-strategy.fixed-delay.attempts': {
    path: 'processor.restart-strategy.fixed-delay.attempts',
    convert: integer,
    kind: 'flink',
  },
  'sink.delivery-guarantee': {
    path: 'sink.deliveryGuarantee',
    convert: oneOf({
      none: 'NONE',
      'at-least-once': 'AT_LEAST_ONCE',
      at_least_once: 'AT_LEAST_ONCE',
      'exactly-once': 'EXACTLY_ONCE',
      exactly_once: 'EXACTLY_ONCE',
    }),
    kind: 'flink',
  },
  'sink.transactional-id-prefix': {
    path: 'sink.transactionalIdPrefix',
    convert: string,
    kind: 'flink',
  },
  // Spark Structured Streaming.
  trigger: { path: 'processor.trigger.processingTime', convert: duration, kind: 'spark' },
  maxOffsetsPerTrigger: { path: 'processor.maxOffsetsPerTrigger', convert: integer, kind: 'spark' },
  startingOffsets: {
    path: 'processor.startingOffsets',
    convert: oneOf({ earliest: 'earliest', latest: 'latest' }),
    kind: 'spark',
  },
  format: {
    path: 'sink',
    // writeStream.format(…): the sink. foreachBatch's JDBC append is the library workload's table.
    convert: (text) =>
      text.trim().toLowerCase() === 'jdbc'
        ? // Spark has no streaming JDBC sink (DataSource.createSink: "Data source jdbc does not
          // support streamed writing"); its guide writes to such a store from foreachBatch, "Reuse
          // existing batch data sources" —
          // https://spark.apache.org/docs/latest/structured-streaming-programming-guide.html#foreachbatch
          {
            error: `"${text.trim()}" is no streaming sink: Spark's JDBC data source "does not support streamed writing"; a query writes to a database from foreachBatch (format=foreachBatch, the JDBC append of each micro-batch)`,
          }
        : sparkFormat(text),
    kind: 'spark',
  },
  txnAppId: { path: 'sink.txnAppId', convert: string, kind: 'spark' },
};

/** Which processor a key says the configuration is for (the others are producer or shared keys). */
export function kindOfKey(key: string): ConfigKind | undefined {
  if (
    /^(execution\.checkpointing|restart-strategy|sink\.|state\.|taskmanager\.|jobmanager\.|parallelism\.)/.test(
      key,
    )
  )
    return 'flink';
  if (
    [
      'trigger',
      'maxOffsetsPerTrigger',
      'startingOffsets',
      'checkpointLocation',
      'format',
      'txnAppId',
      'subscribe',
      'outputMode',
    ].includes(key)
  )
    return 'spark';
  return RECOGNISED[key]?.kind;
}

/** Keys known and deliberately not modelled, with why they do not change what is delivered. */
const NOT_MODELLED: [RegExp, string][] = [
  [
    /^bootstrap\.servers$|^kafka\.bootstrap\.servers$/,
    'where to connect: no effect on which records arrive once or twice',
  ],
  [/^(key|value)\.(de)?serializer$/, 'how bytes are encoded: no effect on delivery'],
  [
    /^client\.id$|^group\.instance\.id$/,
    'a name for logs and quotas (the lab names its instances itself)',
  ],
  [/^compression\.type$/, 'a batch is compressed whole: nothing is lost or doubled by it'],
  [
    /^(buffer\.memory|send\.buffer\.bytes|receive\.buffer\.bytes|max\.request\.size|fetch\.(min|max)\.bytes|fetch\.max\.wait\.ms|max\.partition\.fetch\.bytes)$/,
    'sizes and waits of the transport: they change speed, not delivery',
  ],
  [
    /^(security\.protocol|sasl\..*|ssl\..*)$/,
    'authentication and encryption: no effect on delivery',
  ],
  [/^heartbeat\.interval\.ms$/, 'the lab models the session timeout, not each heartbeat'],
  [
    /^(default\.replication\.factor|num\.partitions)$/,
    "a default for topics created automatically: the workload's topic has its own (replication.factor and partitions in the Knobs tab)",
  ],
  [
    /^checkpointLocation$/,
    "the lab's query always keeps its checkpoint; where does not change delivery (deleting it is the checkpoint-reset fault)",
  ],
  [
    /^(state\.backend.*|state\.checkpoints\.dir|execution\.checkpointing\.dir|execution\.checkpointing\.storage)$/,
    "where checkpoints are stored: the lab's are always durable",
  ],
  [
    /^(parallelism\.default|taskmanager\..*|jobmanager\..*|rest\..*)$/,
    'cluster sizing: no effect on delivery',
  ],
  [
    /^(subscribe|subscribePattern|assign|outputMode|queryName)$/,
    "the query's source and shape: the library workload stands for them",
  ],
];

/** Why a known key is not modelled, or undefined for a key the lab does not know. */
export function notModelledWhy(key: string): string | undefined {
  return NOT_MODELLED.find(([re]) => re.test(key))?.[1];
}

/**
 * Why a key the lab does not know sets nothing, naming the recognised key it probably meant (at
 * most 2 edits away, or the same letters in another case: the clients' keys are case-sensitive).
 * Kafka's clients, Flink and Spark do not refuse a key they do not know either — a misspelt
 * `enable.idempotence` leaves idempotence as it was, silently
 * (https://kafka.apache.org/documentation/#producerconfigs lists the keys a producer reads).
 */
export function unknownKeyWhy(key: string): string {
  const why = 'not modelled: not a key the lab knows, so it sets nothing';
  const near = Object.keys(RECOGNISED)
    .map((k) => ({ k, d: k.toLowerCase() === key.toLowerCase() ? 0 : distance(k, key) }))
    .filter(({ d }) => d <= 2)
    .sort((a, b) => a.d - b.d)[0];
  return near ? `${why} — did you mean ${near.k}?` : why;
}
