/**
 * The checker's sentences name the cause the run actually had. Each case below had a sentence
 * that named another one (a faithfulness audit found them): the counts were right, the "why" not.
 * Flink: failovers and output no checkpoint committed.
 */
import { describe, expect, it } from 'vitest';
import { point, runScenario } from '../testing';

// A whole run of a failing-over job: ~4 s alone on a loaded two-core machine, 60 s allowed.
describe('Flink in the sentences', { timeout: 60_000 }, () => {
  it('Flink failing over for ever: the lost record was rewritten each time, not "never written again"', () => {
    // Every checkpoint from the 2nd on loses its acknowledgement and expires (500 ms); after 10
    // tolerated failures the job fails over and restores checkpoint 1, again and again. Checkpoint
    // 1 (triggered at 1 s, one interval after the job's start) holds e1..e10: e11, sent at 1 s,
    // reaches the task after its barrier. Each replay writes e11 into a new transaction that the
    // next restore aborts.
    const run = runScenario({
      claim: 'exactly-once',
      workload: { topic: 'in', generate: { count: 100, startAtMs: 0, intervalMs: 100 } },
      processor: {
        type: 'flink',
        'execution.checkpointing.interval': 1000,
        'execution.checkpointing.timeout': 500,
        'execution.checkpointing.tolerable-failed-checkpoints': 10,
        startAtMs: 0,
      },
      sink: {
        type: 'kafka',
        topic: 'out',
        deliveryGuarantee: 'EXACTLY_ONCE',
        transactionalIdPrefix: 'job',
        'transaction.timeout.ms': 3000,
      },
      readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
      faults: [
        { id: 'lost ack', kind: 'drop-response', link: 'checkpoint', match: { nth: 2, every: 1 } },
      ],
    });
    const lost = run.verdict.explanations.find((e) => e.fate === 'lost')!;
    expect(lost.sentence).toMatch(
      /^e11 was processed, but no checkpoint covering it ever completed/,
    );
    expect(lost.sentence).not.toContain('never written again');
    expect(point(run, 'log:out').rows[run.events.identityOf('e11')]!).toBeGreaterThan(1);
  });
});
