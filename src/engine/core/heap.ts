/**
 * The engine's event queue: a binary min-heap ordered by (time, sequence).
 *
 * Why a sequence: two events scheduled for the same virtual millisecond must always run in the
 * same order, so every push gets the next number of a counter and the comparator never returns 0.
 * That is what makes a run byte-identical from one execution to the next.
 *
 * Why two levels: most of a run's queue is timeouts far ahead (a fetch's or a request's 30 s, a
 * batch's delivery.timeout.ms, most of them answered or cancelled long before), and they made
 * every push and pop of the few tasks due soon walk a heap ten times as deep. Items due at or
 * after a horizon wait in an unordered list instead; when the heap runs dry the horizon moves one
 * {@link HORIZON_MS} past the earliest of them and those before it join the heap. Every item in
 * the heap is due before every item in the list, so items come out in exactly the (time, seq)
 * order of one heap — the split changes the cost, not the order.
 */

/** How far past the earliest far item the horizon moves when the heap runs dry (virtual ms). */
const HORIZON_MS = 1_024;

/** An item in the queue. `time` is virtual milliseconds; `seq` is assigned by {@link EventQueue.push}. */
export interface Scheduled {
  time: number;
  seq: number;
  /**
   * Set by the owner of an item that must never run (a cancelled timer, which the world pops and
   * skips unrun): the queue may drop it unseen when it moves far items into the heap.
   */
  cancelled?: boolean;
}

/** Binary min-heap of {@link Scheduled} items; `pop` returns the earliest (ties: first pushed). */
export class EventQueue<T extends Scheduled> {
  /** The heap: items due before {@link horizon}. */
  private items: T[] = [];
  /** Items due at or after {@link horizon}, in no order, and the earliest time among them. */
  private far: T[] = [];
  private farMin = Infinity;
  private horizon = HORIZON_MS;
  private nextSeq = 0;

  /** Number of queued items. */
  get size(): number {
    return this.items.length + this.far.length;
  }

  /** Add an item; its `seq` is overwritten with the next sequence number. */
  push(item: T): void {
    item.seq = this.nextSeq++;
    if (item.time >= this.horizon) {
      this.far.push(item);
      if (item.time < this.farMin) this.farMin = item.time;
      return;
    }
    this.siftUp(item);
  }

  /** Put `item` in the heap. */
  private siftUp(item: T): void {
    const items = this.items;
    let i = items.length;
    items.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent]!;
      if (p.time < item.time || (p.time === item.time && p.seq < item.seq)) break;
      items[i] = p;
      i = parent;
    }
    items[i] = item;
  }

  /**
   * Drop every item `keep` rejects, then restore the heap order (Floyd's bottom-up build). The
   * order items come out in is unchanged: it depends on (time, seq) alone, not on the layout.
   */
  retain(keep: (item: T) => boolean): void {
    const items = this.items.filter(keep);
    this.items = items;
    for (let i = (items.length >> 1) - 1; i >= 0; i--) siftDown(items, i, items[i]!, items.length);
    this.far = this.far.filter(keep);
    this.farMin = Infinity;
    for (const x of this.far) if (x.time < this.farMin) this.farMin = x.time;
  }

  /**
   * Drop every item marked cancelled, as `retain` with a test of that would, in place: no
   * callback per item nor new arrays (a run whose answered requests cancel their timeouts does
   * this every few hundred cancellations).
   */
  dropCancelled(): void {
    const items = this.items;
    let k = 0;
    for (let i = 0; i < items.length; i++) {
      const x = items[i]!;
      if (x.cancelled !== true) items[k++] = x;
    }
    items.length = k;
    for (let i = (k >> 1) - 1; i >= 0; i--) siftDown(items, i, items[i]!, k);
    const far = this.far;
    let kept = 0;
    let min = Infinity;
    for (let i = 0; i < far.length; i++) {
      const x = far[i]!;
      if (x.cancelled === true) continue;
      far[kept++] = x;
      if (x.time < min) min = x.time;
    }
    far.length = kept;
    this.farMin = min;
  }

  /** Whether any queued item passes `test` (in no particular order). */
  some(test: (item: T) => boolean): boolean {
    return this.items.some(test) || this.far.some(test);
  }

  /** The sequence number the next push gets. */
  get nextSequence(): number {
    return this.nextSeq;
  }

  /**
   * Renumber the queue as if the items pushed from sequence `from` on had been pushed when the
   * counter stood at `at` (≤ `from`): they take the numbers from `at` on, and the items numbered
   * from `at` to `from` move up past them. A task added part way through a run thus takes the
   * place among same-millisecond tasks it would have had if queued at the start (the fault
   * atlas's forks, src/engine/atlas/continuation.ts).
   */
  backdate(from: number, at: number): void {
    const moved = this.nextSeq - from;
    for (const list of [this.items, this.far])
      for (const x of list) {
        if (x.seq >= from) x.seq = at + (x.seq - from);
        else if (x.seq >= at) x.seq += moved;
      }
    this.retain(() => true);
  }

  /** The earliest item without removing it, or undefined when empty. */
  peek(): T | undefined {
    if (this.items.length === 0) this.refill();
    return this.items[0];
  }

  /** Remove and return the earliest item, or undefined when empty. */
  pop(): T | undefined {
    if (this.items.length === 0) this.refill();
    const items = this.items;
    const n = items.length;
    if (n === 0) return undefined;
    const top = items[0]!;
    const last = items.pop()!;
    if (n > 1) siftDown(items, 0, last, n - 1);
    return top;
  }

  /**
   * The heap ran dry: move the horizon {@link HORIZON_MS} past the earliest far item, and the far
   * items due before it into the heap, in the far list's order (the heap's order is by (time,
   * seq) alone whatever the order of pushes, and the far list's order is itself the same from run
   * to run). The list is compacted in place: the two arrays and the sort by seq each refill made
   * were a tenth of what retry-storm's trials allocated.
   * Cancelled items are dropped: they would only be popped and skipped, and a run's cancelled
   * timers (120 s delivery timeouts in retry-storm) were 70 % of the far items each refill
   * walked, and were copied at every fork.
   */
  private refill(): void {
    // Again while every item that came was cancelled: the heap must not stay empty with items far.
    while (this.items.length === 0 && this.far.length > 0) {
      this.horizon = this.farMin + HORIZON_MS;
      const far = this.far;
      let kept = 0;
      let min = Infinity;
      for (let i = 0; i < far.length; i++) {
        const x = far[i]!;
        if (x.cancelled === true) continue;
        if (x.time < this.horizon) this.siftUp(x);
        else {
          far[kept++] = x;
          if (x.time < min) min = x.time;
        }
      }
      far.length = kept;
      this.farMin = min;
    }
  }
}

/** Put `item` at slot `i` of the heap `items[0..size)`, moving it down past smaller children. */
function siftDown<T extends Scheduled>(items: T[], i: number, item: T, size: number): void {
  for (;;) {
    const l = 2 * i + 1;
    if (l >= size) break;
    const r = l + 1;
    let c = l;
    let ci = items[l]!;
    if (r < size) {
      const ri = items[r]!;
      if (ri.time < ci.time || (ri.time === ci.time && ri.seq < ci.seq)) {
        c = r;
        ci = ri;
      }
    }
    if (item.time < ci.time || (item.time === ci.time && item.seq < ci.seq)) break;
    items[i] = ci;
    i = c;
  }
  items[i] = item;
}
