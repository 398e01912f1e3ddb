/**
 * The engine's event queue: a binary min-heap ordered by (time, sequence).
 *
 * Why a sequence: two events scheduled for the same virtual millisecond must always run in the
 * same order, so every push gets the next number of a counter and the comparator never returns 0.
 * That is what makes a run byte-identical from one execution to the next.
 */

/** An item in the queue. `time` is virtual milliseconds; `seq` is assigned by {@link EventQueue.push}. */
export interface Scheduled {
  time: number;
  seq: number;
}

/** Binary min-heap of {@link Scheduled} items; `pop` returns the earliest (ties: first pushed). */
export class EventQueue<T extends Scheduled> {
  private items: T[] = [];
  private nextSeq = 0;

  /** Number of queued items. */
  get size(): number {
    return this.items.length;
  }

  /** Add an item; its `seq` is overwritten with the next sequence number. */
  push(item: T): void {
    item.seq = this.nextSeq++;
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
    for (const x of this.items) {
      if (x.seq >= from) x.seq = at + (x.seq - from);
      else if (x.seq >= at) x.seq += moved;
    }
    this.retain(() => true);
  }

  /** The earliest item without removing it, or undefined when empty. */
  peek(): T | undefined {
    return this.items[0];
  }

  /** Remove and return the earliest item, or undefined when empty. */
  pop(): T | undefined {
    const items = this.items;
    const n = items.length;
    if (n === 0) return undefined;
    const top = items[0]!;
    const last = items.pop()!;
    if (n > 1) siftDown(items, 0, last, n - 1);
    return top;
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
