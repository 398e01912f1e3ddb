/**
 * The checks a schema cannot express: settings the real systems refuse together (Kafka's
 * idempotence and transaction rules, session timeouts the broker accepts, Flink and Spark
 * combinations), faults that name a target or an event the scenario lacks, or a crash point the
 * target never reaches — each an issue naming its field.
 */
import type { CrashPoint, Scenario } from './schema';
import { LIMITS } from './limits';
import { eventIds } from './workload';
import type { Issue } from './issueWords';
import { normalizeAcks } from './producerRules';
import { BATCH_PLACEMENT_KINDS, PLACEMENT_KINDS } from '../atlas/kinds';
import { misspellingBound, nearest } from '../core/editDistance';
import { columnSql, TABLE_COLUMNS } from '../sinks/keyColumns';
import { echoValue, notOneOf } from './echo';

export { effectiveIdempotence, normalizeAcks } from './producerRules';

/** A broker's default group.min.session.timeout.ms and group.max.session.timeout.ms (ms). */
const GROUP_MIN_SESSION_TIMEOUT_MS = 6_000;
const GROUP_MAX_SESSION_TIMEOUT_MS = 1_800_000;

/**
 * Names of the components a fault can target in this scenario: the actors the engine creates
 * under these names (`broker-1`…, `consumer-0`…, `reader-0`…).
 */
export function targetsOf(s: Scenario): string[] {
  const t = ['producer'];
  // Only a table, Delta or file sink is an actor of its own; a Kafka or effect sink is not.
  if (s.sink.type === 'table' || s.sink.type === 'delta' || s.sink.type === 'file') t.push('sink');
  for (let b = 1; b <= s.broker.brokers; b++) t.push(`broker-${b}`);
  const p = s.processor;
  if (p.type === 'consumer') for (let i = 0; i < p.instances; i++) t.push(`consumer-${i}`);
  else t.push(p.type);
  s.readers.forEach((_, i) => t.push(`reader-${i}`));
  return t;
}

/** Targets that count the records they process: only these draw per-record faults. */
function processesRecords(target: string): boolean {
  return /^(consumer-\d+|reader-\d+|flink|spark)$/.test(target);
}

/** Whose step each crash point is, for the message when a target never reaches it. */
const POINT_OWNER = {
  now: 'any component',
  'after-poll': 'a consumer loop (consumer-N, reader-N)',
  'mid-batch': 'a consumer loop or a Flink job (consumer-N, reader-N, flink)',
  'before-commit': 'a consumer loop (consumer-N, reader-N)',
  'after-commit': "the processor's consumer loop (consumer-N)",
  'before-barrier': 'a Flink checkpoint (flink)',
  'after-precommit': 'a Flink checkpoint (flink)',
  'after-checkpoint': 'a Flink checkpoint (flink)',
  'during-commit': 'a Flink checkpoint (flink)',
  'before-sink-write': 'a Spark micro-batch (spark)',
  'after-sink-write': 'a Spark micro-batch (spark)',
  'before-commit-transaction':
    'a transaction commit (producer with producer.transactional.id, consumer-N with sink.transactional.id)',
  'after-commit-decision':
    'a transaction commit (producer with producer.transactional.id, consumer-N with sink.transactional.id)',
} satisfies Record<CrashPoint, string>;

const CHECKPOINT_POINTS: readonly CrashPoint[] = [
  'before-barrier',
  'after-precommit',
  'after-checkpoint',
  'during-commit',
];

/**
 * The crash points `target` passes through in this scenario, as the engine asks
 * `Faults.crashPoint` for them; a crash waiting for any other point never fires.
 */
function crashPointsOf(s: Scenario, target: string): CrashPoint[] {
  const points: CrashPoint[] = ['now'];
  const p = s.processor;
  if (/^consumer-\d+$/.test(target)) {
    points.push('after-poll', 'mid-batch', 'before-commit', 'after-commit');
    // Its output producer's commitTransaction (KafkaOutput.commit).
    if (s.sink.type === 'kafka' && s.sink['transactional.id'] !== undefined)
      points.push('before-commit-transaction', 'after-commit-decision');
  } else if (/^reader-\d+$/.test(target)) {
    // A reader's loop commits after processing, never before: no 'after-commit'.
    points.push('after-poll', 'mid-batch', 'before-commit');
  } else if (target === 'flink') {
    points.push('mid-batch');
    // The JobManager sends no barrier without a checkpoint interval.
    if (p.type === 'flink' && p['execution.checkpointing.interval'] !== null)
      points.push(...CHECKPOINT_POINTS);
  } else if (target === 'spark') points.push('before-sink-write', 'after-sink-write');
  else if (target === 'producer' && s.producer['transactional.id'] !== undefined)
    points.push('before-commit-transaction', 'after-commit-decision');
  return points;
}

/** Why `target` never reaches `point` (which {@link crashPointsOf} left out). */
function unreachedPointMessage(s: Scenario, target: string, point: CrashPoint): string {
  const p = s.processor;
  if (target === 'flink' && CHECKPOINT_POINTS.includes(point) && p.type === 'flink')
    return `crash point "${point}" comes with a checkpoint, and processor.execution.checkpointing.interval is null (no checkpoints)`;
  return `"${target}" never reaches crash point "${point}", a step of ${POINT_OWNER[point]}; the points of ${target}: ${crashPointsOf(s, target).join(', ')}`;
}

export function semanticIssues(s: Scenario): Issue[] {
  const issues: Issue[] = [];
  const add = (path: string, message: string) => issues.push({ path, message });
  const p = s.producer;

  // Kafka refuses an explicitly idempotent producer with conflicting settings; left unset,
  // idempotence is switched off by them — and a transactional.id then has no idempotence to stand
  // on. Kafka's own messages: ProducerConfig.postProcessAndValidateIdempotenceConfigs,
  // https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence
  const acks = normalizeAcks(p.acks);
  if (p['enable.idempotence'] === true) {
    if (acks !== 'all')
      add(
        'producer.acks',
        'ConfigException: Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.',
      );
    if (p.retries === 0)
      add(
        'producer.retries',
        'ConfigException: Must set retries to non-zero when using the idempotent producer.',
      );
  } else if (p['transactional.id'] !== undefined) {
    const noTxn =
      'ConfigException: Cannot set a transactional.id without also enabling idempotence.';
    if (p['enable.idempotence'] === false) add('producer.enable.idempotence', noTxn);
    else if (acks !== 'all')
      add('producer.acks', `${noTxn} (acks=${acks} switches the default idempotence off)`);
    else if (p.retries === 0)
      add('producer.retries', `${noTxn} (retries=0 switches the default idempotence off)`);
  }
  // Kafka 4.x checks this whenever idempotence is not explicitly false — even where acks or
  // retries then switch it off (3.x only logged a warning and switched it off; 4.0 made it an
  // error): ProducerConfig.postProcessAndValidateIdempotenceConfigs,
  // https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/ProducerConfig.java
  if (p['enable.idempotence'] !== false && p['max.in.flight.requests.per.connection'] > 5)
    add(
      'producer.max.in.flight.requests.per.connection',
      `ConfigException: To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is ${p['max.in.flight.requests.per.connection']}. (Set enable.idempotence=false to allow more.)`,
    );
  // Kafka refuses a delivery timeout shorter than one linger plus one request when it was set
  // (parseScenario has raised an unset one already).
  // https://kafka.apache.org/documentation/#producerconfigs_delivery.timeout.ms
  if (p['delivery.timeout.ms'] < p['linger.ms'] + p['request.timeout.ms'])
    add(
      'producer.delivery.timeout.ms',
      `ConfigException: delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms (here ${p['linger.ms']} + ${p['request.timeout.ms']} = ${p['linger.ms'] + p['request.timeout.ms']})`,
    );
  if (p.app.mode === 'sync' && p.app['get.timeout.ms'] === undefined)
    add(
      'producer.app.get.timeout.ms',
      'sync mode needs how long the application waits on send().get()',
    );

  const b = s.broker;
  if (b['min.insync.replicas'] > b['replication.factor'])
    add('broker.min.insync.replicas', 'cannot exceed replication.factor');

  // Topics a reader may read.
  const topics = new Set([s.workload.topic]);
  if (s.sink.type === 'kafka') {
    if (s.sink.topic === s.workload.topic)
      add('sink.topic', 'the output topic must differ from the input topic');
    topics.add(s.sink.topic);
  }
  s.readers.forEach((r, i) => {
    if (!topics.has(r.topic))
      add(`readers.${i}.topic`, `no topic named "${r.topic}" (topics: ${[...topics].join(', ')})`);
  });
  const readerNames = new Set<string>();
  s.readers.forEach((r, i) => {
    if (readerNames.has(r.name)) add(`readers.${i}.name`, `duplicate reader name "${r.name}"`);
    readerNames.add(r.name);
  });

  // Sink and processor must fit together.
  const proc = s.processor;
  const sink = s.sink;
  if ((sink.type === 'table' || sink.type === 'delta') && sink.clean) {
    if (sink.clean.name === sink.name)
      add('sink.clean.name', 'the clean table must have another name than the raw table');
    if (sink.type === 'table' && sink.initialRows.length > 0)
      add('sink.clean', 'a clean layer over a raw table with initial rows is not modelled');
  }
  if ((sink.type === 'delta' || sink.type === 'file') && proc.type !== 'spark')
    add('sink.type', `a ${sink.type} sink is written by a Spark query (processor.type "spark")`);
  // The Flink job has no path that calls an effect sink: it would run, call nothing, and count
  // every event lost. Its external calls are made from an operator (processor.sideEffect).
  if (sink.type === 'effect' && proc.type === 'flink')
    add(
      'sink.type',
      'an effect sink is called by a consumer loop or a Spark query; a Flink job calls a service from an operator (processor.sideEffect) and writes to a table or Kafka',
    );
  if (sink.type === 'table') {
    const onConflict =
      sink.statement === 'on-conflict-do-nothing' || sink.statement === 'on-conflict-do-update';
    if (onConflict && sink.uniqueKey === false)
      add(
        'sink.uniqueKey',
        'ON CONFLICT needs a unique index or constraint on the key as its arbiter',
      );
    if (sink.columns) {
      // One table cannot have two columns of one name (PostgreSQL: 42701 duplicate_column); the
      // dedupe table's seen_ms and MERGE's ord are the lab's own beside them.
      const taken = new Map<string, string>([
        ['seen_ms', "the dedupe table's seen_ms"],
        ['ord', "MERGE's ord"],
      ]);
      for (const col of TABLE_COLUMNS) {
        const sql = columnSql(sink, col);
        const before = taken.get(sql);
        taken.set(sql, `column ${col}`);
        if (before === undefined) continue;
        // Named at the user's name: theirs, or the one before it when this is the lab's own.
        const renamed = sink.columns[col] !== undefined ? col : before.replace(/^column /, '');
        add(
          `sink.columns.${renamed}`,
          `"${sql}" names two columns (${before} and column ${col}): each column needs its own name`,
        );
      }
    }
    if (sink.xa) {
      if (proc.type !== 'flink')
        add(
          'sink.xa',
          'XA transactions per checkpoint are Flink\'s JDBC exactly-once sink (processor.type "flink")',
        );
      else if (proc['execution.checkpointing.interval'] === null)
        add(
          'processor.execution.checkpointing.interval',
          'the JDBC exactly-once (XA) sink commits on checkpoints: it requires checkpointing',
        );
      // JdbcXaSinkFunction's constructor: "JDBC XA sink requires maxRetries equal to 0, otherwise it could cause duplicates".
      if (sink.retries !== 0)
        add(
          'sink.retries',
          'the JDBC exactly-once (XA) sink requires maxRetries equal to 0 (a retry could write twice, FLINK-22311): set retries to 0',
        );
    }
  }
  if (proc.type !== 'consumer') {
    // A job or a query processes its records one after another, perRecordMs each: the consumer
    // loop's other processing settings would be ignored — refuse them rather than say nothing.
    const who = proc.type === 'flink' ? 'a Flink job' : 'a Spark query';
    if (proc.processing.mode !== 'sync')
      add(
        'processor.processing.mode',
        `${who} processes records in order; handoff and parallel are consumer-loop modes`,
      );
    if (proc.processing.durationsMs !== undefined)
      add(
        'processor.processing.durationsMs',
        `a list of processing times is a consumer-loop setting; ${who} takes perRecordMs`,
      );
  }
  if (proc.type === 'consumer') {
    // A broker refuses a JoinGroup whose session timeout is outside its group.min/max.session.
    // timeout.ms (6 s and 30 min by default) with INVALID_SESSION_TIMEOUT: the member never joins.
    // https://kafka.apache.org/documentation/#brokerconfigs_group.min.session.timeout.ms
    const session = proc['session.timeout.ms'];
    if (session < GROUP_MIN_SESSION_TIMEOUT_MS || session > GROUP_MAX_SESSION_TIMEOUT_MS)
      add(
        'processor.session.timeout.ms',
        `the broker accepts ${GROUP_MIN_SESSION_TIMEOUT_MS}–${GROUP_MAX_SESSION_TIMEOUT_MS} ms (group.min.session.timeout.ms, group.max.session.timeout.ms): it would refuse the JoinGroup with INVALID_SESSION_TIMEOUT`,
      );
    // Set explicitly (parseScenario makes an unset one false): auto-commit would also commit the
    // polled positions outside the transaction, ahead of outputs that may still abort. The
    // KafkaProducer javadoc of sendOffsetsToTransaction: "the consumer should have
    // enable.auto.commit=false" (see parseScenario).
    if (proc['enable.auto.commit'] && proc.commit === 'with-transaction')
      add(
        'processor.enable.auto.commit',
        'commit with-transaction (sendOffsetsToTransaction) needs enable.auto.commit=false: "the consumer should have enable.auto.commit=false" (KafkaProducer javadoc) — auto-commit would also commit polled offsets outside the transaction. Set it to false, or leave it out',
      );
    if (!proc['enable.auto.commit'] && proc.commit === 'with-transaction') {
      if (sink.type !== 'kafka' || sink['transactional.id'] === undefined)
        add(
          'processor.commit',
          'sendOffsetsToTransaction needs a Kafka sink with a transactional.id',
        );
    }
    if (proc['enable.auto.commit'] && proc.processing.mode === 'parallel')
      add(
        'processor.processing.mode',
        'parallel processing commits the finished prefix itself: set enable.auto.commit=false',
      );
    // Manual commits a loop other than sync cannot make as asked:
    // - parallel commits the contiguous prefix of finished offsets, after the work (a commit
    //   before processing was ignored there, giving at-least-once);
    // - sendOffsetsToTransaction commits one polled batch's offsets inside the transaction that
    //   wrote its output: the loop processes the batch between beginTransaction and the commit.
    const mode = proc.processing.mode;
    if (!proc['enable.auto.commit'] && mode !== 'sync') {
      if (proc.commit === 'with-transaction')
        add(
          'processor.processing.mode',
          `commit with-transaction (sendOffsetsToTransaction) wraps each polled batch in one transaction: it needs mode sync, not ${mode}`,
        );
      else if (proc.commit === 'before-processing' && mode === 'parallel')
        add(
          'processor.processing.mode',
          'parallel processing commits the finished prefix after the work; commit before processing needs mode sync',
        );
    }
    if (sink.type === 'kafka' && sink.deliveryGuarantee !== 'NONE')
      add(
        'sink.deliveryGuarantee',
        'deliveryGuarantee is a Flink KafkaSink setting; a consumer loop uses transactional.id',
      );
  }
  if (proc.type === 'spark' && sink.type === 'kafka') {
    // Spark's Kafka sink has no transactions: "Yes (at-least-once)".
    if (sink.deliveryGuarantee !== 'NONE')
      add(
        'sink.deliveryGuarantee',
        "deliveryGuarantee is a Flink KafkaSink setting; Spark's Kafka sink is at-least-once, without transactions",
      );
    if (sink.transactionalIdPrefix !== undefined)
      add(
        'sink.transactionalIdPrefix',
        "transactionalIdPrefix is a Flink KafkaSink setting; Spark's Kafka sink writes without transactions",
      );
    if (sink['transactional.id'] !== undefined)
      add(
        'sink.transactional.id',
        "Spark's Kafka sink writes without transactions (at-least-once): transactional.id is a consumer loop's setting",
      );
  }
  if (proc.type === 'flink' && sink.type === 'kafka') {
    if (sink.deliveryGuarantee !== 'NONE' && proc['execution.checkpointing.interval'] === null)
      add(
        'processor.execution.checkpointing.interval',
        `KafkaSink ${sink.deliveryGuarantee} requires checkpointing`,
      );
    if (sink.deliveryGuarantee === 'EXACTLY_ONCE' && sink.transactionalIdPrefix === undefined)
      add('sink.transactionalIdPrefix', 'KafkaSink EXACTLY_ONCE requires a transactionalIdPrefix');
    if (sink['transactional.id'] !== undefined)
      add(
        'sink.transactional.id',
        'Flink KafkaSink uses transactionalIdPrefix, not transactional.id',
      );
  }

  // Faults must name things that exist.
  const targets = new Set(targetsOf(s));
  const ids = eventIds(s.workload);
  // Ids label faults on the timeline and in explanations: two alike would be told apart by nothing.
  const faultIds = new Map<string, number>();
  s.faults.forEach((f, i) => {
    if (f.id !== undefined) {
      const first = faultIds.get(f.id);
      if (first === undefined) faultIds.set(f.id, i);
      else add(`faults.${i}.id`, `duplicate fault id "${f.id}": faults.${first} has it already`);
    }
    if ('target' in f && !targets.has(f.target))
      add(`faults.${i}.target`, `no component "${f.target}" (targets: ${[...targets].join(', ')})`);
    if ('event' in f && !ids.has(f.event))
      add(`faults.${i}.event`, `no event with id "${f.event}"`);
    if ('match' in f && f.match.event !== undefined && !ids.has(f.match.event))
      add(`faults.${i}.match.event`, `no event with id "${f.match.event}"`);
    // A random fault is checked as the scheduled fault it fires.
    const what = f.kind === 'random' ? f.what : f.kind;
    if (
      (f.kind === 'leader-failover' || (f.kind === 'random' && f.what === 'leader-failover')) &&
      f.partition !== undefined &&
      f.partition >= b.partitions &&
      (f.topic ?? s.workload.topic) === s.workload.topic
    )
      add(`faults.${i}.partition`, `the topic has ${b.partitions} partition(s)`);
    if (
      (f.kind === 'leader-failover' || (f.kind === 'random' && f.what === 'leader-failover')) &&
      f.topic !== undefined &&
      !topics.has(f.topic)
    )
      add(`faults.${i}.topic`, `no topic named "${f.topic}"`);
    // A window that ends before it starts would never fire, silently.
    if (f.kind === 'random' && f.untilMs !== undefined && f.untilMs < f.at)
      add(
        `faults.${i}.untilMs`,
        `the window ends (${f.untilMs} ms) before it starts (at ${f.at} ms)`,
      );
    // A crash armed by records processed (random, periodic) counts only a processor's or a
    // reader's records: on any other target it never comes due.
    const perRecord =
      f.kind === 'periodic-crash'
        ? 'a periodic crash counts records processed'
        : f.kind === 'random' && f.what === 'crash'
          ? 'a random crash is drawn per record processed'
          : null;
    // (Its point is checked only once its target is right.)
    const targetCounts = perRecord === null || !('target' in f) || processesRecords(f.target);
    if (perRecord !== null && 'target' in f && targets.has(f.target) && !targetCounts)
      add(
        `faults.${i}.target`,
        `${perRecord}: "${f.target}" processes none (targets: ${[...targets].filter(processesRecords).join(', ')})`,
      );
    // Only the processor's group members move partitions or stall into a replacement (readers
    // are groups of their own; simulate() looks the target up among the processor's instances).
    if (
      (what === 'rebalance' || f.kind === 'zombie') &&
      'target' in f &&
      proc.type === 'consumer' &&
      targets.has(f.target) &&
      !/^consumer-\d+$/.test(f.target)
    )
      add(
        `faults.${i}.target`,
        `"${f.target}" is not a member of the consumer group (targets: ${[...targets].filter((t) => /^consumer-\d+$/.test(t)).join(', ')})`,
      );
    // A crash at a point other than 'now' waits for its target to reach that point.
    if (
      (f.kind === 'crash' ||
        f.kind === 'periodic-crash' ||
        (f.kind === 'random' && f.what === 'crash')) &&
      targets.has(f.target) &&
      targetCounts &&
      !crashPointsOf(s, f.target).includes(f.point)
    )
      add(`faults.${i}.point`, unreachedPointMessage(s, f.target, f.point));
    // A loop asks for 'mid-batch' after each record it processed, counting from 1: after 0 it
    // never asks, and the crash would wait for a moment that never comes.
    if (f.kind === 'crash' && f.point === 'mid-batch' && f.afterRecords === 0)
      add(
        `faults.${i}.afterRecords`,
        f.target === 'flink'
          ? 'a mid-batch crash comes after a record: afterRecords counts from 1 (the crash after the first record since the last barrier)'
          : 'a mid-batch crash comes after a record: afterRecords counts from 1 (the crash after the first record of the batch); for a crash before any, use point "after-poll"',
      );
    // Only a checkpointing Flink job sends barriers, acknowledgements and notifications.
    if ('link' in f && f.link === 'checkpoint') {
      if (proc.type !== 'flink')
        add(
          `faults.${i}.link`,
          'no checkpoint messages: only a Flink job checkpoints (processor.type "flink")',
        );
      else if (proc['execution.checkpointing.interval'] === null)
        add(
          `faults.${i}.link`,
          'no checkpoint messages: processor.execution.checkpointing.interval is null (no checkpoints)',
        );
    }
    if (
      (f.kind === 'abort-transaction' || f.kind === 'hang-transaction') &&
      p['transactional.id'] === undefined
    )
      add(`faults.${i}.kind`, 'the producer is not transactional (set producer.transactional.id)');
    if (f.kind === 'checkpoint-reset' && proc.type !== 'spark')
      add(`faults.${i}.kind`, 'only a Spark query has a checkpoint location to reset');
    if (f.kind === 'checkpoint-reset' && f.txnAppId !== undefined && s.sink.type !== 'delta')
      add(`faults.${i}.txnAppId`, 'txnAppId is a Delta write option: the sink must be "delta"');
    if (what === 'rebalance' && proc.type !== 'consumer')
      add(`faults.${i}.kind`, 'a rebalance needs a consumer group (processor.type "consumer")');
    if (f.kind === 'zombie' && proc.type !== 'consumer')
      add(`faults.${i}.kind`, 'a zombie is a consumer group member (processor.type "consumer")');
  });
  if (s.stopAtMs !== undefined && s.stopAtMs > LIMITS.timeMs)
    add('stopAtMs', 'beyond the time limit');
  issues.push(
    ...atlasKindIssues(s.expect?.atlas?.kinds, s.batch !== undefined, 'expect.atlas.kinds'),
  );
  return issues;
}

/**
 * An atlas pin's kinds that its engine does not place (`--kinds` refuses them alike), at `path`.N:
 * a scenario's `expect.atlas.kinds`, or an embed's pin (src/cli/checkDocs.ts).
 */
export function atlasKindIssues(
  named: readonly string[] | undefined,
  batch: boolean,
  path: string,
): Issue[] {
  const kinds: readonly string[] = batch ? BATCH_PLACEMENT_KINDS : PLACEMENT_KINDS;
  return (named ?? []).flatMap((k, i) => {
    if (kinds.includes(k)) return [];
    const near = nearest(k, kinds, misspellingBound);
    return [
      {
        path: `${path}.${i}`,
        message: notOneOf(kinds, echoValue(k), near === null ? undefined : `did you mean ${near}?`),
      },
    ];
  });
}
