/**
 * The page and the reports on a downstream reader's own replay (issue 30, item 6): the counters,
 * the ledger and the verdict judge what the pipeline delivered to the reader — each record it
 * read once — while its table keeps both copies, the second marked as its re-read, and every
 * report says where the verdict is judged. Reader semantics:
 * https://kafka.apache.org/documentation/#semantics (a consumer that processes before it saves
 * its position re-reads after a crash: at-least-once, its own).
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, simulate, type Run } from '../../engine';
import { READER_CRASH as readerCrash } from './readerReplay.testdata';
import { countersAt, ledgerRowAt } from './at';
import { markdownReport } from '../io/markdown';
import { explanationCoverage, toRunView } from './runView';

function run(): Run {
  const r = parseScenario(readerCrash);
  if (!r.ok) throw new Error('invalid');
  return simulate(r.scenario);
}

describe("a reader's own replay in the page and the reports", () => {
  // By hand (see src/engine/readerReplay.test.ts): rc copies e1..e3 (offsets 0..2) at 1,016 ms,
  // crashes before committing, restarts at 2,016 ms from offset 0 and copies them again.
  it("the counters at the end equal the checker's: 3 rows, no duplicate, sum 60; the table keeps 6 rows, the last 3 marked re-read", () => {
    const r = run();
    const v = toRunView(r);
    const c = countersAt(v, v.n);
    expect([c.rows, c.duplicates, c.missing, c.sum]).toEqual([3, 0, 0, 60]);
    const rc = v.tables.find((t) => t.point === 'reader:rc')!;
    expect(Array.from(rc.copy)).toEqual([1, 1, 1, 2, 2, 2]);
    expect(Array.from(rc.reread)).toEqual([0, 0, 0, 1, 1, 1]);
    // The ledger's row count for e1 at the end: the record it read once.
    expect(ledgerRowAt(v, 0, v.n).rows).toBe(1);
    // The re-read explanation is no anomaly of the pipeline's: nothing to cover.
    expect(explanationCoverage(v.verdict)).toEqual({ explained: 0, anomalous: 0 });
  });

  it('the markdown report says where the verdict is judged, and names the re-read as the reader’s (the text report: src/cli/report.test.ts)', () => {
    const r = run();
    const md = markdownReport(r, {});
    expect(md).toContain(
      'Claimed **exactly-once**, observed **exactly-once** at reader rc (read\\_committed): the claim held.',
    );
    expect(md).toContain('- **Re-read by reader rc** e1, e2, e3: reader rc crashed');
  });
});
