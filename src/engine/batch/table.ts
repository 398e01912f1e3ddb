/**
 * The batch job's target: a table partitioned by date, and the write statements it accepts,
 * described as data (statement kind, partitions, rows) so that the page, the explanations and a
 * SQL export can each render them their own way.
 *
 * Semantics (docs/semantics/batch.md#writes):
 * - `insert`: every row is a new row (Airflow: "an INSERT statement might lead to duplicate rows",
 *   https://airflow.apache.org/docs/apache-airflow/stable/best-practices.html#creating-a-task).
 * - `overwrite`: the partitions are emptied and the rows written (INSERT OVERWRITE … PARTITION,
 *   Delta `replaceWhere`, https://docs.databricks.com/aws/en/delta/selective-overwrite,
 *   or DELETE+INSERT in one transaction).
 * - `merge`: a row whose key matches a row of the table updates it (its content and partition);
 *   otherwise it is inserted (MERGE, dbt `unique_key`: "dbt replaces the old row",
 *   https://docs.getdbt.com/reference/resource-configs/unique_key).
 */
import type { KeyedRow } from '../dedupe/dedupeStore';

/** One row of the target table. */
export interface TableRow {
  /** The event whose content the row holds now. */
  eventId: string;
  /** Its partition (period index). */
  partition: number;
  /** Its dedupe key (the MERGE key). */
  key: string;
  amount: number;
  /** The attempt that wrote it (index into the run's attempts). */
  attempt: number;
}

/** The statement kinds of a batch write. */
export type StatementKind =
  'insert' | 'insert-overwrite' | 'replace-where' | 'delete-partition' | 'merge' | 'delete-keys';

/** A write statement as data. */
export interface Statement {
  kind: StatementKind;
  /** Target partitions (period indices). */
  partitions: number[];
  /** Event ids of the rows it writes, in order. */
  rows: string[];
  /** The attempt that issued it. */
  attempt: number;
  /** Virtual time it committed (ms). */
  at: number;
}

/** A row to write: the source row, its key, and the partition it goes to. */
export interface RowToWrite {
  row: KeyedRow;
  key: string;
  partition: number;
}

/** The partitioned table. Rows keep their insertion order. */
export class PartitionedTable {
  readonly rows: TableRow[] = [];
  /** Event ids a MERGE replaced by another event with the same key: `replaced → by`. */
  readonly mergedInto = new Map<string, string>();

  deletePartitions(partitions: readonly number[]): number {
    const before = this.rows.length;
    const keep = this.rows.filter((r) => !partitions.includes(r.partition));
    this.rows.length = 0;
    this.rows.push(...keep);
    return before - keep.length;
  }

  /**
   * Delete every row whose key one of `incoming` has (delete+insert's DELETE). A deleted row of
   * an event `incoming` does not hold is replaced by another event with its key: recorded in
   * `mergedInto` (a false merge if that event is never written again).
   */
  deleteKeys(incoming: readonly RowToWrite[]): number {
    const byKey = new Map<string, string>();
    for (const w of incoming) if (!byKey.has(w.key)) byKey.set(w.key, w.row.id);
    const ids = new Set(incoming.map((w) => w.row.id));
    for (const r of this.rows) {
      const by = byKey.get(r.key);
      if (by !== undefined && !ids.has(r.eventId)) this.mergedInto.set(r.eventId, by);
    }
    const before = this.rows.length;
    const keep = this.rows.filter((r) => !byKey.has(r.key));
    this.rows.length = 0;
    this.rows.push(...keep);
    return before - keep.length;
  }

  insert(w: RowToWrite, attempt: number): void {
    this.rows.push({
      eventId: w.row.id,
      partition: w.partition,
      key: w.key,
      amount: w.row.amount,
      attempt,
    });
  }

  /**
   * MERGE one row: update every row with its key (PostgreSQL / Delta MERGE: each matched target
   * row), else insert.
   */
  merge(w: RowToWrite, attempt: number): 'updated' | 'inserted' {
    const hits = this.rows.filter((r) => r.key === w.key);
    if (hits.length === 0) {
      this.insert(w, attempt);
      return 'inserted';
    }
    for (const hit of hits) this.mergeInto(hit, w, attempt);
    return 'updated';
  }

  /**
   * One MERGE of `rows`: each is matched against the table as the statement starts (a row it
   * inserts is no match for a later one, https://www.postgresql.org/docs/current/sql-merge.html):
   * matched, it updates its target rows; else it is inserted.
   */
  mergeAll(rows: readonly RowToWrite[], attempt: number): void {
    const before = new Set(this.rows);
    const inserts: RowToWrite[] = [];
    for (const w of rows) {
      const hits = this.rows.filter((r) => before.has(r) && r.key === w.key);
      if (hits.length === 0) inserts.push(w);
      for (const hit of hits) this.mergeInto(hit, w, attempt);
    }
    for (const w of inserts) this.insert(w, attempt);
  }

  /** A matched target row takes the new row's values (the event it held is merged into it). */
  private mergeInto(hit: TableRow, w: RowToWrite, attempt: number): void {
    if (hit.eventId !== w.row.id) this.mergedInto.set(hit.eventId, w.row.id);
    hit.eventId = w.row.id;
    hit.partition = w.partition;
    hit.amount = w.row.amount;
    hit.attempt = attempt;
  }

  /**
   * A target row two or more of `rows` would match, as one MERGE of them: PostgreSQL's "a target
   * row shouldn't join to more than one data source row … later attempts to modify the row will
   * cause an error" (21000, https://www.postgresql.org/docs/current/sql-merge.html), Delta's
   * "multiple source rows matched". Null when none.
   */
  mergeCardinality(rows: readonly RowToWrite[]): { key: string; rows: number } | null {
    const count = new Map<string, number>();
    for (const w of rows) count.set(w.key, (count.get(w.key) ?? 0) + 1);
    const hit = this.rows.find((r) => (count.get(r.key) ?? 0) > 1);
    return hit === undefined ? null : { key: hit.key, rows: count.get(hit.key)! };
  }
}

/**
 * `DISTINCT ON (key)` over a MERGE's source, keeping the first row of each key: a MERGE must not
 * match one target row twice (https://www.postgresql.org/docs/current/sql-merge.html). The rows
 * it drops are returned as `dropped → kept`.
 */
export function distinctOnKey(rows: readonly RowToWrite[]): {
  kept: RowToWrite[];
  dropped: Map<string, string>;
} {
  const first = new Map<string, RowToWrite>();
  const dropped = new Map<string, string>();
  for (const w of rows) {
    const k = first.get(w.key);
    if (k === undefined) first.set(w.key, w);
    else dropped.set(w.row.id, k.row.id);
  }
  return { kept: [...first.values()], dropped };
}
