/**
 * The stream processor's own dedupe in the stories (docs/semantics/stream-dedupe.md): a copy that
 * passed because its key had left the state — Spark's watermark had passed it, or Flink's state
 * TTL had expired — and a first copy Spark dropped as late.
 */
import { StoryFamily, type Story } from './story';
import { groupDigits } from '../groupDigits';

const ms = (n: number) => `${groupDigits(n)} ms`;

export class StreamDedupeStories extends StoryFamily {
  /**
   * Why the processor's dedupe let a second copy of identity `j` through, or null when the
   * processor has no dedupe (or no two copies of `j` passed it).
   */
  passedAgain(j: number): Story | null {
    const p = this.run.scenario.processor;
    if (p.type === 'consumer' || !p.dedupe) return null;
    const t = this.t;
    const actor = t.actors.indexOf(p.type);
    const entries = this.index.entriesOf(j);
    const dropped = new Set(
      entries.filter((i) => this.index.kind(i) === 'stream-dedupe').map((i) => t.cause[i]!),
    );
    const passed = entries.filter(
      (i) => this.index.kind(i) === 'process' && t.actor[i] === actor && !dropped.has(i),
    );
    if (passed.length < 2) return null;
    const [a, b] = [passed[0]!, passed[passed.length - 1]!];
    // The same record processed again (a replay after a restore or a re-executed batch): the
    // dedupe's state went back with the rest, another story tells it.
    if (t.partition[a] === t.partition[b] && t.offset[a] === t.offset[b]) return null;
    if (p.type === 'flink') {
      const ttl = p.dedupe['table.exec.state.ttl'];
      if (ttl === 0 || t.time[b]! < t.time[a]! + ttl) return null;
      return {
        template: `the dedupe's state for {id} had expired: ROW_NUMBER() OVER (PARTITION BY id ORDER BY proctime) = 1 keeps a key's state table.exec.state.ttl = ${ms(ttl)} after it is written (processing time, as StateTtlConfig), from ${ms(t.time[a]!)} to ${ms(t.time[a]! + ttl)}; the copy came at ${ms(t.time[b]!)}, so it was a first row again`,
        entries: [a, b],
      };
    }
    const d = p.dedupe;
    const timeOf = (i: number) => this.eventTime(i, d.eventTime);
    const [t1, t2] = [timeOf(a), timeOf(b)];
    const mark = `withWatermark("${d.eventTime}", "${d.delayThresholdMs} milliseconds")`;
    if (d.operator === 'dropDuplicates')
      return {
        template: `dropDuplicates(["id", "${d.eventTime}"]) keys on the event time too: the copy's ${d.eventTime} (${ms(t2)}) is not the first's (${ms(t1)}), so it was another key and passed (${mark}; dropDuplicatesWithinWatermark(["id"]) keys on the id alone)`,
        entries: [a, b],
      };
    const planned = this.index.prevOf('batch-planned', b, actor);
    const wm = planned >= 0 ? t.until[planned]! : -1;
    return {
      template: `the dedupe had forgotten {id}: dropDuplicatesWithinWatermark(["id"]) keeps a key until the watermark passes its first copy's event time + the delay of ${mark}, ${ms(t1)} + ${ms(d.delayThresholdMs)} = ${ms(t1 + d.delayThresholdMs)}; the copy (${d.eventTime} ${ms(t2)}) came in micro-batch ${planned >= 0 ? t.ckpt[planned] : '?'}, whose watermark was ${ms(wm)}, so it passed as new`,
      entries: [a, planned, b].filter((x) => x >= 0),
    };
  }

  /** Why Spark dropped the only copies of identity `j` as late data, or null. */
  droppedLate(j: number): Story | null {
    const p = this.run.scenario.processor;
    if (p.type !== 'spark' || !p.dedupe) return null;
    const t = this.t;
    const late = this.index
      .entriesOf(j)
      .find((i) => this.index.kind(i) === 'stream-dedupe' && t.aux[i] === 1);
    if (late === undefined) return null;
    const d = p.dedupe;
    return {
      template: `{id} was dropped as late: its ${d.eventTime} (${ms(this.eventTime(t.cause[late]!, d.eventTime))}) was at or before the micro-batch's watermark (${ms(t.until[late]!)}) under withWatermark("${d.eventTime}", "${d.delayThresholdMs} milliseconds") — "too late data older than watermark will be dropped"`,
      entries: [t.cause[late]!, late],
    };
  }

  /** The event time Spark saw for the record of 'process' entry `i`. */
  private eventTime(i: number, column: 'timestamp' | 'eventTime'): number {
    const t = this.t;
    const ev = this.run.events;
    if (column === 'eventTime') return ev.at[t.event[i]!]!;
    const topic = this.run.scenario.workload.topic;
    const rec = this.records(ev.identity[t.event[i]!]!, topic).find(
      (r) => r.p === t.partition[i] && r.o === t.offset[i],
    );
    return rec ? t.time[rec.append]! : -1;
  }
}
