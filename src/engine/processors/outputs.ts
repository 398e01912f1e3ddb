/**
 * What a consumer loop does with each processed record: write it to the sink table (one statement
 * per record or per batch), produce it to an output topic (transactionally or not), copy it into a
 * reader's own table — each optionally preceded by a side-effect call.
 */
import { NO_ENTRY, type EntryId } from '../ids';
import type { Cluster, Topic } from '../broker/cluster';
import { ProducerClient, outputClientConfig } from '../client';
import type { ServiceActor } from '../sinks/effects';
import type { RowStore, SinkActor, SinkRow } from '../sinks/table';
import { callService, writeStatement, type WriterPolicy } from '../sinks/writer';
import type { EffectSinkConfig, SideEffectConfig, TableSinkConfig } from '../scenario/schema';
import type { ErrorCode } from '../trace';
import type { Actor, PendingWork, World } from '../world';
import type { ConsumerInstance, Output, Rec } from './consumer';
import type { ConsumerGroup } from './group';
import { writeCommit, writeRowInsert } from '../traceWriters';
import { eventContentKey } from '../dedupe/dedupeStore';
import { call, stateless, type Call } from '../core/call';
import { answer, reply, type Reply } from '../reply';

/** The value of the sink's key column for a record, per `sink.key`. */
export function sinkKey(
  w: World,
  mode: TableSinkConfig['key'],
  topic: number,
  r: Rec,
): number | string {
  if (typeof mode !== 'string') return eventContentKey(w.events, r.event, mode);
  switch (mode) {
    case 'business-id':
      return w.events.identity[r.event]!;
    case 'source-offset':
      return (topic * 64 + r.partition) * 4294967296 + r.offset;
    case 'uuid-per-attempt':
      // A fresh id each time the record is processed: a replay gets a new one.
      return `uuid-${w.nextGeneratedId()}`;
  }
}

/** How a side effect's call waits and retries (one object for every call: it is only read). */
const SIDE_EFFECT_POLICY: WriterPolicy = { timeoutMs: 30_000, retries: 3, retryDelayMs: 1_000 };

/** Run the side effect of a record (if configured), then `next`. */
export function withSideEffect(
  owner: Actor,
  service: ServiceActor | null,
  cfg: SideEffectConfig | undefined,
  topic: number,
  r: Rec,
  cause: EntryId,
  then: Reply,
): void {
  if (!service || !cfg) return answer(then, 'NONE', cause);
  const w = owner.world;
  callService(
    owner,
    service,
    {
      event: r.event,
      amount: w.events.amount[r.event]!,
      topic,
      partition: r.partition,
      offset: r.offset,
    },
    cfg.idempotencyKey,
    SIDE_EFFECT_POLICY,
    cause,
    then,
  );
}

/** Writes into the SQL / Delta sink. */
export class TableOutput implements Output {
  private readonly pending = new Map<Actor, { inc: number; rows: SinkRow[] }>();

  constructor(
    private readonly sink: SinkActor,
    private readonly cfg: TableSinkConfig,
    private readonly topic: Topic,
    private readonly service: ServiceActor | null,
    private readonly sideEffect: SideEffectConfig | undefined,
  ) {}

  /** One statement per batch and no side effect: `record` only buffers the row. */
  get buffersRecords(): boolean {
    return this.cfg.statementPer === 'batch' && !(this.service && this.sideEffect);
  }

  private policy(): WriterPolicy {
    return {
      timeoutMs: this.cfg['statement.timeout.ms'],
      retries: this.cfg.retries,
      retryDelayMs: 0,
    };
  }

  private row(owner: ConsumerInstance, r: Rec, cause: EntryId): SinkRow {
    return {
      event: r.event,
      key: sinkKey(owner.world, this.cfg.key, this.topic.index, r),
      topic: this.topic.index,
      partition: r.partition,
      offset: r.offset,
      cause,
    };
  }

  record(owner: ConsumerInstance, r: Rec, cause: EntryId, done: Reply): void {
    if (this.buffersRecords) {
      this.buffer(owner, r, cause);
      answer(done, 'NONE', cause);
      return;
    }
    const then = reply(this, this.sideEffectDone, owner, r, { cause, done });
    withSideEffect(owner, this.service, this.sideEffect, this.topic.index, r, cause, then);
  }

  /** A record's side effect is done (or there is none): its row next. */
  private sideEffectDone(
    owner: ConsumerInstance,
    r: Rec,
    step: { cause: EntryId; done: Reply },
    error: ErrorCode,
    c: EntryId,
  ): void {
    const { cause, done } = step;
    if (error !== 'NONE') return answer(done, error, c);
    if (this.cfg.statementPer === 'record') {
      const row = this.row(owner, r, cause);
      writeStatement(owner, this.sink, { rows: [row], batchId: -1 }, this.policy(), c, done);
      return;
    }
    this.buffer(owner, r, cause);
    answer(done, 'NONE', c);
  }

  /** Keep a record's row for the batch's statement. */
  private buffer(owner: ConsumerInstance, r: Rec, cause: EntryId): void {
    let p = this.pending.get(owner);
    if (!p || p.inc !== owner.incarnation)
      this.pending.set(owner, (p = { inc: owner.incarnation, rows: [] }));
    p.rows.push(this.row(owner, r, cause));
  }

  end(owner: ConsumerInstance, recs: Rec[], cause: EntryId, done: Reply): void {
    if (this.cfg.statementPer === 'record') return answer(done, 'NONE', cause);
    const p = this.pending.get(owner);
    const rows = p && p.inc === owner.incarnation ? p.rows : [];
    let stmtRows: SinkRow[];
    if (rows.length === recs.length) {
      // The usual case: the statement holds every row processed since the last one.
      stmtRows = rows;
      if (p) p.rows = [];
    } else {
      const mine = new Set(recs.map((r) => rowAt(r.partition, r.offset)));
      stmtRows = rows.filter((x) => mine.has(rowAt(x.partition, x.offset)));
      if (p) p.rows = rows.filter((x) => !mine.has(rowAt(x.partition, x.offset)));
    }
    // A retry of a statement that failed sends the same rows again (they left `pending` already).
    if (stmtRows.length === 0 && recs.length > 0) stmtRows = this.failedRows(owner, recs[0]!) ?? [];
    if (stmtRows.length === 0) return answer(done, 'NONE', cause);
    const written = reply(this, this.statementDone, owner, stmtRows, done);
    writeStatement(
      owner,
      this.sink,
      { rows: stmtRows, batchId: -1 },
      this.policy(),
      cause,
      written,
    );
  }

  /** A batch statement is answered: its rows kept for a retry if it failed. */
  private statementDone(
    owner: ConsumerInstance,
    rows: SinkRow[],
    done: Reply,
    error: ErrorCode,
    c: EntryId,
  ): void {
    this.keepFailed(owner, rows, error !== 'NONE');
    answer(done, error, c);
  }

  /**
   * The rows of each writer's failed statements, by the statement's first record, for a retry of
   * that statement: several may wait at once (records of a parallel pool fail independently).
   */
  private readonly failed = new Map<Actor, { inc: number; byFirst: Map<number, SinkRow[]> }>();

  /** The rows of `owner`'s failed statement that began with `first`, in this incarnation. */
  private failedRows(owner: ConsumerInstance, first: Rec): SinkRow[] | undefined {
    const f = this.failed.get(owner);
    if (!f || f.inc !== owner.incarnation) return undefined;
    return f.byFirst.get(rowAt(first.partition, first.offset));
  }

  /** Keep a failed statement's rows for its retry, or forget them once it succeeded. */
  private keepFailed(owner: ConsumerInstance, rows: SinkRow[], failed: boolean): void {
    let f = this.failed.get(owner);
    if (!f || f.inc !== owner.incarnation) {
      if (!failed) return;
      this.failed.set(owner, (f = { inc: owner.incarnation, byFirst: new Map() }));
    }
    const key = rowAt(rows[0]!.partition, rows[0]!.offset);
    if (failed) f.byFirst.set(key, rows);
    else f.byFirst.delete(key);
  }
}

/** A record's place in its topic as one number (partition, offset). */
function rowAt(partition: number, offset: number): number {
  return partition * 4294967296 + offset;
}

/** Produces to an output topic; transactional when a `transactional.id` is configured. */
export class KafkaOutput implements Output {
  private readonly clients = new Map<Actor, ProducerClient>();

  constructor(
    private readonly cluster: Cluster,
    private readonly out: Topic,
    private readonly transactionalId: string | null,
    private readonly transactionTimeoutMs: number,
    private readonly lingerMs: number,
    private readonly inputTopic: number,
    private readonly service: ServiceActor | null,
    private readonly sideEffect: SideEffectConfig | undefined,
  ) {}

  /** Instance i of a group uses `<transactional.id>-i` (instance 0 and its replacement: the id itself). */
  private idFor(owner: ConsumerInstance): string | null {
    if (this.transactionalId === null) return null;
    const m = /-(\d+)$/.exec(owner.targetName);
    const i = m ? Number(m[1]) : 0;
    return i === 0 ? this.transactionalId : `${this.transactionalId}-${i}`;
  }

  client(owner: ConsumerInstance): ProducerClient {
    return this.clients.get(owner)!;
  }

  pendingWork(owner: ConsumerInstance): PendingWork | null {
    return this.clients.get(owner)?.pendingWork() ?? null;
  }

  reset(owner: ConsumerInstance, cause: EntryId, ready: Call<EntryId>): void {
    const c = new ProducerClient(
      owner,
      this.cluster,
      this.out,
      outputClientConfig(this.idFor(owner), this.transactionTimeoutMs, this.lingerMs),
    );
    this.clients.set(owner, c);
    // initTransactions throws (INVALID_TRANSACTION_TIMEOUT): the application dies; restarted,
    // it would fail the same way, so it stays down.
    c.init(cause, ready, call(undefined, crashForGood, owner));
  }

  record(owner: ConsumerInstance, r: Rec, cause: EntryId, done: Reply): void {
    const then = reply(this, this.sideEffectDone, owner, r, { cause, done });
    withSideEffect(owner, this.service, this.sideEffect, this.inputTopic, r, cause, then);
  }

  /** A record's side effect is done (or there is none): its record is sent. */
  private sideEffectDone(
    owner: ConsumerInstance,
    r: Rec,
    step: { cause: EntryId; done: Reply },
    error: ErrorCode,
    c: EntryId,
  ): void {
    if (error !== 'NONE') return answer(step.done, error, c);
    this.client(owner).send(r.event, step.cause, null);
    answer(step.done, 'NONE', c);
  }

  end(owner: ConsumerInstance, _recs: Rec[], cause: EntryId, done: Reply): void {
    const client = this.client(owner);
    if (client.inTransaction) return answer(done, 'NONE', cause); // a transaction flushes at commit
    const step = { done, cause, incarnation: owner.incarnation };
    client.flush(call(this, this.flushed, owner, client, step));
  }

  /** The output's flush at the end of a batch finished: answer the loop, if it is still that incarnation. */
  private flushed(
    owner: ConsumerInstance,
    client: ProducerClient,
    step: { done: Reply; cause: EntryId; incarnation: number },
  ): void {
    if (owner.incarnation === step.incarnation)
      answer(step.done, client.fatalError ?? 'NONE', step.cause);
  }

  fencedAt(owner: ConsumerInstance): EntryId {
    const c = this.clients.get(owner);
    if (this.transactionalId === null || !c) return NO_ENTRY;
    const fenced = c.fatalError === 'PRODUCER_FENCED' || c.fatalError === 'INVALID_PRODUCER_EPOCH';
    return fenced ? c.fatalEntry : NO_ENTRY;
  }

  begin(owner: ConsumerInstance): boolean {
    return this.client(owner).beginTransaction();
  }

  commit(
    owner: ConsumerInstance,
    offsets: { partition: number; offset: number }[],
    cause: EntryId,
    done: Reply<boolean>,
  ): void {
    const client = this.client(owner);
    const txn = new OffsetsInTransaction(owner, owner.group, client, offsets, done);
    client.sendOffsetsToTransaction(
      owner.group.id,
      call(txn, txn.stillMember),
      offsets.map((o) => ({ topic: owner.topic.index, ...o })),
      cause,
      call(txn, txn.offsetsSent),
    );
  }
}

/**
 * A consumer's offsets committed in its output transaction, held as data: sent with
 * `sendOffsetsToTransaction`, then the transaction ended — committed with them, or aborted when
 * the coordinator refused them (no longer a member: KIP-447 fencing).
 */
class OffsetsInTransaction {
  constructor(
    readonly owner: ConsumerInstance,
    readonly group: ConsumerGroup,
    readonly client: ProducerClient,
    readonly offsets: { partition: number; offset: number }[],
    readonly done: Reply<boolean>,
  ) {}

  /** Whether the consumer still owns every partition it commits for (asked by the coordinator). */
  stillMember(): boolean {
    const { owner, group } = this;
    return owner.inGroup && this.offsets.every((o) => group.mayCommit(owner.name, o.partition));
  }

  offsetsSent(_a: undefined, _b: undefined, _c: undefined, ok: boolean, cause: EntryId): void {
    if (!ok) {
      this.client.endTransaction(false, cause, call(this, this.aborted));
      return;
    }
    this.client.endTransaction(true, cause, call(this, this.ended), {
      beforeEnd: call(this, this.beforeEnd),
      afterSent: call(this, this.afterSent),
    });
  }

  aborted(_a: undefined, _b: undefined, _c: undefined, _x: boolean, cause: EntryId): void {
    answer(this.done, false, cause);
  }

  ended(_a: undefined, _b: undefined, _c: undefined, committed: boolean, cause: EntryId): void {
    const { owner, group } = this;
    const w = owner.world;
    if (committed)
      for (const o of this.offsets) {
        writeCommit(
          w.trace,
          w.now,
          group.coordinator.id,
          cause,
          owner.topic.index,
          o.partition,
          o.offset,
          owner.memberGeneration,
          owner.id,
        );
      }
    answer(this.done, committed, cause);
  }

  /** A crash point just before the EndTxn request leaves (true: it does not). */
  beforeEnd(_a: undefined, _b: undefined, _c: undefined, cause: EntryId): boolean {
    return this.owner.crashAt('before-commit-transaction', cause);
  }

  /** A crash point just after it left. */
  afterSent(_a: undefined, _b: undefined, _c: undefined, cause: EntryId): void {
    void this.owner.crashAt('after-commit-decision', cause);
  }
}

/**
 * A downstream reader copies every record it reads into its own plain table. It commits after
 * copying, so after a crash before its commit it reads again from its last committed offset and
 * copies those records a second time — its own at-least-once
 * (https://kafka.apache.org/documentation/#semantics), not the pipeline's. Such a copy of a record
 * it had copied before is traced with count 0 and kept out of the table's counters
 * ({@link RowStore.rereads}), so the checker judges the pipeline once per record read.
 */
export class ReaderOutput implements Output {
  readonly synchronous = true;
  /** Per partition, the offset after the last record copied (a consumer reads a partition in order). */
  private readonly copiedUpTo = new Map<number, number>();

  constructor(
    readonly store: RowStore,
    private readonly topic: Topic,
  ) {}

  record(owner: ConsumerInstance, r: Rec, cause: EntryId, done: Reply): void {
    const w = owner.world;
    const upTo = this.copiedUpTo.get(r.partition) ?? 0;
    const reread = r.offset < upTo;
    if (!reread) this.copiedUpTo.set(r.partition, r.offset + 1);
    const e = writeRowInsert(
      w.trace,
      w.now,
      owner.id,
      cause,
      r.event,
      this.topic.index,
      r.partition,
      r.offset,
      reread ? 0 : 1,
      this.store.length,
    );
    this.store.insert(
      r.event,
      w.events.identity[r.event]!,
      w.events.amount[r.event]!,
      this.topic.index,
      r.partition,
      r.offset,
      e,
      reread,
    );
    answer(done, 'NONE', e);
  }

  end(_o: ConsumerInstance, _r: Rec[], cause: EntryId, done: Reply): void {
    answer(done, 'NONE', cause);
  }
}

/** The sink is an external service: one call per record (a card charge, an email). */
export class EffectOutput implements Output {
  constructor(
    private readonly service: ServiceActor,
    private readonly cfg: EffectSinkConfig,
    private readonly topic: number,
  ) {}

  record(owner: ConsumerInstance, r: Rec, cause: EntryId, done: Reply): void {
    const w = owner.world;
    const policy = {
      timeoutMs: this.cfg['timeout.ms'],
      retries: this.cfg.retries,
      retryDelayMs: this.cfg.retryDelayMs,
      retryAmountDelta: this.cfg.retryAmountDelta,
    };
    callService(
      owner,
      this.service,
      {
        event: r.event,
        amount: w.events.amount[r.event]!,
        topic: this.topic,
        partition: r.partition,
        offset: r.offset,
      },
      this.cfg.idempotencyKey,
      policy,
      cause,
      done,
    );
  }

  end(_o: ConsumerInstance, _r: Rec[], cause: EntryId, done: Reply): void {
    answer(done, 'NONE', cause);
  }
}

/** An application whose producer could not initialise dies and stays down. */
const crashForGood = stateless(function crashForGood(
  this: undefined,
  owner: Actor,
  _b: undefined,
  _c: undefined,
  _err: ErrorCode,
  cause: EntryId,
): void {
  owner.crash(cause, -1, null);
});
