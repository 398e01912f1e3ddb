/**
 * The rows of a table (the sink's, a clean layer's, a downstream reader's copy) in columns, with
 * per-business-event counters the checker reads.
 */
import type { EntryId, EventId } from '../ids';
import { IntColumn, FloatColumn } from '../core/columns';
import { alloc } from '../core/pool';

/** A row store with per-business-event counters, shared by the sink and by downstream readers. */
export class RowStore {
  readonly event: IntColumn;
  readonly topic: IntColumn;
  readonly partition: IntColumn;
  readonly offset: IntColumn;
  readonly amount: FloatColumn;
  /** 'row-insert' entry of the row. */
  readonly entry: IntColumn;
  /** 1 while the row exists. */
  readonly live: IntColumn;
  /** Label of a row that belongs to no workload event (initial rows). */
  readonly labels = new Map<number, string>();
  /** Live rows per business identity. */
  readonly rowsOf: Int32Array;
  /** Applications of each business identity's amount (inserts + additive updates). */
  readonly effectsOf: Int32Array;
  sum = 0;
  liveRows = 0;
  /**
   * A downstream reader's rows copied again from records it had copied before (its own replay
   * after a crash before its commit): in the table, but not in the counters above, which count
   * each record the reader read once (see `insert`'s `reread`).
   */
  rereads = 0;

  constructor(identities: number) {
    // Sized for one row per business event (the usual end state): a million-row table is then
    // allocated once instead of through a dozen doublings of seven columns.
    const cap = Math.max(256, identities);
    this.event = new IntColumn(cap);
    this.topic = new IntColumn(cap);
    this.partition = new IntColumn(cap);
    this.offset = new IntColumn(cap);
    this.amount = new FloatColumn(cap);
    this.entry = new IntColumn(cap);
    this.live = new IntColumn(cap);
    this.rowsOf = alloc(Int32Array, identities);
    this.effectsOf = alloc(Int32Array, identities);
  }

  get length(): number {
    return this.event.length;
  }

  insert(
    event: EventId,
    identity: number,
    amount: number,
    topic: number,
    partition: number,
    offset: number,
    entry: EntryId,
    reread = false,
  ): number {
    const id = this.event.push(event);
    this.topic.push(topic);
    this.partition.push(partition);
    this.offset.push(offset);
    this.amount.push(amount);
    this.entry.push(entry);
    this.live.push(1);
    if (reread) {
      this.rereads++;
      return id;
    }
    if (identity >= 0) {
      this.rowsOf[identity]!++;
      this.effectsOf[identity]!++;
    }
    this.sum += amount;
    this.liveRows++;
    return id;
  }
}
