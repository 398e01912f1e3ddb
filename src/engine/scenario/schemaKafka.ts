/**
 * The Kafka side of a scenario: the source application's producer client and the cluster.
 */
import { z } from 'zod';
import { echoValue, notOneOf } from './echo';
import { LIMITS } from './limits';
import { int, ms, name } from './schemaFields';
import { KAFKA_TRANSACTION_MAX_TIMEOUT_MS } from './transactionTimeouts';

/** `acks` as Kafka accepts it: "0", "1", "all" or "-1" (= all); numbers are accepted too. */
export const AcksSchema = z.union(
  [z.enum(['0', '1', 'all', '-1']), z.literal(0), z.literal(1), z.literal(-1)],
  { error: (iss) => notOneOf(['"0"', '"1"', '"all"', '"-1"'], echoValue(iss.input)) },
);

/**
 * The source application and its Kafka producer client.
 * Defaults and checks: the Kafka 4.x Java client (`linger.ms` 5; more than 5 requests in flight is
 * an error unless idempotence is switched off) — https://kafka.apache.org/documentation/#producerconfigs.
 * A Kafka sink's producer (the output of a job) defaults to what the Flink connector's bundled 3.x
 * client does (`linger.ms` 0, {@link KafkaSinkSchema}).
 */
export const ProducerSchema = z.strictObject({
  /** `acks` (default `all` since Kafka 3.0). */
  acks: AcksSchema.default('all'),
  /**
   * `enable.idempotence`. Unset: on, unless `acks`≠all or `retries`=0 turn it off silently; set to
   * true together with such a setting: the producer refuses to start (`ConfigException`).
   */
  'enable.idempotence': z.boolean().optional(),
  retries: int(0, 2147483647).default(2147483647),
  'delivery.timeout.ms': ms().default(120_000),
  'request.timeout.ms': ms(1).default(30_000),
  'retry.backoff.ms': ms().default(100),
  /**
   * The longest wait between attempts: `retry.backoff.ms` doubles with each failed attempt of a
   * batch up to this (Kafka ≥ 3.7, KIP-580; its ±20 % jitter is not drawn).
   * https://kafka.apache.org/documentation/#producerconfigs_retry.backoff.max.ms
   */
  'retry.backoff.max.ms': ms().default(1000),
  'linger.ms': ms().default(5),
  /**
   * Bytes per partition batch; 0 disables batching (each record is sent on its own).
   * https://kafka.apache.org/documentation/#producerconfigs_batch.size
   */
  'batch.size': int(0, 16 * 1024 * 1024).default(16_384),
  'max.in.flight.requests.per.connection': int(1, 100).default(5),
  /** Setting it makes the producer transactional (and idempotent). */
  'transactional.id': name().optional(),
  'transaction.timeout.ms': ms(1).default(60_000),
  /** How the application uses the producer. */
  app: z
    .strictObject({
      /** `async`: `send()` with a callback, next event at its own time; `sync`: `send().get(timeout)` one after another. */
      mode: z.enum(['async', 'sync']).default('async'),
      /** `sync` only: how long the application waits on the future before it gives up (ms). */
      'get.timeout.ms': ms(1).optional(),
      /**
       * What the application does when a send fails or its wait times out: `skip` (log and go on),
       * `resend` (send the same business event again: a new record, not a producer retry), `halt`.
       */
      onFailure: z.enum(['skip', 'resend', 'halt']).default('skip'),
      /** Transactional producers: business events per transaction. */
      eventsPerTransaction: int(1, 100_000).default(1),
    })
    .default({ mode: 'async', onFailure: 'skip', eventsPerTransaction: 1 }),
});

/** The Kafka cluster. Docs: https://kafka.apache.org/documentation/#brokerconfigs */
export const BrokerSchema = z
  .strictObject({
    brokers: int(1, LIMITS.brokers).default(3),
    /** Partitions of the input topic. */
    partitions: int(1, LIMITS.partitions).default(1),
    /** Our default is 3 (Kafka's broker default `default.replication.factor` is 1). */
    'replication.factor': int(1, LIMITS.brokers).default(3),
    /** Our default is 2 (Kafka's broker default is 1). Only `acks=all` writes check it. */
    'min.insync.replicas': int(1, LIMITS.brokers).default(2),
    'unclean.leader.election.enable': z.boolean().default(false),
    /**
     * A follower that has not caught up for longer than this (ms) is dropped from the ISR by its
     * leader's periodic check (every half of it). Followers fall behind here only when their broker
     * is down; the controller's removal after `broker.session.timeout.ms` may come first.
     */
    'replica.lag.time.max.ms': ms().default(30_000),
    /**
     * How long the leader holds a follower's fetch that finds nothing new before answering it
     * empty, with its high watermark (ms; Kafka's default 500): on an idle partition, how soon
     * the followers learn the last high watermark. At least 1 here: 0 would have a follower
     * fetch again and again in the same instant.
     * https://kafka.apache.org/documentation/#brokerconfigs_replica.fetch.wait.max.ms
     */
    'replica.fetch.wait.max.ms': ms(1).default(500),
    /** How long the controller takes to declare a silent broker dead (KRaft default 9000 ms). */
    'broker.session.timeout.ms': ms().default(9_000),
    /**
     * The longest `transaction.timeout.ms` the transaction coordinator accepts (Kafka's default
     * 15 min). A transactional producer asking for more is refused at initTransactions with
     * INVALID_TRANSACTION_TIMEOUT ("The transaction timeout is larger than the maximum value
     * allowed by the broker"), https://kafka.apache.org/documentation/#brokerconfigs_transaction.max.timeout.ms
     */
    'transaction.max.timeout.ms': ms(1).default(KAFKA_TRANSACTION_MAX_TIMEOUT_MS),
  })
  .refine((b) => b['replication.factor'] <= b.brokers, {
    message: 'replication.factor cannot exceed the number of brokers',
    path: ['replication.factor'],
  })
  // Kafka refuses to start otherwise (KafkaConfig's validation, in its words).
  .refine((b) => b['replica.fetch.wait.max.ms'] <= b['replica.lag.time.max.ms'], {
    message:
      'replica.fetch.wait.max.ms should always be less than or equal to replica.lag.time.max.ms to prevent frequent changes in ISR',
    path: ['replica.fetch.wait.max.ms'],
  });

export type ProducerConfig = z.output<typeof ProducerSchema>;
export type BrokerConfig = z.output<typeof BrokerSchema>;
