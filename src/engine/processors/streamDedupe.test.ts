import { describe, expect, it } from 'vitest';
import { parseScenario, type ScenarioInput } from '..';
import { countsById, entriesOf, runScenario, totals } from '../testing';
import { emptyWatermarkState, sparkDedupe, ttlDedupe } from './streamDedupe';

/**
 * Watermark- and TTL-bounded dedupe in the stream processors, and the clean layer
 * (docs/semantics/stream-dedupe.md). Workload: e1..e60 every 100 ms from 100 ms (Σ 18,300); the
 * application sends e5 (first sent at 500 ms) again at 5.5 s.
 */
function lateCopy(processor: ScenarioInput['processor']): ScenarioInput {
  return {
    version: 1,
    name: 'late copy',
    claim: 'exactly-once',
    workload: { topic: 'orders', generate: { count: 60, startAtMs: 100, intervalMs: 100 } },
    producer: { app: { onFailure: 'resend' } },
    processor,
    sink: { type: 'table', name: 'orders', statementPer: 'batch' },
    faults: [{ kind: 'app-resend', event: 'e5', at: 5500 }],
  };
}

describe('Spark dropDuplicatesWithinWatermark', () => {
  // "Events are deduplicated as long as the time distance of earliest and latest events are
  // smaller than the delay threshold of watermark" (pyspark DataFrame.dropDuplicatesWithinWatermark).
  it('keeps a key until the watermark passes its first event time + the delay', () => {
    const s = emptyWatermarkState();
    // Batch 0 (no watermark yet): e1 at 1,000 passes and is kept until 1,000 + 2,000.
    expect(sparkDedupe(s, 'dropDuplicatesWithinWatermark', 1, 1000, 2000, -1)).toBe('pass');
    expect(s.keys).toEqual(new Map([['1', 3000]]));
    // A copy at 2,900 with the watermark at 2,500: still kept → dropped.
    expect(sparkDedupe(s, 'dropDuplicatesWithinWatermark', 1, 2900, 2000, 2500)).toBe('duplicate');
    // Watermark 3,000 ≥ 3,000: evicted; a copy at 5,000 passes as new.
    expect(sparkDedupe(s, 'dropDuplicatesWithinWatermark', 1, 5000, 2000, 3000)).toBe('pass');
    // "too late data older than watermark will be dropped": event time 2,000 ≤ 3,000.
    expect(sparkDedupe(s, 'dropDuplicatesWithinWatermark', 2, 2000, 2000, 3000)).toBe('late');
    expect(s.maxEventTime).toBe(5000);
  });

  it('dropDuplicates keys on the event time too: a copy with another timestamp is another key', () => {
    const s = emptyWatermarkState();
    expect(sparkDedupe(s, 'dropDuplicates', 1, 1000, 2000, -1)).toBe('pass');
    expect(sparkDedupe(s, 'dropDuplicates', 1, 1000, 2000, -1)).toBe('duplicate');
    expect(sparkDedupe(s, 'dropDuplicates', 1, 1500, 2000, -1)).toBe('pass');
  });

  it('a copy 5 s after the first passes a 2 s watermark delay, not a 10 s one', () => {
    // e5's first record ≈ 507 ms, kept until 2,507; the copy ≈ 5,507 is read by the 6 s batch,
    // whose watermark is e49's ≈ 4,907 − 2,000 = 2,907 > 2,507: evicted → e5 twice, 61 rows.
    const short = runScenario(
      lateCopy({ type: 'spark', startingOffsets: 'earliest', dedupe: { delayThresholdMs: 2000 } }),
    );
    expect(totals(short)).toEqual({ rows: 61, sum: 18_350, duplicates: 1, lost: 0 });
    expect(entriesOf(short, 'stream-dedupe')).toEqual([]);
    const why = short.verdict.explanations[0]!.sentence;
    expect(why).toContain('withWatermark("timestamp", "2000 milliseconds")');
    expect(why).toContain('dropDuplicatesWithinWatermark(["id"])');
    // 10 s: kept until ≈ 10,507, the watermark stays at 0 → the copy is dropped: 60 rows.
    const long = runScenario(
      lateCopy({
        type: 'spark',
        startingOffsets: 'earliest',
        dedupe: { delayThresholdMs: 10_000 },
      }),
    );
    expect(totals(long)).toEqual({ rows: 60, sum: 18_300, duplicates: 0, lost: 0 });
    const drops = entriesOf(long, 'stream-dedupe');
    expect(drops.map((i) => [long.events.id(long.trace.event[i]!), long.trace.aux[i]])).toEqual([
      ['e5', 0],
    ]);
  });

  it('a watermark on the payload event time drops the copy as late data', () => {
    // Both copies carry event time 500; the 6 s batch's watermark 4,900 − 2,000 = 2,900 ≥ 500.
    const run = runScenario(
      lateCopy({
        type: 'spark',
        startingOffsets: 'earliest',
        dedupe: { delayThresholdMs: 2000, eventTime: 'eventTime' },
      }),
    );
    expect(totals(run)).toEqual({ rows: 60, sum: 18_300, duplicates: 0, lost: 0 });
    const [late] = entriesOf(run, 'stream-dedupe');
    expect([run.trace.aux[late!], run.trace.until[late!]]).toEqual([1, 2900]);
  });
});

describe('Flink keep-first dedupe with table.exec.state.ttl', () => {
  it('expires a key ttl after its state was written, in processing time (0: never)', () => {
    const written = new Map<number, number>();
    expect(ttlDedupe(written, 5, 500, 2000)).toBe('pass');
    expect(ttlDedupe(written, 5, 2499, 2000)).toBe('duplicate');
    // Keep-first writes the state once: the duplicate did not extend it. At 2,500 it expired.
    expect(ttlDedupe(written, 5, 2500, 2000)).toBe('pass');
    expect(ttlDedupe(new Map([[5, 0]]), 5, 1e9, 0)).toBe('duplicate');
  });

  it('a copy 5 s after the first is a first row again under a 2 s TTL, dropped under 10 s', () => {
    const flink = (ttl: number): ScenarioInput['processor'] => ({
      type: 'flink',
      'execution.checkpointing.interval': 1000,
      dedupe: { 'table.exec.state.ttl': ttl },
    });
    const short = runScenario(lateCopy(flink(2000)));
    expect(countsById(short).e5).toBe(2);
    expect(totals(short)).toEqual({ rows: 61, sum: 18_350, duplicates: 1, lost: 0 });
    expect(short.verdict.explanations[0]!.sentence).toContain('table.exec.state.ttl = 2,000 ms');
    const long = runScenario(lateCopy(flink(10_000)));
    expect(totals(long)).toEqual({ rows: 60, sum: 18_300, duplicates: 0, lost: 0 });
    // The keyed count behind the dedupe never saw the copy either.
    expect(totals(long, 'state').duplicates).toBe(0);
  });
});

describe('the scenario format', () => {
  it('names the field of a bad dedupe, clean layer or txnAppId', () => {
    const paths = (s: unknown) => {
      const r = parseScenario(s);
      return r.ok ? [] : r.issues.map((i) => i.path);
    };
    const base = lateCopy({ type: 'spark', dedupe: { delayThresholdMs: 0 } });
    expect(paths(base)).toContain('processor.dedupe.delayThresholdMs');
    expect(
      paths({ ...base, processor: { type: 'flink', dedupe: { 'table.exec.state.ttl': -1 } } }),
    ).toContain('processor.dedupe.table.exec.state.ttl');
    expect(
      paths({
        ...base,
        processor: { type: 'spark' },
        sink: { type: 'table', name: 'orders', clean: { name: 'orders' } },
      }),
    ).toContain('sink.clean.name');
    expect(
      paths({
        ...base,
        processor: { type: 'spark' },
        faults: [{ kind: 'checkpoint-reset', at: 1000, txnAppId: 'q-2' }],
      }),
    ).toContain('faults.0.txnAppId');
  });
});
