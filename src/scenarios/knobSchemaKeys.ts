/**
 * What ./knobPaths.ts needs of the scenario schema (src/engine/scenario/schema.ts), as plain data:
 * the keys each object a knob's dotted path crosses allows, and the discriminator a defaulted
 * union gets when it is left out. Without zod, so the knob panels' first render evaluates no
 * schema (issue 24: first verdict ≤ 500 ms); ./knobSchemaKeys.test.ts pins both equal to what
 * the schema itself says, so a schema change that is not copied here fails there.
 */

/** The keys the schema allows in the object at a prefix (a union's: every option's, once each). */
export const SCHEMA_KEYS: Readonly<Record<string, readonly string[]>> = {
  producer: [
    'acks',
    'enable.idempotence',
    'retries',
    'delivery.timeout.ms',
    'request.timeout.ms',
    'retry.backoff.ms',
    'retry.backoff.max.ms',
    'linger.ms',
    'batch.size',
    'max.in.flight.requests.per.connection',
    'transactional.id',
    'transaction.timeout.ms',
    'app',
  ],
  'producer.app': ['mode', 'get.timeout.ms', 'onFailure', 'eventsPerTransaction'],
  broker: [
    'brokers',
    'partitions',
    'replication.factor',
    'min.insync.replicas',
    'unclean.leader.election.enable',
    'replica.lag.time.max.ms',
    'replica.fetch.wait.max.ms',
    'broker.session.timeout.ms',
    'transaction.max.timeout.ms',
  ],
  processor: [
    'type',
    'group.id',
    'instances',
    'enable.auto.commit',
    'auto.commit.interval.ms',
    'commit',
    'max.poll.records',
    'isolation.level',
    'auto.offset.reset',
    'fetch.max.wait.ms',
    'session.timeout.ms',
    'partition.assignment.strategy',
    'max.poll.interval.ms',
    'processing',
    'sideEffect',
    'startAtMs',
    'onStatementError',
    'execution.checkpointing.interval',
    'execution.checkpointing.mode',
    'execution.checkpointing.timeout',
    'execution.checkpointing.tolerable-failed-checkpoints',
    'offsetsInitializer',
    'restart-strategy.type',
    'restart-strategy.fixed-delay.delay',
    'restart-strategy.fixed-delay.attempts',
    'sinkFlushDelayMs',
    'dedupe',
    'trigger.processingTime',
    'maxOffsetsPerTrigger',
    'startingOffsets',
  ],
  sink: [
    'type',
    'name',
    'statement',
    'set',
    'merge',
    'uniqueKey',
    'key',
    'statementPer',
    'dedupe',
    'statement.timeout.ms',
    'retries',
    'xa',
    'initialRows',
    'clean',
    'columns',
    'txnAppId',
    'mode',
    'format',
    'topic',
    'partitions',
    'deliveryGuarantee',
    'transactionalIdPrefix',
    'transactional.id',
    'transaction.timeout.ms',
    'linger.ms',
    'ignoreFailuresAfterTransactionTimeout',
    'service',
    'idempotencyKey',
    'retentionMs',
    'timeout.ms',
    'retryDelayMs',
    'retryAmountDelta',
  ],
};

/** The keys the schema allows in a reader (every `readers.<i>` prefix). */
export const READER_KEYS: readonly string[] = ['name', 'topic', 'isolation.level', 'startAtMs'];

/**
 * The discriminator the schema's default gives a left-out union, by its path: a consumer loop's
 * processor, a table sink. The scenario's other unions (a fault's `kind`, a random fault's
 * `what`) have no default, so there is nothing to fill in for them.
 */
export const DEFAULT_DISCRIMINATORS: Readonly<Record<string, readonly [string, string]>> = {
  processor: ['type', 'consumer'],
  sink: ['type', 'table'],
};
