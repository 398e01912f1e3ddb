/**
 * A paused run's state as a canonical sequence of tokens, for the fault atlas's rejoin test
 * (./rejoin.ts): two runs whose sequences match (up to a renumbering of trace entries, see there)
 * continue alike. The walk visits what a snapshot copies (./fork.ts) — every object reachable
 * from the world and the run's state, in key and insertion order, each once (a second visit is a
 * back-reference by first-visit number, so shared references and cycles must match too) — and
 * leaves out or rewrites what does not decide the run's future:
 * - the trace: its entries are history, read back only at the entry ids the state holds (the
 *   rejoin test compares those entries); its actor and topic tables are walked;
 * - the clock (`World.now`: every task sets it before anything reads it), the step count and the
 *   count of cancelled timers (progress and housekeeping only), the carry of the last message
 *   sent (`World.carry`: set anew for each message, read by its send alone), the deliveries
 *   kept for reuse (`World.spareDeliveries`: which objects a later message reuses decides
 *   nothing);
 * - the event queue's layout: its live tasks (not cancelled: the world pops and skips those
 *   unrun; not released: those run nothing — only whether one is due after the run's stop is
 *   written, for then the run ends at its stop, cut off) in the order they will run, (time,
 *   seq); a task's `seq` is written as its rank there,
 *   a task no longer queued has none (a push overwrites it), and the next sequence number is
 *   left out (every task queued from now on comes after every one queued, in both runs alike);
 * - a bump arena's slots (`Int32Arena`): its slices are walked where they are held, as typed
 *   arrays; the arena only hands out fresh room past what it handed out;
 * - a growable column's capacity: its elements in use only;
 * - the scenario (the trial's has one more fault) and the workload's read-only columns;
 * - an added fault that can no longer act (see {@link WalkOptions.added});
 * - asked ({@link WalkOptions.settled}), settled history: fields that the run only adds to and
 *   never reads again (src/engine/core/settled.ts).
 * A typed array is walked as its length and its buffer's first-visit number (views that share a
 * buffer share it in both runs), and its elements after the rest (see `Walker.elements`).
 */
import { Int32Arena } from '../core/arena';
import { usedLength } from '../core/copyHints';
import { EventQueue, type Scheduled } from '../core/heap';
import { ArmedFaults, streamOf, type Armed, type RandomArmed } from '../faultsArmed';
import { Trace } from '../trace';
import { settledFields, type HasSettledFields } from '../core/settled';
import { isIdleTask, World } from '../world';

/** Thrown by a token sink to stop the walk at the first difference. */
export const MISMATCH: unique symbol = Symbol('mismatch');

/** Where the walk sends its tokens. */
export interface TokenSink {
  /** One token; `entryIdHint`: the holder's key (for the entries whose time matters). */
  put(token: unknown, key?: string): void;
}

/** Options of {@link walkState}. */
export interface WalkOptions {
  /** Read-only inputs written as themselves, unwalked (the fork's shared set). */
  shared: ReadonlySet<object>;
  /** The scenarios (the reference's, the trial's): written as one token. */
  scenarios: ReadonlySet<object>;
  /**
   * A trial's added faults: their index from `from` on. Their records in the fault registry are
   * left out where the fault can no longer act — a message fault or a crash at a point that fired
   * (`done`: it fires once), a leader failover whose window (`untilMs`) is over at `now` — and so
   * are their random streams; anywhere else the walk stops ({@link MISMATCH}). A timed fault's
   * pending task is in the queue: the walk meets it there and the runs differ until it has run.
   */
  added?: { from: number; now: number };
  /**
   * True: the fields an object names settled history (src/engine/core/settled.ts) are written as
   * one token each, unwalked — the rejoin test modulo settled history (./rejoin.ts).
   */
  settled?: boolean;
  /**
   * Filled, when given, with each token's place: the classes and keys from the root to its
   * holder (the census of why trials do not rejoin, scripts/atlas-rejoin-census.ts).
   */
  labels?: string[];
}

// Structure tokens: unique objects, equal only to themselves.
const T_OBJECT = { t: 'object' };
const T_BACKREF = { t: 'backref' };
const T_ARRAY = { t: 'array' };
const T_TYPED = { t: 'typed' };
const T_MAP = { t: 'map' };
const T_SET = { t: 'set' };
const T_SCENARIO = { t: 'scenario' };
const T_TRACE = { t: 'trace' };
const T_ARENA = { t: 'arena' };
const T_QUEUE = { t: 'queue' };
const T_NO_SEQ = { t: 'no-seq' };
const T_SETTLED = { t: 'settled' };

const NONE_SETTLED: readonly string[] = [];

/** World fields that do not decide the run's future (see the module comment). */
const WORLD_SKIPPED = new Set(['now', 'steps', 'cancelledQueued', 'carried', 'spareDeliveries']);

/** Fault registry lists whose spent added faults are left out, and when each is spent. */
const SPENT: Record<string, (x: Armed & RandomArmed, now: number) => boolean> = {
  message: (a) => a.done && (a.spec as { match?: { every?: number } }).match?.every === undefined,
  points: (a) => a.done,
  appends: (a, now) => {
    const until = (a.spec as { untilMs?: number }).untilMs;
    return until !== undefined && until < now;
  },
};

/** A queued task, as the queue and its owners hold it. */
interface QueuedTask extends Scheduled {
  fn: unknown;
  self: unknown;
}

/** Walk `root` (a paused run: `{ world, state }`) into `sink`. */
export function walkState(root: object, sink: TokenSink, opts: WalkOptions): void {
  const labels = opts.labels;
  let w: Walker;
  if (labels === undefined) w = new Walker(sink, opts);
  else {
    const labelled: TokenSink = {
      put: (token, key) => {
        labels.push(w.place());
        sink.put(token, key);
      },
    };
    w = new Walker(labelled, opts);
  }
  w.walk(root, undefined);
  w.elements();
}

class Walker {
  private readonly seen = new Map<object, number>();
  private readonly buffers = new Map<ArrayBufferLike, number>();
  /** Live queued tasks → their rank in run order. */
  private ranks = new Map<object, number>();
  private readonly streamsLeftOut = new Set<string>();
  /** With `opts.labels`: the classes and keys down to the object being walked. */
  private readonly path: string[] | null;
  /** With `opts.labels`: each deferred typed array's place. */
  private readonly deferredPlaces: string[] = [];

  constructor(
    private readonly sink: TokenSink,
    private readonly opts: WalkOptions,
  ) {
    this.path = opts.labels === undefined ? null : [];
  }

  /** The current place (with `opts.labels`). */
  place(): string {
    return this.path!.join(' ');
  }

  walk(v: unknown, key: string | undefined): void {
    const sink = this.sink;
    if (typeof v !== 'object' || v === null) {
      sink.put(v, key);
      return;
    }
    const n = this.seen.get(v);
    if (n !== undefined) {
      sink.put(T_BACKREF);
      sink.put(n);
      return;
    }
    if (this.opts.scenarios.has(v)) {
      sink.put(T_SCENARIO);
      return;
    }
    if (this.opts.shared.has(v)) {
      sink.put(v);
      return;
    }
    this.seen.set(v, this.seen.size);
    if (Array.isArray(v)) return this.array(v, key);
    if (ArrayBuffer.isView(v)) return this.typed(v, (v as unknown as ArrayLike<number>).length);
    if (v instanceof Map) return this.map(v as Map<unknown, unknown>);
    if (v instanceof Set) {
      sink.put(T_SET);
      sink.put(v.size);
      for (const x of v) this.walk(x, undefined);
      return;
    }
    if (v instanceof Trace) {
      sink.put(T_TRACE);
      this.walk(v.actors, 'actors');
      this.walk(v.topics, 'topics');
      return;
    }
    if (v instanceof Int32Arena) {
      sink.put(T_ARENA);
      return;
    }
    if (v instanceof EventQueue) return this.queue(v);
    this.object(v);
  }

  private array(v: unknown[], key: string | undefined): void {
    const sink = this.sink;
    sink.put(T_ARRAY);
    let list = v;
    const added = this.opts.added;
    if (added !== undefined && key !== undefined && this.inRegistry(v, key))
      list = v.filter((x) => !this.leftOut(x as Armed & RandomArmed, key, added));
    sink.put(list.length);
    for (let i = 0; i < list.length; i++) this.walk(list[i], key);
  }

  /** Whether `v` is one of the fault registry's lists (set while walking the registry). */
  private registryLists = new Set<unknown>();
  private inRegistry(v: unknown[], key: string): boolean {
    return this.registryLists.has(v) || (key in SPENT && this.registryLists.has(v));
  }

  /** Whether registry record `a` (in list `key`) is a spent added fault; throws if it is live. */
  private leftOut(
    a: Armed & RandomArmed,
    key: string,
    added: NonNullable<WalkOptions['added']>,
  ): boolean {
    if (a.index < added.from) return false;
    const spent = SPENT[key];
    if (spent === undefined || !spent(a, added.now)) throw MISMATCH;
    if (a.rng !== undefined) this.streamsLeftOut.add(streamOf(a));
    return true;
  }

  private typed(v: ArrayBufferView, used: number): void {
    const sink = this.sink;
    sink.put(T_TYPED);
    sink.put(v.constructor);
    let b = this.buffers.get(v.buffer);
    if (b === undefined) {
      b = this.buffers.size;
      this.buffers.set(v.buffer, b);
    }
    sink.put(b);
    sink.put(used);
    this.deferred.push(v as unknown as ArrayLike<number>, used);
    if (this.path !== null) this.deferredPlaces.push(this.place());
  }

  /**
   * Typed arrays' elements, after everything else: most differences show in the structure and
   * the scalars (a column's length, a count), so a comparison that stops at the first one
   * seldom reads the columns.
   */
  private readonly deferred: (ArrayLike<number> | number)[] = [];

  elements(): void {
    const sink = this.sink;
    const d = this.deferred;
    for (let j = 0; j < d.length; j += 2) {
      const a = d[j] as ArrayLike<number>;
      const used = d[j + 1] as number;
      if (this.path !== null) this.path.splice(0, this.path.length, this.deferredPlaces[j / 2]!);
      for (let i = 0; i < used; i++) sink.put(a[i]);
    }
  }

  private map(v: Map<unknown, unknown>): void {
    const sink = this.sink;
    sink.put(T_MAP);
    const streams = this.streamsLeftOut;
    let size = v.size;
    if (streams.size > 0) for (const k of v.keys()) if (streams.has(k as string)) size--;
    sink.put(size);
    for (const [k, x] of v) {
      if (streams.size > 0 && streams.has(k as string)) continue;
      this.walk(k, undefined);
      this.walk(x, undefined);
    }
  }

  /** The queue: its live tasks in run order, each task's rank standing for its `seq`. */
  private queue(q: EventQueue<Scheduled>): void {
    const inner = q as unknown as { items: QueuedTask[]; far: QueuedTask[] };
    const queued = [...inner.items, ...inner.far].filter((t) => t.cancelled !== true);
    // A released timer runs nothing, and does not keep the run from settling (World.run).
    const live = queued.filter((t) => !isIdleTask(t));
    live.sort((a, b) => a.time - b.time || a.seq - b.seq);
    this.ranks = new Map(live.map((t, i) => [t, i]));
    this.sink.put(T_QUEUE);
    this.sink.put(live.length);
    for (const t of live) this.walk(t, undefined);
  }

  private object(v: object): void {
    const sink = this.sink;
    const o = v as Record<string, unknown>;
    sink.put(T_OBJECT);
    sink.put(Object.getPrototypeOf(v));
    const used =
      typeof (o as { [usedLength]?: unknown })[usedLength] === 'function'
        ? (o as unknown as { [usedLength](): number })[usedLength]()
        : -1;
    const isWorld = v instanceof World;
    if (v instanceof ArmedFaults) for (const k of Object.keys(SPENT)) this.registryLists.add(o[k]);
    // A task: the queue's (walked first, so ranked) or one no longer queued.
    const task = 'seq' in o && 'fn' in o && 'self' in o && 'time' in o;
    // The queue first, so that every task is ranked before an owner's field names it; then the
    // fault registry, so that the streams of spent added faults are known before the world's
    // streams are walked.
    if (isWorld) {
      this.path?.push('World.queue');
      this.walk(o.queue, 'queue');
      this.path?.splice(-1, 1, 'World.faults');
      this.walk(o.faults, 'faults');
      this.path?.pop();
    }
    const settled =
      this.opts.settled === true && settledFields in o
        ? (o as unknown as HasSettledFields)[settledFields]()
        : NONE_SETTLED;
    const keys = Object.keys(v);
    sink.put(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      sink.put(k);
      if (isWorld && (WORLD_SKIPPED.has(k) || k === 'queue' || k === 'faults')) continue;
      const x = o[k];
      const path = this.path;
      if (path !== null) path.push(`${v.constructor.name}.${k}`);
      if (settled.length > 0 && settled.includes(k)) sink.put(T_SETTLED);
      else if (task && k === 'seq') {
        const r = this.ranks.get(v);
        sink.put(r === undefined ? T_NO_SEQ : r);
      } else if (used >= 0 && ArrayBuffer.isView(x)) {
        if (this.seen.has(x)) this.walk(x, k);
        else {
          this.seen.set(x, this.seen.size);
          this.typed(x, used);
        }
      } else this.walk(x, k);
      if (path !== null) path.pop();
    }
  }
}
