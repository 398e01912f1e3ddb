/**
 * Where a Spark query's batch goes once processed: `foreachBatch(df, batchId)` into a SQL or
 * Delta table or calls to an external service, or the built-in Kafka sink. Each step waiting for
 * an answer is held as data — a {@link BatchWrite} record and a `reply`/`call` naming this
 * class's methods, a {@link KafkaRowsSent} listener — so a snapshot copies a write in flight
 * (docs/ARCHITECTURE.md, "Pending work and forks"). Any failure fails the query, which restarts
 * and runs the same batch again (docs/semantics/spark.md#batch-re-execution).
 */
import type { EntryId, EventId } from '../ids';
import type { ErrorCode } from '../trace';
import type { Cluster, Topic } from '../broker/cluster';
import type { Scenario } from '../scenario/schema';
import type { SinkActor, SinkRow } from '../sinks/table';
import type { ServiceActor } from '../sinks/effects';
import { callService, writeStatement } from '../sinks/writer';
import { call } from '../core/call';
import { reply } from '../reply';
import { ProducerClient, outputClientConfig, type RecordListener } from '../client';
import { outputTransactionTimeoutMs } from '../scenario/transactionTimeouts';
import type { BatchRun } from './sparkBatch';
import type { SparkQuery } from './spark';

/**
 * One batch's write as it goes: the run it writes, the statements (or rows, for a service) it
 * sends one after another and the next one's index.
 */
interface BatchWrite {
  run: BatchRun;
  statements: SinkRow[][];
  i: number;
  /** The Delta `txnAppId` the batch writes with; null: the sink's own. */
  txnAppId: string | null;
}

/** The Kafka sink's producer and the incarnation it belongs to (a restart makes a new one). */
interface KafkaWriter {
  inc: number;
  client: ProducerClient;
}

/** A failing statement or call: the query fails and restarts after this long (ms). */
const RESTART_AFTER_FAILURE_MS = 1000;

/** The query's sink side; it tells the query `batchWritten` when a batch's rows are all written. */
export class SparkSink {
  private kafka: KafkaWriter | null = null;

  constructor(
    private readonly query: SparkQuery,
    private readonly cluster: Cluster,
    private readonly sink: SinkActor | null,
    private readonly service: ServiceActor | null,
    private readonly scenario: Scenario,
    /** The Kafka sink's topic, when the query writes to Kafka. */
    private readonly output: Topic | null,
  ) {}

  /** Write the rows of `run` (foreachBatch or the Kafka sink), then `query.batchWritten`. */
  write(run: BatchRun, txnAppId: string | null, cause: EntryId): void {
    const rows = run.rows;
    if (this.output && rows.length > 0) return this.writeKafka(run, cause);
    const s = this.scenario.sink;
    if (s.type === 'effect' && this.service && rows.length > 0) {
      const w: BatchWrite = { run, statements: rows.map((r) => [r]), i: 0, txnAppId };
      return this.callNext(w, cause);
    }
    if (!this.sink || rows.length === 0) return this.query.batchWritten(run, cause);
    // A SQL table takes one statement for the micro-batch, or — `statementPer: record`, code in
    // foreachBatch that loops over the rows — one statement per row, in order, each atomic on its
    // own (a MERGE then sees the rows an earlier statement of the batch inserted).
    const statements =
      s.type === 'table' && s.statementPer === 'record' ? rows.map((r) => [r]) : [rows];
    this.writeNext({ run, statements, i: 0, txnAppId }, cause);
  }

  /** The write's next statement, or the batch is written. */
  private writeNext(w: BatchWrite, cause: EntryId): void {
    if (w.i === w.statements.length) return this.query.batchWritten(w.run, cause);
    const s = this.scenario.sink;
    const policy =
      s.type === 'table'
        ? { timeoutMs: s['statement.timeout.ms'], retries: s.retries, retryDelayMs: 0 }
        : { timeoutMs: 30_000, retries: 3, retryDelayMs: 0 };
    const rows = w.statements[w.i]!;
    const batchId = w.run.batch.id;
    writeStatement(
      this.query,
      this.sink!,
      w.txnAppId === null ? { rows, batchId } : { rows, batchId, txnAppId: w.txnAppId },
      policy,
      cause,
      reply(this, this.answered, w, false),
    );
  }

  /**
   * A statement (or, `service`, a call) is answered: the next one, or — failed — the query fails
   * and the batch runs again after the restart.
   */
  private answered(
    w: BatchWrite,
    service: boolean,
    _c: undefined,
    err: ErrorCode,
    cause: EntryId,
  ): void {
    if (err !== 'NONE') {
      this.query.crash(cause, -1, RESTART_AFTER_FAILURE_MS);
      return;
    }
    w.i++;
    if (service) this.callNext(w, cause);
    else this.writeNext(w, cause);
  }

  /**
   * An external service as the sink: the foreachBatch function calls it for each row of the
   * batch, one after another, with the sink's timeout, retries and idempotency key. foreachBatch
   * "provides only at-least-once write guarantees"
   * (https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#using-foreach-and-foreachbatch):
   * a batch re-run calls again, and only a key stable across attempts (the business id) lets the
   * service answer the repeat from its saved result (https://docs.stripe.com/api/idempotent_requests).
   * A call that fails (a key reused with other parameters, or no answer after the last retry)
   * fails the batch: the query restarts and runs it again, as after a failed statement.
   */
  private callNext(w: BatchWrite, cause: EntryId): void {
    if (w.i === w.statements.length) return this.query.batchWritten(w.run, cause);
    const s = this.scenario.sink;
    if (s.type !== 'effect') throw new Error('callNext without an effect sink');
    const r = w.statements[w.i]![0]!;
    callService(
      this.query,
      this.service!,
      {
        event: r.event,
        amount: this.query.world.events.amount[r.event]!,
        topic: r.topic,
        partition: r.partition,
        offset: r.offset,
      },
      s.idempotencyKey,
      {
        timeoutMs: s['timeout.ms'],
        retries: s.retries,
        retryDelayMs: s.retryDelayMs,
        retryAmountDelta: s.retryAmountDelta,
      },
      cause,
      reply(this, this.answered, w, true),
    );
  }

  /**
   * The Kafka sink: send every row's record, flush, then go on to the commit log. A record that
   * cannot be written fails the query (the batch runs again after the restart). The producer is
   * the incarnation's own: a restart makes (and initializes) a new one.
   */
  private writeKafka(run: BatchRun, cause: EntryId): void {
    const inc = this.query.incarnation;
    if (this.kafka?.inc === inc) return this.sendRows(run, undefined, undefined, cause);
    const k = this.scenario.sink;
    const client = new ProducerClient(
      this.query,
      this.cluster,
      this.output!,
      outputClientConfig(
        null,
        outputTransactionTimeoutMs(this.scenario),
        k.type === 'kafka' ? k['linger.ms'] : 0,
      ),
    );
    this.kafka = { inc, client };
    client.init(cause, call(this, this.sendRows, run));
  }

  /** The producer is ready: send the batch's rows, then flush. */
  private sendRows(run: BatchRun, _b: undefined, _c: undefined, cause: EntryId): void {
    const client = this.kafka!.client;
    const sent = new KafkaRowsSent(this.query, this.query.incarnation);
    for (const r of run.rows) client.send(r.event, r.cause, sent);
    client.flush(call(this, this.rowsFlushed, run, sent, cause));
  }

  /** Every row sent has settled: the batch is written unless one failed or the query restarted. */
  private rowsFlushed(run: BatchRun, sent: KafkaRowsSent, cause: EntryId): void {
    const q = this.query;
    if (!sent.failed && q.incarnation === sent.inc && q.alive) q.batchWritten(run, cause);
  }
}

/** Fails query incarnation `inc` at the first of a batch's records its producer cannot write. */
class KafkaRowsSent implements RecordListener {
  failed = false;

  constructor(
    private readonly query: SparkQuery,
    readonly inc: number,
  ) {}

  recordSettled(_event: EventId, _send: EntryId, ok: boolean, _e: ErrorCode, cause: EntryId): void {
    const q = this.query;
    if (ok || this.failed || q.incarnation !== this.inc || !q.alive) return;
    this.failed = true;
    q.crash(cause, -1, RESTART_AFTER_FAILURE_MS);
  }
}
