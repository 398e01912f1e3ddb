/**
 * Losses: each sentence is about the record it names, including the second and later records of
 * a batch (a batch's request and append carry its first event only).
 */
import { describe, expect, it } from 'vitest';
import { cutBatchInput, runScenario, totals } from '../testing';

describe('a multi-record batch cut from the log by a leader failover (acks=1)', () => {
  // e1..e3 at 295, 296, 297 ms; linger.ms=5, so one batch of three leaves at 300 ms (the first
  // record's arrival + linger.ms, https://kafka.apache.org/documentation/#producerconfigs_linger.ms).
  // broker-1, the leader, appends it at offsets 0..2 at 302 ms and, with acks=1, answers at once
  // (https://kafka.apache.org/documentation/#producerconfigs_acks: "the leader will write the
  // record to its local log but will respond without awaiting full acknowledgement from all
  // followers"). The failover at 303 ms kills broker-1 before any follower copied the batch;
  // broker-2, elected from the ISR, never had it, and the three records are cut: 3 lost. Each is
  // at its own offset, so each has its own sentence — none "never reached the broker".
  const run = runScenario(cutBatchInput);
  const cut = (id: string, offset: number) =>
    `${id} was written to the leader broker-1 (offset ${offset}) and acknowledged with acks=1 but not yet copied to a follower → broker-1 failed (fault "fo") and the new leader broker-2, which never had it, became the reference: ${id} was cut from the log`;

  it('every record of the batch is told as appended, acknowledged and cut, at its own offset', () => {
    expect(totals(run)).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 3 });
    expect(run.verdict.explanations.map((x) => [x.events, x.sentence])).toEqual([
      [['e1'], cut('e1', 0)],
      [['e2'], cut('e2', 1)],
      [['e3'], cut('e3', 2)],
    ]);
  });

  it('the later records cite the batch append and the truncation', () => {
    const t = run.trace;
    const e3 = run.verdict.explanations.find((x) => x.events[0] === 'e3')!;
    expect(e3.entries.map((i) => t.kindOf(i))).toEqual(['append', 'fault', 'crash', 'truncate']);
  });
});
