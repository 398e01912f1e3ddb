/**
 * One partition of a topic: its log, its replicas, and the broker-side state kept with the log.
 *
 * Modelling choice: followers only ever copy a prefix of the leader's log, so one record array plus
 * a log-end offset (LEO) per replica describes every replica exactly. A leader change truncates the
 * array to the new leader's LEO — which is how acknowledged-but-unreplicated records vanish with
 * `acks=1` (https://kafka.apache.org/documentation/#producerconfigs_acks) while records below the
 * high watermark never do (the StrongIsr invariant of hachikuji/kafka-specification).
 *
 * Producer-id state (the last 5 batches per producer, for idempotence) lives with the log and is
 * rebuilt from it after a truncation (docs/semantics/broker.md#dedupe-state-after-failover).
 */
import { run, type Callback } from '../core/call';
import { NO_ENTRY, type EntryId, type EventId } from '../ids';
import { IntColumn } from '../core/columns';
import { idleFetch, type FollowerFetch } from './replication';

/** Flag bits of a record. */
export const REC_CONTROL = 1;
export const REC_COMMIT_MARKER = 2;

/** A retained batch of a producer (first/last sequence, base offset). */
export interface RetainedBatch {
  firstSeq: number;
  lastSeq: number;
  offset: number;
}

/** Broker-side state of one producer id on a partition. */
export interface ProducerEntry {
  epoch: number;
  /** The last (at most 5) batches appended, oldest first. */
  batches: RetainedBatch[];
}

/** Outcome of a transaction as the partition's readers see it. */
export type TxnOutcome = 'open' | 'committed' | 'aborted';

/** Kafka retains this many batches per producer id for duplicate detection (ProducerConfig docs). */
const RETAINED_BATCHES = 5;

/** A replica: the broker it lives on, how far it has copied the log, and what the leader knows of it. */
export interface Replica {
  broker: number;
  /** The replica's own log end: what it holds, and would lead with. */
  leo: number;
  /**
   * Its log end as the leader knows it: the offset its last fetch asked from. A follower holds a
   * copy from when the fetch response reaches it; the leader learns so only from the follower's
   * next fetch, half a round trip later (src/engine/broker/replication.ts). The high watermark and
   * the ISR go by this one. The leader's own replica has both equal.
   */
  leoAtLeader: number;
  /**
   * The high watermark this replica knows while it follows: the one its last fetch response
   * carried, at most its own log end (a follower learns it a fetch round after the leader moves
   * it, docs/semantics/broker.md#a-new-leaders-high-watermark). It leads with this one; while it
   * leads, {@link Partition.hw} is its high watermark, and this one is set to it again when it
   * stops leading.
   */
  hw: number;
  /** Last time (ms) the replica was caught up with the leader's LEO. */
  caughtUpAt: number;
  replicationPending: boolean;
  /** Its fetch the leader answered, while {@link replicationPending} (see replication.ts). */
  readonly fetch: FollowerFetch;
}

/** One partition: log columns + replication + idempotence + transaction state. */
export class Partition {
  /** Workload event index of each record (-1 for a control marker). */
  readonly event: IntColumn;
  readonly pid: IntColumn;
  readonly epoch: IntColumn;
  readonly seq: IntColumn;
  /** Transaction number of the record, or -1. */
  readonly txn: IntColumn;
  /** {@link REC_CONTROL} | {@link REC_COMMIT_MARKER}. */
  readonly flags: IntColumn;
  /** The 'append' trace entry of the record's batch. */
  readonly appendEntry: IntColumn;
  /** The 'app-send' trace entry that created the record (its provenance), or -1. */
  readonly sendEntry: IntColumn;
  /** Time (ms) the record was appended. */
  readonly appendTime: IntColumn;

  readonly replicas: Replica[];
  leader: number;
  leaderEpoch = 0;
  /**
   * The leader's high watermark, the partition's visible one: offsets below it are on every ISR
   * replica and may be read. A new leader starts from the one it learned as a follower.
   */
  hw = 0;
  /**
   * The leader's log end when it became leader (Kafka's leader epoch start offset): until the high
   * watermark reaches it, a ListOffsets for the latest offset is answered OFFSET_NOT_AVAILABLE
   * ({@link latestOffsetAvailable}).
   */
  epochStartOffset = 0;
  readonly isr = new Set<number>();
  readonly producers = new Map<number, ProducerEntry>();
  /** Transaction number → outcome, for transactions that wrote here. */
  readonly txnOutcome = new Map<number, TxnOutcome>();
  /** Open transaction number → its first offset here (the LSO is the smallest). */
  readonly openTxns = new Map<number, number>();
  /**
   * Who waits for the readable end to move (long-polling fetchers): a `Call` held as data, which
   * a snapshot copies, or a closure.
   */
  waiters: Callback[] = [];
  /**
   * Records cut by leader changes, kept for the views (a cut offset may be reused by a later
   * record): the 'truncate' trace entry, the first offset, and the events of the cut records.
   */
  readonly truncated: {
    entry: EntryId;
    offset: number;
    events: EventId[];
    flags: number[];
    txns: number[];
  }[] = [];

  constructor(
    readonly topic: number,
    readonly topicName: string,
    readonly index: number,
    replicaBrokers: number[],
    /** Records expected (a hint: the log columns start at this size and still grow past it). */
    expected = 256,
  ) {
    const cap = Math.max(256, expected);
    this.event = new IntColumn(cap);
    this.pid = new IntColumn(cap);
    this.epoch = new IntColumn(cap);
    this.seq = new IntColumn(cap);
    this.txn = new IntColumn(cap);
    this.flags = new IntColumn(cap);
    this.appendEntry = new IntColumn(cap);
    this.sendEntry = new IntColumn(cap);
    this.appendTime = new IntColumn(cap);
    this.replicas = replicaBrokers.map((b) => ({
      broker: b,
      leo: 0,
      leoAtLeader: 0,
      hw: 0,
      caughtUpAt: 0,
      replicationPending: false,
      fetch: idleFetch(),
    }));
    this.leader = replicaBrokers[0]!;
    for (const b of replicaBrokers) this.isr.add(b);
  }

  /** The leader's log end offset. */
  get leo(): number {
    return this.event.length;
  }

  /** The leader appended: its own replica holds the whole log. */
  leaderHoldsAll(): Replica {
    const self = this.replica(this.leader)!;
    self.leo = self.leoAtLeader = this.leo;
    return self;
  }

  replica(broker: number): Replica | undefined {
    // A loop, not `find` with a closure: every append asks for the leader's own replica.
    for (const r of this.replicas) if (r.broker === broker) return r;
    return undefined;
  }

  /**
   * Last stable offset: the first offset of the earliest open transaction, else the high watermark
   * — an exclusive bound, like the high watermark: read_committed fetches return offsets below it
   * (the consumer docs: "up to the LSO, which is one less than the offset of the first open
   * transaction", counting the last readable offset)
   * (https://kafka.apache.org/documentation/#consumerconfigs_isolation.level).
   */
  get lso(): number {
    let lso = this.hw;
    for (const first of this.openTxns.values()) if (first < lso) lso = first;
    return lso;
  }

  /**
   * Whether the leader can answer a ListOffsets for the latest offset: not while its high watermark
   * lags behind the start offset of its epoch, after an election — it answers OFFSET_NOT_AVAILABLE,
   * a retriable error (KIP-207; Kafka's Partition.fetchOffsetForTimestamp,
   * https://kafka.apache.org/42/javadoc/org/apache/kafka/common/errors/OffsetNotAvailableException.html).
   */
  latestOffsetAvailable(): boolean {
    return this.hw >= this.epochStartOffset;
  }

  /** Append one record at the leader; returns its offset. */
  appendRecord(
    event: EventId,
    pid: number,
    epoch: number,
    seq: number,
    txn: number,
    flags: number,
    appendEntry: EntryId,
    sendEntry: EntryId,
    time: number,
  ): number {
    const off = this.event.push(event);
    this.pid.push(pid);
    this.epoch.push(epoch);
    this.seq.push(seq);
    this.txn.push(txn);
    this.flags.push(flags);
    this.appendEntry.push(appendEntry);
    this.sendEntry.push(sendEntry);
    this.appendTime.push(time);
    if (txn >= 0 && (flags & REC_CONTROL) === 0 && !this.openTxns.has(txn)) {
      this.openTxns.set(txn, off);
      this.txnOutcome.set(txn, 'open');
    }
    return off;
  }

  /** Remember an appended batch for duplicate detection (at most 5 per producer). */
  rememberBatch(
    pid: number,
    epoch: number,
    firstSeq: number,
    lastSeq: number,
    offset: number,
  ): void {
    let p = this.producers.get(pid);
    if (!p || p.epoch !== epoch) {
      p = { epoch, batches: [] };
      this.producers.set(pid, p);
    }
    p.batches.push({ firstSeq, lastSeq, offset });
    if (p.batches.length > RETAINED_BATCHES) p.batches.shift();
  }

  /**
   * Cut the log to `n` records (a new leader's LEO). Producer state and open transactions are
   * rebuilt from what remains, as a broker rebuilds them from its log.
   * @returns how many records were removed.
   */
  truncate(n: number, entry: EntryId = NO_ENTRY): number {
    const removed = this.leo - n;
    if (removed <= 0) return 0;
    this.truncated.push({
      entry,
      offset: n,
      events: Array.from(this.event.view().subarray(n)) as EventId[],
      flags: Array.from(this.flags.view().subarray(n)),
      txns: Array.from(this.txn.view().subarray(n)),
    });
    for (const c of [
      this.event,
      this.pid,
      this.epoch,
      this.seq,
      this.txn,
      this.flags,
      this.appendEntry,
      this.sendEntry,
      this.appendTime,
    ])
      c.truncate(n);
    for (const r of this.replicas) {
      if (r.leo > n) r.leo = n;
      if (r.leoAtLeader > n) r.leoAtLeader = n;
      if (r.hw > n) r.hw = n;
    }
    if (this.hw > n) this.hw = n;
    this.producers.clear();
    this.openTxns.clear();
    // Rebuild producer state batch by batch (consecutive records of one pid/epoch form a batch here:
    // enough for dedupe, since a retry always carries the whole batch).
    let i = 0;
    while (i < n) {
      const pid = this.pid.get(i);
      if (pid < 0) {
        i++;
        continue;
      }
      const ep = this.epoch.get(i);
      const entry = this.appendEntry.get(i);
      let j = i + 1;
      while (j < n && this.pid.get(j) === pid && this.appendEntry.get(j) === entry) j++;
      if ((this.flags.get(i) & REC_CONTROL) === 0)
        this.rememberBatch(pid, ep, this.seq.get(i), this.seq.get(j - 1), i);
      i = j;
    }
    for (let k = 0; k < n; k++) {
      const t = this.txn.get(k);
      if (t < 0) continue;
      if ((this.flags.get(k) & REC_CONTROL) !== 0) this.openTxns.delete(t);
      else if (!this.openTxns.has(t) && this.txnOutcome.get(t) === 'open') this.openTxns.set(t, k);
    }
    // A transaction whose records were all cut is no longer open here.
    for (const [t, o] of this.txnOutcome)
      if (o === 'open' && !this.openTxns.has(t)) this.txnOutcome.delete(t);
    return removed;
  }

  /** Wake every waiting fetcher (the readable end may have moved). */
  notify(): void {
    if (this.waiters.length === 0) return;
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) run(f);
  }

  /**
   * Whether a read_committed reader may see the record at `offset` (non-control, below the LSO,
   * not in an aborted transaction). read_uncommitted sees every non-control record below the HW.
   */
  visible(offset: number, readCommitted: boolean): boolean {
    return offset < this.readableEnd(readCommitted) && this.visibleBelowEnd(offset, readCommitted);
  }

  /**
   * {@link visible} for an offset the caller knows is below {@link readableEnd}: a scan over a
   * range reads the end once (the LSO walks the open transactions) instead of at every record.
   */
  visibleBelowEnd(offset: number, readCommitted: boolean): boolean {
    if ((this.flags.data[offset]! & REC_CONTROL) !== 0) return false;
    if (!readCommitted) return true;
    const t = this.txn.data[offset]!;
    return t < 0 || this.txnOutcome.get(t) === 'committed';
  }

  /** Whether the record at `offset` is a control record (a transaction marker), not data. */
  isControl(offset: number): boolean {
    return (this.flags.get(offset) & REC_CONTROL) !== 0;
  }

  /** The end of what a reader may fetch: HW (read_uncommitted) or LSO (read_committed). */
  readableEnd(readCommitted: boolean): number {
    return readCommitted ? this.lso : this.hw;
  }

  /** When the record at `offset` was appended (ms), or -1 when the log holds none there. */
  appendedAt(offset: number): number {
    return offset >= 0 && offset < this.appendTime.length ? this.appendTime.get(offset) : -1;
  }
}
