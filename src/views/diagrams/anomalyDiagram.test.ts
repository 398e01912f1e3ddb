import { describe, expect, it } from 'vitest';
import { parseScenario, simulate } from '../../engine';
import { findPreset } from '../../scenarios';
import { anomalyDiagram, batchInWords, firstAnomaly } from './anomalyDiagram';
import { foldRepeats, type SlideStep } from './foldRepeats';
import type { Step } from './sequenceReader';
import { stamped } from './sequenceSteps';

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
      'Note over P0,P4: Before the cause, 3 steps as usual<br/>(150 ms · application sends p-4 … 157 ms · appended p-4 at offset 3)',
    );
    // The first drawn step after the note is the cause.
    const note = lines.findIndex((l) => l.includes('Before the cause,'));
    expect(lines[note + 1]).toContain('⚡ a lost acknowledgement');
    // Highlighted: the two steps of row 5 (the duplicate), not those of row 4.
    const marked = lines.flatMap((l, k) => (l.trim().startsWith('rect ') ? [lines[k + 1]!] : []));
    expect(marked.map((l) => l.replace(/^.*· /, ''))).toEqual(['new row 5', 'inserted row 5']);
    // The cause at its own time, the steps after it by how long after it they came: the retry
    // 30,094 ms after the lost ack (request.timeout.ms 30 s, then retry.backoff.ms 100).
    expect(lines[note + 1]).toContain(': 161 ms · ⚡ a lost acknowledgement');
    expect(lines[note + 2]).toBe('  P1--xP0: +0 ms · ack p-4 offset 3 (lost)');
    expect(text).toContain('  P0->>P1: +30094 ms · produce p-4 (retry 1)\n');
    // 16 steps: as tall as a slide allows, so no note takes a second line but the folded one.
    expect(text.match(/<br\/>/g)).toHaveLength(1);
    // Labels in words: no "+N" batches (a "+N ms" is a time after the cause).
    expect(text).not.toMatch(/ \+\d+(?!\d| ms)/);
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
    // A short slide: its long notes on two lines.
    expect(marked.map((l) => l.replace('<br/>', ' ').replace(/^.*ms · /, ''))).toEqual([
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

  it('the cause is found by its trace entry, not by its words: ids spelled with "✗" or "(lost)" are no cause', () => {
    // The at-least-once run above with its records named "✗(lost)-1" …: the same three steps before
    // the lost acknowledgement; read from the words, the first ("application sends ✗(lost)-4") was
    // the cause and nothing was folded.
    const raw = JSON.stringify(findPreset('at-least-once')!.variant.scenario);
    const s = parseScenario(JSON.parse(raw.replaceAll('"p-', '"✗(lost)-')));
    if (!s.ok) throw new Error('at-least-once');
    const lines = anomalyDiagram(simulate(s.scenario))!.trimEnd().split('\n');
    const note = lines.findIndex((l) => l.includes('Before the cause, 3 steps as usual'));
    expect(note).toBeGreaterThan(0);
    expect(lines[note + 1]).toContain('⚡ a lost acknowledgement');
  });

  it("a step's row is the one its trace entry wrote, not a number in its words: ids spelled 'row 9-…' highlight row 5 alone", () => {
    // The at-least-once run above with its records named "row 9-1" …: read from the words,
    // "application sends row 9-4" made row 9 the event's first and highlighted row 4 too.
    const raw = JSON.stringify(findPreset('at-least-once')!.variant.scenario);
    const s = parseScenario(JSON.parse(raw.replaceAll('"p-', '"row 9-')));
    if (!s.ok) throw new Error('at-least-once');
    const lines = anomalyDiagram(simulate(s.scenario))!.trimEnd().split('\n');
    const marked = lines.flatMap((l, k) => (l.trim().startsWith('rect ') ? [lines[k + 1]!] : []));
    expect(marked.map((l) => l.replace(/^.*ms · /, ''))).toEqual([
      'row 9-4 · new row 5',
      'inserted row 5',
    ]);
  });

  it('a run without anomaly has no slide', () => {
    expect(anomalyDiagram(runOf('effectively-once'))).toBeNull();
  });

  it('names a batch in words', () => {
    expect(batchInWords('e21 +9 from offset 20')).toBe('e21 and 9 more from offset 20');
  });
});

/** Actors of the hand-built steps: 0 the producer, 1 the broker, 4 the sink. */
const [PRODUCER, BROKER, SINK] = [0, 1, 4];

function msg(from: number, to: number, time: number, text: string, arrow = '->>'): Step {
  return { type: 'msg', from, to, arrow, time, text };
}

function note(over: number[], time: number, text: string): Step {
  return { type: 'note', over, time, text };
}

/** Produce / ack exchanges of e{from}…e{to} as the event diagram makes them, each ack noted. */
function exchanges(from: number, to: number, kept = false): SlideStep[] {
  const out: SlideStep[] = [];
  for (let n = from; n <= to; n++) {
    const t = 100 * n;
    out.push(
      { step: msg(PRODUCER, BROKER, t, `produce e${n}`), kept },
      { step: msg(BROKER, PRODUCER, t + 4, `ack e${n} offset ${n - 1}`, '-->>'), kept },
      { step: note([PRODUCER], t + 6, `e${n} acknowledged, offset ${n - 1}`), kept },
    );
  }
  return out;
}

const CAUSE_STEP = { step: note([PRODUCER, BROKER], 250, '⚡ a lost acknowledgement'), kept: true };
const DUPLICATE = { step: note([SINK], 990, 'e9 · new row 10'), kept: true };
const words = (steps: SlideStep[]) => steps.map((x) => stamped(x.step));

describe('the slide: repeats folded (issue 24)', () => {
  it('7 produce/ack exchanges fold into one "×7" message; the notes that restate their ack go; the cause and the duplicate stay whole', () => {
    const folded = foldRepeats([CAUSE_STEP, ...exchanges(3, 9), DUPLICATE]);
    expect(words(folded)).toEqual([
      '250 ms · ⚡ a lost acknowledgement',
      '300 ms · produce e3 … e9 ×7 → ack e3 … e9 offset 2 … 8',
      '990 ms · e9 · new row 10',
    ]);
    expect(folded[1]!.step).toMatchObject({ type: 'msg', from: PRODUCER, to: BROKER });
    // The anomaly's own steps are the very ones given (anomalyDiagram highlights them).
    expect(folded[0]).toBe(CAUSE_STEP);
    expect(folded[2]).toBe(DUPLICATE);
  });

  it('a kept exchange stays whole and breaks the run: 2 before it, 2 after', () => {
    const folded = foldRepeats([...exchanges(3, 4), ...exchanges(5, 5, true), ...exchanges(6, 7)]);
    expect(words(folded)).toEqual([
      '300 ms · produce e3 … e4 ×2 → ack e3 … e4 offset 2 … 3',
      '500 ms · produce e5',
      '504 ms · ack e5 offset 4',
      '506 ms · e5 acknowledged, offset 4',
      '600 ms · produce e6 … e7 ×2 → ack e6 … e7 offset 5 … 6',
    ]);
  });

  it('a note that says more than its message stays; one that restates the next message goes', () => {
    const folded = foldRepeats(
      [
        msg(BROKER, PRODUCER, 311, 'ack e3 offset 2 (lost)', '--x'),
        note([PRODUCER], 30305, 'e3 · REQUEST_TIMED_OUT'),
        note([PRODUCER], 30405, 'retry e3 (attempt 1)'),
        msg(PRODUCER, BROKER, 30405, 'produce e3 (retry 1)'),
        note([BROKER], 30407, 'appended e3 at offset 3'),
      ].map((step) => ({ step, kept: false })),
    );
    expect(folded.map((x) => x.step.text)).toEqual([
      'ack e3 offset 2 (lost)',
      'e3 · REQUEST_TIMED_OUT',
      'produce e3 (retry 1)',
      'appended e3 at offset 3',
    ]);
  });

  it('a note over another actor, or at another time, than the message it restates stays', () => {
    // "retry e3" over the broker, and one over the producer 5 ms before its produce: neither is
    // the message's own note.
    const folded = foldRepeats(
      [
        note([BROKER], 30405, 'retry e3 (attempt 1)'),
        note([PRODUCER], 30400, 'retry e3 (attempt 1)'),
        msg(PRODUCER, BROKER, 30405, 'produce e3 (retry 1)'),
      ].map((step) => ({ step, kept: false })),
    );
    expect(folded).toHaveLength(3);
  });

  it('lost-ack-retry: 25 rows → 16, no note restating its message, rows 4 (the duplicate) highlighted', () => {
    // Gone: the polls and the processing that restate a fetch ("e3 from offset 2"), "e3
    // acknowledged", "offset 3 committed", "retry e3 (attempt 1)", and the commit after the duplicate.
    const text = anomalyDiagram(runOf('lost-ack-retry'))!;
    const lines = text.trimEnd().split('\n');
    const rows = lines.filter((l) => /^\s+(Note over|P\d)/.test(l));
    expect(rows).toHaveLength(16);
    expect(text).not.toMatch(/acknowledged|poll|committed|process|retry e3/);
    const marked = lines.flatMap((l, k) => (l.trim().startsWith('rect ') ? [lines[k + 1]!] : []));
    expect(marked.map((l) => l.replace(/^.*ms · /, ''))).toEqual([
      'e3 · new row 4',
      'inserted row 4',
    ]);
    expect(rows.at(-1)).toContain('inserted row 4');
  });

  it('payment-resent-by-app: the two late acknowledgements fold into one note', () => {
    // The slow ack of offset 2 (3,000 ms late) and the ack of the resend arrive together at
    // 3,043 ms: 3,002 ms after the cause (41 ms).
    expect(anomalyDiagram(runOf('payment-resent-by-app'))).toContain(
      '  Note over P0: +3002 ms · p-77 acknowledged, offset 2 … 3 ×2\n',
    );
  });

  it('aborted-transaction-dirty-read: from the abort; the read_committed reader beside the pipeline left out', () => {
    // docs/semantics/scenarios.md#s09: the application aborts transaction 1 at 508 ms (after its
    // ack) and sends e1..e5 again in transaction 2; the read_uncommitted pipeline consumer inserts
    // e1 from both (rows 1 and 6). The fault is reached through the EndTxn request it made.
    const text = anomalyDiagram(runOf('aborted-transaction-dirty-read'))!;
    expect(text).toContain('Note over P0,P4: Before the cause, 5 steps as usual<br/>');
    expect(text).toContain(
      'Note over P0,P2: 508 ms · ⚡ the application aborting<br/>transaction 1 #34;validation failed#34;',
    );
    expect(text).not.toContain('reader-0');
    expect(text).not.toContain('offset 11 committed');
    const lines = text.trimEnd().split('\n');
    const marked = lines.flatMap((l, k) => (l.trim().startsWith('rect ') ? [lines[k + 1]!] : []));
    expect(marked.map((l) => l.replace(/^.*ms · /, ''))).toEqual([
      'e1 · new row 6',
      'inserted row 6',
    ]);
  });
});
