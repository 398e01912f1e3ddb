import { describe, expect, it } from 'vitest';
import { parseScenario, simulate } from '../../engine';
import { findPreset } from '../../scenarios';
import { anomalyDiagram, batchInWords, firstAnomaly } from './anomalyDiagram';

function runOf(ref: string) {
  const s = parseScenario(findPreset(ref)!.variant.scenario);
  if (!s.ok) throw new Error(ref);
  return simulate(s.scenario);
}

describe('the slide: the first anomaly from its cause', () => {
  it('at-least-once: p-4 applied twice, from the lost ack; the steps before folded; the second row highlighted', () => {
    // docs/semantics: the lost acknowledgement of p-4 makes the producer retry it after
    // request.timeout.ms (30 s); idempotence off, the log holds p-4 twice (offsets 3 and 4) and
    // the consumer inserts both: rows 4 and 5. Before the fault: sent, produced, appended (3).
    const run = runOf('at-least-once');
    expect(firstAnomaly(run)).toEqual({ eventId: 'p-4', fate: 'duplicated' });
    const text = anomalyDiagram(run)!;
    const lines = text.trimEnd().split('\n');
    expect(lines[1]).toBe('  title p-4 applied twice — from the cause to the duplicate');
    // In two lines: a note over several participants is only as wide as they are apart.
    expect(text).toContain(
      'Note over P0,P4: Before: 3 steps as usual<br/>(150 ms · application sends p-4 … 157 ms · appended p-4 at offset 3)',
    );
    // The first drawn step after the note is the cause.
    const note = lines.findIndex((l) => l.includes('Before:'));
    expect(lines[note + 1]).toContain('⚡ a lost acknowledgement');
    // Highlighted: the two steps of row 5 (the duplicate), not those of row 4.
    const marked = lines.flatMap((l, k) => (l.trim().startsWith('rect ') ? [lines[k + 1]!] : []));
    expect(marked.map((l) => l.replace(/^.*· /, ''))).toEqual(['new row 5', 'inserted row 5']);
    // Labels in words: no "+N" batches.
    expect(text).not.toMatch(/ \+\d/);
    expect(text).toContain('p-1 and 20 more from offset 0');
  });

  it('at-most-once: p-9 lost, from the crash; cause and last step highlighted', () => {
    const run = runOf('at-most-once');
    expect(firstAnomaly(run)).toEqual({ eventId: 'p-9', fate: 'lost' });
    const text = anomalyDiagram(run)!;
    expect(text).toContain('title p-9 lost — from the cause to the loss');
    expect(text.match(/rect rgb\(251, 227, 225\)/g)).toHaveLength(2);
  });

  it('spark-batch-replay: e21 applied twice, its first row (21) folded before the crash; row 31 highlighted', () => {
    // docs/semantics/spark.md: the driver crashes after the sink write of batch 3 and before its commit
    // log entry; restarted, it replays the batch: e21's row 21 (before the cause), then row 31.
    const text = anomalyDiagram(runOf('spark-batch-replay'))!;
    expect(text).toContain('inserted row 21, inserted row 22 …)');
    const lines = text.trimEnd().split('\n');
    const marked = lines.flatMap((l, k) => (l.trim().startsWith('rect ') ? [lines[k + 1]!] : []));
    expect(marked.map((l) => l.replace(/^.*· /, ''))).toEqual([
      'new row 31',
      'inserted row 31, inserted row 32 …',
    ]);
  });

  it('card-charge-idempotency: p-77 charged twice, the second charge highlighted (an effect, not a row)', () => {
    // The charge's response is lost at 22 ms (effect 1, folded before the cause); the consumer's
    // request times out at 30 020 ms and it charges again: effect 2 at 40 022 ms.
    const text = anomalyDiagram(runOf('card-charge-idempotency'))!;
    const lines = text.trimEnd().split('\n');
    const marked = lines.flatMap((l, k) => (l.trim().startsWith('rect ') ? [lines[k + 1]!] : []));
    expect(marked.map((l) => l.replace(/^.*ms · /, ''))).toEqual([
      'p-77 · effect 2 (card charged)',
      'effect 2',
    ]);
  });

  it('commit-after-process: e6 applied twice by the upsert, its row 6 updated after the crash highlighted', () => {
    // The consumer crashes before its offset commit after inserting row 6; restarted from offset
    // 5, it writes e6 again: INSERT … ON CONFLICT DO UPDATE updates row 6.
    const text = anomalyDiagram(runOf('commit-after-process'))!;
    const lines = text.trimEnd().split('\n');
    const marked = lines.flatMap((l, k) => (l.trim().startsWith('rect ') ? [lines[k + 1]!] : []));
    expect(marked.map((l) => l.replace(/^.*ms · /, ''))).toEqual([
      'e6 · row 6 updated',
      'updated row 6',
    ]);
  });

  it('a run without anomaly has no slide', () => {
    expect(anomalyDiagram(runOf('effectively-once'))).toBeNull();
  });

  it('names a batch in words', () => {
    expect(batchInWords('e21 +9 from offset 20')).toBe('e21 and 9 more from offset 20');
  });
});
