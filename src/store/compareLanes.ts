/**
 * The runs of Compare's lanes: while the lab's compare state is set, each lane beside the
 * scenario (src/views/compare/lanes.ts) is run with its own run client — one after another, so a
 * lane never cancels another's worker job — and its view kept here. Lane 1 is the lab's own run
 * (its view is the app store's). An edit of the scenario or of the lanes runs them again (the run
 * client's cache answers a lane that did not change).
 *
 * A store of its own, beside the lab's: the lanes are derived from the lab's state, never part of
 * it, and only the Compare panel (and the embed showing it) subscribes.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ScenarioInput } from '../engine';
import type { RunClient, RunJob } from '../platform/runClient';
import { laneScenarios, laneTitle, type CompareSpec } from '../views/compare/lanes';
import type { RunView } from '../views/run/runView';
import type { Lab, LabState } from './labStore';

/** One lane beside the scenario, as it stands. */
interface LaneState {
  title: string;
  status: 'running' | 'ready' | 'refused' | 'error';
  view: RunView | null;
  /** Why it has no run ('refused': an unavailable guarantee, a refused knob; 'error'). */
  reason: string | null;
}

/** The lanes beside the scenario (lane 1, the scenario's own run, is the lab's view). */
export interface CompareLanesState {
  /** The scenario and compare state the lanes are of. */
  of: { scenario: ScenarioInput; compare: CompareSpec } | null;
  lanes: LaneState[];
}

/** The lanes' store, and a way to start and stop following the lab. */
export interface CompareLanes {
  store: StoreApi<CompareLanesState>;
  /** Follow the lab's compare state (and run its lanes) until the returned function is called. */
  start(): () => void;
  /** Resolves once every lane of the current compare state has its run (or its reason). */
  settled(): Promise<void>;
}

/** Keep the lanes of `lab`'s compare state run, with `runner` (not the lab's: see above). */
export function createCompareLanes(lab: Lab, runner: RunClient): CompareLanes {
  const store = createStore<CompareLanesState>()(() => ({ of: null, lanes: [] }));
  let job: RunJob | null = null;
  let generation = 0;
  let pending: Promise<void> = Promise.resolve();

  const update = (s: LabState) => {
    const cur = store.getState().of;
    if (s.compare === null) {
      if (cur !== null) {
        job?.cancel();
        generation++;
        store.setState({ of: null, lanes: [] });
      }
      return;
    }
    if (cur && cur.scenario === s.scenario && cur.compare === s.compare) return;
    job?.cancel();
    const mine = ++generation;
    const spec = s.compare;
    const built = laneScenarios(s.scenario, spec).slice(1);
    const lanes: LaneState[] = built.map((l, i) => ({
      title: laneTitle(s.scenario, spec.lanes[i]!),
      status: l.ok ? 'running' : 'refused',
      view: null,
      reason: l.ok ? null : l.reason,
    }));
    store.setState({ of: { scenario: s.scenario, compare: spec }, lanes });
    const setLane = (i: number, patch: Partial<LaneState>) => {
      if (mine !== generation) return;
      const next = [...store.getState().lanes];
      next[i] = { ...next[i]!, ...patch };
      store.setState({ lanes: next });
    };
    pending = (async () => {
      for (const [i, l] of built.entries()) {
        if (!l.ok) continue;
        job = runner.run(l.input);
        const r = await job.promise;
        if (mine !== generation) return;
        if (r.ok) setLane(i, { status: 'ready', view: r.view });
        else if ('issues' in r)
          setLane(i, {
            status: 'refused',
            reason: r.issues
              .map((x) => (x.path ? `${x.path}: ${x.message}` : x.message))
              .join('; '),
          });
        else setLane(i, { status: 'error', reason: r.error });
      }
    })();
  };
  return {
    store,
    start() {
      const off = lab.app.subscribe(update);
      store.setState({ of: null, lanes: [] });
      update(lab.app.getState());
      return () => {
        off();
        job?.cancel();
        generation++;
      };
    },
    async settled() {
      for (;;) {
        const p = pending;
        await p;
        if (p === pending) return;
      }
    },
  };
}
