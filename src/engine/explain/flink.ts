/**
 * Flink in the stories: failovers on expired checkpoints, a sink that failed the task, output no
 * checkpoint committed, a job that failed for good.
 */
import { failoverCause, ERROR_CODES, MESSAGE_TYPES } from '../trace';
import { flinkRestartsAfter } from '../scenario/flinkRestart';
import { gaveUpWhy, crashCause } from './words';
import { firstAtOrAfter, TraceIndex } from './traceIndex';
import type { Run } from '../simulate';
import { groupDigits } from '../groupDigits';
import { StoryFamily, type Clause, type Story } from './story';

export class FlinkStories extends StoryFamily {
  /**
   * A crash that is the JobManager failing the job over after an expired checkpoint (more failed
   * checkpoints in a row than `execution.checkpointing.tolerable-failed-checkpoints`): the sentence
   * part naming the checkpoint, what was lost on its way (barrier or acknowledgement), the
   * timeout and the threshold; null for any other crash.
   */
  checkpointFailover(crash: number): Clause | null {
    const t = this.t;
    const p = this.run.scenario.processor;
    const expired = failoverCause(t, crash);
    if (p.type !== 'flink' || expired < 0) return null;
    const id = t.ckpt[expired]!;
    let lost = -1;
    for (let i = t.cause[expired]! + 1; i < expired && lost < 0; i++) {
      if (this.index.kind(i) !== 'msg-lost') continue;
      const type = MESSAGE_TYPES[t.aux[i]!];
      if (type === 'barrier' || type === 'checkpoint-ack') lost = i;
    }
    const why =
      lost < 0
        ? ''
        : ` (its ${MESSAGE_TYPES[t.aux[lost]!] === 'barrier' ? 'barrier' : 'acknowledgement'} was lost${
            this.index.rootFault(lost) >= 0 ? `: ${this.faultText(this.index.rootFault(lost))}` : ''
          })`;
    return {
      text: `checkpoint ${id} did not complete${why} and expired after execution.checkpointing.timeout (${p['execution.checkpointing.timeout']} ms) → with execution.checkpointing.tolerable-failed-checkpoints=${p['execution.checkpointing.tolerable-failed-checkpoints']} the job failed over`,
      entries: lost >= 0 ? [lost, expired] : [expired],
    };
  }

  /**
   * A crash that is a Flink task failing on its table sink: a statement (a write, or an XA call)
   * unanswered within `statement.timeout.ms` with its retries spent, so the sink threw and the
   * task failed (see the task's `sinkFailed`). The sentence part naming the lost message and the
   * timeout; null for any other crash.
   */
  sinkFailure(crash: number): { text: string; cause: string; entries: number[] } | null {
    const t = this.t;
    const { processor: p, sink: s } = this.run.scenario;
    const r = t.cause[crash]!;
    if (p.type !== 'flink' || s.type !== 'table' || r < 0) return null;
    if (this.index.kind(r) !== 'reject' || ERROR_CODES[t.aux[r]!] !== 'STATEMENT_TIMEOUT')
      return null;
    // The message lost on the way: the last sink request or answer lost within the timeout.
    let lost = -1;
    const from = t.time[r]! - s['statement.timeout.ms'];
    for (let i = r - 1; i >= 0 && t.time[i]! >= from && lost < 0; i--) {
      if (this.index.kind(i) !== 'msg-lost') continue;
      const type = MESSAGE_TYPES[t.aux[i]!];
      if (type === 'sink-write' || type === 'sink-response') lost = i;
    }
    const fault = lost >= 0 ? this.index.rootFault(lost) : -1;
    const why =
      lost < 0
        ? ''
        : ` (its ${MESSAGE_TYPES[t.aux[lost]!] === 'sink-write' ? 'request' : 'answer'} was lost${
            fault >= 0 ? `: ${this.faultText(fault)}` : ''
          })`;
    const retries = s.xa ? 0 : s.retries;
    const noAnswer = `got no answer within statement.timeout.ms (${s['statement.timeout.ms']} ms)${why}${retries > 0 ? `, nor did its ${retries} retries` : ''}`;
    return {
      text: `a statement of flink's sink ${noAnswer} → the sink threw and the task failed`,
      cause: ` because a statement of its sink ${noAnswer}`,
      entries: lost >= 0 ? [lost, r] : [r],
    };
  }

  /** Why flink crashed, for "flink crashed…": the fault, or its sink's unanswered statement. */
  private flinkCrashCause(crash: number): string {
    return this.sinkFailure(crash)?.cause ?? crashCause(this.faultOfCrash(crash));
  }

  /**
   * A Flink job processed an event whose output (an XA or Kafka transaction) no checkpoint ever
   * committed: the job kept failing over on expired checkpoints, crashed for good, or the run
   * stopped first. Null when none of these is the case.
   */
  flinkNeverCommitted(processed: number): Story | null {
    const t = this.t;
    const p = this.run.scenario.processor;
    if (p.type !== 'flink') return null;
    const flink = t.actors.indexOf('flink');
    let failovers = 0;
    let firstExpired = -1;
    let lastCrash = -1;
    let restartedAfter = false;
    // flink's crashes and restarts after `processed`, merged in trace order.
    const crashes = this.index.ofKind('crash');
    const restarts = this.index.ofKind('restart');
    let x = firstAtOrAfter(crashes, processed);
    let y = firstAtOrAfter(restarts, processed);
    while (x < crashes.length || y < restarts.length) {
      const fromCrash = y >= restarts.length || (x < crashes.length && crashes[x]! < restarts[y]!);
      const i = fromCrash ? crashes[x++]! : restarts[y++]!;
      if (t.actor[i] !== flink) continue;
      if (!fromCrash) {
        restartedAfter = true;
        continue;
      }
      lastCrash = i;
      restartedAfter = false;
      const c = failoverCause(t, i);
      if (c >= 0) {
        failovers++;
        if (firstExpired < 0) firstExpired = c;
      }
    }
    const stop = this.run.cutOff ? `, until the run was cut off at ${this.run.endTime} ms` : '';
    if (failovers > 0)
      return {
        template: `{id} was processed, but no checkpoint covering it ever completed: checkpoints expired after execution.checkpointing.timeout (${p['execution.checkpointing.timeout']} ms) and, with execution.checkpointing.tolerable-failed-checkpoints=${p['execution.checkpointing.tolerable-failed-checkpoints']}, the job failed over ${failovers} time${failovers === 1 ? '' : 's'}${stop} → each restore discarded the uncommitted output of {id}`,
        entries: [processed, firstExpired],
      };
    if (lastCrash >= 0 && !restartedAfter && !this.run.cutOff) {
      // Which failure of the job this was: the restart strategy's count starts at the first.
      const failures = this.index
        .ofKind('crash')
        .filter((i) => i <= lastCrash && t.actor[i] === flink).length;
      const why = flinkRestartsAfter(p, failures) ? 'never restarted' : gaveUpWhy(p, failures);
      return {
        template: `{id} was processed, but flink crashed${this.flinkCrashCause(lastCrash)} and ${why} → no checkpoint covering {id} completed, so its output was never committed`,
        entries: [processed, lastCrash],
      };
    }
    if (this.run.cutOff)
      return {
        template: `{id} was processed, but the run was cut off at ${this.run.endTime} ms before a checkpoint covering it completed → its output was not committed yet`,
        entries: [processed],
      };
    return null;
  }

  /**
   * A Flink job whose restart strategy is none and whose task crashed: the crash and, in words,
   * why nothing restarted it — or null.
   */
  flinkFailedForGood(): { crash: number; cause: string; why: string } | null {
    const failed = flinkFailedForGood(this.run, this.index);
    return failed && { ...failed, cause: this.flinkCrashCause(failed.crash) };
  }

  /** How many times actor `name` restarted in the run. */
  restartsOf(name: string): number {
    const t = this.t;
    const a = t.actors.indexOf(name);
    let n = 0;
    for (const i of this.index.ofKind('restart')) if (t.actor[i] === a) n++;
    return n;
  }
}

/**
 * The failure of a Flink job its restart strategy did not restart after — the first under none,
 * the one after fixed-delay's last attempt (FixedDelayRestartBackoffTimeStrategy counts them all)
 * — its crash entry, when, and in words why, or null (no Flink job, or it was restarted each time).
 * https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/task_failure_recovery/
 * The stories name it for an event it left unprocessed; the text report says it for every run,
 * one that lost nothing too (src/cli/report.ts): the job is down at the end, which its counts
 * alone do not say.
 */
export function flinkFailedForGood(
  run: Run,
  index: TraceIndex = new TraceIndex(run.trace),
): { crash: number; atMs: number; why: string } | null {
  const p = run.scenario.processor;
  if (p.type !== 'flink') return null;
  const t = run.trace;
  const flink = t.actors.indexOf('flink');
  const crashes = index.ofKind('crash').filter((i) => t.actor[i] === flink);
  const n = crashes.findIndex((_, k) => !flinkRestartsAfter(p, k + 1));
  if (n < 0) return null;
  const crash = crashes[n]!;
  return { crash, atMs: t.time[crash]!, why: gaveUpWhy(p, n + 1) };
}

/**
 * A job that failed for good ({@link flinkFailedForGood}) in one sentence, the same in the text
 * report (src/cli/report.ts) and the Markdown report (src/views/io/markdown.ts).
 */
export function failedForGoodSentence(f: { component: string; atMs: number; why: string }): string {
  return `${f.component} crashed at ${groupDigits(f.atMs)} ms and ${f.why}: it processes nothing after that, and what it had not committed stays so`;
}
