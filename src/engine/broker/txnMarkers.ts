/**
 * The transaction coordinator's markers: a commit or abort marker written to each partition of a
 * transaction, queued while a partition has no live leader, and the transaction completed once
 * its last marker is written. Who waits for a completion is held as data (a `Call`), so a
 * snapshot of the run copies it (docs/ARCHITECTURE.md, "Pending work and forks").
 */
import { NO_ENTRY, NO_EVENT, type EntryId } from '../ids';
import type { World } from '../world';
import { run, type Callback } from '../core/call';
import { writeMarker } from '../traceWriters';
import { REC_COMMIT_MARKER, REC_CONTROL, type Partition } from './partition';
import type { Cluster, TxnRecord } from './cluster';

/** The markers of the cluster's transactions, written and waiting. */
export class TxnMarkers {
  /**
   * Markers the coordinator could not write yet, per partition, in the order they were due: the
   * partition had no live leader. Kafka's TransactionMarkerChannelManager keeps such markers
   * queued ("markersQueueForUnknownBroker") and re-enqueues one a leader refused
   * (NOT_LEADER_OR_FOLLOWER, REQUEST_TIMED_OUT… in TransactionMarkerRequestCompletionHandler),
   * to the partition's leader of the moment, until it is written.
   */
  private readonly pendingMarkers = new Map<
    Partition,
    { rec: TxnRecord; commit: boolean; cause: EntryId }[]
  >();
  /** Transaction number → its markers still to write, and what to do once all are written. */
  private readonly markerWaits = new Map<
    number,
    { rec: TxnRecord; left: number; done: Callback<EntryId> }
  >();
  /** Who waits for a transactional id's transactions to complete ({@link whenCompleted}). */
  private readonly completionWaiters = new Map<string, Callback[]>();

  constructor(
    private readonly world: World,
    private readonly cluster: Cluster,
  ) {}

  /**
   * Write the commit or abort marker of transaction `rec` to each of its partitions (each marker
   * takes one offset), so read_committed readers move past it; `done` runs once every marker is
   * written — at once when every partition has a live leader, else when the last one missing gets
   * one ({@link flushMarkers}): the coordinator completes the transaction only then — it stays
   * PrepareCommit / PrepareAbort until its last marker is written, and Kafka's
   * TransactionMarkerChannelManager writes the Complete state once no partition is left
   * (`maybeWriteTxnCompletion`; KIP-98,
   * https://cwiki.apache.org/confluence/display/KAFKA/KIP-98+-+Exactly+Once+Delivery+and+Transactional+Messaging;
   * TransactionMarkerRequestCompletionHandler:
   * https://github.com/apache/kafka/blob/trunk/core/src/main/scala/kafka/coordinator/transaction/TransactionMarkerRequestCompletionHandler.scala).
   */
  writeMarkers(rec: TxnRecord, commit: boolean, cause: EntryId, done: Callback<EntryId>): void {
    let left = 0;
    for (const p of rec.partitions) {
      if (this.liveLeaderOf(p)) {
        this.writeMarker(p, rec, commit, cause);
        continue;
      }
      let q = this.pendingMarkers.get(p);
      if (!q) this.pendingMarkers.set(p, (q = []));
      q.push({ rec, commit, cause });
      left++;
    }
    if (left === 0) run(done, cause);
    else this.markerWaits.set(rec.no, { rec, left, done });
  }

  /** Whether a transaction of `transactionalId` still has markers to write (it is completing). */
  completing(transactionalId: string): boolean {
    for (const m of this.markerWaits.values())
      if (m.rec.transactionalId === transactionalId) return true;
    return false;
  }

  /**
   * Run `fn` once no transaction of `transactionalId` has markers left to write (at once when
   * none has): a client refused with CONCURRENT_TRANSACTIONS asks again then.
   */
  whenCompleted(transactionalId: string, fn: Callback): void {
    if (!this.completing(transactionalId)) return run(fn);
    let list = this.completionWaiters.get(transactionalId);
    if (!list) this.completionWaiters.set(transactionalId, (list = []));
    list.push(fn);
  }

  /** Whether the marker of transaction `no` on `p` still waits for a leader. */
  markerPending(p: Partition, no: number): boolean {
    return this.pendingMarkers.get(p)?.some((m) => m.rec.no === no) ?? false;
  }

  /** The partition's leader if it is alive (a crashed one the controller has not replaced yet is not). */
  private liveLeaderOf(p: Partition) {
    const l = this.cluster.leaderOf(p);
    return l?.alive ? l : undefined;
  }

  /**
   * `p` has a live leader again (elected, or its leader back before the controller noticed it was
   * gone): write the markers queued for it, in order; a transaction whose last marker this was
   * completes.
   */
  flushMarkers(p: Partition, cause: EntryId): void {
    const q = this.pendingMarkers.get(p);
    if (!q || !this.liveLeaderOf(p)) return;
    this.pendingMarkers.delete(p);
    for (const m of q) {
      const e = this.writeMarker(p, m.rec, m.commit, cause);
      const wait = this.markerWaits.get(m.rec.no);
      if (!wait || --wait.left > 0) continue;
      this.markerWaits.delete(m.rec.no);
      run(wait.done, e);
      const tid = m.rec.transactionalId;
      const waiters = this.completionWaiters.get(tid);
      if (!waiters || this.completing(tid)) continue;
      this.completionWaiters.delete(tid);
      for (const f of waiters) run(f);
    }
  }

  /** Append one marker of `rec` at `p`'s leader; returns its 'marker' entry. */
  private writeMarker(p: Partition, rec: TxnRecord, commit: boolean, cause: EntryId): EntryId {
    const w = this.world;
    const leader = this.cluster.leaderOf(p)!;
    const e = writeMarker(
      w.trace,
      w.now,
      leader.id,
      cause,
      p.topic,
      p.index,
      p.leo,
      commit ? 1 : 0,
      rec.no,
    );
    p.appendRecord(
      NO_EVENT,
      rec.pid,
      rec.epoch,
      -1,
      rec.no,
      REC_CONTROL | (commit ? REC_COMMIT_MARKER : 0),
      e,
      NO_ENTRY,
      w.now,
    );
    p.txnOutcome.set(rec.no, commit ? 'committed' : 'aborted');
    p.openTxns.delete(rec.no);
    p.leaderHoldsAll();
    this.cluster.replication.replicate(p, e);
    p.notify();
    return e;
  }
}
