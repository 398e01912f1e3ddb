/**
 * Guarantee recipes: the knobs that make a pipeline at-most-once, at-least-once or exactly-once,
 * for the pipeline the scenario describes (a consumer loop, a Flink job, a Spark query). Applying
 * one changes only the knobs it lists and sets the claim; any knob can then be changed by hand.
 * {@link recipeDifferences} tells which knobs differ from a recipe — a library preset often
 * ships with some of them set otherwise, to show what breaks the claim.
 *
 * ("Recipe", not "preset": a preset is a scenario of the library.)
 *
 * The recipes follow docs/semantics/guarantees.md#recipes (the chain table): at-most-once = commit before processing and
 * never retry; at-least-once = retry everything and commit after the output; exactly-once = the
 * at-least-once chain made idempotent or atomic end to end (an upsert on the business id, Kafka
 * transactions with read_committed readers, Flink two-phase commit, Delta txnAppId/txnVersion).
 */
import {
  BrokerSchema,
  describeFault,
  effectiveIdempotence,
  FaultSchema,
  FLINK_KAFKA_SINK_TRANSACTION_TIMEOUT_MS,
  issueLines,
  KAFKA_TRANSACTION_MAX_TIMEOUT_MS,
  parseScenario,
  ProcessorSchema,
  ProducerSchema,
  ReaderSchema,
  ScenarioSchema,
  SinkSchema,
} from '../engine';
import type { Guarantee, Issue, Scenario, ScenarioInput } from '../engine';
import { batchGuaranteeKnobs } from './batchGuarantee';

/** One knob a recipe sets: its path in the scenario and its value. */
export interface KnobSetting {
  /** Dotted path, e.g. `producer.acks` or `processor.enable.auto.commit` (see {@link getKnob}). */
  path: string;
  value: unknown;
  /** Why this value, in a few words. */
  why: string;
}

type Kind = 'consumer' | 'flink' | 'spark';

function kindOf(s: ScenarioInput): Kind {
  return (s.processor?.type ?? 'consumer') as Kind;
}

/**
 * Exactly-once through Flink's KafkaSink needs a transaction.timeout.ms the broker accepts: left
 * unset, KafkaSink asks for 1 h, above a default broker's transaction.max.timeout.ms (15 min), and
 * the job cannot start. A value within the broker's cap is kept as it is (no knob); otherwise the
 * cap itself is set.
 */
function flinkTimeoutKnob(s: ScenarioInput): KnobSetting[] {
  const set = s.sink?.type === 'kafka' ? s.sink['transaction.timeout.ms'] : undefined;
  const cap = s.broker?.['transaction.max.timeout.ms'] ?? KAFKA_TRANSACTION_MAX_TIMEOUT_MS;
  if ((set ?? FLINK_KAFKA_SINK_TRANSACTION_TIMEOUT_MS) <= cap) return [];
  return [
    {
      path: 'sink.transaction.timeout.ms',
      value: cap,
      why: 'the most the broker accepts (transaction.max.timeout.ms); KafkaSink’s own 1 h is refused',
    },
  ];
}

/**
 * The source producer's knobs an idempotent producer needs besides acks=all. Kafka refuses
 * `enable.idempotence=true` with `retries=0` ("must set retries to non-zero when using the
 * idempotent producer") and, since 4.0, with more than 5 requests in flight per connection
 * (ConfigException, https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence).
 * Only a conflicting value is changed (retries back to its default, Integer.MAX_VALUE, by
 * unsetting it; in-flight requests down to 5); a value that fits is left as it is, no knob.
 */
function idempotentProducerKnobs(s: ScenarioInput): KnobSetting[] {
  const knobs: KnobSetting[] = [];
  if (s.producer?.retries === 0)
    knobs.push({
      path: 'producer.retries',
      value: undefined,
      why: 'an idempotent producer must retry (retries=0 is a ConfigException): back to the default, Integer.MAX_VALUE',
    });
  const inFlight = s.producer?.['max.in.flight.requests.per.connection'];
  if (inFlight !== undefined && inFlight > 5)
    knobs.push({
      path: 'producer.max.in.flight.requests.per.connection',
      value: 5,
      why: 'the most an idempotent producer allows (more is a ConfigException)',
    });
  return knobs;
}

/**
 * A transactional producer is idempotent by definition: Kafka refuses `transactional.id` together
 * with `enable.idempotence=false` or `acks`≠all (ConfigException). The at-most-once and
 * at-least-once bundles turn idempotence off, and neither promise rests on transactions, so they
 * make the source producer a plain one. A fault that needs its transactions (an aborted or
 * hanging transaction, a crash at its commit) then cannot happen: {@link guaranteeAvailability}
 * reports that rather than the switch deleting the fault.
 */
const PLAIN_PRODUCER: KnobSetting = {
  path: 'producer.transactional.id',
  value: undefined,
  why: 'no transactions: a transactional producer is always idempotent',
};

/**
 * The source application and its producer, the same for every pipeline kind: whatever reads the
 * topic afterwards (a consumer loop, a Flink job, a Spark query) can only deliver what reached the
 * log, so a guarantee that promises no loss must make the source keep trying. At-most-once sends
 * once and gives up (acks=0, `app.onFailure: skip`); at-least-once waits for every in-sync replica
 * and re-sends what failed (a send that timed out after `delivery.timeout.ms`, or was still
 * buffered when the producer crashed) as a new record, so a retry may write it twice; exactly-once
 * does the same through an idempotent producer, whose own retries are written once, and relies on
 * the rest of the chain to absorb an application re-send
 * (https://kafka.apache.org/documentation/#semantics: a producer that "failed to receive a
 * response indicating that a message was committed" has "little choice but to resend the
 * message"; the idempotent producer makes its own resends write once).
 */
function sourceKnobs(g: Guarantee, s: ScenarioInput): KnobSetting[] {
  switch (g) {
    case 'at-most-once':
      return [
        { path: 'producer.acks', value: '0', why: 'fire and forget: never wait, never retry' },
        { path: 'producer.enable.idempotence', value: false, why: 'acks=0 cannot be idempotent' },
        PLAIN_PRODUCER,
        { path: 'producer.app.onFailure', value: 'skip', why: 'the application never re-sends' },
      ];
    case 'at-least-once':
      return [
        {
          path: 'producer.acks',
          value: 'all',
          why: 'wait until every in-sync replica has the record',
        },
        {
          path: 'producer.enable.idempotence',
          value: false,
          why: 'retries may write a record twice',
        },
        PLAIN_PRODUCER,
        { path: 'producer.app.onFailure', value: 'resend', why: 'a failed send is sent again' },
      ];
    case 'exactly-once':
      return [
        { path: 'producer.acks', value: 'all', why: 'no acknowledged record is lost' },
        {
          path: 'producer.enable.idempotence',
          value: true,
          why: 'a retried batch is written once',
        },
        ...idempotentProducerKnobs(s),
        { path: 'producer.app.onFailure', value: 'resend', why: 'nothing is given up' },
      ];
  }
}

/**
 * The output side of a consumer loop or a Flink job writing to an external service (an effect
 * sink): its own idempotence knob is the idempotency key (https://docs.stripe.com/api/idempotent_requests).
 * At-least-once retries with no key, so a retried call after a lost answer is a second charge;
 * exactly-once derives the key from the business id, so the service answers a retry (and a
 * replay) with the first result instead of charging again.
 */
function effectKeyKnob(g: Exclude<Guarantee, 'at-most-once'>): KnobSetting {
  return g === 'at-least-once'
    ? {
        path: 'sink.idempotencyKey',
        value: 'none',
        why: 'no idempotency key: a retried call is a new effect',
      }
    : {
        path: 'sink.idempotencyKey',
        value: 'business-id',
        why: 'a key derived from the event id: the service answers a retry with the first result',
      };
}

/**
 * ON CONFLICT needs a unique index on the key as its arbiter: a table declared without one
 * (`uniqueKey: false`) gets it, so the upsert the bundle asks for can run. Unset already means
 * "yes" for ON CONFLICT, so only an explicit false is changed.
 */
function uniqueKeyKnob(s: ScenarioInput): KnobSetting[] {
  return s.sink?.type === 'table' && s.sink.uniqueKey === false
    ? [{ path: 'sink.uniqueKey', value: true, why: 'ON CONFLICT needs a unique index on the key' }]
    : [];
}

/**
 * Spark's idempotent writes are Delta's (txnAppId + txnVersion = the batch id): the switch turns
 * the sink into a Delta table, so the settings of the sink it replaces that a Delta table does not
 * have (a table's `statementPer`, `key`, …; a file sink's `format`) are removed — the Delta schema
 * refuses unknown keys.
 */
function deltaSinkKnobs(s: ScenarioInput): KnobSetting[] {
  const sink = s.sink as Record<string, unknown> | undefined;
  if (!sink || sink.type === 'delta') return [];
  const delta = SinkSchema.options.find((o) => o.shape.type.value === 'delta')!;
  return Object.keys(sink)
    .filter((k) => !(k in delta.shape))
    .map((k) => ({
      path: `sink.${k}`,
      value: undefined,
      why: `a Delta table has no ${k} (a ${String(sink.type)} sink setting)`,
    }));
}

/**
 * A Flink table sink written through JDBC XA transactions (`sink.xa`, Flink's
 * JdbcSink.exactlyOnceSink) commits its rows when a checkpoint completes, so it is the job's
 * atomic commit, like KafkaSink's EXACTLY_ONCE: at-most-once (no checkpoints, which XA cannot run
 * without) and at-least-once (a replay adds rows again) turn it off, as they turn KafkaSink's
 * transactions off. Only an XA sink gets the knob; a plain one is left as it is.
 */
function xaOffKnob(s: ScenarioInput, why: string): KnobSetting[] {
  return xaOn(s) ? [{ path: 'sink.xa', value: false, why }] : [];
}

/** Whether the scenario's sink is a table written through XA transactions (`sink.xa`). */
function xaOn(s: ScenarioInput): boolean {
  const sink = s.sink as { type?: string; xa?: unknown } | undefined;
  return sink?.type === 'table' && sink.xa === true;
}

/**
 * Flink at-least-once and exactly-once: a crash before the first checkpoint completes starts
 * again from the committed offsets (none yet: the earliest), not from the end.
 */
const FLINK_FROM_COMMITTED: KnobSetting = {
  path: 'processor.offsetsInitializer',
  value: 'committedOffsets',
  why: 'a start with no checkpoint reads from the committed offsets, else the earliest (committedOffsets(OffsetResetStrategy.EARLIEST))',
};

/** A consumer loop's processing.mode (`sync` when unset). */
function processingMode(s: ScenarioInput): string {
  return (
    (s.processor as { processing?: { mode?: string } } | undefined)?.processing?.mode ?? 'sync'
  );
}

/** The knobs each guarantee's recipe sets, per pipeline kind. */
export function guaranteeKnobs(g: Guarantee, kind: Kind, s: ScenarioInput): KnobSetting[] {
  // A batch job's switch sets its scheduler and write (./batchGuarantee.ts), not the stream's.
  if (s.batch !== undefined) return batchGuaranteeKnobs(g, s);
  const readers = (s.readers ?? []).map((_, i) => i);
  const readerKnobs = (level: string, why: string): KnobSetting[] =>
    readers.map((i) => ({ path: `readers.${i}.isolation.level`, value: level, why }));
  if (kind === 'consumer') {
    const toKafka = s.sink?.type === 'kafka';
    const toEffect = s.sink?.type === 'effect';
    switch (g) {
      case 'at-most-once':
        return [
          ...sourceKnobs(g, s),
          { path: 'processor.enable.auto.commit', value: false, why: 'commit by hand…' },
          {
            path: 'processor.commit',
            value: 'before-processing',
            why: '…before processing: a crash skips the rest of the batch',
          },
          // The parallel loop commits its finished prefix after the work: one record at a time.
          ...(processingMode(s) === 'parallel'
            ? [
                {
                  path: 'processor.processing.mode',
                  value: 'sync',
                  why: 'a parallel loop commits only after the work',
                },
              ]
            : []),
          ...(toKafka
            ? []
            : [
                {
                  path: 'sink.retries',
                  value: 0,
                  why: 'a statement that timed out is not retried',
                },
                {
                  path: 'processor.onStatementError',
                  value: 'skip',
                  why: 'a failed write is dropped',
                },
              ]),
        ];
      case 'at-least-once':
        return [
          ...sourceKnobs(g, s),
          { path: 'processor.enable.auto.commit', value: false, why: 'commit by hand…' },
          {
            path: 'processor.commit',
            value: 'after-processing',
            why: '…after the output is written: a crash replays',
          },
          ...(toKafka
            ? [{ path: 'sink.transactional.id', value: undefined, why: 'no transactions' }]
            : [
                toEffect
                  ? effectKeyKnob(g)
                  : {
                      path: 'sink.statement',
                      value: 'insert',
                      why: 'a plain INSERT: a replay adds a row',
                    },
                { path: 'sink.retries', value: 3, why: 'a statement that timed out is retried' },
                {
                  path: 'processor.onStatementError',
                  value: 'retry',
                  why: 'a failed write is retried',
                },
              ]),
          ...readerKnobs('read_uncommitted', 'the Java default'),
        ];
      case 'exactly-once':
        return [
          ...sourceKnobs(g, s),
          {
            path: 'processor.enable.auto.commit',
            value: false,
            why: 'the loop decides when to commit',
          },
          ...(toKafka
            ? [
                {
                  path: 'processor.commit',
                  value: 'with-transaction',
                  why: 'offsets commit inside the output transaction (sendOffsetsToTransaction)',
                },
                {
                  path: 'processor.isolation.level',
                  value: 'read_committed',
                  why: 'read only committed input',
                },
                // One transaction per polled batch: the loop processes it before polling again.
                ...(processingMode(s) !== 'sync'
                  ? [
                      {
                        path: 'processor.processing.mode',
                        value: 'sync',
                        why: 'one transaction holds one polled batch',
                      },
                    ]
                  : []),
                {
                  path: 'sink.transactional.id',
                  value: 'copier-0',
                  why: 'a transactional producer fences zombies',
                },
                ...readerKnobs('read_committed', 'readers skip aborted and open transactions'),
              ]
            : [
                {
                  path: 'processor.commit',
                  value: 'after-processing',
                  why: 'commit after the output: replays are possible…',
                },
                ...(toEffect
                  ? [effectKeyKnob(g)]
                  : [
                      {
                        path: 'sink.statement',
                        value: 'on-conflict-do-update',
                        why: '…and an upsert on the business id absorbs them',
                      },
                      {
                        path: 'sink.set',
                        value: 'excluded',
                        why: 'an absolute update: replaying it changes nothing',
                      },
                      {
                        path: 'sink.key',
                        value: 'business-id',
                        why: 'the key is the event id, stable across replays and re-sends',
                      },
                      ...uniqueKeyKnob(s),
                    ]),
                { path: 'sink.retries', value: 3, why: 'retries are safe on an idempotent write' },
                {
                  path: 'processor.onStatementError',
                  value: 'retry',
                  why: 'a failed write is retried',
                },
              ]),
        ];
    }
  }
  if (kind === 'flink') {
    const kafka = s.sink?.type === 'kafka';
    const effect = s.sink?.type === 'effect';
    switch (g) {
      case 'at-most-once':
        // No checkpoints, and a restart starts at each partition's end: OffsetsInitializer.latest()
        // (https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/#starting-offset).
        // Committed offsets would not do: the auto-commit lags the processing, so a restart from
        // them reads records again. With checkpointing disabled and no restart strategy set, Flink
        // does not restart at all (strategy none): a crash ends the job, which loses records and
        // never reads one twice; a job given a fixed-delay strategy restarts at the end of each
        // partition (https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/task_failure_recovery/).
        return [
          {
            path: 'processor.execution.checkpointing.interval',
            value: null,
            why: 'no checkpoints: nothing is restored after a crash',
          },
          {
            path: 'processor.offsetsInitializer',
            value: 'latest',
            why: 'a start with no checkpoint — the first one too — begins at the end of each partition: what is already in the log is skipped, nothing is read twice',
          },
          ...(kafka
            ? [{ path: 'sink.deliveryGuarantee', value: 'NONE', why: 'no flush on checkpoints' }]
            : xaOffKnob(s, 'XA transactions commit on checkpoints, and there are none')),
        ];
      case 'at-least-once':
        return [
          ...sourceKnobs(g, s),
          {
            path: 'processor.execution.checkpointing.interval',
            value: 1000,
            why: 'checkpoints every second; a restart replays from the last one',
          },
          FLINK_FROM_COMMITTED,
          ...(kafka
            ? [
                {
                  path: 'sink.deliveryGuarantee',
                  value: 'AT_LEAST_ONCE',
                  why: 'flush on every checkpoint; replays may duplicate',
                },
                ...readerKnobs('read_uncommitted', 'the Java default'),
              ]
            : effect
              ? [effectKeyKnob(g)]
              : [
                  { path: 'sink.statement', value: 'insert', why: 'a replay adds rows' },
                  ...xaOffKnob(s, 'rows are written as they come, not committed per checkpoint'),
                ]),
        ];
      case 'exactly-once':
        return [
          ...sourceKnobs(g, s),
          {
            path: 'processor.execution.checkpointing.interval',
            value: 1000,
            why: 'checkpoints every second',
          },
          FLINK_FROM_COMMITTED,
          {
            path: 'processor.execution.checkpointing.mode',
            value: 'EXACTLY_ONCE',
            why: 'aligned barriers',
          },
          ...(kafka
            ? [
                {
                  path: 'sink.deliveryGuarantee',
                  value: 'EXACTLY_ONCE',
                  why: 'one Kafka transaction per checkpoint, committed when it completes',
                },
                {
                  path: 'sink.transactionalIdPrefix',
                  value: 'job-a',
                  why: 'required, unique per job',
                },
                ...flinkTimeoutKnob(s),
                ...readerKnobs('read_committed', 'readers see only committed transactions'),
              ]
            : effect
              ? [effectKeyKnob(g)]
              : xaOn(s)
                ? // The JDBC exactly-once sink is the job's atomic commit, as KafkaSink's
                  // EXACTLY_ONCE is: kept, rather than traded for an upsert.
                  [
                    {
                      path: 'sink.xa',
                      value: true,
                      why: 'one XA transaction per checkpoint, committed when it completes',
                    },
                    { path: 'sink.retries', value: 0, why: 'Flink refuses retries with XA' },
                  ]
                : [
                    {
                      path: 'sink.statement',
                      value: 'on-conflict-do-update',
                      why: 'an upsert on the event id absorbs replays',
                    },
                    { path: 'sink.key', value: 'business-id', why: 'a key stable across replays' },
                    ...uniqueKeyKnob(s),
                  ]),
        ];
    }
  }
  // Spark
  switch (g) {
    case 'at-most-once':
      // None: a query has no at-most-once mode (SPARK_NO_AT_MOST_ONCE; the switch is unavailable).
      return [];
    case 'at-least-once':
      return [
        ...sourceKnobs(g, s),
        { path: 'sink.type', value: 'delta', why: 'foreachBatch writing Delta…' },
        ...deltaSinkKnobs(s),
        {
          path: 'sink.txnAppId',
          value: null,
          why: '…without txnAppId: a re-run batch is appended again',
        },
      ];
    case 'exactly-once':
      return [
        ...sourceKnobs(g, s),
        { path: 'sink.type', value: 'delta', why: 'foreachBatch writing Delta…' },
        ...deltaSinkKnobs(s),
        {
          path: 'sink.txnAppId',
          value: 'query-1',
          why: '…with txnAppId and txnVersion = batchId: a re-run batch is skipped',
        },
      ];
  }
}

/** Read a knob by dotted path (config names with dots are matched greedily: `processor.enable.auto.commit`). */
export function getKnob(s: unknown, path: string): unknown {
  let cur: unknown = s;
  let rest = path;
  while (rest.length > 0) {
    if (cur === null || typeof cur !== 'object') return undefined;
    const obj = cur as Record<string, unknown>;
    // Longest key of obj that is a prefix of rest (followed by '.' or the end).
    const key = Object.keys(obj)
      .filter((k) => rest === k || rest.startsWith(`${k}.`))
      .sort((a, b) => b.length - a.length)[0];
    if (key === undefined) {
      const first = rest.split('.')[0]!;
      if (rest === first) return obj[first];
      return undefined;
    }
    cur = obj[key];
    rest = rest.slice(key.length + 1);
  }
  return cur;
}

/**
 * A copy of `s` with the knob at `path` set (undefined removes it). Unknown intermediate objects
 * are created; one the schema fills in as a discriminated union when it is left out (`processor`,
 * `sink`) is created with the discriminator of that default (`type: "consumer"`, `"table"`), so
 * the scenario keeps meaning what it meant, plus the one knob — `{ "max.poll.records": 7 }`
 * alone is refused for want of a type.
 */
export function setKnob<T>(
  s: T,
  path: string,
  value: unknown,
  schemaKeys: (prefix: string) => string[] = knownKeys,
): T {
  const root = structuredClone(s) as Record<string, unknown>;
  let cur = root;
  let rest = path;
  let prefix = '';
  const keys: string[] = [];
  for (;;) {
    const candidates = [...Object.keys(cur), ...schemaKeys(prefix)].filter(
      (k) => rest === k || rest.startsWith(`${k}.`),
    );
    const key = candidates.sort((a, b) => b.length - a.length)[0] ?? rest.split('.')[0]!;
    if (rest === key) {
      if (value === undefined) delete cur[key];
      else cur[key] = value;
      return root as T;
    }
    const next = cur[key];
    keys.push(key);
    let child: Record<string, unknown>;
    if (next !== null && typeof next === 'object') child = next as Record<string, unknown>;
    else {
      const tag = next === undefined ? defaultDiscriminator(keys) : undefined;
      child = tag ? { [tag[0]]: tag[1] } : {};
    }
    cur[key] = child;
    cur = child;
    rest = rest.slice(key.length + 1);
    prefix = prefix ? `${prefix}.${key}` : key;
  }
}

interface SchemaNode {
  shape?: Record<string, SchemaNode>;
  def?: { type?: string; innerType?: SchemaNode; discriminator?: string };
  safeParse?(v: unknown): { success: boolean; data?: unknown };
}

/**
 * The discriminator the schema's default gives the object at `keys` when it is left out
 * (`['processor']` → `['type', 'consumer']`, `['sink']` → `['type', 'table']`), or undefined when
 * that object is no defaulted discriminated union. The scenario's other unions (a fault's `kind`,
 * a random fault's `what`) have no default, so there is nothing to fill in for them.
 */
function defaultDiscriminator(keys: readonly string[]): [string, unknown] | undefined {
  const unwrap = (n: SchemaNode | undefined) => {
    while (n?.def?.innerType) n = n.def.innerType;
    return n;
  };
  let node: SchemaNode | undefined = ScenarioSchema as unknown as SchemaNode;
  for (const k of keys) node = unwrap(node)?.shape?.[k];
  const d = unwrap(node)?.def?.discriminator;
  if (!node || d === undefined) return undefined;
  const parsed = node.safeParse?.(undefined);
  const data = parsed?.success ? (parsed.data as Record<string, unknown> | undefined) : undefined;
  return data && d in data ? [d, data[d]] : undefined;
}

/** The keys the schema allows in the object at `prefix` (so `setKnob` can split dotted config names). */
function knownKeys(prefix: string): string[] {
  const keysOf = (o: unknown): string[] => Object.keys((o as { shape?: object }).shape ?? {});
  switch (prefix) {
    case 'producer':
      return keysOf(ProducerSchema);
    case 'producer.app':
      return keysOf((ProducerSchema.shape.app as unknown as { unwrap(): unknown }).unwrap());
    case 'broker':
      return keysOf(BrokerSchema);
    case 'processor':
      return ProcessorSchema.options.flatMap(keysOf);
    case 'sink':
      return SinkSchema.options.flatMap(keysOf);
    default:
      return /^readers\.\d+$/.test(prefix) ? keysOf(ReaderSchema) : [];
  }
}

/**
 * Apply a guarantee's recipe: set its knobs and the claim. Faults are never touched: one that
 * cannot happen under the guarantee makes the result invalid, which {@link guaranteeAvailability}
 * tells before anyone applies it.
 */
export function applyGuarantee(s: ScenarioInput, g: Guarantee): ScenarioInput {
  let out = structuredClone(s);
  for (const k of guaranteeKnobs(g, kindOf(s), s)) {
    // Removing a knob that is not there is nothing to do (setKnob would create its parent).
    if (k.value === undefined && getKnob(out, k.path) === undefined) continue;
    out = setKnob(out, k.path, k.value);
  }
  out.claim = g;
  return out;
}

/**
 * Why a Spark query offers no at-most-once: a micro-batch without a commit-log entry runs again
 * after a restart; an idempotent sink makes that exactly-once, a plain one at-least-once.
 */
export const SPARK_NO_AT_MOST_ONCE =
  'Spark Structured Streaming has no at-most-once mode: after a failure it runs a micro-batch that has no commit-log entry again, with the same offsets — a plain write then gives at-least-once, an idempotent one exactly-once';

/**
 * A guarantee the pipeline kind has no setting for at all (not a refused combination: no recipe
 * exists), with the reason; null otherwise. The one place both the switch's availability and
 * the recipe detection ask. Spark: a batch re-runs after a failure whatever the settings
 * (https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#fault-tolerance-semantics).
 */
function noSuchMode(s: ScenarioInput, g: Guarantee): string | null {
  return g === 'at-most-once' && kindOf(s) === 'spark' ? SPARK_NO_AT_MOST_ONCE : null;
}

/** Whether a guarantee can be switched to, and if not, why (see {@link guaranteeAvailability}). */
export type GuaranteeAvailability = { ok: true } | { ok: false; reason: string };

/**
 * Whether switching `s` to guarantee `g` gives a scenario the validator accepts, and if not, why,
 * in words a reader of the picker understands: the fault that cannot exist under `g` and what
 * it needs (`fault "TaskManager crash" crashes at a checkpoint step (after-checkpoint), and
 * at-most-once turns checkpointing off`).
 *
 * Decided by running {@link parseScenario} on {@link applyGuarantee}'s result, so the validator
 * stays the one place the rules live — apart from a guarantee the pipeline kind has no setting
 * for at all ({@link noSuchMode}: Spark's at-most-once). The switch never deletes a fault the
 * user placed: the option is unavailable instead. A scenario that is refused already is not
 * blocked by its own problems — only an issue the switch would add makes `g` unavailable.
 */
export function guaranteeAvailability(s: ScenarioInput, g: Guarantee): GuaranteeAvailability {
  const none = noSuchMode(s, g);
  if (none !== null) return { ok: false, reason: none };
  const after = parseScenario(applyGuarantee(s, g));
  if (after.ok) return { ok: true };
  const before = parseScenario(s);
  const known = new Set(before.ok ? [] : before.issues.map(issueKey));
  const added = after.issues.filter((i) => !known.has(issueKey(i)));
  if (added.length === 0) return { ok: true };
  const reasons = [...new Set(added.map((i) => issueReason(s, g, i)))];
  return { ok: false, reason: reasons.join('; ') };
}

const issueKey = (i: Issue) => `${i.path}\u0000${i.message}`;

// Which crash points are a checkpoint's steps and which a transaction commit's: only to word the
// reason — whether the fault is refused is the validator's call alone.
const CHECKPOINT_POINTS = new Set([
  'before-barrier',
  'after-precommit',
  'after-checkpoint',
  'during-commit',
]);
const TRANSACTION_POINTS = new Set(['before-commit-transaction', 'after-commit-decision']);

/**
 * One refused issue of the switched scenario as a sentence. An issue about a fault (`faults.N.…`)
 * names the fault (its id, or what it does) and what it needs that the guarantee takes away; any
 * other issue is quoted as the validator words it.
 */
function issueReason(s: ScenarioInput, g: Guarantee, issue: Issue): string {
  const m = /^faults\.(\d+)\.(\w+)/.exec(issue.path);
  const raw = m ? s.faults?.[Number(m[1])] : undefined;
  if (!m || raw === undefined)
    return `${g} would leave the scenario refused: ${issueLines([issue]).join('')}`;
  const parsed = FaultSchema.safeParse(raw);
  const f = parsed.success ? parsed.data : undefined;
  // The id the author gave it, else what it does ("a crash of flink"): either names it on the timeline.
  const name = `fault "${raw.id ?? (f ? describeFault(f) : `#${m[1]}`)}"`;
  const point = f && 'point' in f ? f.point : undefined;
  const field = m[2];
  if (field === 'point' && point !== undefined && CHECKPOINT_POINTS.has(point))
    return `${name} crashes at a checkpoint step (${point}), and ${g} turns checkpointing off`;
  if (field === 'point' && point !== undefined && TRANSACTION_POINTS.has(point))
    return `${name} crashes at a transaction commit (${point}), and ${g} uses no transactions`;
  if (field === 'link' && f && 'link' in f && f.link === 'checkpoint')
    return `${name} acts on checkpoint messages, and ${g} turns checkpointing off`;
  if (field === 'kind' && (f?.kind === 'abort-transaction' || f?.kind === 'hang-transaction'))
    return `${name} ${f.kind === 'abort-transaction' ? 'aborts' : 'leaves open'} a transaction of the producer, and ${g} makes the producer non-transactional`;
  return `${name} cannot happen under ${g}: ${issue.message}`;
}

/**
 * The guarantee a scenario claims — the one its verdict checks the run against: its `claim`, or
 * the schema's default (at-least-once) when it has none. A claim the schema refuses leaves the
 * scenario without a verdict; the default stands in for it.
 */
export function claimOf(s: ScenarioInput): Guarantee {
  const claim = ScenarioSchema.shape.claim;
  const r = claim.safeParse(s.claim);
  return r.success ? r.data : claim.parse(undefined);
}

/**
 * The knobs of `g`'s recipe that `s` sets otherwise, in the recipe's order (none: the knobs
 * follow the recipe). A knob left unset counts as its default: a Flink job without
 * checkpointing.mode is in EXACTLY_ONCE mode, as the schema (and Flink) say.
 */
export function recipeDifferences(s: ScenarioInput, g: Guarantee): KnobSetting[] {
  return differences(s, g, valueIn(s));
}

/** A knob's value in `s`, or, unset, the default the schema fills in (or its rule gives). */
function valueIn(s: ScenarioInput): (path: string) => unknown {
  const parsed = ScenarioSchema.safeParse(s);
  return (path) => {
    const v = getKnob(s, path);
    return v === undefined && parsed.success ? knobInEffect(parsed.data, path) : v;
  };
}

/**
 * A knob's value in effect in a validated scenario: as written or defaulted, and for a knob left
 * unset whose default is a rule rather than a value, the rule's outcome — `enable.idempotence`,
 * which Kafka turns on "if no conflicting configurations are set" (acks=all, retries > 0).
 */
export function knobInEffect(s: Scenario, path: string): unknown {
  const v = getKnob(s, path);
  if (v === undefined && path === 'producer.enable.idempotence')
    return effectiveIdempotence(s.producer);
  return v;
}

function differences(
  s: ScenarioInput,
  g: Guarantee,
  valueOf: (path: string) => unknown,
): KnobSetting[] {
  return guaranteeKnobs(g, kindOf(s), s).filter((k) => !sameValue(valueOf(k.path), k.value));
}

/** The guarantee whose recipe the scenario's knobs follow (the claimed one first), or 'custom'. */
export function detectGuarantee(s: ScenarioInput): Guarantee | 'custom' {
  const order: Guarantee[] = ['exactly-once', 'at-least-once', 'at-most-once'];
  const claim = s.claim;
  if (claim) order.sort((a, b) => (a === claim ? -1 : b === claim ? 1 : 0));
  const valueOf = valueIn(s);
  for (const g of order) {
    if (noSuchMode(s, g) !== null) continue; // no such mode: never "its recipe"
    if (differences(s, g, valueOf).length === 0) return g;
  }
  return 'custom';
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // acks may be written as a number.
  if ((a === 0 && b === '0') || (a === 1 && b === '1') || ((a === -1 || a === '-1') && b === 'all'))
    return true;
  return false;
}
