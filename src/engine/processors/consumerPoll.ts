/**
 * A consumer loop's poll(): the records it takes from its fetch buffers, the fetches that keep
 * them filled (one in flight per partition, parked once caught up) and the auto-commit an idle
 * loop still wakes for (docs/semantics/consumer.md#auto-commit). One layer of the loop's class
 * (see consumerMembership.ts), split for size.
 */
import { NO_RECORDS } from '../broker/cluster';
import type { PartState } from './consumerCommits';
import { ConsumerMembership } from './consumerMembership';
import { fetchFrom, parkOn, type Fetch } from './fetch';
import { call } from '../core/call';
import { NO_ENTRY, type EntryId, type EventId } from '../ids';
import type { Rec } from './consumer';

/** A consumer loop's fetching, poll() and idle auto-commit. */
export abstract class ConsumerPolling extends ConsumerMembership {
  protected autoCommitWake = false;

  protected autoOffsets(): { partition: number; offset: number }[] {
    const r: { partition: number; offset: number }[] = [];
    for (const [p, s] of this.parts)
      if (s.position > s.committed) r.push({ partition: p, offset: s.position });
    return r;
  }

  /** Whether {@link autoOffsets} has any, without building them (an idle loop asks each poll). */
  private hasAutoOffsets(): boolean {
    for (const s of this.parts.values()) if (s.position > s.committed) return true;
    return false;
  }

  /** An idle loop still calls poll(): wake once when an auto-commit is due. */
  protected scheduleAutoCommit(): void {
    if (!this.cfg.autoCommit || this.autoCommitWake || !this.hasAutoOffsets()) return;
    this.autoCommitWake = true;
    const due = this.lastAutoCommit + this.cfg.autoCommitIntervalMs - this.world.now;
    this.later(Math.max(0, due), this.autoCommitDue);
  }

  /** An idle loop's auto-commit is due: poll() again. */
  private autoCommitDue(): void {
    this.autoCommitWake = false;
    this.loop(NO_ENTRY);
  }

  /**
   * poll(): up to `max` buffered records, partition by partition in ascending order. A sync loop
   * whose output is {@link Output.synchronous} is done with a batch before it polls again (it is
   * busy until then, and its output keeps nothing): its Rec objects are reused from batch to
   * batch instead of made anew for each record.
   */
  protected takeRecords(max: number): Rec[] {
    const reuse = this.cfg.mode === 'sync' && this.output.synchronous === true;
    const pool = this.recPool;
    // Sized once: the records available, up to `max`.
    let room = 0;
    for (const s of this.parts.values()) if (!s.revoking) room += s.offsets.length - s.head;
    const out = new Array<Rec>(Math.min(room, max));
    let n = 0;
    // Ascending partition numbers, without sorting the map's entries.
    const partitions = this.topic.partitions.length;
    for (let p = 0; p < partitions; p++) {
      const s = this.parts.get(p);
      if (!s || s.revoking) continue;
      const offs = s.offsets;
      const evs = s.events;
      while (s.head < offs.length && n < max) {
        const i = s.head++;
        let r: Rec | undefined;
        if (reuse && (r = pool[n]) !== undefined) {
          r.partition = p;
          r.offset = offs[i]!;
          r.event = evs[i]! as EventId;
        } else {
          r = { partition: p, offset: offs[i]!, event: evs[i]! as EventId };
          if (reuse) pool[n] = r;
        }
        out[n++] = r;
        s.position = offs[i]! + 1;
      }
      if (s.head === offs.length) {
        s.offsets = NO_RECORDS;
        s.events = NO_RECORDS;
        s.head = 0;
        if (s.position < s.fetchPos) s.position = s.fetchPos;
      }
    }
    return out;
  }

  /** The Rec objects {@link takeRecords} reuses (a sync loop with a synchronous output). */
  private readonly recPool: Rec[] = [];

  /** Keep one fetch in flight per owned partition whose buffer is empty; park when caught up. */
  protected fetchMore(cause: EntryId): void {
    // By key, then get: iterating the map's entries made an [p, s] array per partition per call.
    for (const p of this.parts.keys()) {
      const s = this.parts.get(p)!;
      if (s.fetching || s.parked || s.head < s.offsets.length || s.revoking) continue;
      s.fetching = true;
      const max = Math.max(this.cfg.maxPollRecords, 500);
      fetchFrom(
        this,
        this.cluster,
        this.topic,
        p,
        s.fetchPos,
        max,
        this.cfg.readCommitted,
        cause,
        call(this, this.fetched, s),
      );
    }
  }

  /** A fetch for partition state `s` is answered: its records are buffered, or it parks. */
  private fetched(s: PartState, _b: undefined, _c: undefined, f: Fetch): void {
    const p = f.partition;
    const from = f.offset;
    const r = f.result!;
    const c = f.answer;
    if (this.parts.get(p) !== s) return;
    s.fetching = false;
    if (s.fetchPos === from) {
      // The buffer is empty (only an empty one is fetched for): it becomes the response.
      s.offsets = r.offsets;
      s.events = r.events;
      s.head = 0;
      s.fetchPos = r.next;
      if (r.offsets.length === 0 && s.position < s.fetchPos) s.position = s.fetchPos;
    }
    if (r.offsets.length === 0 && r.next === from) {
      // Caught up: wait for the partition to move instead of polling it again and again.
      s.parked = true;
      const wake = call(this, this.unparked, s, c);
      parkOn(this, this.topic.partitions[p]!, from, this.cfg.readCommitted, wake);
      return;
    }
    this.loop(c);
  }

  /** The partition a parked fetch waits on has moved: poll again. */
  private unparked(s: PartState, cause: EntryId): void {
    s.parked = false;
    this.loop(cause);
  }
}
