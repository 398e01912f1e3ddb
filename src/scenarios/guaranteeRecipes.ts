/**
 * The guarantee recipes themselves: for a guarantee and the pipeline the scenario describes (a
 * consumer loop, a Flink job, a Spark query, a batch job), the knobs that make it so, each with
 * why (docs/semantics/guarantees.md#recipes). guarantees.ts applies, compares and detects them.
 */
import {
  FLINK_KAFKA_SINK_TRANSACTION_TIMEOUT_MS,
  KAFKA_TRANSACTION_MAX_TIMEOUT_MS,
  SinkSchema,
} from '../engine';
import type { Guarantee, ScenarioInput } from '../engine';
import { batchGuaranteeKnobs } from './batchGuarantee';
import { sourceKnobs } from './sourceRecipe';

/** One knob a recipe sets: its path in the scenario and its value. */
export interface KnobSetting {
  /** Dotted path, e.g. `producer.acks` or `processor.enable.auto.commit` (see `getKnob`, knobPaths.ts). */
  path: string;
  value: unknown;
  /** Why this value, in a few words. */
  why: string;
}

export type Kind = 'consumer' | 'flink' | 'spark';

export function kindOf(s: ScenarioInput): Kind {
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

/**
 * The checkpoint interval of a recipe with checkpoints: the job's own when it checkpoints, else
 * every second. Flink's exactly-once and at-least-once need checkpointing enabled, at any interval
 * (https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/datastream/fault-tolerance/checkpointing/):
 * a 2 s or 30 s interval follows the recipe, and choosing the guarantee keeps it.
 */
function checkpointEvery(s: ScenarioInput): number {
  const own =
    s.processor?.type === 'flink' ? s.processor['execution.checkpointing.interval'] : null;
  return typeof own === 'number' ? own : 1000;
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
            value: checkpointEvery(s),
            why: 'checkpoints on (every second unless set); a restart replays from the last one',
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
            value: checkpointEvery(s),
            why: 'checkpoints on (every second unless set)',
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
