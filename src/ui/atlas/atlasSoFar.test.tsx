/**
 * The atlas panel while its atlas runs (issue 23): each finished chunk redraws the heat map of
 * the trials run so far — cells not run yet hatched and counted in the legend, a provisional
 * summary and counterexample — and nothing else does (progress messages leave the map alone);
 * "Predict first" folds it as it folds the final map; Cancel takes it away; opening a placement
 * mid-run stops the atlas first. The workers are a hand-driven stand-in: the test sends each
 * chunk's results (computed by the engine, as a worker would) when it chooses.
 */
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Atlas, Scenario, TrialResult } from '../../engine';
import type { AtlasChunks, AtlasProgress } from '../../platform/atlasWorkers';
import type { Lab } from '../../store/labStore';
import {
  assembleSlices,
  planAtlas,
  runAtlasSlice,
  trialChunks,
  type AtlasPlan,
} from '../../views/atlas/atlasJob';
import { testIds } from '../testIds';
import { AtlasPanel } from './AtlasPanel';
import type * as Grid from './HeatMapGrid';
import { atlasTestIds as ids } from './atlasTestIds';
import { renderInLab } from './atlasTesting';

/** The stand-in workers' one job, and how often the heat map rendered. */
const ctl = vi.hoisted(() => ({
  scenario: null as Scenario | null,
  onProgress: null as ((p: AtlasProgress) => void) | null,
  onChunk: null as ((c: AtlasChunks) => void) | null,
  resolve: null as ((r: { ok: true; atlas: Atlas; workers: number }) => void) | null,
  cancels: 0,
  gridRenders: 0,
}));

vi.mock('../../platform/atlasWorkers', () => ({
  warmAtlasWorkers: () => {},
  restAtlasWorkers: () => {},
  runAtlasInWorkers: (
    s: Scenario,
    o: { onProgress: (p: AtlasProgress) => void; onChunk: (c: AtlasChunks) => void },
  ) => {
    ctl.scenario = s;
    ctl.onProgress = o.onProgress;
    ctl.onChunk = o.onChunk;
    return {
      promise: new Promise((resolve) => (ctl.resolve = resolve)),
      cancel: () => ctl.cancels++,
    };
  },
  runBatchAtlasInWorker: () => ({ promise: new Promise(() => {}), cancel: () => {} }),
}));

// The heat map, counted: it must redraw per finished chunk, not per progress message.
vi.mock('./HeatMapGrid', async () => {
  const actual = await vi.importActual<typeof Grid>('./HeatMapGrid');
  return {
    HeatMapGrid: (props: Parameters<typeof actual.HeatMapGrid>[0]) => {
      ctl.gridRenders++;
      return createElement(actual.HeatMapGrid, props);
    },
  };
});

// A few dozen inline runs of a small preset; wide for a shared machine.
vi.setConfig({ testTimeout: 30_000 });

/** Crashes and re-sends of at-most-once: 48 trials in 6 chunks of 8 for 2 workers. */
const KINDS = ['crash', 'app-resend'] as const;

/** The job the panel asked for, planned and run by the engine as the workers would. */
function workersJob() {
  const s = ctl.scenario!;
  const plan = planAtlas(s, 1, KINDS) as AtlasPlan;
  const chunks = trialChunks(plan.trials, 2);
  const ran = chunks.map((c) => runAtlasSlice(s, plan, c.from, c.to));
  const results: (TrialResult[] | undefined)[] = chunks.map(() => undefined);
  let done = 0;
  return {
    plan,
    chunks,
    /** Chunk `c` finishes: a few progress messages in it, then its results. */
    finish(c: number) {
      for (let k = 1; k <= 5; k++)
        act(() => ctl.onProgress!({ done: done + k, total: plan.trials, workers: 2 }));
      results[c] = ran[c];
      done += ran[c]!.length;
      act(() => ctl.onProgress!({ done, total: plan.trials, workers: 2 }));
      act(() => ctl.onChunk!({ plan, chunks, results: [...results] }));
    },
    /** Every chunk finished: the atlas, assembled in chunk order. */
    async end() {
      await act(async () =>
        ctl.resolve!({ ok: true, atlas: assembleSlices(s, plan, ran), workers: 2 }),
      );
    },
  };
}

const cellsOf = (outcome: string) =>
  screen.queryAllByTestId(ids.cell).filter((c) => c.dataset.outcome === outcome);
const legendCount = (outcome: string) =>
  screen.getByTestId(ids.legend).querySelector<HTMLElement>(`[data-outcome="${outcome}"]`)?.dataset
    .count;

async function explore(library = false): Promise<Lab> {
  const lab = await renderInLab(
    'at-most-once',
    (l) => {
      l.app.setState({ atlas: { kinds: [...KINDS] } });
      return <AtlasPanel />;
    },
    { library },
  );
  fireEvent.click(screen.getByTestId(ids.explore));
  return lab;
}

describe('the atlas so far', () => {
  beforeEach(() => {
    ctl.cancels = 0;
    ctl.gridRenders = 0;
  });
  afterEach(cleanup);

  it('draws the map of each finished chunk, not run yet hatched, then the final map', async () => {
    await explore();
    const job = workersJob();
    expect(job.chunks).toHaveLength(6);
    // Progress alone: the bar moves, no map.
    act(() => ctl.onProgress!({ done: 3, total: 48, workers: 2 }));
    expect(screen.queryByTestId(ids.grid)).toBeNull();

    // Chunk 4 first (trials 32–39: re-sends, most of them break the claim).
    job.finish(4);
    expect(ctl.gridRenders).toBe(1);
    expect(screen.getByTestId(ids.soFar).textContent).toMatch(
      /^So far: 8 of 48 placements run: \d+ held, \d+ lose and duplicate\.$/,
    );
    expect(screen.queryByTestId(ids.summary)).toBeNull();
    expect(legendCount('not-run')).toBe('40');
    const notRun = cellsOf('not-run');
    expect(notRun.length).toBeGreaterThan(0);
    expect(notRun[0]!.getAttribute('aria-label')).toMatch(/: \d+ placements? not run yet$/);
    // The cells' trials, run and not, are the 48 trials.
    const cells = screen.getAllByTestId(ids.cell);
    const sum = (k: 'trials' | 'pending') => cells.reduce((n, c) => n + Number(c.dataset[k]), 0);
    expect(sum('trials')).toBe(8);
    expect(sum('pending')).toBe(40);
    // A re-send of p-1 (in chunk 3, not run) strikes earlier: the break so far is provisional.
    expect(screen.getByTestId(ids.counterexampleSoFar).textContent).toMatch(/^Provisional: /);
    expect(screen.queryByTestId(ids.counterexample)).toBeNull();

    // Chunk 3: every trial that would come before its first break has run — offered as final.
    job.finish(3);
    expect(ctl.gridRenders).toBe(2);
    expect(legendCount('not-run')).toBe('32');
    expect(screen.queryByTestId(ids.counterexampleSoFar)).toBeNull();
    expect(screen.getByTestId(ids.counterexample).textContent).toBe('Show me how this breaks');

    for (const c of [0, 1, 2]) job.finish(c);
    expect(ctl.gridRenders).toBe(5);
    // The last chunk's news is the atlas itself: the final map, as when nothing showed before.
    await job.end();
    expect(screen.queryByTestId(ids.soFar)).toBeNull();
    expect(screen.getByTestId(ids.summary).textContent).toMatch(/^48 placements: /);
    expect(cellsOf('not-run')).toHaveLength(0);
    expect(screen.getAllByTestId(ids.cell).every((c) => c.dataset.pending === undefined)).toBe(
      true,
    );
    expect(legendCount('not-run')).toBeUndefined();
    expect(screen.getByTestId(ids.speed).dataset.runs).toBe('48');
  });

  it('Cancel takes the map so far away and leaves the scenario as it was', async () => {
    const lab = await explore();
    const before = JSON.stringify(lab.app.getState().scenario);
    const job = workersJob();
    job.finish(0);
    expect(screen.getByTestId(ids.grid)).toBeTruthy();
    fireEvent.click(screen.getByTestId(ids.cancel));
    expect(ctl.cancels).toBe(1);
    expect(screen.queryByTestId(ids.grid)).toBeNull();
    expect(screen.queryByTestId(ids.soFar)).toBeNull();
    expect(screen.queryByTestId(ids.legend)).toBeNull();
    expect(screen.getByTestId(ids.cancelled).textContent).toBe(
      'Cancelled after 8 of 48 runs; nothing was changed.',
    );
    expect(JSON.stringify(lab.app.getState().scenario)).toBe(before);
  });

  it('opening a placement mid-run stops the atlas, then adds its fault (one undo step)', async () => {
    const lab = await explore();
    const faults = lab.app.getState().scenario.faults?.length ?? 0;
    const job = workersJob();
    job.finish(4);
    const broken = cellsOf('both')[0]!;
    fireEvent.click(broken);
    const open = within(screen.getByTestId(ids.cellTrials)).getAllByTestId(ids.openTrial)[0]!;
    fireEvent.click(open);
    expect(ctl.cancels).toBe(1);
    expect(lab.app.getState().scenario.faults).toHaveLength(faults + 1);
    expect(screen.queryByTestId(ids.grid)).toBeNull();
    expect(screen.getByTestId(ids.cancelled).textContent).toBe(
      'Stopped after 8 of 48 runs to open that placement; Explore runs the atlas again.',
    );
    act(() => lab.actions.undo());
    expect(lab.app.getState().scenario.faults?.length ?? 0).toBe(faults);
  });

  it('"Show me how this breaks", once final mid-run, stops the atlas and opens the break', async () => {
    const lab = await explore();
    const faults = lab.app.getState().scenario.faults?.length ?? 0;
    const job = workersJob();
    job.finish(3);
    fireEvent.click(screen.getByTestId(ids.counterexample));
    expect(ctl.cancels).toBe(1);
    const added = lab.app.getState().scenario.faults!;
    expect(added).toHaveLength(faults + 1);
    // The minimal counterexample of at-most-once: the application re-sends p-1 (as the CLI says).
    expect(added.at(-1)!.kind).toBe('app-resend');
    // Said as its timeline marker says it: which fault, on what, from when (it said "Added a
    // fault"). at-most-once ships two faults: this is the third.
    expect(faults).toBe(2);
    expect(lab.app.getState().notice).toBe(
      'Added fault 3: the application sending p-1 again — armed from 0 ms',
    );
    expect(screen.queryByTestId(ids.grid)).toBeNull();
    expect(screen.getByTestId(ids.explore)).toBeTruthy();
  });

  it('folds behind "Hidden until you answer…" while the question waits, as the final map', async () => {
    await explore(true);
    const job = workersJob();
    job.finish(4);
    const note = screen.getByTestId(testIds.outcomeHidden);
    expect(note.dataset.what).toBe('atlas');
    expect(screen.queryByTestId(ids.soFar)).toBeNull();
    expect(screen.queryByTestId(ids.counterexampleSoFar)).toBeNull();
    expect(screen.queryAllByTestId(ids.cell)).toHaveLength(0);
    fireEvent.click(screen.getByTestId(testIds.outcomeShow));
    expect(screen.getByTestId(ids.soFar).textContent).toMatch(/^So far: 8 of 48 placements run/);
    expect(cellsOf('not-run').length).toBeGreaterThan(0);
  });
});
