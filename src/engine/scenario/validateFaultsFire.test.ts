/** Faults that could never fire are refused, naming the field. */
import { describe, expect, it } from 'vitest';
import { parseScenario } from './validate';
import { base } from './validateTesting';

describe('faults that could never fire are refused, naming the field', () => {
  const issues = (v: Record<string, unknown>) => {
    const r = parseScenario({ ...base, ...v });
    return r.ok ? [] : r.issues;
  };
  const one = (v: Record<string, unknown>, path: string, message: string) => {
    const found = issues(v);
    expect(found.map((i) => i.path)).toEqual([path]);
    expect(found[0]!.message).toContain(message);
  };
  const crash = (target: string, point: string) => ({ kind: 'crash', target, point });
  const flink = (interval: number | null) => ({
    processor: { type: 'flink', 'execution.checkpointing.interval': interval },
  });
  const reader = { readers: [{ name: 'r', topic: 'events' }] };

  it('a second fault with the same id, naming the first', () => {
    one(
      {
        faults: [
          { ...crash('consumer-0', 'now'), id: 'boom' },
          { kind: 'drop-response', link: 'produce', id: 'lost ack' },
          { ...crash('consumer-0', 'mid-batch'), id: 'boom' },
        ],
      },
      'faults.2.id',
      'duplicate fault id "boom": faults.0 has it already',
    );
    // Distinct ids, and any number of faults without one.
    expect(
      issues({
        faults: [
          { ...crash('consumer-0', 'now'), id: 'boom' },
          { ...crash('consumer-0', 'mid-batch'), id: 'boom 2' },
          crash('producer', 'now'),
          crash('producer', 'now'),
        ],
      }),
    ).toEqual([]);
  });

  it('a target that is no actor of this scenario, listing the targets', () => {
    one(
      { faults: [crash('consumer-3', 'now')] },
      'faults.0.target',
      'no component "consumer-3" (targets: producer, sink, broker-1, broker-2, broker-3, consumer-0)',
    );
    one(
      { ...flink(1000), faults: [crash('spark', 'now')] },
      'faults.0.target',
      'no component "spark"',
    );
    one(
      { ...reader, faults: [crash('reader-1', 'now')] },
      'faults.0.target',
      'no component "reader-1"',
    );
    // A Kafka sink is written by a producer client, not by a 'sink' actor.
    one(
      { sink: { type: 'kafka' }, faults: [crash('sink', 'now')] },
      'faults.0.target',
      'no component "sink"',
    );
    expect(
      issues({
        ...reader,
        processor: { type: 'consumer', instances: 4 },
        faults: [crash('consumer-3', 'now'), crash('reader-0', 'now'), crash('sink', 'now')],
      }),
    ).toEqual([]);
    expect(issues({ ...flink(1000), faults: [crash('flink', 'now')] })).toEqual([]);
  });

  it('a periodic crash on a target that processes no records', () => {
    const periodic = (target: string, point = 'now') => ({
      kind: 'periodic-crash',
      target,
      everyRecords: 10,
      point,
    });
    one(
      { ...reader, faults: [periodic('producer')] },
      'faults.0.target',
      'a periodic crash counts records processed: "producer" processes none (targets: consumer-0, reader-0)',
    );
    // The target is what is wrong, not the point.
    one(
      { faults: [periodic('broker-1', 'after-poll')] },
      'faults.0.target',
      '"broker-1" processes none',
    );
    expect(issues({ ...reader, faults: [periodic('consumer-0'), periodic('reader-0')] })).toEqual(
      [],
    );
    expect(issues({ ...flink(null), faults: [periodic('flink', 'mid-batch')] })).toEqual([]);
  });

  it('a rebalance or a zombie aimed at anything but a member of the consumer group', () => {
    const two = { processor: { type: 'consumer', instances: 2 }, ...reader };
    one(
      { ...two, faults: [{ kind: 'rebalance', target: 'reader-0' }] },
      'faults.0.target',
      '"reader-0" is not a member of the consumer group (targets: consumer-0, consumer-1)',
    );
    one(
      { ...two, faults: [{ kind: 'zombie', target: 'producer', pauseMs: 60_000 }] },
      'faults.0.target',
      '"producer" is not a member of the consumer group (targets: consumer-0, consumer-1)',
    );
    one(
      { ...flink(1000), faults: [{ kind: 'zombie', target: 'flink', pauseMs: 60_000 }] },
      'faults.0.kind',
      'a zombie is a consumer group member (processor.type "consumer")',
    );
    expect(
      issues({
        ...two,
        faults: [
          { kind: 'rebalance', target: 'consumer-1' },
          { kind: 'zombie', target: 'consumer-1', pauseMs: 60_000 },
        ],
      }),
    ).toEqual([]);
  });

  it('a Flink checkpoint crash point without checkpoints', () => {
    for (const point of ['before-barrier', 'after-precommit', 'after-checkpoint', 'during-commit'])
      one(
        { ...flink(null), faults: [crash('flink', point)] },
        'faults.0.point',
        `crash point "${point}" comes with a checkpoint, and processor.execution.checkpointing.interval is null`,
      );
    // Armed by records, it still waits for the point.
    one(
      {
        ...flink(null),
        faults: [
          {
            kind: 'random',
            what: 'crash',
            target: 'flink',
            point: 'after-checkpoint',
            probability: 0.1,
          },
        ],
      },
      'faults.0.point',
      'processor.execution.checkpointing.interval is null',
    );
    one(
      { faults: [crash('consumer-0', 'before-barrier')] },
      'faults.0.point',
      '"consumer-0" never reaches crash point "before-barrier", a step of a Flink checkpoint (flink); the points of consumer-0: now, after-poll, mid-batch, before-commit, after-commit',
    );
    expect(
      issues({
        ...flink(1000),
        faults: [
          'before-barrier',
          'after-precommit',
          'after-checkpoint',
          'during-commit',
          'mid-batch',
        ].map((p) => crash('flink', p)),
      }),
    ).toEqual([]);
  });

  it('a mid-batch crash after 0 records (the loop asks from its first record on); left out, it is 1', () => {
    one(
      { faults: [{ ...crash('consumer-0', 'mid-batch'), afterRecords: 0 }] },
      'faults.0.afterRecords',
      'afterRecords counts from 1 (the crash after the first record of the batch); for a crash before any, use point "after-poll"',
    );
    one(
      { ...flink(1000), faults: [{ ...crash('flink', 'mid-batch'), afterRecords: 0 }] },
      'faults.0.afterRecords',
      'the first record since the last barrier',
    );
    // The other points ignore it: a scenario saved with the old default 0 still loads.
    expect(
      issues({ faults: [{ ...crash('consumer-0', 'before-commit'), afterRecords: 0 }] }),
    ).toEqual([]);
    const r = parseScenario({ ...base, faults: [crash('consumer-0', 'mid-batch')] });
    expect(r.ok && r.scenario.faults[0]).toMatchObject({ point: 'mid-batch', afterRecords: 1 });
  });

  it('a Spark, consumer-loop or transaction crash point its target never reaches', () => {
    const spark = { processor: { type: 'spark' } };
    one(
      { faults: [crash('consumer-0', 'before-sink-write')] },
      'faults.0.point',
      'a step of a Spark micro-batch (spark)',
    );
    one(
      { ...spark, faults: [crash('spark', 'after-poll')] },
      'faults.0.point',
      '"spark" never reaches crash point "after-poll", a step of a consumer loop (consumer-N, reader-N); the points of spark: now, before-sink-write, after-sink-write',
    );
    // A reader commits after processing, never before.
    one(
      { ...reader, faults: [crash('reader-0', 'after-commit')] },
      'faults.0.point',
      '"reader-0" never reaches',
    );
    // Only a transactional producer commits transactions.
    one(
      { faults: [crash('producer', 'before-commit-transaction')] },
      'faults.0.point',
      'a step of a transaction commit',
    );
    one(
      { faults: [crash('consumer-0', 'after-commit-decision')] },
      'faults.0.point',
      'a step of a transaction commit',
    );
    expect(
      issues({
        ...spark,
        faults: [crash('spark', 'before-sink-write'), crash('spark', 'after-sink-write')],
      }),
    ).toEqual([]);
    expect(
      issues({
        ...reader,
        faults: [
          crash('reader-0', 'after-poll'),
          crash('reader-0', 'mid-batch'),
          crash('reader-0', 'before-commit'),
        ],
      }),
    ).toEqual([]);
    expect(
      issues({
        producer: { 'transactional.id': 't-1' },
        processor: { type: 'consumer', 'enable.auto.commit': false, commit: 'with-transaction' },
        sink: { type: 'kafka', 'transactional.id': 'copier-0' },
        faults: [
          crash('producer', 'before-commit-transaction'),
          crash('producer', 'after-commit-decision'),
          crash('consumer-0', 'before-commit-transaction'),
          crash('consumer-0', 'after-commit-decision'),
        ],
      }),
    ).toEqual([]);
  });

  it('a message fault on the checkpoint link without checkpoints', () => {
    one(
      { faults: [{ kind: 'drop-request', link: 'checkpoint' }] },
      'faults.0.link',
      'no checkpoint messages: only a Flink job checkpoints (processor.type "flink")',
    );
    one(
      { ...flink(null), faults: [{ kind: 'delay-response', link: 'checkpoint', delayMs: 100 }] },
      'faults.0.link',
      'no checkpoint messages: processor.execution.checkpointing.interval is null',
    );
    one(
      {
        ...flink(null),
        faults: [{ kind: 'random', what: 'drop-response', link: 'checkpoint', probability: 0.1 }],
      },
      'faults.0.link',
      'processor.execution.checkpointing.interval is null',
    );
    expect(
      issues({
        ...flink(1000),
        faults: [
          { kind: 'drop-request', link: 'checkpoint' },
          { kind: 'random', what: 'drop-response', link: 'checkpoint', probability: 0.1 },
        ],
      }),
    ).toEqual([]);
  });
});
