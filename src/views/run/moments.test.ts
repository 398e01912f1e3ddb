import { describe, expect, it } from 'vitest';
import { findPreset } from '../../scenarios';
import { computeRunView } from './computeRun';
import { momentWords } from './momentWords';
import { moments, nextMoment, noMomentWords } from './moments';
import type { RunView } from './runView';
import { formatMs } from './format';

function viewOf(ref: string): RunView {
  const r = computeRunView(structuredClone(findPreset(ref)!.variant.scenario));
  if (!r.ok) throw new Error('refused');
  return r.view;
}

describe('moments', () => {
  // lost-ack-retry: 10 events, one every 100 ms from 100 ms; the consumer commits after each
  // record it processes; the ack of e3's produce is dropped ("lost ack"), so the producer retries
  // it after request.timeout.ms (30 s) and the broker appends e3 a second time — the duplicate.
  // https://kafka.apache.org/documentation/#producerconfigs_request.timeout.ms
  // Commits: one per record in the log, 10 events + the duplicate = 11 (offsets → 1 … 11).
  const v = viewOf('lost-ack-retry');

  it('finds the faults, commits, retries and anomalies of a run, in order', () => {
    expect(moments(v).map((m) => m.kind)).toEqual([
      'commit', // e1 at 122 ms
      'commit', // e2
      'fault', // the ack of e3 lost
      'commit', // e3
      'retry', // e3 re-sent after 30 s
      'anomaly', // e3 appended again
      ...Array<string>(8).fill('commit'), // e3 again, e4 … e10
    ]);
  });

  it('jumps forward and back from the cursor, and says where it landed', () => {
    const first = nextMoment(v, 0, 1)!;
    expect(first.kind).toBe('commit');
    expect(momentWords(v, first, 1)).toMatch(
      /^Next commit — event \d+ at 122 ms: offsets committed: events-0 → 1$/,
    );
    // From just after the first commit, the next is the second; back from there is the first.
    const second = nextMoment(v, first.entry + 1, 1)!;
    expect(v.cols.time[second.entry]).toBe(222);
    expect(nextMoment(v, second.entry + 1, -1)).toEqual(first);
    expect(nextMoment(v, 0, -1)).toBeNull();
    expect(nextMoment(v, v.n, 1)).toBeNull();
  });

  it('past the last moment (or before the first) says which one that was', () => {
    // The last moment: the commit of e10's record (offset 11), the first: e1's commit at 122 ms.
    const all = moments(v);
    const last = all[all.length - 1]!;
    expect(last.kind).toBe('commit');
    expect(noMomentWords(v, 1)).toBe(
      `No later fault, commit, checkpoint, retry or anomaly — the commit at event ${last.entry + 1}, ${formatMs(v.cols.time[last.entry]!)}, is the last one`,
    );
    expect(noMomentWords(v, -1)).toMatch(
      /^No earlier fault, commit, checkpoint, retry or anomaly — the commit at event \d+, 122 ms, is the first one$/,
    );
    // Every kind left out: nothing to jump to, and it says so.
    expect(noMomentWords(v, 1, ['fault', 'commit', 'checkpoint', 'retry', 'anomaly'])).toBe(
      'No fault, commit, checkpoint, retry or anomaly in this run to jump to',
    );
  });

  it('leaves anomalies out when asked (the outcome is hidden)', () => {
    const retry = moments(v).find((m) => m.kind === 'retry')!;
    expect(nextMoment(v, retry.entry + 1, 1)!.kind).toBe('anomaly');
    expect(nextMoment(v, retry.entry + 1, 1, ['anomaly'])!.kind).toBe('commit');
  });

  it('checkpoints of a Flink run are moments', () => {
    const kinds = new Set(moments(viewOf('flink-checkpoint-replay')).map((m) => m.kind));
    expect(kinds.has('checkpoint')).toBe(true);
  });
});
