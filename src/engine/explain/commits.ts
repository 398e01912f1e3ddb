/**
 * Offset commits in the stories: a commitSync that gave up, a commit ahead of processing,
 * auto.offset.reset=latest past a record.
 */
import { ERROR_CODES, MESSAGE_TYPES } from '../trace';
import { DEFAULT_API_TIMEOUT_MS } from '../processors/consumer';
import { FETCH_REQUEST_TIMEOUT_MS } from '../processors/fetch';
import { firstAtOrAfter } from './traceIndex';
import { StoryFamily, type Clause, type Story } from './story';
import type { RecordOf } from './records';

export class CommitStories extends StoryFamily {
  /**
   * Where the consumer whose commitSync gave up ('commit-failed' entry `failed`) read from next:
   * it dropped its batch and joined the group again, starting from the committed offset.
   */
  rejoinText(failed: number): string {
    const t = this.t;
    const who = t.actor[failed]!;
    const assign = this.index.nextOf('assign', failed, (a) => a === who);
    const name = t.actors[who]!;
    if (assign < 0) return `${name} dropped the batch and joined its group again`;
    const from = this.ctx.consumer.committedBefore(assign)
      ? `the committed offset ${t.offset[assign]}`
      : `offset ${t.offset[assign]} (nothing committed yet: auto.offset.reset)`;
    return `${name} dropped the batch and joined its group again, reading from ${from}`;
  }

  /** Whether 'commit-failed' entry `i` is a commitSync that gave up (COMMIT_TIMEOUT). */
  isCommitTimeout(i: number): boolean {
    return ERROR_CODES[this.t.aux[i]!] === 'COMMIT_TIMEOUT';
  }

  /**
   * The offset commit that timed out at 'commit-failed' entry `failed`, in words: what became of
   * each attempt (its request or its answer lost, and to which fault), the request timeout that
   * made the consumer send it again and the `default.api.timeout.ms` after which commitSync threw
   * (KafkaConsumer#commitSync: "TimeoutException if the timeout specified by
   * default.api.timeout.ms expires before successful completion of the offset commit",
   * https://kafka.apache.org/documentation/#consumerconfigs_default.api.timeout.ms).
   */
  commitTimeoutText(failed: number, what = 'for the batch holding {id}'): Clause {
    const t = this.t;
    const who = t.actor[failed]!;
    // The cause, skipping the 'fault' entry a dropped message hangs from.
    const up = (i: number) => {
      const c = t.cause[i]!;
      return c >= 0 && this.index.kind(c) === 'fault' ? t.cause[c]! : c;
    };
    const below = (i: number) =>
      this.index
        .childrenOf(i)
        .flatMap((c) => (this.index.kind(c) === 'fault' ? this.index.childrenOf(c) : [c]));
    const isRequest = (i: number) =>
      (this.index.kind(i) === 'msg' || this.index.kind(i) === 'msg-lost') &&
      MESSAGE_TYPES[t.aux[i]!] === 'commit' &&
      t.actor[i] === who;
    // The attempts: each retry follows from the previous attempt's request timeout ('reject'),
    // whose cause is that attempt's request; the failure follows from the last timeout.
    const timeouts: number[] = [];
    const attempts: number[] = [];
    for (
      let r = t.cause[failed]!;
      r >= 0 && this.index.kind(r) === 'reject' && t.actor[r] === who;
    ) {
      const req = t.cause[r]!;
      if (req < 0 || !isRequest(req)) break;
      timeouts.unshift(r);
      attempts.unshift(req);
      r = up(req);
    }
    // The last attempt, sent after the last timeout: the deadline came before its own timeout.
    const lastTimeout = timeouts[timeouts.length - 1];
    const last = lastTimeout === undefined ? undefined : below(lastTimeout).find(isRequest);
    if (last !== undefined) attempts.push(last);
    const cites: number[] = [];
    const parts = attempts.map((req, n) => {
      const whose = n === 0 ? 'its' : "the retry's";
      let lost = this.index.kind(req) === 'msg-lost' ? req : -1;
      const what = lost >= 0 ? 'request' : 'answer';
      if (lost < 0)
        lost =
          below(req).find(
            (c) =>
              this.index.kind(c) === 'msg-lost' && MESSAGE_TYPES[t.aux[c]!] === 'commit-response',
          ) ?? -1;
      if (lost < 0) return `${whose} answer did not come in time`;
      cites.push(lost);
      const f = this.index.rootFault(lost);
      return `${whose} ${what} was lost${f >= 0 ? ` (${this.faultText(f)})` : ''}`;
    });
    const name = t.actors[who]!;
    const story = parts.length > 0 ? parts.join(', then ') : 'no answer came';
    return {
      text: `${name}'s offset commit ${what} got no answer — ${story} — so ${name} sent it again after request.timeout.ms (${FETCH_REQUEST_TIMEOUT_MS} ms) and commitSync gave up after default.api.timeout.ms (${DEFAULT_API_TIMEOUT_MS} ms) with TimeoutException`,
      entries: [...cites, ...timeouts],
    };
  }

  /**
   * A consumer that took the record's partition with no committed offset and
   * `auto.offset.reset=latest` starts at the end of the log: a record already there is skipped
   * ("latest: automatically reset the offset to the latest offset",
   * https://kafka.apache.org/documentation/#consumerconfigs_auto.offset.reset).
   */
  resetPast(rec: RecordOf): Story | null {
    const t = this.t;
    const s = this.run.scenario;
    if (s.processor.type !== 'consumer' || s.processor['auto.offset.reset'] !== 'latest')
      return null;
    const topic = t.topics.indexOf(s.workload.topic);
    const assigns = this.index.ofKind('assign');
    for (let x = firstAtOrAfter(assigns, rec.append + 1); x < assigns.length; x++) {
      const i = assigns[x]!;
      if (t.topic[i] !== topic || t.partition[i] !== rec.p) continue;
      if (t.offset[i]! <= rec.o) return null; // a start before it: not this story
      const who = this.actorName(i);
      // Its last crash before that start, if any.
      const crash = this.index.prevOf('crash', i, t.actor[i]!);
      // No per-record offset in the words: the records skipped by one start share one story.
      return {
        template: `{id} was already in the log when ${who} ${
          crash >= 0 ? 'restarted after its crash and ' : ''
        }took partition ${rec.p} with no committed offset → auto.offset.reset=latest started it at offset ${t.offset[i]}, after {id}`,
        entries: [i, rec.append, crash],
      };
    }
    return null;
  }

  /** The committed offset moved past the record before it was processed, then the processor died. */
  committedAhead(j: number, rec: RecordOf): Story | null {
    const t = this.t;
    const s = this.run.scenario;
    const topic = t.topics.indexOf(s.workload.topic);
    const consumerActor = (a: number) => t.actors[a]!.startsWith('consumer');
    for (const i of this.index.ofKind('commit')) {
      if (t.partition[i] !== rec.p || t.offset[i]! <= rec.o || t.topic[i] !== topic) continue;
      // The commit landed, but its answer did not: commitSync gave up and the loop started
      // again from the committed offset, past the batch it had not processed yet.
      const fails = this.index.ofKind('commit-failed');
      let failed = -1;
      for (let x = firstAtOrAfter(fails, i); x < fails.length && failed < 0; x++) {
        const f = fails[x]!;
        if (t.actor[f] !== t.peer[i] || t.partition[f] !== rec.p || t.topic[f] !== topic) continue;
        // The next failure of that member's commit of this partition: a timeout of this offset.
        if (!this.isCommitTimeout(f) || t.offset[f] !== t.offset[i]) break;
        failed = f;
      }
      if (failed >= 0) {
        const story = this.commitTimeoutText(
          failed,
          `of offset ${t.offset[i]} before processing the batch holding {id}`,
        );
        const who = t.actors[t.actor[failed]!]!;
        return {
          template: `${story.text}, although the coordinator had stored it → ${who} started again from the committed offset ${t.offset[i]}, past {id}`,
          entries: [i, ...story.entries, failed],
        };
      }
      const crash = this.index.nextOf('crash', i, consumerActor);
      // No consumer crash after this commit: none after any later one either.
      if (crash < 0) return null;
      const p = s.processor;
      const how =
        p.type === 'consumer'
          ? p['enable.auto.commit']
            ? `enable.auto.commit committed the polled position ${t.offset[i]} while {id} was still waiting to be processed`
            : p.commit === 'before-processing'
              ? `the loop committed offset ${t.offset[i]} before processing the batch holding {id}`
              : `offset ${t.offset[i]} was committed before {id} was processed`
          : `offset ${t.offset[i]} was committed before {id} was processed`;
      void j;
      const who = t.actors[t.actor[crash]!]!;
      // Whoever read the partition next: the crashed member after its restart, or another
      // member the group gave the partition to while it was down.
      const next = this.index
        .ofKind('assign')
        .find((a) => a > crash && t.topic[a] === topic && t.partition[a] === rec.p);
      if (next !== undefined && t.actor[next] !== t.actor[crash])
        return {
          template: `${how} → ${who} crashed → ${this.ctx.consumer.takeoverText(who, crash, next)}, past {id}`,
          entries: [i, crash, next],
        };
      return {
        template: `${how} → ${who} crashed → after the restart it resumed from the committed offset, past {id}`,
        entries: [i, crash],
      };
    }
    return null;
  }
}
