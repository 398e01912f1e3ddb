import { describe, expect, it } from 'vitest';
import { findPreset } from '../../scenarios';
import { lifeAt, processorsAt, timeAtIndex, type Life } from './at';
import { computeRunView } from './computeRun';
import { K } from './kinds';
import type { RunView } from './runView';

function viewOf(ref: string): RunView {
  const r = computeRunView(findPreset(ref)!.variant.scenario);
  if (!r.ok) throw new Error(`${ref} did not run`);
  return r.view;
}

/** The processor card's life of `name` at `idx` (entries before idx applied). */
const lifeOf = (v: RunView, name: string, idx: number): Life =>
  processorsAt(v, idx, timeAtIndex(v, idx)).find((p) => p.name === name)!.life;

/** Entries of `actor` of the given kind, in order. */
function entries(v: RunView, actor: string, kind: number): number[] {
  const a = v.actors.indexOf(actor);
  const out: number[] = [];
  for (let i = 0; i < v.n; i++) if (v.cols.actor[i] === a && v.cols.kind[i] === kind) out.push(i);
  return out;
}

describe('a job between its restart and its restore is restarting, not running', () => {
  it('Flink failing at every start (transaction.timeout.ms left unset): restarting at the end', () => {
    const v = viewOf('flink-commit-phase-crash/timeout-left-unset');
    const restarts = entries(v, 'flink', K.restart);
    const restores = entries(v, 'flink', K.restore);
    const last = restarts[restarts.length - 1]!;
    // The run ends while the job waits out its restart delay: no restore after the last restart.
    expect(restores.every((r) => r < last)).toBe(true);
    expect(lifeOf(v, 'flink', v.n)).toBe('restarting');
    // Mid-run: restarting from each restart to its restore, running once restored.
    const first = restarts[0]!;
    const restore = restores.find((r) => r > first)!;
    expect(lifeOf(v, 'flink', first + 1)).toBe('restarting');
    expect(lifeOf(v, 'flink', restore)).toBe('restarting');
    expect(lifeOf(v, 'flink', restore + 1)).toBe('up');
  });

  it('Flink recovered in time: down, then restarting, then running to the end', () => {
    const v = viewOf('flink-commit-phase-crash/recovered-in-time');
    const crash = entries(v, 'flink', K.crash)[0]!;
    const restart = entries(v, 'flink', K.restart)[0]!;
    const restore = entries(v, 'flink', K.restore).find((r) => r > restart)!;
    expect(lifeOf(v, 'flink', crash)).toBe('up');
    expect(lifeOf(v, 'flink', crash + 1)).toBe('down');
    expect(lifeOf(v, 'flink', restart + 1)).toBe('restarting');
    expect(lifeOf(v, 'flink', restore + 1)).toBe('up');
    expect(lifeOf(v, 'flink', v.n)).toBe('up');
    // The first start (no restart before it) is running, not restarting.
    expect(lifeOf(v, 'flink', 1)).toBe('up');
  });

  it('a consumer restarts straight into running (it has no state to restore)', () => {
    const v = viewOf('at-least-once');
    const a = v.actors.indexOf('consumer-0');
    const restart = entries(v, 'consumer-0', K.restart)[0]!;
    expect(lifeAt(v, a, restart + 1, timeAtIndex(v, restart + 1)).life).toBe('up');
  });
});

describe('a consumer that left its group at its poll timeout', () => {
  it('poll-timeout-slow-batch: from the leave (poll + 300 s) until its next poll the card says so, with the removal time', () => {
    const v = viewOf('poll-timeout-slow-batch/plain-insert');
    const [leave] = entries(v, 'consumer-0', K['leave-group']);
    const polls = entries(v, 'consumer-0', K.poll);
    const next = polls.find((p) => p > leave!)!;
    const at = (idx: number) =>
      processorsAt(v, idx, timeAtIndex(v, idx)).find((p) => p.name === 'consumer-0')!.leftGroup;
    expect(at(leave!)).toBeNull();
    // The first poll at 1,006 ms; the leave 300 s later; removal 45 s after that.
    expect(at(leave! + 1)).toEqual({ at: 301_006, removeAt: 346_006 });
    expect(at(next)).toEqual({ at: 301_006, removeAt: 346_006 });
    expect(at(next + 1)).toBeNull();
  });
});

describe('a replacement instance exists from its first entry on', () => {
  it('zombie-consumer: consumer-0-replacement is not shown before the group starts it', () => {
    const v = viewOf('zombie-consumer/plain-insert');
    const a = v.actors.indexOf('consumer-0-replacement');
    let first = -1;
    for (let i = 0; i < v.n && first < 0; i++) if (v.cols.actor[i] === a) first = i;
    // It starts after consumer-0 paused past session.timeout.ms (the preset's freeze).
    expect(first).toBeGreaterThan(0);
    const names = (idx: number) => processorsAt(v, idx, timeAtIndex(v, idx)).map((p) => p.name);
    expect(names(0)).toEqual(['consumer-0']);
    expect(names(first)).toEqual(['consumer-0']);
    expect(names(first + 1)).toEqual(['consumer-0', 'consumer-0-replacement']);
    expect(names(v.n)).toEqual(['consumer-0', 'consumer-0-replacement']);
  });
});
