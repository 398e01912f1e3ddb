/**
 * The simulation kernel: virtual clock, event queue, actors with incarnations, the network, and
 * the fault registry's hooks. Components (producer, brokers, processors, sinks) are actors that
 * schedule work on it; nothing here knows what a partition or a checkpoint is.
 */
import { NO_EVENT, type EntryId, type EventId } from './ids';
import { EventQueue, type Scheduled } from './core/heap';
import { createRng, type Rng } from './core/rng';
import { partitionForKey } from './core/murmur2';
import { restoreFields, type AnyFunction } from './core/copyHints';
import { isCallCode, run, type Callback } from './core/call';
import {
  Trace,
  MESSAGE_TYPES,
  type MessageType,
  END_SETTLED,
  END_STOP,
  END_TRACE_LIMIT,
  CEILING_MARGIN,
} from './trace';
import { LIMITS } from './scenario/limits';
import type { Scenario } from './scenario/schema';
import type { Events } from './scenario/workload';
import type { Faults } from './faults';
import type { Actor } from './actor';
import { writeEnd, writeMessage } from './traceWriters';

export { Actor, type PendingWork } from './actor';

/** A scheduled task, as its owner may hold it (to {@link World.cancel} it). */
export type Timer = object;

/**
 * Pending work, as data: at `time`, run `fn.call(self, a, b)`. `fn` is a method of `self`'s class
 * (see {@link Actor.later}) — code without state — so a snapshot copies the task with the state
 * it names and the copy runs on the copy (docs/ARCHITECTURE.md, "Pending work and forks"). A task
 * given a closure instead ({@link World.schedule}) runs the same but cannot be copied.
 */
interface Task extends Scheduled {
  actor: Actor | null;
  /**
   * The actor incarnation the task belongs to; a task of an ended incarnation is dropped. A task
   * of no actor has 0, or {@link FAULT_TRIGGER}.
   */
  inc: number;
  fn: (this: unknown, a: unknown, b: unknown) => void;
  self: unknown;
  a: unknown;
  b: unknown;
  /** Set by {@link World.cancel}: the task is dropped unrun (a timer no longer needed). */
  cancelled: boolean;
}

/**
 * A task as {@link World.scheduleCall} queues it: a class, so that a save point writes its
 * fields back with the named stores of {@link restoreFields} (a trial of the fault atlas restores
 * a hundred or more of them) rather than `Object.assign`.
 */
class QueuedTask implements Task {
  seq = 0;
  cancelled = false;

  constructor(
    public time: number,
    public actor: Actor | null,
    public inc: number,
    public fn: Task['fn'],
    public self: unknown,
    public a: unknown,
    public b: unknown,
  ) {}

  [restoreFields](saved: QueuedTask): void {
    this.time = saved.time;
    this.actor = saved.actor;
    this.inc = saved.inc;
    this.fn = saved.fn;
    this.self = saved.self;
    this.a = saved.a;
    this.b = saved.b;
    this.seq = saved.seq;
    this.cancelled = saved.cancelled;
  }
}

/**
 * The `inc` of a scenario's timed fault waiting for its time ({@link World.scheduleFault}): the
 * fault is not work of the pipeline's, so one due after `stopAtMs` does not make the run cut off.
 */
const FAULT_TRIGGER = -1;

/** The most arrived deliveries a world keeps for reuse (more are in flight only in bursts). */
const MAX_SPARES = 64;

/** What a cancelled task runs (nothing): what it named is released. */
function noop(): void {}

/**
 * Whether a queued task does nothing when it runs ({@link World.release}d): it only moves the
 * clock, and never keeps a run from settling (the fault atlas's rejoin test leaves it out).
 */
export function isIdleTask(task: object): boolean {
  return (task as Partial<Task>).fn === noop;
}

/**
 * Whether a queued task is work still pending: neither cancelled, nor released, nor a scenario's
 * fault still to come.
 */
function isWork(task: Task): boolean {
  return !task.cancelled && task.fn !== noop && task.inc !== FAULT_TRIGGER;
}

/**
 * Whether `fn`, found at `holder[key]` in a run's state, is code without state — a queued task's
 * or a held {@link Call}'s method of its `self` or `stateless` function, or a cancelled task's
 * nothing — which a snapshot shares instead of refusing (src/engine/atlas/fork.ts).
 */
export function isTaskCode(fn: unknown, holder: object, key: PropertyKey): boolean {
  if (key !== 'fn' || !('self' in holder)) return false;
  return fn === noop || isCallCode(fn as AnyFunction, holder, key);
}

const MSG_INDEX = new Map<MessageType, number>(MESSAGE_TYPES.map((m, i) => [m, i]));

/**
 * What a message carries, for its trace entry and for the faults that match it. One per world
 * ({@link World.carry}), set by the sender just before {@link World.send} and read by it alone:
 * no object per message, and one shape for every caller — an object literal of each caller's
 * own made `send`'s reads megamorphic (docs/benchmarks.md, perf43).
 */
export class Carry {
  /** First workload event carried, or -1. */
  event: EventId = NO_EVENT;
  topic = -1;
  partition = -1;
  offset = -1;
  count = -1;
  txn = -1;
  /**
   * Every workload event carried (for `match.event`), its first `count` when `count` is less (a
   * producer batch's column, its room past its records); undefined: `event` alone.
   */
  events: ArrayLike<number> | undefined = undefined;
}

/** Options of {@link World.send}. */
export interface SendOptions {
  /** The receiver's incarnation this message is for (a response goes to the requester's incarnation). */
  toInc?: number;
  /** Extra delay before delivery (ms). */
  extraDelayMs?: number;
  /**
   * For a request on a client's TCP connection (to a broker): runs, with the 'msg-lost' entry,
   * when the message reaches its receiver dead or restarted since (another incarnation than
   * `toInc`). The client, not the network, decides what it saw: a connection reset by the crash
   * (see src/engine/connections.ts). Without it, the message is simply lost.
   */
  onLost?: OnArrival;
  /**
   * Lost on the way whatever the faults say: a request behind one lost on its TCP connection
   * (src/engine/clientRequests.ts, `Connection.stalled`). The faults still count it (`match.nth`).
   */
  lost?: boolean;
}

/**
 * What runs when a message arrives (or is found lost): a {@link Call} held as data, which a
 * snapshot copies, or — until every call site is converted — a closure, which it cannot.
 */
export type OnArrival = Callback<EntryId>;

/**
 * A message on its way (see {@link World.send}), as a queued task. A class rather than a closure:
 * one object per message instead of a closure and the context it captures. It holds only what
 * differs from message to message — the run's most frequent allocation (14 % of a fault atlas's
 * bytes with 17 fields): the task fields every message has alike are on the prototype (below),
 * and what a lost message's entry repeats (its type, event, topic, partition, offset, count, and
 * its sender, the 'msg' entry's actor) is read back from its 'msg' entry. Once it has arrived
 * nothing holds it: the world keeps it for a later message ({@link World.spareDeliveries}).
 */
class Delivery implements Task {
  seq = 0;
  declare readonly actor: null;
  declare readonly inc: number;
  declare cancelled: boolean;
  /** As a task, it runs its own {@link Delivery.fn}, with no arguments. */
  self: unknown = this;
  declare a: unknown;
  declare b: unknown;

  constructor(
    public time: number,
    public to: Actor,
    public toInc: number,
    /** Its 'msg' entry. */
    public entry: EntryId,
    /** Null once it has arrived (a spare). */
    public deliver: OnArrival | null,
    public onLost: OnArrival | undefined,
  ) {}

  /** Queued as a task: the message arrives. */
  fn(): void {
    this.to.world.arrive(this);
  }

  /** The receiver reads it, when it wakes from a stall. */
  handOver(msgEntry: EntryId): void {
    const k = this.deliver!;
    this.to.world.spare(this);
    run(k, msgEntry);
  }
}
// Never cancelled nor released (only timers are): the same for every message. A snapshot copies
// a delivery's own fields and keeps its prototype, so a copy has these too.
Object.assign(Delivery.prototype, {
  actor: null,
  inc: 0,
  cancelled: false,
  a: undefined,
  b: undefined,
});

/** The simulation kernel shared by every component of one run. */
export class World {
  /** Virtual time (ms). */
  now = 0;
  readonly trace: Trace;
  readonly actors: Actor[] = [];
  private readonly queue = new EventQueue<Task>();
  private readonly rngs = new Map<string, Rng>();
  faults!: Faults;
  /** True once the run has been asked to stop (halt, stopAtMs). */
  stopped = false;
  /** Count of tasks run (for progress reporting). */
  steps = 0;
  /**
   * Called when the run ends (settled or stopped), just before its 'end' entry, with the clock at
   * the end time: a component that accounts for quiet time lazily (a sleeping Flink checkpoint
   * coordinator) records what happened up to then. It must not schedule anything. Held as a
   * `Call` (data, which a snapshot copies) or a closure.
   */
  readonly beforeEnd: Callback[] = [];
  private generatedIds = 0;
  /**
   * Deliveries that have arrived, for the next messages to reuse (at most {@link MAX_SPARES}): a
   * delivery per message was a tenth of a fault atlas's allocation. State like any other (a save
   * point restores it with the queue, so a spare is never also queued); the fault atlas's state
   * walk leaves it out (it decides nothing ahead).
   */
  private readonly spareDeliveries: Delivery[] = [];
  /** The carry of the message being sent ({@link carry}). */
  private readonly carried = new Carry();

  /**
   * The carry of the message about to be sent, set to these values: pass it to {@link send} at
   * once (the next call sets it anew; `send` lets go of `events`).
   */
  carry(
    event: EventId,
    topic: number,
    partition: number,
    offset: number,
    count = -1,
    txn = -1,
    events?: ArrayLike<number>,
  ): Carry {
    const c = this.carried;
    c.event = event;
    c.topic = topic;
    c.partition = partition;
    c.offset = offset;
    c.count = count;
    c.txn = txn;
    c.events = events;
    return c;
  }

  /** The next id of the run's own id generator (pipeline-generated keys, idempotency keys). */
  nextGeneratedId(): number {
    return ++this.generatedIds;
  }

  constructor(
    readonly scenario: Scenario,
    readonly events: Events,
  ) {
    // About three entries per event (send, process, write) plus batch-level ones: size once. The
    // floor is small: a run of a few events (the library's, each of a fault atlas's thousands of
    // runs) used to zero 180 KB of columns for its few hundred entries; a run that needs more
    // doubles its columns a few times.
    this.trace = new Trace(Math.min(1 << 24, 512 + Math.ceil(events.count * 3.3)));
  }

  private readonly keyPartitionTables = new Map<number, Int32Array>();

  /**
   * Each workload key's partition among `partitions` (Kafka's murmur2 partitioner), computed once
   * per partition count: a Flink job opens a producer per checkpoint, and each would hash every key.
   */
  keyPartitions(partitions: number): Int32Array {
    let t = this.keyPartitionTables.get(partitions);
    if (!t) {
      const keys = this.events.keys;
      t = new Int32Array(keys.length);
      for (let i = 0; i < keys.length; i++) t[i] = partitionForKey(keys[i]!, partitions);
      this.keyPartitionTables.set(partitions, t);
    }
    return t;
  }

  /** The seeded random stream for `purpose` (created on first use). */
  rng(purpose: string): Rng {
    let r = this.rngs.get(purpose);
    if (!r) {
      r = createRng(this.scenario.seed, purpose);
      this.rngs.set(purpose, r);
    }
    return r;
  }

  /** Index of a topic name in the trace's topic table (added on first use). */
  topicIndex(name: string): number {
    let i = this.trace.topics.indexOf(name);
    if (i < 0) {
      i = this.trace.topics.length;
      this.trace.topics.push(name);
    }
    return i;
  }

  /**
   * Drop a scheduled task unrun: a timer whose reason is gone (a checkpoint that completed before
   * its timeout). Unlike a task that runs and does nothing, it neither moves the clock nor keeps
   * the run from ending (or makes it look cut off at stopAtMs).
   */
  cancel(task: Timer): void {
    const t = task as Task;
    if (t.cancelled) return;
    t.cancelled = true;
    // Let go of what the task holds (a batch and its records, for a delivery timeout): the
    // task may stay queued for the rest of the run.
    t.fn = noop;
    t.self = t.a = t.b = undefined;
    // A cancelled timer stays queued until its time comes; most of them are long timeouts (a
    // request's, a statement's, a batch's poll timeout) that would pile up and make every push
    // and pop dearer. Drop them once they are half of the queue.
    if (++this.cancelledQueued > 256 && this.cancelledQueued * 2 > this.queue.size) {
      this.queue.dropCancelled();
      this.cancelledQueued = 0;
    }
  }

  /**
   * Let go of what a timer names, leaving it queued as a task that does nothing: a timeout whose
   * request was answered, which would have run and found nothing to do. Unlike {@link cancel} it
   * still moves the clock when its time comes (the run is the same, byte for byte), but a
   * snapshot no longer copies the request and its answer with it; like a cancelled one, it does
   * not keep a run from settling before its `stopAtMs`.
   */
  release(task: Timer): void {
    const t = task as Task;
    t.fn = noop;
    t.self = t.a = t.b = undefined;
  }

  /**
   * Cancelled timers still in the queue (an estimate: a timer cancelled after it ran counts too,
   * and so does one the queue dropped on its way into the heap).
   */
  private cancelledQueued = 0;

  /**
   * Run `fn` after `delayMs`, whatever happens to any actor: a hook for tests and tools (pause a
   * run, look at it). A closure, which a snapshot cannot copy — the engine queues its own work
   * with {@link scheduleCall}.
   */
  scheduleGlobal(delayMs: number, fn: () => void): Timer {
    return this.scheduleCall(delayMs, null, undefined, fn);
  }

  /**
   * Run `fn.call(self, a, b)` after `delayMs`: on `actor`'s current incarnation (dropped if it
   * ends first), or whatever happens when `actor` is null. The one way work is queued.
   */
  scheduleCall<S, A, B>(
    delayMs: number,
    actor: Actor | null,
    self: S,
    fn: (this: S, a: A, b: B) => void,
    a?: A,
    b?: B,
  ): Task {
    const task = new QueuedTask(
      this.now + delayMs,
      actor,
      actor === null ? 0 : actor.incarnation,
      fn as Task['fn'],
      self,
      a,
      b,
    );
    this.queue.push(task);
    return task;
  }

  /**
   * Queue a scenario's timed fault (src/engine/timedFaults.ts) to happen after `delayMs`: as
   * {@link scheduleCall} with no actor, but not work the run waits for — a run with nothing else
   * left before its `stopAtMs` has settled, and its fault never fires.
   */
  scheduleFault<S, A, B>(
    delayMs: number,
    self: S,
    fn: (this: S, a: A, b: B) => void,
    a: A,
    b?: B,
  ): void {
    this.scheduleCall(delayMs, null, self, fn, a, b).inc = FAULT_TRIGGER;
  }

  /** One-way latency of a message on the link from → to (ms). */
  latency(from: Actor, to: Actor): number {
    const n = this.scenario.network;
    if (n.jitterMs === 0) return n.latencyMs;
    return n.latencyMs + this.rng(`net:${from.name}>${to.name}`).int(n.jitterMs + 1);
  }

  /**
   * Send a message from one actor to another through the network. The fault registry may drop or
   * delay it; a message reaching a dead process, or a process of another incarnation than
   * `toInc`, is lost. `deliver` runs at arrival with the id of the 'msg' entry.
   * @returns the 'msg' (or 'msg-lost') trace entry.
   */
  send(
    from: Actor,
    to: Actor,
    type: MessageType,
    cause: EntryId,
    carry: Carry,
    deliver: OnArrival,
    opts?: SendOptions,
  ): EntryId {
    if (opts === undefined)
      return this.sendMessage(from, to, to.incarnation, type, cause, carry, deliver, undefined);
    return this.sendMessage(
      from,
      to,
      opts.toInc ?? to.incarnation,
      type,
      cause,
      carry,
      deliver,
      opts.onLost,
      opts.lost === true,
      opts.extraDelayMs ?? 0,
    );
  }

  /**
   * {@link send}, its options as arguments (`toInc` given): no options object per message on the
   * hottest paths (a produce request and its answer).
   */
  sendMessage(
    from: Actor,
    to: Actor,
    toInc: number,
    type: MessageType,
    cause: EntryId,
    carry: Carry,
    deliver: OnArrival,
    onLost: OnArrival | undefined,
    lost = false,
    extraDelayMs = 0,
  ): EntryId {
    const fate = this.faults.onMessage(type, carry, cause);
    const drop = fate.drop || lost;
    const arrival = this.now + this.latency(from, to) + fate.delayMs + extraDelayMs;
    const t = this.trace;
    const e = writeMessage(
      t,
      this.now,
      drop,
      from.id,
      fate.faultEntry >= 0 ? fate.faultEntry : cause,
      carry.event,
      carry.topic,
      carry.partition,
      carry.offset,
      carry.count,
      MSG_INDEX.get(type)!,
    );
    // Written column by column: an object of fields per message (`t.set`) was a run's most
    // frequent allocation.
    t.peer[e] = to.id;
    t.until[e] = arrival;
    t.txn[e] = carry.txn;
    // Nothing keeps the carry: a column it names is not held past the send.
    carry.events = undefined;
    this.faults.opportunities?.message(e, type);
    if (drop) return e;
    const d = this.spareDeliveries.pop();
    if (d === undefined) this.queue.push(new Delivery(arrival, to, toInc, e, deliver, onLost));
    else {
      d.time = arrival;
      d.to = to;
      d.toInc = toInc;
      d.entry = e;
      d.deliver = deliver;
      d.onLost = onLost;
      this.queue.push(d);
    }
    return e;
  }

  /** `d` has arrived and nothing holds it: kept for a later message (see {@link spareDeliveries}). */
  spare(d: Delivery): void {
    d.deliver = null;
    d.onLost = undefined;
    if (this.spareDeliveries.length < MAX_SPARES) this.spareDeliveries.push(d);
  }

  /**
   * A message reaches `to` (see {@link send}): lost if `to` is dead or another incarnation than
   * `toInc` (a 'msg-lost' entry), held until a stalled process wakes, else delivered.
   */
  arrive(d: Delivery): void {
    const { to, entry: e } = d;
    const t = this.trace;
    if (!to.alive || to.incarnation !== d.toInc) {
      // What the message carried and its type, as its 'msg' entry has them.
      const l = writeMessage(
        t,
        this.now,
        true,
        to.id,
        e,
        t.event[e]! as EventId,
        t.topic[e]!,
        t.partition[e]!,
        t.offset[e]!,
        t.count[e]!,
        t.aux[e]!,
      );
      t.peer[l] = t.actor[e]!;
      const lost = d.onLost;
      this.spare(d);
      if (lost !== undefined) run(lost, l);
      return;
    }
    if (to.stalledUntil > this.now) {
      // A paused process reads its socket when it wakes up.
      this.queue.push(
        new QueuedTask(
          to.stalledUntil,
          to,
          d.toInc,
          Delivery.prototype.handOver as Task['fn'],
          d,
          e,
          undefined,
        ),
      );
      return;
    }
    const k = d.deliver!;
    this.spare(d);
    run(k, e);
  }

  /**
   * Run until the queue is empty, `stopAtMs` is reached, the trace holds `maxEntries` entries or a
   * component halts the run. The 'end' entry's aux says which: 0 settled, 1 stopAtMs, 2 the trace
   * limit.
   * @param stopAtMs - virtual time to stop at (ms).
   * @param maxSteps - safety valve against a bug that loops without tracing anything.
   * @param onProgress - called every 65,536 steps with the virtual time (ms) and the step count.
   * @param maxEntries - the trace size at which the run is cut off ({@link LIMITS}.traceEntries).
   * @param pauseBefore - return before the first task at this time or later, writing nothing: a
   *   later call goes on from there (the fault atlas arms a fault at that moment).
   * @returns true when paused (see `pauseBefore`), false when the run ended.
   * @throws Error when `maxSteps` is exceeded (an internal error).
   */
  run(
    stopAtMs: number,
    maxSteps: number,
    onProgress?: (now: number, steps: number) => void,
    maxEntries: number = LIMITS.traceEntries,
    pauseBefore = Infinity,
  ): boolean {
    const q = this.queue;
    this.trace.ceiling = maxEntries + CEILING_MARGIN;
    while (!this.stopped) {
      const task = q.peek();
      if (!task) break;
      if (task.cancelled) {
        q.pop();
        if (this.cancelledQueued > 0) this.cancelledQueued--;
        continue;
      }
      // Nothing left but released timers (answered requests' timeouts, which would run and do
      // nothing): the run has settled, as it would without a stop, not been cut off with work
      // still pending.
      if (task.time > stopAtMs && q.some(isWork)) {
        this.now = stopAtMs;
        for (const f of this.beforeEnd) run(f);
        writeEnd(this.trace, this.now, -1, END_STOP);
        return false;
      }
      if (task.time > stopAtMs) break;
      if (task.time >= pauseBefore) return true;
      q.pop();
      this.now = task.time;
      const a = task.actor;
      if (a !== null) {
        if (!a.alive || a.incarnation !== task.inc) continue;
        if (a.stalledUntil > this.now) {
          task.time = a.stalledUntil;
          q.push(task);
          continue;
        }
      }
      task.fn.call(task.self, task.a, task.b);
      if (this.trace.length >= maxEntries) {
        // The limit goes in `count`, for the words that explain the stop.
        writeEnd(this.trace, this.now, maxEntries, END_TRACE_LIMIT);
        return false;
      }
      if ((++this.steps & 0xffff) === 0) onProgress?.(this.now, this.steps);
      if (this.steps > maxSteps) {
        this.stopped = true;
        throw new Error(`the run did not settle within ${maxSteps} steps`);
      }
    }
    // Nothing left to happen. Idle timers (a delivery timeout that will never fire, …) may have
    // pushed the clock past the last real step: the run ends at that last step.
    const t = this.trace;
    const last = t.length > 0 ? t.time[t.length - 1]! : 0;
    this.now = last;
    for (const f of this.beforeEnd) run(f);
    writeEnd(t, last, -1, END_SETTLED);
    return false;
  }

  /** The queue's next sequence number (see {@link World.backdateQueued}). */
  get queuedSequence(): number {
    return this.queue.nextSequence;
  }

  /**
   * Order the tasks queued since the sequence stood at `from` as if queued when it stood at
   * `at` (src/engine/core/heap.ts, `backdate`): a timed fault armed part way takes the place
   * the run's set-up would have given it.
   */
  backdateQueued(from: number, at: number): void {
    this.queue.backdate(from, at);
  }

  /** Time of the next queued task, or undefined. */
  nextTime(): number | undefined {
    return this.queue.peek()?.time;
  }
}
