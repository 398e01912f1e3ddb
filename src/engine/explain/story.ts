/**
 * What every family of stories shares: the run, its trace and verdict, the trace index, the
 * records index, and a few words about faults and actors. A family extends {@link StoryFamily} and
 * reaches the others through `this.ctx` (`this.ctx.flink.checkpointFailover(…)`).
 */
import type { Run } from '../simulate';
import type { Verdict } from '../checker';
import type { FaultSpec } from '../scenario/schema';
import type { Trace } from '../trace';
import { describeFault } from '../faultWords';
import type { TraceIndex } from './traceIndex';
import type { RecordIndex, RecordOf } from './records';
import type { ExplainContext } from './context';

/** A sentence with `{id}` where the business id goes, and the trace entries it rests on. */
export interface Story {
  template: string;
  entries: number[];
}

/** A piece of a sentence (no `{id}` filled in) and the entries it rests on. */
export interface Clause {
  text: string;
  entries: number[];
}

export abstract class StoryFamily {
  protected readonly run: Run;
  protected readonly v: Verdict;
  protected readonly t: Trace;
  protected readonly index: TraceIndex;
  private readonly recordIndex: RecordIndex;

  constructor(protected readonly ctx: ExplainContext) {
    this.run = ctx.run;
    this.v = ctx.v;
    this.t = ctx.run.trace;
    this.index = ctx.index;
    this.recordIndex = ctx.records;
  }

  /** Records of identity `j` in a topic: partition, offset, send entry, txn, append entry. */
  protected records(j: number, topicName: string): RecordOf[] {
    return this.recordIndex.of(j, topicName);
  }

  /** Whether entry `i` is the processor's (a consumer of the loop, flink or spark). */
  protected isProcessor(i: number): boolean {
    const a = this.t.actors[this.t.actor[i]!]!;
    return a.startsWith('consumer-') || a === 'flink' || a === 'spark';
  }

  /** The fault of 'fault' entry `faultEntry`, named by its label when it has one, else described. */
  protected faultText(faultEntry: number): string {
    if (faultEntry < 0) return '';
    const f = this.run.scenario.faults[this.t.aux[faultEntry]!];
    return f?.id ? `fault "${f.id}"` : describeFault(f);
  }

  protected actorName(i: number): string {
    return this.t.actors[this.t.actor[i]!] ?? '?';
  }

  /**
   * The fault behind crash entry `i`: the one it names, or the one whose firing caused it (a
   * Spark checkpoint reset stops the query with the reset as its cause).
   */
  protected faultOfCrash(i: number): FaultSpec | undefined {
    const t = this.t;
    const faults = this.run.scenario.faults;
    if (t.aux[i]! >= 0) return faults[t.aux[i]!];
    const c = t.cause[i]!;
    return c >= 0 && this.index.kind(c) === 'fault' && t.aux[c]! >= 0
      ? faults[t.aux[c]!]
      : undefined;
  }

  /** The first crash of actor `actorName` at or after entry `after`, or -1. */
  protected findCrash(actorName: string, after: number): number {
    const a = this.t.actors.indexOf(actorName);
    return this.index.nextOf('crash', after, (x) => x === a);
  }
}
