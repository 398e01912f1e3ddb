/**
 * Batch jobs as first-class scenarios of the page: the share link carries one exactly (the same
 * input back, the same batch trace), Compare runs its lanes through the batch engine with a
 * per-event diff, and the Markdown report tells its runs, partitions and stories.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, runBatch, type ScenarioInput } from '../../engine';
import { applyGuarantee, batchPresets, findPreset } from '../../scenarios';
import { batchCompareView } from './batchCompare';
import { batchMarkdownReport } from './batchMarkdown';
import { batchPageView, failMidWrite } from './batchView';
import { decodeShare, encodeShare } from '../io/shareLink';
import { computeArtifact } from '../io/exportArtifact';

const hashOf = (s: ScenarioInput) => {
  const parsed = parseScenario(s);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return runBatch(parsed.scenario).run.hash;
};
const variant = (ref: string) => findPreset(ref)!.variant.scenario;

describe('batch scenarios in the page', { timeout: 60_000 }, () => {
  it('the share link round-trips every batch variant, a clicked fault and a switched guarantee exactly', () => {
    const clicked = (() => {
      const s = variant('clear-rerun-window/clock-overwrite');
      const view = batchPageView(parseScenario(s));
      if ('error' in view) throw new Error(view.error);
      return failMidWrite(s, view, 2);
    })();
    const all = [
      ...batchPresets.flatMap((p) => p.variants.map((v) => v.scenario)),
      clicked,
      applyGuarantee(variant('redis-claim-order'), 'at-least-once'),
    ];
    for (const s of all) {
      const back = decodeShare(encodeShare(s));
      if (!back.ok) throw new Error(JSON.stringify(back.issues));
      expect(back.input).toEqual(s);
      expect(back.scenario.batch).toBeDefined();
      expect(hashOf(back.input)).toBe(hashOf(s));
    }
    // The clicked fault is in the link: try 1 of 2024-03-12 mid-write after 1 of its 2 rows.
    expect(clicked.batch!.faults).toEqual([
      { logicalDate: 2, tryNumber: 1, point: 'mid-write', afterRows: 1 },
    ]);
  });

  it('Compare: the same source and faults under other guarantees, the events that differ marked', () => {
    // airflow-retry-append/append, S21: as shipped (retries 1, append) each event twice; the
    // at-most-once lane (retries 0) stops after try 1's commit: each once; the exactly-once lane
    // overwrites the partition on try 2: each once. Every event differs (2 rows vs 1).
    const v = batchCompareView(variant('airflow-retry-append/append'), {
      lanes: [{ guarantee: 'at-most-once' }, { guarantee: 'exactly-once' }],
    });
    expect(v.lanes.map((l) => l.held)).toEqual([false, true, true]);
    expect(v.lanes[0]!.summary).toContain('20 rows · 10 duplicates');
    expect(v.lanes[1]!.summary).toContain('10 rows · 0 duplicates');
    expect(v.differing).toBe(10);
    // Each lane's why: the append's sentence for the duplicate, none for a row kept once.
    expect(v.events.find((e) => e.id === 'e5')!.cells).toEqual([
      { rows: 2, fate: 'duplicated', why: expect.stringMatching(/^e5 .*an append INSERT/) },
      { rows: 1, fate: 'once', why: null },
      { rows: 1, fate: 'once', why: null },
    ]);
  });

  it('the Markdown report of a batch job: runs, partitions with the wrong-partition rows, stories, Compare', () => {
    // clear-rerun-window/clock-overwrite: the re-run wrote f1, f2 under 2024-03-10 (see its preset).
    const s = variant('clear-rerun-window/clock-overwrite');
    const parsed = parseScenario(s);
    if (!parsed.ok) throw new Error('refused');
    const text = batchMarkdownReport(parsed.scenario);
    expect(text).toContain('observed **none**'); // 3 lost and 2 duplicated
    expect(text).toContain('- 2024-03-10: f1 (**wrong partition**), f2 (**wrong partition**)');
    expect(text).toContain('current\\_date() - 1');
    // Export › Report (Markdown) on the page takes this path, with Compare's lanes.
    const exported = computeArtifact(s, 'markdown', undefined, {
      compare: { base: s, spec: { lanes: [{ guarantee: 'exactly-once' }] } },
    });
    if (!exported.ok) throw new Error(exported.error);
    expect(exported.artifact.text).toContain('(**wrong partition**)');
    expect(exported.artifact.text).toContain('5 of 5 events differ between the lanes.');
  });
});
