/**
 * How one attempt writes what it read: the statements, when each commits, and where a crash
 * cuts them. docs/semantics/batch.md#writes and #dedupe-stores.
 *
 * - Atomic (one table commit) and no dedupe store: the whole write commits at its end; a crash
 *   before that leaves nothing ("treat tasks … equivalent to transactions in a database",
 *   https://airflow.apache.org/docs/apache-airflow/stable/best-practices.html#creating-a-task).
 * - Not atomic, or behind a dedupe store: the DELETE (if any) commits first, then each row on its
 *   own; a crash mid-write leaves the rows written so far. "Mid-write after N rows" falls between
 *   the two steps of row N+1 when a dedupe store splits the claim from the write.
 * - Behind a dedupe store with `dedupe.write: batch`: every row claimed (or checked) first, then
 *   one statement of the rows that passed; "mid-write after N rows" falls after N claims.
 */
import { periodOfRow, type Calendar } from './calendar';
import type { BatchConfig, BatchFault, SourceRow } from './schema';
import { distinctOnKey, type PartitionedTable, type RowToWrite, type Statement } from './table';
import { dedupeKeyOf, type DedupeStore } from '../dedupe/dedupeStore';

/** What a write op did when it ran. */
interface OpResult {
  statements: Statement[];
  /** Event ids whose key this op claimed in the dedupe store. */
  claims: string[];
  /** Events the store skipped: `skipped → the event holding the key`. */
  skipped: [string, string][];
  /** The statement failed (nothing applied): why, in words, and the statement it tried. */
  failed?: { why: string; statement: Statement };
  /**
   * Nothing done: the row's claim waits for attempt `on`'s open transaction, which inserted the
   * same key (its event `heldBy`); the op runs again once that transaction ends.
   */
  waits?: { on: number; heldBy: string };
}

export interface WriteOp {
  at: number;
  apply: (now: number) => OpResult;
}

export interface WritePlan {
  ops: WriteOp[];
  /** When the attempt ends (success, or its crash). */
  endAt: number;
  crashed: BatchFault | null;
  partitions: number[];
  /** The rows the write has (after a MERGE's DISTINCT ON). */
  rows: number;
}

/** The write a config asks for, reduced to what it does to the table. */
export type WriteKind = 'insert' | 'overwrite' | 'merge' | 'delete-keys';

/**
 * dbt incremental: "Not specifying a unique_key will result in append-only behavior"; with one,
 * `merge` updates the matching row, `delete+insert` deletes the matching rows and inserts;
 * `insert_overwrite` replaces whole partitions (https://docs.getdbt.com/docs/build/incremental-models).
 */
export function writeKind(w: BatchConfig['write']): WriteKind {
  switch (w.mode) {
    case 'append':
      return 'insert';
    case 'overwrite-partition':
      return 'overwrite';
    case 'merge':
      return 'merge';
    case 'dbt-incremental':
      if (w.strategy === 'insert_overwrite') return 'overwrite';
      if (!w.uniqueKey || w.strategy === 'append') return 'insert';
      return w.strategy === 'merge' ? 'merge' : 'delete-keys';
    default: {
      const never: never = w.mode;
      return never;
    }
  }
}

const EMPTY = (): OpResult => ({ statements: [], claims: [], skipped: [] });

export function planWrite(p: {
  config: BatchConfig;
  cal: Calendar;
  rows: readonly SourceRow[];
  /** The static target partition, or null: each row's own date. */
  target: number | null;
  attempt: number;
  writeAt: number;
  crash: BatchFault | null;
  table: PartitionedTable;
  store: DedupeStore | null;
}): WritePlan {
  const { config, table, store, attempt, writeAt } = p;
  const rowMs = config.task.rowMs;
  const kind = writeKind(config.write);
  let toWrite: RowToWrite[] = p.rows.map((row) => ({
    row,
    key: dedupeKeyOf(row, config.dedupeKey),
    partition: p.target ?? periodOfRow(p.cal, row),
  }));
  let dropped = new Map<string, string>();
  // A MERGE's source is deduplicated on the key first (DISTINCT ON). dbt's are not: its
  // delete+insert is `delete from target where (key) in (select distinct key from source)`, then
  // every source row inserted, and its merge takes the source as it is — a MERGE whose target row
  // two source rows match fails (https://docs.getdbt.com/docs/build/incremental-strategy,
  // docs/semantics/batch.md#writes).
  const dbt = config.write.mode === 'dbt-incremental';
  if (kind === 'merge' && !dbt) ({ kept: toWrite, dropped } = distinctOnKey(toWrite));
  /** Why one MERGE of `rows` at `now` fails (PostgreSQL's 21000), and that MERGE; or undefined. */
  const mergeFails = (rows: readonly RowToWrite[], now: number): OpResult['failed'] => {
    if (kind !== 'merge' || !dbt) return undefined;
    const c = table.mergeCardinality(rows);
    if (c === null) return undefined;
    return {
      why: `its MERGE matched one target row with ${c.rows} new rows (key ${c.key}): cardinality_violation (21000)`,
      statement: stmt(
        'merge',
        partitions,
        rows.map((w) => w.row.id),
        now,
      ),
    };
  };
  const partitions =
    p.target !== null
      ? [p.target]
      : [...new Set(toWrite.map((w) => w.partition))].sort((a, b) => a - b);
  const n = toWrite.length;
  // A crash mid-write after more rows than the write has never comes: the write ends first, and
  // the fault never fires (docs/semantics/batch.md#faults).
  const crash = p.crash?.point === 'mid-write' && p.crash.afterRows > n ? null : p.crash;
  const point = crash?.point ?? null;
  if (point === 'before-write')
    return { ops: [], endAt: writeAt, crashed: crash, partitions, rows: n };
  const done = point === 'mid-write' ? Math.min(crash!.afterRows, n) : n;
  const crashed = point === null ? null : crash;
  const stmt = (k: Statement['kind'], parts: number[], ids: string[], now: number): Statement => ({
    kind: k,
    partitions: parts,
    rows: ids,
    attempt,
    at: now,
  });
  const noteDropped = () => {
    for (const [d, k] of dropped) table.mergedInto.set(d, k);
  };
  /** The statements that clear room for the rows: the partition's or the keys' old rows. */
  const prelude = (now: number): Statement[] => {
    if (kind === 'overwrite') {
      table.deletePartitions(partitions);
      return [stmt('delete-partition', partitions, [], now)];
    }
    if (kind === 'delete-keys') {
      table.deleteKeys(toWrite);
      return [
        stmt(
          'delete-keys',
          partitions,
          toWrite.map((w) => w.row.id),
          now,
        ),
      ];
    }
    return [];
  };
  const put = (w: RowToWrite, now: number): Statement => {
    if (kind === 'merge') table.merge(w, attempt);
    else table.insert(w, attempt);
    return stmt(kind === 'merge' ? 'merge' : 'insert', [w.partition], [w.row.id], now);
  };

  if (store !== null && config.dedupe!.write === 'batch') {
    // Claims (or checks) one row per `rowMs`, and one statement for the rows that passed
    // (docs/semantics/batch.md#dedupe-stores). "Mid-write after N rows" falls after N claims:
    // before the write (claim then write, one transaction), or after it (write then claim).
    const order = config.dedupe!.order;
    const passed: RowToWrite[] = [];
    const check = (w: RowToWrite) => (now: number) => {
      const out = EMPTY();
      // One transaction: its claim rows are uncommitted until the write; another's, on the same
      // key, make this insert wait for that transaction (DedupeStore.openClaim).
      const open = order === 'one-transaction' ? store.openClaim(w.key) : undefined;
      if (open !== undefined && open.txn !== attempt)
        return { ...out, waits: { on: open.txn, heldBy: open.eventId } };
      const holder = store.holder(w.key, now)?.eventId ?? open?.eventId;
      if (holder !== undefined) out.skipped.push([w.row.id, holder]);
      else {
        if (order === 'claim-then-write') {
          store.claim(w.key, w.row.id, now);
          out.claims.push(w.row.id);
        }
        if (order === 'one-transaction') store.insertOpen(w.key, w.row.id, attempt);
        passed.push(w);
      }
      return out;
    };
    const claim = (w: RowToWrite) => (now: number) => {
      store.claim(w.key, w.row.id, now);
      return { ...EMPTY(), claims: [w.row.id] };
    };
    const write = (now: number): OpResult => {
      const failed = mergeFails(passed, now);
      if (failed !== undefined) return { ...EMPTY(), failed };
      noteDropped();
      const out = prelude(now);
      if (kind === 'merge') table.mergeAll(passed, attempt);
      else for (const w of passed) table.insert(w, attempt);
      const ids = passed.map((w) => w.row.id);
      out.push(stmt(kind === 'merge' ? 'merge' : 'insert', partitions, ids, now));
      const claims = order === 'one-transaction' ? ids : [];
      if (order === 'one-transaction') store.endTransaction(attempt, true, now);
      return { ...EMPTY(), statements: out, claims };
    };
    const ops: WriteOp[] = [];
    const claimsFirst = order !== 'write-then-claim';
    // Write then claim checks every key at once (EXISTS), writes, then claims one row per rowMs.
    if (claimsFirst)
      toWrite.forEach((w, i) => ops.push({ at: writeAt + (i + 1) * rowMs, apply: check(w) }));
    else toWrite.forEach((w) => ops.push({ at: writeAt, apply: check(w) }));
    const writeAtEnd = claimsFirst ? writeAt + n * rowMs : writeAt;
    const cut = point === 'mid-write' ? done : n;
    if (claimsFirst) {
      if (point === 'mid-write')
        return {
          ops: ops.slice(0, cut),
          endAt: writeAt + cut * rowMs,
          crashed,
          partitions,
          rows: n,
        };
      ops.push({ at: writeAtEnd, apply: write });
      return { ops, endAt: writeAtEnd, crashed, partitions, rows: n };
    }
    ops.push({ at: writeAtEnd, apply: write });
    // The claims follow the write, for the rows it wrote (known when they run).
    for (let i = 0; i < cut; i++)
      ops.push({
        at: writeAtEnd + (i + 1) * rowMs,
        apply: (now) => (i < passed.length ? claim(passed[i]!)(now) : EMPTY()),
      });
    return { ops, endAt: writeAtEnd + cut * rowMs, crashed, partitions, rows: n };
  }
  const perRow = store !== null || !config.write.atomic;
  if (!perRow) {
    const commitAt = writeAt + n * rowMs;
    // A crash before the commit rolls the whole write back.
    if (point === 'mid-write')
      return { ops: [], endAt: writeAt + done * rowMs, crashed, partitions, rows: n };
    const apply = (now: number): OpResult => {
      const failed = mergeFails(toWrite, now);
      if (failed !== undefined) return { ...EMPTY(), failed };
      noteDropped();
      if (kind === 'overwrite' && config.write.as !== 'delete-insert') {
        table.deletePartitions(partitions);
        for (const w of toWrite) table.insert(w, attempt);
        return {
          ...EMPTY(),
          statements: [
            stmt(
              config.write.as,
              partitions,
              toWrite.map((w) => w.row.id),
              now,
            ),
          ],
        };
      }
      const out = prelude(now);
      if (kind === 'merge') table.mergeAll(toWrite, attempt);
      else for (const w of toWrite) table.insert(w, attempt);
      out.push(
        stmt(
          kind === 'merge' ? 'merge' : 'insert',
          partitions,
          toWrite.map((w) => w.row.id),
          now,
        ),
      );
      return { ...EMPTY(), statements: out };
    };
    return { ops: [{ at: commitAt, apply }], endAt: commitAt, crashed, partitions, rows: n };
  }

  const ops: WriteOp[] = [
    {
      at: writeAt,
      apply: (now) => {
        noteDropped();
        return { ...EMPTY(), statements: prelude(now) };
      },
    },
  ];
  /** One row through the dedupe store (if any): both steps, or only the first one (a crash follows). */
  const rowOp =
    (w: RowToWrite, bothSteps: boolean) =>
    (now: number): OpResult => {
      const out = EMPTY();
      if (store === null) {
        if (bothSteps) out.statements.push(put(w, now));
        return out;
      }
      const holder = store.holder(w.key, now);
      if (holder !== undefined) {
        out.skipped.push([w.row.id, holder.eventId]);
        return out;
      }
      switch (config.dedupe!.order) {
        case 'claim-then-write':
          store.claim(w.key, w.row.id, now);
          out.claims.push(w.row.id);
          if (bothSteps) out.statements.push(put(w, now));
          break;
        case 'write-then-claim':
          out.statements.push(put(w, now));
          if (bothSteps) {
            store.claim(w.key, w.row.id, now);
            out.claims.push(w.row.id);
          }
          break;
        case 'one-transaction':
          // The claim row and the data row commit together, or neither does.
          if (bothSteps) {
            out.statements.push(put(w, now));
            store.claim(w.key, w.row.id, now);
            out.claims.push(w.row.id);
          }
          break;
      }
      return out;
    };
  for (let i = 0; i < done; i++)
    ops.push({ at: writeAt + (i + 1) * rowMs, apply: rowOp(toWrite[i]!, true) });
  let endAt = writeAt + done * rowMs;
  if (point === 'mid-write' && done < n) {
    endAt = writeAt + (done + 1) * rowMs;
    ops.push({ at: endAt, apply: rowOp(toWrite[done]!, false) });
  }
  return { ops, endAt, crashed, partitions, rows: n };
}
