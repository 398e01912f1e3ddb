/**
 * The fault atlas on worker threads (./atlasThreads.ts): the same report as on one thread, from
 * the executable as a real process; how many threads `DELIVERY_LAB_THREADS` asks for; a worker
 * that cannot start is said, not waited for.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../engine';
import { findPreset } from '../scenarios';
import { planAtlas, runAtlasSlice } from '../views/atlas/atlasJob';
import { runTrialsInThreads, THREADED_FROM } from './atlasThreads';
import { runCli } from './main';
import { threadCount } from './threadEntry';

describe('DELIVERY_LAB_THREADS', () => {
  it('one per core up to 4 when unset; a whole number as given; anything else refused, named', () => {
    expect(threadCount(undefined, 2)).toBe(2);
    expect(threadCount('', 16)).toBe(4);
    expect(threadCount(undefined, 1)).toBe(1);
    expect(threadCount('1', 8)).toBe(1);
    expect(threadCount('3', 2)).toBe(3);
    for (const bad of ['0', '-2', '1.5', 'two', '1000'])
      expect(threadCount(bad, 2)).toEqual({
        problem: `DELIVERY_LAB_THREADS: a whole number of worker threads from 1 to 999 (1: none), got "${bad}"`,
      });
  });
});

describe('the atlas on worker threads', { timeout: 180_000 }, () => {
  it('the executable on 2 threads prints the report the runner prints on one', async () => {
    // at-least-once's 277 placements: over the threshold, so the threads run them.
    const args = ['at-least-once', '--explore', '--format', 'json'];
    const out: string[] = [];
    expect(
      await runCli(
        args,
        (s) => out.push(s),
        () => {},
      ),
    ).toBe(0);
    expect(JSON.parse(out.join('')).trials).toBeGreaterThanOrEqual(THREADED_FROM);
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], {
      encoding: 'utf8',
      env: { ...process.env, DELIVERY_LAB_THREADS: '2' },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(out.join(''));
  });

  it('a bad DELIVERY_LAB_THREADS exits 2 naming it, before any run', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'at-least-once'], {
      encoding: 'utf8',
      env: { ...process.env, DELIVERY_LAB_THREADS: 'many' },
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('DELIVERY_LAB_THREADS: a whole number');
  });

  it('the threads run every trial, each giving what it gives on this thread, in trial order', () => {
    const parsed = parseScenario(findPreset('lost-ack-retry')!.variant.scenario);
    if (!parsed.ok) throw new Error('lost-ack-retry does not parse');
    const plan = planAtlas(parsed.scenario, 1, ['drop-request', 'drop-response', 'crash']);
    if ('refused' in plan) throw new Error(plan.refused);
    const bin = pathToFileURL(join(process.cwd(), 'src/cli/bin.ts')).href;
    const done: number[] = [];
    const slices = runTrialsInThreads(parsed.scenario, plan, bin, 2, (d) => done.push(d));
    expect(slices.length).toBeGreaterThan(1);
    expect(slices.flat()).toEqual(runAtlasSlice(parsed.scenario, plan, 0, plan.trials));
    expect(done.at(-1)).toBe(plan.trials);
  });

  it('a worker that cannot load the executable is an error with its reason, not a wait', () => {
    const parsed = parseScenario(findPreset('at-least-once')!.variant.scenario);
    if (!parsed.ok) throw new Error('at-least-once does not parse');
    const plan = planAtlas(parsed.scenario, 1, ['drop-request']);
    if ('refused' in plan) throw new Error(plan.refused);
    const missing = pathToFileURL(join(process.cwd(), 'no-such-entry.mjs')).href;
    expect(() => runTrialsInThreads(parsed.scenario, plan, missing, 2)).toThrow(
      /a worker thread of the atlas failed: .*no-such-entry\.mjs/,
    );
  });
});
