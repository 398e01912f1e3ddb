/**
 * Snapshot of a run in progress: a copy of its whole state — the world (clock, queue of pending
 * work, every actor, the trace written so far, the random streams) and what the run leaves
 * behind for the checker — that continues exactly as the original would (docs/ARCHITECTURE.md,
 * "Pending work and forks"). The fault atlas's trials share the run before their fault this way
 * once every piece of pending work is data; {@link uncopyableParts} lists what still is not (a
 * closure, found with where it sits and its source), and a snapshot refuses to copy it.
 */
import { deepCopy, type UncopyableError } from '../core/deepCopy';
import { isTaskCode, type World } from '../world';
import type { RunState } from '../simulate';
import type { Scenario } from '../scenario/schema';

/** A run between two of its tasks: what {@link snapshot} copies. */
export interface RunInProgress {
  world: World;
  state: RunState;
}

/**
 * A copy of `run` that continues on its own: running the copy's world changes nothing of the
 * original, and gives the trace the original would have written from there.
 * @param scenario - the scenario the copy holds wherever the original holds its own (default:
 *   the same): the fault atlas's trial, the scenario with its added faults.
 * @throws UncopyableError naming the first closure (or other uncopyable part) in the state.
 */
export function snapshot<R extends RunInProgress>(run: R, scenario?: Scenario): R {
  return new Forker(run.world).snapshot(run, scenario);
}

/**
 * Snapshots of the runs of one scenario (the fault atlas's trials): its read-only inputs are
 * listed once, not at every copy. A copy's typed arrays come from the pool of the run in progress
 * when there is one (`withPool`), so the trials of an atlas reuse one another's memory.
 */
export class Forker {
  private readonly shared: Set<object>;
  private readonly own: Scenario;
  private readonly stats = { copied: 0 };

  /** The scenario's read-only inputs, which a snapshot shares (the rejoin test's walk too). */
  get sharedInputs(): ReadonlySet<object> {
    return this.shared;
  }

  /** `world`: a world of the scenario whose runs it copies (its scenario and event columns). */
  constructor(world: World) {
    this.shared = readOnlyInputs(world);
    this.own = world.scenario;
  }

  /** See {@link snapshot}; `run` must be a run of this forker's scenario and events. */
  snapshot<R extends RunInProgress>(run: R, scenario?: Scenario): R {
    return deepCopy(run, {
      stats: this.stats,
      shared: this.shared,
      allowFunction: isTaskCode,
      ...(scenario && scenario !== this.own ? { replace: new Map([[this.own, scenario]]) } : {}),
    });
  }

  /**
   * Whether forking `run` costs less than running its trial's prefix again: whether the run has
   * written at least `entriesPerObject` trace entries for each object the last copy walked (a
   * copy's cost grows with the objects it walks, a prefix's with its entries; before any copy,
   * yes). A count, not a clock, so the choice is the same on every machine — and either choice
   * gives the same run.
   */
  pays(run: RunInProgress, entriesPerObject: number): boolean {
    return run.world.trace.length >= entriesPerObject * this.stats.copied;
  }
}

/** Everything in `run` a snapshot cannot copy yet, each with its path and what it is. */
export function uncopyableParts(run: RunInProgress): UncopyableError[] {
  const found: UncopyableError[] = [];
  deepCopy(run, {
    shared: readOnlyInputs(run.world),
    allowFunction: isTaskCode,
    onUncopyable: (e) => found.push(e),
  });
  return found;
}

/**
 * The run's inputs no component writes to — the scenario and the workload's event columns, with
 * every object inside them (components keep references to their own configuration): shared by
 * a snapshot, not copied.
 */
function readOnlyInputs(w: World): Set<object> {
  const out = new Set<object>();
  const visit = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || out.has(v)) return;
    out.add(v);
    if (ArrayBuffer.isView(v)) return;
    for (const x of Object.values(v)) visit(x);
  };
  visit(w.scenario);
  visit(w.events);
  return out;
}
