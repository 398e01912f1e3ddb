/**
 * Questions about a trace that the explanations and the event diagrams ask again and again: the
 * entries of one kind, of one business event, the children of an entry, the fault at the root of
 * a cause chain. Each index is built on first use in one pass, so a question costs the entries it
 * concerns, not the whole trace of a long run.
 */
import { ENTRY_KINDS, KIND_CODE, type EntryKind, type Trace } from '../trace';

/** Index of the first element of the ascending `list` that is ≥ `x`. */
export function firstAtOrAfter(list: Int32Array, x: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How far up a cause chain the walks go: a chain is short, a cycle would never end. */
const MAX_CHAIN = 64;

export class TraceIndex {
  private byKind: Int32Array[] | null = null;
  private children: Map<number, number[]> | null = null;
  /** identity → trace entries carrying one of its events (in order), for the identities asked. */
  private readonly byIdentity = new Map<number, number[]>();

  /**
   * @param identity the business identity of each workload event (`run.events.identity`)
   * @param identities the identities whose entries {@link entriesOf} answers for (one pass)
   */
  constructor(
    readonly t: Trace,
    identity?: ArrayLike<number>,
    identities?: ReadonlySet<number>,
  ) {
    if (!identity || !identities) return;
    for (let i = 0; i < t.length; i++) {
      const e = t.event[i]!;
      if (e < 0) continue;
      const j = identity[e]!;
      if (!identities.has(j)) continue;
      let l = this.byIdentity.get(j);
      if (!l) this.byIdentity.set(j, (l = []));
      l.push(i);
    }
  }

  kind(i: number): EntryKind {
    return this.t.kindOf(i);
  }

  /** The entries of one kind, in trace order. */
  ofKind(k: EntryKind): Int32Array {
    if (!this.byKind) {
      const t = this.t;
      const counts = new Int32Array(ENTRY_KINDS.length);
      for (let i = 0; i < t.length; i++) counts[t.kind[i]!]!++;
      const lists = Array.from(counts, (c) => new Int32Array(c));
      const fill = new Int32Array(ENTRY_KINDS.length);
      for (let i = 0; i < t.length; i++) {
        const c = t.kind[i]!;
        lists[c]![fill[c]!++] = i;
      }
      this.byKind = lists;
    }
    return this.byKind[KIND_CODE[k]]!;
  }

  /** The last entry of kind `k` by actor `a` before entry `before`, or -1. */
  prevOf(k: EntryKind, before: number, a: number): number {
    const list = this.ofKind(k);
    for (let x = firstAtOrAfter(list, before) - 1; x >= 0; x--)
      if (this.t.actor[list[x]!] === a) return list[x]!;
    return -1;
  }

  /** The first entry of kind `k` by an actor `actor` accepts, at or after entry `after`, or -1. */
  nextOf(k: EntryKind, after: number, actor: (a: number) => boolean): number {
    const list = this.ofKind(k);
    for (let x = firstAtOrAfter(list, after); x < list.length; x++)
      if (actor(this.t.actor[list[x]!]!)) return list[x]!;
    return -1;
  }

  /** Entries carrying an event of identity `j` (one of the identities given at construction). */
  entriesOf(j: number): number[] {
    return this.byIdentity.get(j) ?? [];
  }

  /** Entries whose cause is entry `i`, in order. */
  childrenOf(i: number): number[] {
    if (!this.children) {
      const m = new Map<number, number[]>();
      const t = this.t;
      for (let k = 0; k < t.length; k++) {
        const c = t.cause[k]!;
        if (c < 0) continue;
        let l = m.get(c);
        if (!l) m.set(c, (l = []));
        l.push(k);
      }
      this.children = m;
    }
    return this.children.get(i) ?? [];
  }

  /**
   * The first child of entry `i` of kind `k` within the `window` entries after it, or -1. A scan,
   * not {@link childrenOf}: a child follows its cause closely, and one question should not build
   * the children of a whole long run (a diagram asks a few).
   */
  firstChildOf(i: number, k: EntryKind, window = 100_000): number {
    const t = this.t;
    const code = KIND_CODE[k];
    const end = Math.min(t.length, i + window);
    for (let c = i + 1; c < end; c++) if (t.cause[c] === i && t.kind[c] === code) return c;
    return -1;
  }

  /** The first entry of kind `k` up the cause chain of `i` (itself included), or -1. */
  upTo(k: EntryKind, i: number): number {
    let x = i;
    for (let step = 0; x >= 0 && step < MAX_CHAIN; step++) {
      if (this.kind(x) === k) return x;
      x = this.t.cause[x]!;
    }
    return -1;
  }

  /** The first 'fault' entry up the cause chain of `i`, or -1. */
  rootFault(i: number): number {
    return this.upTo('fault', i);
  }

  /**
   * Up the cause chain of a batch failure: the last 'reject' of the batch — the broker's error,
   * or the client's own REQUEST_TIMED_OUT — or -1 when no attempt was answered.
   */
  lastReject(failed: number): number {
    return this.upTo('reject', this.t.cause[failed]!);
  }
}
