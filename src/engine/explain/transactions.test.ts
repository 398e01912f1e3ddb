/**
 * The checker's sentences name the cause the run actually had. Each case below had a sentence
 * that named another one (a faithfulness audit found them): the counts were right, the "why" not.
 * Transactions: an output topic judged by every record in its log.
 */
import { describe, expect, it } from 'vitest';
import { runScenario, totals } from '../testing';

describe('a transactional output topic judged by every record in its log', () => {
  it('names the aborted transaction that held the first copies: Flink EXACTLY_ONCE, crash at 1.5 s', () => {
    // e1..e50 every 40 ms (0..1,960 ms); checkpoint 1 (1 s) covers e1..e25. The crash at 1,500 ms
    // comes after e26..e38 (1,000..1,480 ms) went out in transaction 2, which the restarted job's
    // initTransactions aborts; restored to offset 25 it writes them again: 63 records in the log,
    // 13 duplicates — 50 once in the read_committed view.
    const run = runScenario({
      claim: 'exactly-once',
      workload: { topic: 't', generate: { count: 50, intervalMs: 40 } },
      processor: { type: 'flink', 'execution.checkpointing.interval': 1000 },
      sink: {
        type: 'kafka',
        deliveryGuarantee: 'EXACTLY_ONCE',
        transactionalIdPrefix: 'x',
        'transaction.timeout.ms': 60_000,
      },
      faults: [{ kind: 'crash', target: 'flink', at: 1500 }],
    });
    expect(totals(run)).toEqual({ rows: 63, sum: 16_910, duplicates: 13, lost: 0 });
    expect(totals(run, 'log:out:read_committed')).toEqual({
      rows: 50,
      sum: 12_750,
      duplicates: 0,
      lost: 0,
    });
    const [x] = run.verdict.explanations;
    expect(x!.events).toHaveLength(13);
    expect(x!.sentence).toContain(
      'transaction 2 was aborted when a new instance with the same transactional.id called initTransactions, and it held a copy of e26 → an uncommitted copy stays in the log, and topic out is judged here by every record in its log; a read_committed consumer sees e26 once',
    );
  });
});
