/**
 * The batch atlas's heat map over S21 (airflow-retry-append/append: try 1 of 2024-03-10 commits
 * e1..e10, then fails after its write; retries=1; claimed exactly-once). Its single faults
 * (src/engine/batch/atlas.test.ts derives them): try 2 crashing before its write (1), mid-write
 * after 0..9 rows (10: an atomic write lands nothing), after its write (1); a clear of the date
 * (1); each row landing late (10) — 23. Before the write and mid-write leave try 1's 10 rows:
 * exact (11). After the write (20 rows), the clear (30) and a late row (19: 9 duplicates) all
 * duplicate (12). docs/semantics/batch.md#expected-counts
 */
import { describe, expect, it } from 'vitest';
import {
  batchAtlas,
  batchPairAtlas,
  exploreBatch,
  parseScenario,
  type ScenarioInput,
} from '../../engine';
import { findPreset } from '../../scenarios';
import { batchAtlasFindings, batchAtlasOf, batchHeatMap } from './batchAtlas';

describe('the batch atlas heat map', { timeout: 60_000 }, () => {
  it('S21 append: one row, five columns, 12 of 23 faults duplicate, the smallest one shown first', () => {
    const input = findPreset('airflow-retry-append/append')!.variant.scenario;
    const map = batchHeatMap(input);
    if ('error' in map) throw new Error(map.error);
    expect(map.rows.map((r) => r.label)).toEqual(['2024-03-10']);
    expect(
      map.rows[0]!.cells.map((c) => c && [c.point, c.trials.length, c.broken, c.look]),
    ).toEqual([
      ['before-write', 1, 0, 'held'],
      ['mid-write', 10, 0, 'held'],
      ['after-write', 1, 1, 'duplicates'],
      ['clear', 1, 1, 'duplicates'],
      ['late-row', 10, 10, 'duplicates'],
    ]);
    // Its own fault (try 1 crashes after its write) already duplicates e1..e10: said first.
    expect(map.summary).toBe(
      'The job breaks its exactly-once claim already with its own faults. 23 placements: 11 held, 12 duplicate — the 12 that duplicate do so as the job alone does.',
    );
    // Broken with no fault added: no fault to add to show it (as `sim --explore` says).
    expect(map.counterexample).toBeNull();
    // Said once: the summary's first sentence; where the counterexample would be, only that none
    // is needed (the page showed "… with its own faults" twice).
    expect(map.noFaultNeeded).toBe('No fault needs adding to show the break.');
    expect(`${map.summary} ${map.noFaultNeeded}`.match(/its own faults/g)).toHaveLength(1);
    // A placement opens as the job with its fault added: try 2 crashing after its write.
    const afterWrite = map.rows[0]!.cells[2]!.trials[0]!;
    expect(afterWrite.words).toBe('try 2 of 2024-03-10 crashes after-write');
    const faults = afterWrite.scenario.batch?.faults;
    expect(faults).toEqual([
      // The job as parsed (defaults written out), with one more fault.
      { logicalDate: 0, tryNumber: 1, point: 'after-write', afterRows: 0 },
      { logicalDate: 0, tryNumber: 2, point: 'after-write', afterRows: 0 },
    ]);
  });

  it('redis-claim-order, claim then write: the summary says first that the job breaks with no fault added', () => {
    // The shipped job already loses one event (its claim is taken, its write never lands), so
    // every single fault "breaks" it: said so, not only "23 of 23".
    const map = batchHeatMap(findPreset('redis-claim-order/claim-then-write')!.variant.scenario);
    if ('error' in map) throw new Error(map.error);
    expect(map.summary).toBe(
      'The job breaks its exactly-once claim already with its own faults. 23 placements: 23 lose — each as the job alone does.',
    );
    const held = batchHeatMap(findPreset('redis-claim-order/one-transaction')!.variant.scenario);
    if ('error' in held) throw new Error(held.error);
    expect(held.summary).toBe(
      '23 placements: 12 held, 11 lose — 10 of the 11 losses come from a crash mid-write.',
    );
  });

  it('clear-rerun-window breaks as it is: no fault added to show it, said once, no "none:" (#24.3)', () => {
    // The clock window read on the re-run's day loses e1..e3 and writes 2 rows twice with no
    // fault added (docs/semantics/batch.md "Expected counts"): "Show me how this breaks" would
    // add a crash for nothing.
    const s = findPreset('clear-rerun-window')!.variant.scenario;
    const parsed = parseScenario(s);
    if (!parsed.ok) throw new Error('bad preset');
    const cells = batchAtlas(parsed.scenario.batch!, parsed.scenario.claim, undefined, [
      'crash',
      'clear',
    ]);
    const map = batchHeatMap(s, cells);
    if ('error' in map) throw new Error(map.error);
    expect(map.summary).toMatch(
      /^The job breaks its exactly-once claim already with its own faults\. /,
    );
    expect(map.counterexample).toBeNull();
    expect(map.noFaultNeeded).toBe('No fault needs adding to show the break.');
    const outcomes = map.rows.flatMap((r) => r.cells.flatMap((c) => c?.trials ?? []));
    expect(outcomes.some((t) => t.outcome.startsWith('none'))).toBe(false);
    expect(outcomes[0]!.outcome).toBe(
      'no guarantee (events lost and applied twice): 3 lost, 2 duplicates, 2 under the wrong partition',
    );
  });

  it('an atomic overwrite of the pinned date: the claim holds under every fault, no counterexample', () => {
    const map = batchHeatMap(findPreset('airflow-retry-append/overwrite')!.variant.scenario);
    if ('error' in map) throw new Error(map.error);
    expect(map.summary).toBe(
      '23 placements: 23 held — the exactly-once claim survives every single fault tried.',
    );
    expect(map.counterexample).toBeNull();
    // What the Embed dialog pins of it (`expect.atlas`, checked by the CLI's batch atlas).
    const input = findPreset('airflow-retry-append/overwrite')!.variant.scenario;
    expect(batchAtlasFindings(input, {}, map).survives).toBe(true);
  });

  /**
   * "Pairs too" on a one-event daily append, retries=1 (the CLI's depth-2 case,
   * src/cli/exploreBatch.test.ts): try 1's crashes (before-write, mid-write after 0, after-write)
   * each make a try 2 with the same 3 points — 9 pairs, each in the cell of its second fault. No
   * commit in either try (2 × 2): e1 lost; exactly one commits (2 + 2): held; both (1): duplicated.
   */
  // A batch job has no stream workload (ScenarioInput's type still asks for one).
  const oneEvent = {
    version: 1,
    name: 'one event',
    claim: 'exactly-once',
    batch: {
      task: { retries: 1 },
      write: { mode: 'append' },
      source: [{ id: 'e1', date: '2024-03-10' }],
    },
  } as unknown as ScenarioInput;

  it('pairs: 9 crash pairs in the cells of their second fault, 5 break the claim, the earliest shown', () => {
    const parsed = parseScenario(oneEvent);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const s = parsed.scenario;
    const cells = batchPairAtlas(s.batch!, s.claim, undefined, ['crash']);
    const map = batchHeatMap(oneEvent, cells);
    if ('error' in map) throw new Error(map.error);
    expect(
      map.rows[0]!.cells.map((c) => c && [c.point, c.trials.length, c.broken, c.look]),
    ).toEqual([
      ['before-write', 3, 2, 'losses'],
      ['mid-write', 3, 2, 'losses'],
      ['after-write', 3, 1, 'duplicates'],
      null,
      null,
    ]);
    expect(map.summary).toBe(
      '9 pairs of placements: 4 held, 1 duplicate, 4 lose — 3 of the 4 losses come from pairs with a crash before the write, as many from pairs with a crash mid-write; the duplicate comes from a pair with a crash after the write.',
    );
    expect(map.counterexample?.words).toBe(
      'try 1 of 2024-03-10 crashes before-write, then try 2 of 2024-03-10 crashes before-write',
    );
    expect(map.counterexample?.scenario.batch?.faults).toEqual([
      { logicalDate: 0, tryNumber: 1, point: 'before-write', afterRows: 0 },
      { logicalDate: 0, tryNumber: 2, point: 'before-write', afterRows: 0 },
    ]);
    // What the report says it found: the summary and the earliest pair in words.
    expect(batchAtlasFindings(oneEvent, { pairs: true, kinds: ['crash'] }, map)).toEqual({
      input: oneEvent,
      choice: { pairs: true, kinds: ['crash'] },
      summary: map.summary,
      counterexample: {
        words:
          'try 1 of 2024-03-10 crashes before-write, then try 2 of 2024-03-10 crashes before-write: '.concat(
            map.counterexample!.outcome,
          ),
      },
      // 5 pairs break the claim: nothing to pin as survived (survivalPin).
      survives: false,
      // The summary's 9 pairs: 4 held, 1 duplicate, 4 lose (what an atlas pin takes).
      outcomes: { held: 4, duplicates: 1, losses: 4, both: 0, stuck: 0 },
    });
    // The page's worker runs every kind: the pairs the CLI's --depth 2 tries, one for one.
    expect(batchAtlasOf(s, undefined, 2)).toHaveLength(
      exploreBatch(s.batch!, s.claim, { depth: 2 }).trials.length,
    );
  });

  /**
   * "Show me how this breaks" is `sim --explore`'s counterexample (src/cli/exploreBatch.test.ts,
   * the same two-event job): the placement that strikes earliest — e1 landing 1 ms after try 1
   * started, at 86,400,001, before any write (86,460,000). The page showed the crash after the
   * write (its first broken cell by date, then column), where the CLI printed e1 landing late.
   * With pairs, the earliest breaking pair (e1 late, then e2 late) holds e1 late, which breaks
   * the claim alone: given by itself, as the CLI gives it.
   */
  it("the counterexample is the CLI's: the earliest placement to strike, alone or in pairs", () => {
    const twoEvents = {
      ...oneEvent,
      batch: {
        ...(oneEvent as unknown as { batch: object }).batch,
        source: [
          { id: 'e1', date: '2024-03-10' },
          { id: 'e2', date: '2024-03-10' },
        ],
      },
    } as unknown as ScenarioInput;
    const parsed = parseScenario(twoEvents);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const s = parsed.scenario;
    const late =
      'e1 lands late, at 2024-03-11 00:00, 1 ms after try 1 of 2024-03-10 started reading';
    for (const cells of [undefined, batchPairAtlas(s.batch!, s.claim)]) {
      const map = batchHeatMap(twoEvents, cells);
      if ('error' in map) throw new Error(map.error);
      expect(map.counterexample?.words).toBe(late);
      expect(map.counterexample?.outcome).toBe('at-most-once: 1 lost, 0 duplicates');
      expect(map.counterexample?.scenario.batch?.source).toEqual([
        { id: 'e1', date: '2024-03-10', hour: 0, amount: 10, addedAtMs: 86_400_001 },
        { id: 'e2', date: '2024-03-10', hour: 0, amount: 10 },
      ]);
    }
  });

  it("the page's kind filter: S21's 23 single faults are 12 crashes, 1 clear and 10 late rows", () => {
    // By hand (the file's comment): try 2's 12 crash points; one clear of the one date; each of
    // the 10 rows landing late. The filter gives the CLI's --kinds counts, kind by kind.
    const parsed = parseScenario(findPreset('airflow-retry-append/append')!.variant.scenario);
    if (!parsed.ok) throw new Error('refused');
    const s = parsed.scenario;
    const count = (kinds?: ('crash' | 'clear' | 'late-row')[]) =>
      batchAtlasOf(s, undefined, 1, kinds).length;
    expect([count(), count(['crash']), count(['clear']), count(['late-row'])]).toEqual([
      23, 12, 1, 10,
    ]);
    expect(count(['clear', 'late-row'])).toBe(
      exploreBatch(s.batch!, s.claim, { kinds: ['clear', 'late-row'] }).trials.length,
    );
    // Pairs of crashes only, on the one-event job: the 9 of the test above.
    const one = parseScenario(oneEvent);
    if (!one.ok) throw new Error('refused');
    expect(batchAtlasOf(one.scenario, undefined, 2, ['crash'])).toHaveLength(9);
  });
});
