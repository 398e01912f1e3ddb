/**
 * The trace: an append-only, compact log of what happened in a run, one typed entry per step,
 * each pointing at the entry that caused it.
 *
 * Storage is columnar (typed arrays that grow by doubling) so a million-event run costs tens of
 * bytes per event and the whole trace hashes and transfers (to a Worker, to the page) as a few
 * buffers. {@link TraceEntry} is the decoded, typed view for the views and the checker.
 *
 * Field meaning per kind is documented on {@link EntryKind}; unused fields hold -1.
 */

import type { ActorId, EntryId, EventId } from './ids';
import { alloc } from './core/pool';
import { usedLength } from './core/copyHints';
import { ENTRY_KINDS, KIND_CODE, type EntryKind, type KindCode } from './traceCodes';

export * from './traceCodes';
export { failoverCause, fencedExit, firstIdleCheckpoint } from './traceReads';

/** One decoded trace entry. */
export interface TraceEntry {
  /** Entry index (its id). */
  id: EntryId;
  /** Virtual time (ms). */
  time: number;
  kind: EntryKind;
  /** Actor index (see {@link Trace.actors}). */
  actor: ActorId;
  /** The other actor (message receiver), or -1. */
  peer: ActorId;
  /** Index of the entry that caused this one, or -1. */
  cause: EntryId;
  /** Workload event index, or -1. */
  event: EventId;
  /** Topic index (see {@link Trace.topics}), or -1. */
  topic: number;
  partition: number;
  offset: number;
  count: number;
  txn: number;
  ckpt: number;
  aux: number;
  until: number;
}

/** Entries a trace may hold beyond its limit: the step that reaches it, and the 'end' entry. */
export const CEILING_MARGIN = 4096;

/**
 * `a`'s first `used` entries in a new column of `n` (zeroed, as a new column is): the rest of `a`
 * is unwritten, and copying it would make that memory resident in the new column for nothing.
 */
function grow<T extends Int32Array | Int16Array | Uint8Array | Uint16Array>(
  a: T,
  n: number,
  used: number,
): T {
  const b = alloc(a.constructor as Int32ArrayConstructor, n) as unknown as T;
  b.set(a.subarray(0, used));
  return b;
}

/** The trace's columns trimmed to its length, by name (the shape views and workers pass around). */
export interface TraceColumns {
  time: Int32Array;
  kind: Uint8Array;
  actor: Uint16Array;
  peer: Int16Array;
  cause: Int32Array;
  event: Int32Array;
  topic: Int16Array;
  partition: Int16Array;
  offset: Int32Array;
  count: Int32Array;
  txn: Int32Array;
  ckpt: Int32Array;
  aux: Int32Array;
  until: Int32Array;
}

/** The column names, in the order {@link Trace.columns} (and the trace hash) use. */
export const TRACE_COLUMNS = [
  'time',
  'kind',
  'actor',
  'peer',
  'cause',
  'event',
  'topic',
  'partition',
  'offset',
  'count',
  'txn',
  'ckpt',
  'aux',
  'until',
] as const satisfies readonly (keyof TraceColumns)[];

/** The columnar trace of a run. Append with {@link Trace.add}; read with {@link Trace.get}. */
export class Trace implements TraceColumns {
  length = 0;
  private cap: number;
  /**
   * The most entries the run can record (its trace limit and a step's worth more, set by the
   * world): growth stops there instead of doubling past it — a run cut at 10,000,000 entries
   * would otherwise hold columns for 16,777,216 (and, while growing, the old ones beside them).
   */
  ceiling = Infinity;
  time: Int32Array;
  kind: Uint8Array;
  actor: Uint16Array;
  peer: Int16Array;
  cause: Int32Array;
  event: Int32Array;
  topic: Int16Array;
  partition: Int16Array;
  offset: Int32Array;
  count: Int32Array;
  txn: Int32Array;
  ckpt: Int32Array;
  aux: Int32Array;
  until: Int32Array;
  /** Actor names by index (`producer`, `broker-1`, `consumer-0`, …). */
  readonly actors: string[] = [];
  /** Topic names by index. */
  readonly topics: string[] = [];

  constructor(capacity = 1024) {
    this.cap = capacity;
    this.time = alloc(Int32Array, capacity);
    this.kind = alloc(Uint8Array, capacity);
    this.actor = alloc(Uint16Array, capacity);
    this.peer = alloc(Int16Array, capacity);
    this.cause = alloc(Int32Array, capacity);
    this.event = alloc(Int32Array, capacity);
    this.topic = alloc(Int16Array, capacity);
    this.partition = alloc(Int16Array, capacity);
    this.offset = alloc(Int32Array, capacity);
    this.count = alloc(Int32Array, capacity);
    this.txn = alloc(Int32Array, capacity);
    this.ckpt = alloc(Int32Array, capacity);
    this.aux = alloc(Int32Array, capacity);
    this.until = alloc(Int32Array, capacity);
  }

  /** A fork copies the entries written, not the columns' capacity (core/deepCopy.ts). */
  [usedLength](): number {
    return this.length;
  }

  private ensure(): void {
    if (this.length < this.cap) return;
    // Past the ceiling (a step that writes more than expected), a little more at a time.
    this.resize(
      this.cap >= this.ceiling ? this.cap + CEILING_MARGIN : Math.min(this.cap * 2, this.ceiling),
    );
  }

  private resize(n: number): void {
    this.time = grow(this.time, n, this.length);
    this.kind = grow(this.kind, n, this.length);
    this.actor = grow(this.actor, n, this.length);
    this.peer = grow(this.peer, n, this.length);
    this.cause = grow(this.cause, n, this.length);
    this.event = grow(this.event, n, this.length);
    this.topic = grow(this.topic, n, this.length);
    this.partition = grow(this.partition, n, this.length);
    this.offset = grow(this.offset, n, this.length);
    this.count = grow(this.count, n, this.length);
    this.txn = grow(this.txn, n, this.length);
    this.ckpt = grow(this.ckpt, n, this.length);
    this.aux = grow(this.aux, n, this.length);
    this.until = grow(this.until, n, this.length);
    this.cap = n;
  }

  /**
   * Append an entry; the less common fields (peer, txn, ckpt, until) are set with {@link Trace.set}
   * right after. Returns the entry id. The engine calls it only through the typed writers in
   * engine/traceWriters (one per kind; lint enforces it); tests may build traces with it directly.
   */
  add(
    time: number,
    kind: EntryKind | KindCode,
    actor: number,
    cause: EntryId,
    event = -1,
    topic = -1,
    partition = -1,
    offset = -1,
    count = -1,
    aux = -1,
  ): EntryId {
    this.ensure();
    const i = this.length++ as EntryId;
    this.time[i] = time;
    this.kind[i] = typeof kind === 'number' ? kind : KIND_CODE[kind];
    this.actor[i] = actor;
    this.peer[i] = -1;
    this.cause[i] = cause;
    this.event[i] = event;
    this.topic[i] = topic;
    this.partition[i] = partition;
    this.offset[i] = offset;
    this.count[i] = count;
    this.txn[i] = -1;
    this.ckpt[i] = -1;
    this.aux[i] = aux;
    this.until[i] = -1;
    return i;
  }

  /** Leave `n` blank entries (all columns zero): a shifted twin of a run (`traceShift`). */
  skip(n: number): void {
    for (let i = 0; i < n; i++) {
      this.ensure();
      this.length++;
    }
  }

  /** Set the less common fields of entry `i`. */
  set(i: number, f: { peer?: number; txn?: number; ckpt?: number; until?: number }): void {
    if (f.peer !== undefined) this.peer[i] = f.peer;
    if (f.txn !== undefined) this.txn[i] = f.txn;
    if (f.ckpt !== undefined) this.ckpt[i] = f.ckpt;
    if (f.until !== undefined) this.until[i] = f.until;
  }

  /** The kind of entry `i`. */
  kindOf(i: number): EntryKind {
    return ENTRY_KINDS[this.kind[i]!]!;
  }

  /** Decode entry `i`. */
  get(i: number): TraceEntry {
    return {
      id: i as EntryId,
      time: this.time[i]!,
      kind: ENTRY_KINDS[this.kind[i]!]!,
      actor: this.actor[i]! as ActorId,
      peer: this.peer[i]! as ActorId,
      cause: this.cause[i]! as EntryId,
      event: this.event[i]! as EventId,
      topic: this.topic[i]!,
      partition: this.partition[i]!,
      offset: this.offset[i]!,
      count: this.count[i]!,
      txn: this.txn[i]!,
      ckpt: this.ckpt[i]!,
      aux: this.aux[i]!,
      until: this.until[i]!,
    };
  }

  /** Index of the first entry with time > t (entries are in time order). */
  upperBound(t: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.time[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The columns trimmed to `length`, by name (views into the trace's buffers). */
  trimmed(): TraceColumns {
    const n = this.length;
    const out = {} as Record<keyof TraceColumns, ArrayBufferView>;
    for (const c of TRACE_COLUMNS) out[c] = this[c].subarray(0, n);
    return out as unknown as TraceColumns;
  }

  /** The column buffers trimmed to `length`, in {@link TRACE_COLUMNS} order (hashing, size). */
  columns(): ArrayBufferView[] {
    const t = this.trimmed();
    return TRACE_COLUMNS.map((c) => t[c]);
  }

  /** Bytes the entries occupy (not counting spare capacity). */
  byteLength(): number {
    return this.columns().reduce((s, c) => s + c.byteLength, 0);
  }
}
