/**
 * A downstream reader's own replay is the reader's, not the pipeline's (issue 30, item 6).
 *
 * A reader copies what it reads into its own table and commits its offsets after that. Kafka's
 * delivery semantics (https://kafka.apache.org/documentation/#semantics): a consumer that "can
 * read the messages, process the messages, and finally save its position" may crash "after
 * processing messages but before saving its position", and then "the first few messages it
 * receives will already have been processed" — at-least-once, the consumer's own. The pipeline
 * delivered each record once; the verdict judges it at the reader counting each record of the
 * topic it read once, and the reader's second copies are explained as its own.
 */
import { describe, expect, it } from 'vitest';
import { point, readerCrashInput, readerReplayEvents, runScenario } from './testing';

const e123 = readerReplayEvents;
const flinkToReader = readerCrashInput;

describe("a read_committed reader that crashes before its commit: the pipeline is judged once per record, the reader's replay explained as its own", () => {
  it('no committed offset yet: the reader copies e1..e3 twice, the pipeline delivered each once — exactly-once held', () => {
    // By hand: Flink writes e1..e3 to out in transaction 1 (offsets 0..2), committed when
    // checkpoint 1 completes (1,012 ms; marker at offset 3). rc polls them at 1,016 ms, copies
    // the three and crashes before committing; restarted at 2,016 ms with no committed offset it
    // starts at the earliest (offset 0) and copies e1..e3 again. Its table: 6 rows. The topic
    // as read_committed sees it: 3 records, once each — what the verdict judges.
    const run = runScenario(flinkToReader(e123, 0));
    const rc = point(run, 'reader:rc');
    expect(run.verdict.primary).toBe('reader:rc');
    expect(rc.totals).toMatchObject({ rows: 3, duplicates: 0, lost: 0, observedSum: 60 });
    expect(rc.rereads).toBe(3);
    expect(point(run, 'log:out:read_committed').totals).toMatchObject({ rows: 3, duplicates: 0 });
    expect(run.verdict.observed).toBe('exactly-once');
    expect(run.verdict.held).toBe(true);
    expect(run.verdict.explanations).toHaveLength(1);
    const x = run.verdict.explanations[0]!;
    expect(x).toMatchObject({
      fate: 'duplicated',
      events: ['e1', 'e2', 'e3'],
      point: 'reader:rc',
      by: 'rc',
    });
    expect(x.sentence).toBe(
      'reader rc crashed (fault "reader crash") after copying e1 and before committing its offset → it restarted from offset 0: the group had no committed offset, so auto.offset.reset=earliest applied → it read e1 again and copied it into its table a second time: the reader’s own replay (a consumer that processes before it commits is at-least-once), not the pipeline’s — topic out holds one committed copy of e1',
    );
    // The sentence cites the first copy, the crash and the second copy.
    expect(x.entries.map((i) => run.trace.kindOf(i))).toEqual([
      'row-insert',
      'crash',
      'row-insert',
    ]);
  });

  it('after a commit: the reader re-reads only e4, from its last committed offset (3)', () => {
    // By hand: e1..e3 as above; rc copies them at 1,016 ms and commits offset 3 (the next record
    // after e3 at 2; the commit marker there is skipped on reading). e4 (1,500 ms) is in
    // transaction 2 (offset 4), committed at 2,012 ms. The crash is armed from 1,500 ms: rc
    // copies e4 at 2,016 ms and crashes before committing; restarted at 3,016 ms it resumes from
    // the last committed offset 3 and copies e4 again. Its table: 5 rows; each record of out
    // read once: 4, sum 100.
    const run = runScenario(flinkToReader([...e123, { id: 'e4', amount: 40, at: 1500 }], 1500));
    const rc = point(run, 'reader:rc');
    expect(rc.totals).toMatchObject({ rows: 4, duplicates: 0, lost: 0, observedSum: 100 });
    expect(rc.rereads).toBe(1);
    expect(run.verdict.held).toBe(true);
    expect(run.verdict.explanations.map((x) => [x.events, x.by])).toEqual([[['e4'], 'rc']]);
    expect(run.verdict.explanations[0]!.sentence).toContain(
      '→ it restarted from the last committed offset 3 → it read e4 again',
    );
  });

  it('a consumer loop copying to out in transactions: the same — rc re-reads e1 after its crash, the verdict holds', () => {
    // By hand: the loop copies e1 (0 ms) and e2 (10 ms) to out, one transaction each (e1 at
    // offset 0, its marker at 1; e2 at 2, marker at 3). rc polls e1 alone at 34 ms, copies it and
    // crashes before its commit; restarted at 1,034 ms with no committed offset it reads from
    // offset 0: e1 again (a re-read) and e2. Its table: 3 rows; each record read once: 2, sum 30.
    const run = runScenario({
      claim: 'exactly-once',
      workload: { topic: 'in', events: e123.slice(0, 2) },
      processor: {
        type: 'consumer',
        commit: 'with-transaction',
        'enable.auto.commit': false,
        'isolation.level': 'read_committed',
        'auto.offset.reset': 'earliest',
      },
      sink: { type: 'kafka', topic: 'out', 'transactional.id': 'copier-0' },
      readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
      faults: [{ kind: 'crash', target: 'reader-0', point: 'before-commit', restartAfterMs: 1000 }],
    });
    const rc = point(run, 'reader:rc');
    expect(rc.totals).toMatchObject({ rows: 2, duplicates: 0, lost: 0, observedSum: 30 });
    expect(rc.rereads).toBe(1);
    expect(run.verdict.held).toBe(true);
    expect(run.verdict.explanations.map((x) => [x.events, x.by])).toEqual([[['e1'], 'rc']]);
  });

  it('a duplicate the pipeline made is still the pipeline’s: read_uncommitted sees the aborted copy as well', () => {
    // The same pipeline with rc at read_uncommitted and the Flink job crashing after its
    // transaction's records were written, before the checkpoint completed: the aborted copies stay
    // in the log at other offsets, so rc reads e1..e3 twice from the topic itself — two records
    // each, not a re-read of one.
    const run = runScenario({
      ...flinkToReader(e123, 0),
      readers: [{ name: 'ru', topic: 'out', 'isolation.level': 'read_uncommitted' }],
      faults: [{ kind: 'crash', target: 'flink', at: 500, restartAfterMs: 100 }],
    });
    const ru = point(run, 'reader:ru');
    expect(ru.totals).toMatchObject({ rows: 6, duplicates: 3, lost: 0 });
    expect(ru.rereads).toBe(0);
    expect(run.verdict.held).toBe(false);
    expect(run.verdict.explanations.every((x) => x.by === undefined)).toBe(true);
  });
});
