/**
 * The page's judgement of an attempt: a fault that never fired is said with the judgement. A
 * student who played a run to its end, then added "Crash after the commit" there, had it armed
 * from the run's end: it never fired, and the panel said only "Not yet. This run lost 0".
 */
import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../../engine';
import { challengeById, startInput } from '../../scenarios/challenges';
import { editKnob } from '../edit/knobs';
import { judgeOnPage } from './attempt';

const challenge = challengeById('commit-before-crash-point')!;
const made = startInput(challenge);
if (!made.ok) throw new Error('the challenge has no start');
const start = made.input;
const crashAfterCommit = (at: number): ScenarioInput => ({
  ...start,
  faults: [{ kind: 'crash', target: 'consumer-0', point: 'after-commit', at }],
});

describe('judgeOnPage', () => {
  it('solves the challenge with the crash armed from the start, and says nothing never fired', () => {
    const o = judgeOnPage(challenge, start, crashAfterCommit(0));
    expect(o.verdict).toBe('solved');
    expect((o.verdict === 'solved' || o.verdict === 'missed') && o.unfired).toEqual([]);
  });

  it('says which fault never fired, from when it was armed, and how to arm it earlier', () => {
    const o = judgeOnPage(challenge, start, crashAfterCommit(1058));
    expect(o.verdict).toBe('missed');
    if (o.verdict !== 'missed') return;
    expect(o.unfired).toEqual([
      'Fault 1, a crash of consumer-0 right after its offset commit, never fired: it is armed from 1.058 s, and nothing it waits for came after that. Drag it earlier on the timeline, or go back to the start (Home) before you add a fault.',
    ]);
  });

  it('is no attempt when the knobs are back at the start: a knob set back to its value there', () => {
    // flink-fix-sink: execution.checkpointing.mode set to AT_LEAST_ONCE, then back to
    // EXACTLY_ONCE at the run's end counted as attempt 2 and said "Not yet" of the start itself.
    const flink = challengeById('flink-fix-sink')!;
    const from = startInput(flink);
    if (!from.ok) throw new Error('the challenge has no start');
    const path = 'processor.execution.checkpointing.mode';
    const away = editKnob(from.input, path, 'AT_LEAST_ONCE').scenario;
    const back = editKnob(away, path, 'EXACTLY_ONCE').scenario;
    expect(JSON.stringify(back)).not.toBe(JSON.stringify(from.input));
    expect(judgeOnPage(flink, from.input, away).verdict).toBe('missed');
    expect(judgeOnPage(flink, from.input, back)).toEqual({ verdict: 'unchanged' });
  });
});
