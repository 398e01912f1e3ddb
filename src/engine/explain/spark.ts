/**
 * Spark (and a job reading from latest) in the stories: where a micro-batch was when the query
 * crashed, a deleted checkpoint location, a start at the end of the log.
 */
import { MESSAGE_TYPES } from '../trace';
import type { FaultSpec } from '../scenario/schema';
import { StoryFamily, type Story } from './story';
import type { RecordOf } from './records';

export class SparkStories extends StoryFamily {
  /**
   * Where in its micro-batch the Spark query was when it crashed (`crash`), for the batch that
   * held the record processed at `a`: before the batch's write was sent, while it was being
   * written, or after it was written (the after-sink-write point) — the commit-log entry missing
   * in every case, so the restart runs the batch again (MicroBatchExecution).
   */
  sparkCrashWhen(a: number, crash: number, fault: FaultSpec | undefined): string {
    const t = this.t;
    const spark = t.actor[a]!;
    const effectSink = this.run.scenario.sink.type === 'effect';
    let writing = false;
    for (let x = a + 1; x < crash && !writing; x++) {
      const k = this.index.kind(x);
      if (t.actor[x] !== spark || (k !== 'msg' && k !== 'msg-lost')) continue;
      const m = MESSAGE_TYPES[t.aux[x]!];
      writing = m === 'sink-write' || m === 'produce' || (effectSink && m === 'effect-call');
    }
    const point = fault && 'point' in fault ? fault.point : undefined;
    if (!writing)
      return 'during its micro-batch holding {id}, before the batch was written and recorded in the commit log';
    if (point === 'after-sink-write')
      return 'after its micro-batch holding {id} was written and before the batch was recorded in the commit log';
    return 'while its micro-batch holding {id} was being written, before the batch was recorded in the commit log';
  }

  checkpointReset(): number {
    const t = this.t;
    for (const i of this.index.ofKind('fault'))
      if (this.run.scenario.faults[t.aux[i]!]?.kind === 'checkpoint-reset') return i;
    return -1;
  }

  /**
   * A Flink job or a Spark query that started (or started again) after the record was appended
   * with nothing to restore, reading from the end: a record already in the log is skipped.
   * KafkaSource `OffsetsInitializer.latest()`
   * (https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/#starting-offset);
   * Spark's `startingOffsets` "latest" for a query without a checkpoint, which is also what a
   * deleted checkpoint location leaves
   * (https://spark.apache.org/docs/latest/streaming/structured-streaming-kafka-integration.html).
   */
  startedAtLatest(rec: RecordOf): Story | null {
    const t = this.t;
    const p = this.run.scenario.processor;
    const flink = p.type === 'flink' && p.offsetsInitializer === 'latest';
    const spark = p.type === 'spark' && p.startingOffsets === 'latest';
    if (!flink && !spark) return null;
    const actor = t.actors.indexOf(p.type);
    // The first start after the record was appended, with nothing to restore (ckpt -1).
    const start = this.index.nextOf('restore', rec.append + 1, (a) => a === actor);
    if (start < 0 || t.ckpt[start]! >= 0) return null;
    const crash = this.index.prevOf('crash', start, actor);
    const reset = crash >= 0 && this.faultOfCrash(crash)?.kind === 'checkpoint-reset';
    const how =
      crash < 0
        ? 'started'
        : reset
          ? 'started again after its checkpoint location was deleted'
          : 'restarted after its crash';
    return {
      // No offset in the words: every record skipped by one start shares one explanation.
      template: flink
        ? `{id} was already in the log when flink ${how} with no checkpoint to restore → OffsetsInitializer.latest() began at the end of each partition, after {id}`
        : `{id} was already in the log when the query ${how}${reset ? '' : ' with no checkpoint'} → startingOffsets=latest began at the end of each partition, after {id}`,
      entries: [start, rec.append, crash],
    };
  }
}
