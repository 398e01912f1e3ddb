/**
 * The faults of a run as armed (src/engine/faults.ts decides with them): each scenario fault
 * filed, from its `at`, under the opportunity it waits for — a message on its link, a crash
 * point, the records a target processes, an event taken from upstream, a leader's append, a
 * transaction — in fault order, with what it has counted or drawn so far. Plain records, so a
 * snapshot copies them with the run (docs/ARCHITECTURE.md, "Pending work and forks").
 */
import type { FaultSpec, CrashPoint, RandomFaultSpec } from './scenario/schema';
import type { World } from './world';
import type { Rng } from './core/rng';

export interface Armed {
  index: number;
  spec: FaultSpec;
  seen: number;
  done: boolean;
}

/**
 * The seeded stream of a random fault: by its label when it has one (labels are unique), so
 * deleting an earlier fault, which shifts every index after it, leaves its draws unchanged.
 */
export function streamOf(a: Armed): string {
  return a.spec.id !== undefined ? `fault:id:${a.spec.id}` : `fault:${a.index}`;
}

/** A crash armed by the records its target processes: `periodic-crash`, or a random crash. */
export interface RecordCrash extends Armed {
  target: string;
  point: CrashPoint;
  restartAfterMs: number | null;
  /** Random: the chance per record and its stream (see {@link streamOf}); periodic: -1 and null. */
  probability: number;
  rng: Rng | null;
  /** Periodic: the processed count at which it is next due. */
  next: number;
  /** Due: it crashes its target at the next `point`. */
  pending: boolean;
}

/** A random fault other than a lost message, with its own stream. */
export interface RandomArmed {
  index: number;
  spec: RandomFaultSpec;
  /** Its stream (see {@link streamOf}). */
  rng: Rng;
}

/** A target of record-armed faults: what `Faults.processedRecords` (./faults.ts) keeps per process. */
export interface RecordTarget {
  name: string;
  /** Records processed so far (for periodic crashes). */
  processed: number;
  /** Some random crash or rebalance draws on every record of this target. */
  draws: boolean;
  /**
   * The smallest processed count at which a periodic crash of this target is due (Infinity: none).
   * Below it, and without draws, a record changes nothing but the count.
   */
  nextDue: number;
}

/**
 * Add `x` to `list` in index order: after every fault of a smaller index (at the end when armed
 * in order, as the constructor does), so the first listed still decides (see `onMessage`).
 */
function insertByIndex<T extends { index: number }>(list: T[], x: T): void {
  let i = list.length;
  while (i > 0 && list[i - 1]!.index > x.index) i--;
  list.splice(i, 0, x);
}

/**
 * Whether `s` is a one-shot fault an idle Flink checkpoint of `target` would fire (see
 * {@link ArmedFaults.checkpointFaultAt}, which lists them): the checkpoint coordinator looks ahead to
 * it, so it changes the run before its `at` (the fault atlas forks before that, continuation.ts).
 */
export function hitsCheckpoints(s: FaultSpec, target: string): boolean {
  if (s.kind === 'crash')
    return (
      s.target === target &&
      (s.point === 'before-barrier' ||
        s.point === 'after-precommit' ||
        s.point === 'after-checkpoint')
    );
  if (s.kind !== 'drop-request' && s.kind !== 'drop-response' && s.kind !== 'delay-response')
    return false;
  const m = s.match;
  if (m.event !== undefined || m.every !== undefined) return false;
  return (
    (s.link === 'checkpoint' && m.partition === undefined) ||
    (s.link === 'commit' && s.kind === 'drop-request' && (m.partition ?? 0) === 0)
  );
}

/** The faults of one run, filed by what they wait for (the decisions: `Faults`, ./faults.ts). */
export abstract class ArmedFaults {
  protected readonly message: Armed[] = [];
  protected readonly points: Armed[] = [];
  /** Periodic and random crashes, armed by the records their target processes (in fault order). */
  protected readonly recordCrashes: RecordCrash[] = [];
  /** Random rebalances: a chance per record their target processes. */
  protected readonly recordRebalances: RandomArmed[] = [];
  /**
   * Per target of the faults armed by records processed: its count of records processed and when
   * the faults need looking at. Only these targets' records are looked at, so a run without such
   * faults pays one map lookup per record.
   */
  protected readonly recordTargets = new Map<string, RecordTarget>();
  /** The target `Faults.processedRecords` (./faults.ts) looked up last (one process usually asks in a row). */
  protected lastTarget: RecordTarget | null = null;
  /**
   * True once a record crash may be pending: until then `Faults.crashPoint` has nothing of
   * theirs to look for (it is asked at every record, most runs have no pending crash).
   */
  protected mayBePending = false;
  /** Random application re-sends and source duplicates: a chance per event taken from upstream. */
  protected readonly upstream: RandomArmed[] = [];
  /** Random leader failovers: a chance per produce request a leader appends. */
  protected readonly appends: RandomArmed[] = [];
  /** `leader-failover` at `after-append`: the next append from its `at` (in fault order). */
  protected readonly afterAppend: Armed[] = [];
  /** Transaction number (1-based) → what the application does with it. */
  protected readonly txnFate = new Map<number, { fate: 'abort' | 'hang'; index: number }>();

  constructor(protected readonly world: World) {}

  /**
   * Arm fault `index` of the scenario: what the constructor does for each fault, and what the
   * fault atlas does for one added part way through a run (src/engine/atlas/continuation.ts),
   * before its `at` — it takes its place among the others by index, as if armed from the start.
   * Timed faults are queued by simulate(); a random re-send or duplicate is seen by the source
   * application only when armed from the start (it reads `Faults.drawsPerUpstreamEvent` once).
   */
  arm(spec: FaultSpec, index: number): void {
    const a: Armed = { index, spec, seen: 0, done: false };
    switch (spec.kind) {
      case 'drop-request':
      case 'drop-response':
      case 'delay-response':
        insertByIndex(this.message, a);
        break;
      case 'random':
        this.armRandom(a, spec);
        break;
      case 'crash':
        if (spec.point !== 'now') insertByIndex(this.points, a);
        break;
      case 'leader-failover':
        if (spec.point === 'after-append') insertByIndex(this.afterAppend, a);
        break;
      case 'periodic-crash': {
        insertByIndex(this.recordCrashes, {
          ...a,
          target: spec.target,
          point: spec.point,
          restartAfterMs: spec.restartAfterMs,
          probability: -1,
          rng: null,
          next: spec.everyRecords,
          pending: false,
        });
        const t = this.recordTarget(spec.target);
        t.nextDue = Math.min(t.nextDue, spec.everyRecords);
        break;
      }
      case 'abort-transaction':
        this.txnFate.set(spec.transaction, { fate: 'abort', index });
        break;
      case 'hang-transaction':
        this.txnFate.set(spec.transaction, { fate: 'hang', index });
        break;
      default:
        break; // timed faults are scheduled by simulate()
    }
  }

  /** The state kept for a target of record-armed faults (created on first use). */
  private recordTarget(name: string): RecordTarget {
    let t = this.recordTargets.get(name);
    if (!t) {
      t = { name, processed: 0, draws: false, nextDue: Infinity };
      this.recordTargets.set(name, t);
    }
    return t;
  }

  /** File a random fault under the opportunity it draws on. */
  private armRandom(a: Armed, spec: RandomFaultSpec): void {
    if (spec.what === 'drop-request' || spec.what === 'drop-response') {
      insertByIndex(this.message, a);
      return;
    }
    const r: RandomArmed = { index: a.index, spec, rng: this.world.rng(streamOf(a)) };
    switch (spec.what) {
      case 'crash':
        insertByIndex(this.recordCrashes, {
          ...a,
          target: spec.target,
          point: spec.point,
          restartAfterMs: spec.restartAfterMs,
          probability: spec.probability,
          rng: r.rng,
          next: -1,
          pending: false,
        });
        this.recordTarget(spec.target).draws = true;
        return;
      case 'rebalance':
        insertByIndex(this.recordRebalances, r);
        this.recordTarget(spec.target).draws = true;
        return;
      case 'app-resend':
      case 'source-duplicate':
        insertByIndex(this.upstream, r);
        return;
      case 'leader-failover':
        insertByIndex(this.appends, r);
        return;
      default: {
        const never: never = spec;
        return never;
      }
    }
  }

  /** Whether a fault is armed now: from `at` to `untilMs` (both included). */
  protected active(s: RandomFaultSpec): boolean {
    const now = this.world.now;
    return now >= s.at && (s.untilMs === undefined || now <= s.untilMs);
  }

  /**
   * The earliest `at` (ms) of a one-shot fault, not fired yet, that an idle Flink checkpoint of
   * `target` would fire, or Infinity: a crash of `target` at 'before-barrier', 'after-precommit'
   * or 'after-checkpoint'; a lost or delayed message on the `checkpoint` link (barrier,
   * acknowledgement, completion notification) that names no event or partition; a lost request on
   * the `commit` link that names no event and no partition but 0 (the KafkaSource commits its
   * offsets when a checkpoint completes, one request, labelled partition 0). Repeating faults (`every`, random) are left out: they would keep an idle
   * job's checkpoints going for ever. The checkpoint coordinator simulates checkpoints step by step
   * from one interval before this time (see JobManager in processors/flink.ts).
   */
  checkpointFaultAt(target: string): number {
    let at = Infinity;
    for (const a of this.points)
      if (!a.done && hitsCheckpoints(a.spec, target)) at = Math.min(at, a.spec.at);
    for (const a of this.message)
      if (!a.done && hitsCheckpoints(a.spec, target)) at = Math.min(at, a.spec.at);
    return at;
  }
}
