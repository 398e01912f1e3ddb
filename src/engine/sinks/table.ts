/**
 * The sink database (actor `sink`): a SQL table with PostgreSQL statement semantics, a Delta Lake
 * table, or Spark's file sink. Each statement is atomic: it applies whole or fails whole.
 *
 * - INSERT: every row is a new row; with a unique key a repeated key is a uniqueness violation.
 * - INSERT … ON CONFLICT (key) DO NOTHING: "simply avoids inserting a row as its alternative
 *   action" — the first write wins; several rows with one key in one statement: the first is
 *   inserted (docs/semantics/sinks.md#on-conflict-do-nothing).
 * - INSERT … ON CONFLICT (key) DO UPDATE: the last write wins; `SET amount = t.amount + EXCLUDED.amount`
 *   adds again on every replay; one key twice in one statement: "a cardinality violation error".
 *   https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT
 * - MERGE: each source row is MATCHED or NOT MATCHED once, against the table as the statement
 *   starts; two source rows updating one target row: cardinality violation; two NOT MATCHED rows
 *   with one key: both inserted, or a uniqueness violation with a unique key (docs/semantics/sinks.md#merge).
 *   https://www.postgresql.org/docs/current/sql-merge.html
 * - Delta `txnAppId`/`txnVersion`: "Delta table uses the combination of txnAppId and txnVersion to
 *   identify duplicate writes and ignore them" — skipped when txnVersion ≤ the recorded version.
 *   https://docs.delta.io/latest/delta-streaming.html#idempotent-table-writes-in-foreachbatch
 * - XA (Flink's JDBC exactly-once sink): PREPARE TRANSACTION makes a transaction's work durable
 *   and invisible; COMMIT PREPARED / ROLLBACK PREPARED end it later, and a prepared transaction
 *   stays until then — across crashes, with no timeout; an open (unprepared) one ends with its
 *   session, https://www.postgresql.org/docs/current/sql-prepare-transaction.html
 * - Spark file sink: a batch id already in the sink's metadata log is not written again ("File
 *   Sink … exactly-once"), https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#output-sinks
 */
import { NO_ENTRY, NO_EVENT, type EntryId, type EventId } from '../ids';
import { Actor, type PendingWork, type World } from '../world';
import { errorIndex } from '../broker/cluster';
import type { ErrorCode, SkipReason } from '../trace';
import { SKIP_REASONS } from '../trace';
import type { SinkConfig } from '../scenario/schema';
import { alloc } from '../core/pool';
import { settledFields } from '../core/settled';
import type { SqlRecorder } from '../sql/recorder';
import { writeRowInsert, writeRowSkip, writeRowUpdate, writeStatementError } from '../traceWriters';
import { RowStore } from './rowStore';
import { KeyIndex, KeySet } from './keyIndex';
import type { SinkRow, Statement, StatementResult, XaTransaction } from './statement';

// The sink's rows and statements, where the processors and the SQL recorder import them from.
export { RowStore } from './rowStore';
export type { SinkRow, Statement, StatementResult } from './statement';

const SETTLED_ROWS: readonly string[] = ['rows'];

/** The sink database process. */
export class SinkActor extends Actor {
  readonly rows: RowStore;
  /** key value → row id, when the key column is indexed (unique key, ON CONFLICT, MERGE). */
  private readonly index: KeyIndex;
  /** Scratch for the per-statement key sets (see {@link KeySet}). */
  private readonly stamps: Int32Array;
  private generation = 0;

  private newKeySet(): KeySet {
    return new KeySet(this.stamps, ++this.generation);
  }
  /**
   * Dedupe table: its key (the business identity, or the content key when the sink is keyed by
   * content) → time recorded and the identity that recorded it.
   */
  private readonly seen = new Map<number | string, { at: number; by: number }>();
  /**
   * False merges: a business identity whose row a coarser-than-the-event key took for another
   * real event's → that event's identity (`sink.key` a content tuple: ON CONFLICT skipped it, a
   * MERGE or DO UPDATE folded it into the other's row, the dedupe table knew its key). The first
   * merge of each identity is kept (docs/semantics/sinks.md#content-keys).
   */
  readonly falseMerges = new Map<number, number>();
  /** Delta: txnAppId → last txnVersion written. */
  private readonly txnVersions = new Map<string, number>();
  /** File sink: batch ids in the metadata log. */
  private readonly fileLog = new Set<number>();
  private readonly identity: Int32Array;
  /** Statements that failed and rolled back: their 'stmt-error' entry and every row's event. */
  readonly failed: { entry: EntryId; events: EventId[] }[] = [];
  /** Open and prepared XA transactions by xid. Prepared ones are durable (they survive crashes). */
  private readonly xa = new Map<number, XaTransaction>();
  /** The session's statements, recorded beside the trace when asked (`simulate(s, { sql: true })`). */
  sql: SqlRecorder | null = null;

  constructor(
    world: World,
    readonly cfg: SinkConfig,
  ) {
    super(world, 'sink');
    this.identity = world.events.identity;
    this.rows = new RowStore(world.events.identities);
    this.index = new KeyIndex(world.events.identities);
    this.stamps = alloc(Int32Array, world.events.identities);
    if (cfg.type === 'table') {
      for (const r of cfg.initialRows) {
        const ident = world.events.identityOf(r.id);
        const id = this.rows.insert(NO_EVENT, -1, r.amount, -1, -1, -1, NO_ENTRY);
        this.rows.labels.set(id, r.id);
        // An initial row is a prior effect of that business id: count it as a row, not an effect.
        if (ident >= 0) this.rows.rowsOf[ident]!++;
        // Indexed under the key column's value: its business id when that is the key. Under a
        // generated id or source-coordinate key it has neither (the business id is not the key),
        // so no statement's key matches it — an event's identity number here would collide with
        // a source-offset key of the same value (offset 0 of partition 0 is key 0).
        this.index.set(ident >= 0 && cfg.key === 'business-id' ? ident : `initial:${r.id}`, id);
      }
    }
  }

  /**
   * Settled history (src/engine/core/settled.ts): the rows, where no statement reads the table —
   * a plain INSERT with neither a unique key nor a dedupe table appends without looking (only a
   * constraint makes PostgreSQL's INSERT read the table,
   * https://www.postgresql.org/docs/current/sql-insert.html), and a file sink's metadata log, not
   * its rows, decides whether a batch is written again. ON CONFLICT, MERGE, a unique key or a
   * dedupe table look rows up (`index`, `identityOfRow`, `seen`), and a Delta table's index holds
   * row numbers: those rows stay live. Nothing else reads `rows` while the run runs (a new row's
   * number goes only into its trace entry); the checker counts `rowsOf` and `effectsOf` at the end.
   */
  [settledFields](): readonly string[] {
    const c = this.cfg;
    const plainInsert = c.type === 'table' && c.statement === 'insert' && !c.dedupe;
    return c.type === 'file' || (plainInsert && !this.uniqueKey) ? SETTLED_ROWS : [];
  }

  /** The table's durable state survives a restart; nothing is volatile. */
  protected override onRestart(): void {}

  /** A database crash rolls back the open XA branches; prepared ones are durable and stay. */
  protected override onCrash(): void {
    this.sql?.crashed(this.world.now);
    for (const [xid, t] of this.xa) if (t.state === 'active') this.xa.delete(xid);
  }

  private get uniqueKey(): boolean {
    const c = this.cfg;
    if (c.type !== 'table') return false;
    if (c.uniqueKey !== undefined) return c.uniqueKey;
    return c.statement === 'on-conflict-do-nothing' || c.statement === 'on-conflict-do-update';
  }

  /** Note that `row`'s event went into the row (or claim) of identity `holder`, if not its own. */
  private mergedInto(row: SinkRow, holder: number): void {
    const ident = this.identity[row.event]!;
    if (holder >= 0 && holder !== ident && !this.falseMerges.has(ident))
      this.falseMerges.set(ident, holder);
  }

  /** The identity of the event that wrote row `rowId` (-1: a row from before the run). */
  private identityOfRow(rowId: number): number {
    const e = this.rows.event.get(rowId);
    return e < 0 ? -1 : this.identity[e]!;
  }

  private skip(row: SinkRow, reason: SkipReason, cause: EntryId): void {
    const w = this.world;
    writeRowSkip(
      w.trace,
      w.now,
      this.id,
      cause,
      row.event,
      row.topic,
      row.partition,
      row.offset,
      SKIP_REASONS.indexOf(reason),
    );
  }

  private insertRow(row: SinkRow, cause: EntryId): number {
    const w = this.world;
    const e = writeRowInsert(
      w.trace,
      w.now,
      this.id,
      cause,
      row.event,
      row.topic,
      row.partition,
      row.offset,
      1,
      this.rows.length,
    );
    const id = this.rows.insert(
      row.event,
      this.identity[row.event]!,
      w.events.amount[row.event]!,
      row.topic,
      row.partition,
      row.offset,
      e,
    );
    return id;
  }

  private updateRow(rowId: number, row: SinkRow, additive: boolean, cause: EntryId): void {
    const w = this.world;
    const r = this.rows;
    const amount = w.events.amount[row.event]!;
    const before = r.amount.get(rowId);
    const after = additive ? before + amount : amount;
    r.amount.set(rowId, after);
    r.sum += after - before;
    const ident = this.identity[row.event]!;
    if (additive) r.effectsOf[ident]!++;
    writeRowUpdate(
      w.trace,
      w.now,
      this.id,
      cause,
      row.event,
      row.topic,
      row.partition,
      row.offset,
      after !== before ? 1 : 0,
      rowId,
    );
  }

  /**
   * XA `end` + `prepare` of transaction `xid` (PostgreSQL: PREPARE TRANSACTION). Returns the rows
   * it holds; 0 means there was nothing to prepare (Flink's JDBC sink skips an empty transaction)
   * or no such transaction (its session ended with a crash, which rolls an unprepared one back).
   */
  xaPrepare(xid: number): number {
    const t = this.xa.get(xid);
    if (!t || t.statements.length === 0) {
      this.xa.delete(xid);
      return 0;
    }
    t.state = 'prepared';
    t.preparedAt = this.world.now;
    this.sql?.prepared(xid, this.world.now);
    return t.statements.reduce((n, s) => n + s.rows.length, 0);
  }

  /**
   * XA `commit` of a prepared transaction (COMMIT PREPARED): its statements take effect now, in
   * order, their rows caused by `cause`. Returns false for an unknown xid — XAER_NOTA, which
   * Flink's sink ignores for a transaction restored from a checkpoint (it was committed before).
   */
  xaCommit(xid: number, cause: EntryId): boolean {
    const t = this.xa.get(xid);
    if (!t || t.state !== 'prepared') return false;
    this.xa.delete(xid);
    const apply = () => {
      for (const s of t.statements) this.apply({ rows: s.rows, batchId: s.batchId }, cause);
    };
    if (this.sql) this.sql.committed(xid, this.world.now, apply);
    else apply();
    return true;
  }

  /** Whether `xid` is a prepared transaction (COMMIT PREPARED would find it). */
  xaIsPrepared(xid: number): boolean {
    return this.xa.get(xid)?.state === 'prepared';
  }

  /**
   * XA `rollback` (ROLLBACK PREPARED, or of a branch still open). Returns the rows discarded and
   * when it had been prepared (-1: it never was).
   */
  xaRollback(xid: number): { rows: number; preparedAt: number } {
    const t = this.xa.get(xid);
    if (!t) return { rows: 0, preparedAt: -1 };
    this.xa.delete(xid);
    this.sql?.rolledBack(xid, t.state === 'prepared', this.world.now);
    return { rows: t.statements.reduce((n, s) => n + s.rows.length, 0), preparedAt: t.preparedAt };
  }

  /**
   * The XA transactions still holding rows (for src/engine/stuck.ts, asked by their writer while
   * it lives: a writer that failed for good waits for nothing): a prepared one stays in doubt,
   * its rows invisible and its locks held, until COMMIT PREPARED or ROLLBACK PREPARED
   * (https://www.postgresql.org/docs/current/sql-prepare-transaction.html); an open one until it
   * is prepared and committed.
   */
  xaPendingWork(): PendingWork[] {
    const out: PendingWork[] = [];
    for (const xid of this.xaOpen()) {
      const t = this.xa.get(xid)!;
      const rows = t.statements.reduce((n, s) => n + s.rows.length, 0);
      if (rows === 0) continue;
      out.push(
        t.state === 'prepared'
          ? {
              what: `COMMIT PREPARED or ROLLBACK PREPARED of XA transaction ${xid} at the database (${rows} row(s) in doubt)`,
              since: t.preparedAt,
            }
          : { what: `the prepare and commit of XA transaction ${xid} (${rows} row(s))`, since: -1 },
      );
    }
    return out;
  }

  /** The xids of open or prepared transactions, ascending (for a writer's recovery). */
  xaOpen(): number[] {
    return [...this.xa.keys()].sort((a, b) => a - b);
  }

  /**
   * Apply a statement atomically. Returns the error that rolled it back, or NONE. A statement in
   * an XA transaction (`stmt.xid`) is only recorded in it: it takes effect at the commit.
   * @param cause - the 'msg' entry that delivered it.
   */
  apply(stmt: Statement, cause: EntryId): StatementResult {
    if (stmt.xid !== undefined) {
      let t = this.xa.get(stmt.xid);
      if (!t) {
        t = { state: 'active', statements: [], preparedAt: -1 };
        this.xa.set(stmt.xid, t);
      }
      // A prepared branch takes no more work (XAER_PROTO). The writer waits for each statement's
      // answer before it prepares, and never retries (maxRetries 0): this cannot happen.
      if (t.state !== 'active')
        throw new Error(`statement into prepared XA transaction ${stmt.xid}`);
      t.statements.push(stmt);
      return { error: 'NONE' };
    }
    const c = this.cfg;
    const w = this.world;
    const fail = (code: ErrorCode): StatementResult => {
      const e = writeStatementError(
        w.trace,
        w.now,
        this.id,
        cause,
        stmt.rows[0]?.event ?? NO_EVENT,
        stmt.rows.length,
        errorIndex(code),
      );
      this.failed.push({ entry: e, events: stmt.rows.map((r) => r.event) });
      return { error: code };
    };
    if (c.type === 'file') {
      if (this.fileLog.has(stmt.batchId)) {
        for (const row of stmt.rows) this.skip(row, 'file-sink-log', cause);
        return { error: 'NONE' };
      }
      for (const row of stmt.rows) this.insertRow(row, cause);
      this.fileLog.add(stmt.batchId);
      return { error: 'NONE' };
    }
    if (c.type === 'delta') {
      const appId = c.txnAppId === null ? null : (stmt.txnAppId ?? c.txnAppId);
      if (appId !== null) {
        const v = this.txnVersions.get(appId);
        // hasBeenExecuted: txnVersion(appId) >= version → "Skipping this write".
        if (v !== undefined && v >= stmt.batchId) {
          for (const row of stmt.rows) this.skip(row, 'txn-version', cause);
          return { error: 'NONE' };
        }
      }
      // MERGE matches against the table as the statement starts: two new copies in one batch are
      // both NOT MATCHED and both inserted — "if there is duplicate data within the new dataset,
      // it is inserted" (https://docs.delta.io/latest/delta-update.html#data-deduplication-when-writing-into-delta-tables).
      const added = this.newKeySet();
      for (const row of stmt.rows) {
        if (c.mode === 'merge' && this.index.has(row.key) && !added.has(row.key)) {
          this.skip(row, 'merge-matched', cause);
          continue;
        }
        const id = this.insertRow(row, cause);
        if (!this.index.has(row.key)) {
          this.index.set(row.key, id);
          added.add(row.key);
        }
      }
      if (appId !== null) this.txnVersions.set(appId, stmt.batchId);
      return { error: 'NONE' };
    }
    if (c.type !== 'table') throw new Error(`sink ${c.type} does not take statements`);
    const unique = this.uniqueKey;
    const rows = stmt.rows;
    // Validate first: a failing statement changes nothing.
    switch (c.statement) {
      case 'insert': {
        if (c.dedupe) break;
        if (unique) {
          const keys = this.newKeySet();
          for (const r of rows) {
            if (this.index.has(r.key) || keys.has(r.key)) return fail('UNIQUE_VIOLATION');
            keys.add(r.key);
          }
        }
        break;
      }
      case 'on-conflict-do-update': {
        const keys = this.newKeySet();
        for (const r of rows) {
          if (keys.has(r.key)) return fail('CARDINALITY_VIOLATION');
          keys.add(r.key);
        }
        break;
      }
      case 'merge': {
        const src = c.merge.dedupeSource ? lastPerKey(rows) : rows;
        const hits = new Map<number | string, number>();
        const newKeys = this.newKeySet();
        for (const r of src) {
          if (this.index.has(r.key)) {
            if (c.merge.whenMatched !== 'update') continue;
            const n = (hits.get(r.key) ?? 0) + 1;
            if (n > 1) return fail('CARDINALITY_VIOLATION');
            hits.set(r.key, n);
          } else if (unique) {
            if (newKeys.has(r.key)) return fail('UNIQUE_VIOLATION');
            newKeys.add(r.key);
          }
        }
        break;
      }
      default:
        break;
    }
    // Apply.
    switch (c.statement) {
      case 'insert': {
        for (const r of rows) {
          if (c.dedupe) {
            const ident = this.identity[r.event]!;
            const key = typeof c.key === 'string' ? ident : r.key;
            const t = this.seen.get(key);
            if (t !== undefined && w.now - t.at <= c.dedupe.retentionMs) {
              this.mergedInto(r, t.by);
              this.skip(r, 'dedupe-table', cause);
              continue;
            }
            this.seen.set(key, { at: w.now, by: ident });
          }
          const id = this.insertRow(r, cause);
          if (unique || c.dedupe) this.index.set(r.key, id);
        }
        break;
      }
      case 'on-conflict-do-nothing': {
        for (const r of rows) {
          const hit = this.index.get(r.key);
          if (hit !== undefined) {
            this.mergedInto(r, this.identityOfRow(hit));
            this.skip(r, 'on-conflict', cause);
            continue;
          }
          this.index.set(r.key, this.insertRow(r, cause));
        }
        break;
      }
      case 'on-conflict-do-update': {
        for (const r of rows) {
          const id = this.index.get(r.key);
          if (id === undefined) this.index.set(r.key, this.insertRow(r, cause));
          else {
            this.mergedInto(r, this.identityOfRow(id));
            this.updateRow(id, r, c.set === 'add-excluded', cause);
          }
        }
        break;
      }
      case 'merge': {
        const src = c.merge.dedupeSource ? lastPerKey(rows) : rows;
        if (c.merge.dedupeSource)
          for (const r of rows)
            if (!src.includes(r)) {
              // DISTINCT ON kept the last row of its key: another event's, under a content key.
              this.mergedInto(r, this.identity[src.find((k) => k.key === r.key)!.event]!);
              this.skip(r, 'merge-matched', cause);
            }
        // MATCHED / NOT MATCHED is decided against the table as the statement starts.
        const added = this.newKeySet();
        for (const r of src) {
          if (this.index.has(r.key) && !added.has(r.key)) {
            const hit = this.index.get(r.key)!;
            this.mergedInto(r, this.identityOfRow(hit));
            if (c.merge.whenMatched === 'update') this.updateRow(hit, r, false, cause);
            else this.skip(r, 'merge-matched', cause);
          } else {
            const id = this.insertRow(r, cause);
            if (!this.index.has(r.key)) {
              this.index.set(r.key, id);
              added.add(r.key);
            }
          }
        }
        break;
      }
    }
    return { error: 'NONE' };
  }
}

/** The source deduplicated on the key, keeping the last row of each key (DISTINCT ON … ORDER BY ingest). */
function lastPerKey(rows: SinkRow[]): SinkRow[] {
  const last = new Map<number | string, SinkRow>();
  for (const r of rows) last.set(r.key, r);
  return rows.filter((r) => last.get(r.key) === r);
}
