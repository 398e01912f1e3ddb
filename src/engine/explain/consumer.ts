/**
 * Why a record was processed again: crashes, pauses (zombies), poll timeouts and rebalances
 * between two processing attempts, and where the processor resumed.
 */
import { TXN_STATES } from '../trace';
import { crashCause } from './words';
import { firstAtOrAfter } from './traceIndex';
import { StoryFamily, type Clause } from './story';

export class ConsumerStories extends StoryFamily {
  /** Explain why a record was processed again between two processing attempts. */
  replayStory(processes: number[]): Clause {
    const t = this.t;
    // The same record read again, not the next copy of the event: with two copies in the log
    // (a producer retry) the second attempt is that other record's first, which no replay made —
    // and the copy read again may be the second one (a crash after the retry's copy was read).
    let a = processes[0]!;
    let again: number | undefined;
    for (const x of processes) {
      again = processes.find(
        (i) =>
          i > x &&
          t.offset[i] === t.offset[x] &&
          t.partition[i] === t.partition[x] &&
          t.topic[i] === t.topic[x],
      );
      if (again !== undefined) {
        a = x;
        break;
      }
    }
    const b = again ?? processes[1]!;
    const actorA = t.actor[a]!;
    // A consumer that had left its group at its poll timeout earlier in the same batch (before
    // this record's turn came): look back from the attempt to the poll that started the batch.
    for (let i = a - 1; i >= 0; i--) {
      if (t.actor[i] !== actorA) continue;
      const k = this.index.kind(i);
      if (k === 'poll' || k === 'crash' || k === 'restart') break;
      if (k === 'leave-group') return this.pollTimeoutStory(actorA, a, i, b);
    }
    // Look between the two attempts for what made the pipeline start over.
    for (let i = a + 1; i < b; i++) {
      const k = this.index.kind(i);
      if (
        k === 'crash' &&
        (t.actor[i] === actorA ||
          t.actors[t.actor[i]!] === 'flink' ||
          t.actors[t.actor[i]!] === 'spark')
      ) {
        const fault = this.faultOfCrash(i);
        const proc = this.run.scenario.processor;
        // Not a crash between a write and its commit-log entry: the checkpoint itself is gone,
        // so the query starts over — offsets from startingOffsets, batch ids from 0.
        if (fault?.kind === 'checkpoint-reset' && proc.type === 'spark')
          return {
            text: `the checkpoint location was deleted${fault.id ? ` (fault "${fault.id}")` : ''} → the query started again with no offset log or commit log, from startingOffsets=${proc.startingOffsets} with batch ids from 0 → {id} was processed again${fault.txnAppId ? `, and written again: the restarted query's txnAppId "${fault.txnAppId}" is new to the Delta table, which has no txnVersion recorded for it` : ''}`,
            entries: [a, i, b],
          };
        const f = crashCause(fault);
        const who = t.actors[t.actor[i]!]!;
        const resume = this.resumeText(who, i, b);
        const failover = this.ctx.flink.checkpointFailover(i) ?? this.ctx.flink.sinkFailure(i);
        if (failover)
          return {
            text: `${failover.text} → ${resume} → {id} was processed again`,
            entries: [a, ...failover.entries, i, b],
          };
        const before =
          who === 'spark'
            ? this.ctx.spark.sparkCrashWhen(a, i, fault)
            : who === 'flink'
              ? this.run.scenario.processor.type === 'flink' &&
                this.run.scenario.processor['execution.checkpointing.interval'] === null
                ? 'after processing {id}, with no checkpoint to restore (checkpointing is off)'
                : 'after processing {id} and before the next checkpoint completed'
              : 'after processing {id} and before its offset was committed';
        return {
          text: `${who} crashed${f} ${before} → ${resume} → {id} was processed again`,
          entries: [a, i, b],
        };
      }
      if (k === 'stall' && t.actor[i] === actorA) {
        // Written before it paused: not a late write of the zombie's, but a record whose offset it
        // never committed, read again by the member that replaced it.
        if (this.writtenBetween(a, i))
          return {
            text: `${t.actors[actorA]} wrote {id}, then paused longer than session.timeout.ms before its offset was committed → the group gave its partition to ${t.actors[t.actor[b]!]}, which started from the committed offset and processed {id} again`,
            entries: [a, i, b],
          };
        return { text: this.zombieText(actorA, t.actor[b]!), entries: [a, i, b] };
      }
      if (k === 'leave-group' && t.actor[i] === actorA)
        return this.pollTimeoutStory(actorA, a, i, b);
      if (k === 'commit-failed' && t.actor[i] === actorA && this.ctx.commits.isCommitTimeout(i)) {
        const story = this.ctx.commits.commitTimeoutText(i);
        return {
          text: `${story.text} → ${this.ctx.commits.rejoinText(i)} → {id} was processed again`,
          entries: [a, ...story.entries, i, b],
        };
      }
      if (k === 'revoke' && t.actor[i] === actorA) {
        if (t.partition[i] === t.partition[a] && t.actor[b] === actorA && this.keptThroughEager(i))
          return {
            text: `before {id}'s offset was committed, ${this.eagerRevokeText(i, t.actors[actorA]!)} → ${t.actors[actorA]} got it back, started from the committed offset and processed {id} again`,
            entries: [a, i, b],
          };
        return {
          text: `a rebalance took ${t.actors[actorA]}'s partition while {id} was done but not yet covered by a committed offset → the new owner started from the committed offset and processed {id} again`,
          entries: [a, i, b],
        };
      }
      if (k === 'fault') {
        const f = this.run.scenario.faults[t.aux[i]!];
        if (f?.kind === 'rebalance' || (f?.kind === 'random' && f.what === 'rebalance')) {
          // The partition of {id} did not move: its owner gave it up only because the eager
          // protocol revokes everything, and was assigned it again.
          const kept = t.actor[b] === actorA ? this.eagerRevokeOf(actorA, a, i, b) : -1;
          if (kept >= 0)
            return {
              text: `before {id}'s offset was committed, ${this.eagerRevokeText(kept, t.actors[actorA]!)} → ${t.actors[actorA]} got it back, started from the committed offset and processed {id} again`,
              entries: [a, i, kept, b],
            };
          return {
            text: `a rebalance moved the partition of {id} before its offset was committed → the new owner started from the committed offset and processed {id} again`,
            entries: [a, i, b],
          };
        }
      }
    }
    // The later attempt by a member that had given the partition up meanwhile: its task was
    // already running when the partition was revoked, and a revoke does not stop it.
    const actorB = t.actor[b]!;
    // The same member, when the eager protocol made it give up a partition it kept: its task from
    // before the revoke (started by the poll that caused `b`) finished after the attempt made
    // once the partition was assigned to it again.
    if (actorB === actorA) {
      const kept = this.eagerRevokeOf(actorA, b, t.cause[b]!, a);
      if (kept >= 0)
        return {
          text: `${t.actors[actorA]} was still processing {id} when ${this.eagerRevokeText(kept, 'it')} → it got the partition back, started from the committed offset and processed {id} again, and its task from before the revoke, which the revoke does not stop, finished and wrote its copy too`,
          entries: [b, kept, a],
        };
    }
    if (actorB !== actorA)
      for (let i = b - 1; i >= 0; i--) {
        if (t.actor[i] !== actorB) continue;
        const k = this.index.kind(i);
        // A zombie: it paused with {id} in hand, the group replaced it, and it woke up.
        if (k === 'stall') return { text: this.zombieText(actorB, actorA), entries: [i, a, b] };
        if (t.partition[i] !== t.partition[b]) continue;
        if (k === 'assign') break;
        if (k === 'revoke')
          return {
            text: `${t.actors[actorB]} was still processing {id} when a rebalance gave its partition to ${t.actors[actorA]} → the new owner started from the committed offset and processed {id}, and the old owner's task, which the revoke does not stop, finished and wrote its copy too`,
            entries: [a, i, b],
          };
      }
    return {
      text: `{id} was processed twice (by ${this.actorName(a)} and ${this.actorName(b)})`,
      entries: [a, b],
    };
  }

  /**
   * Whether `revoke` (a consumer giving a partition up) was the eager protocol's revocation of a
   * partition the member kept: `partition.assignment.strategy=range` uses the EAGER protocol,
   * which "requires a consumer to always revoke all its owned partitions before participating in
   * a rebalance event"
   * (https://kafka.apache.org/42/javadoc/org/apache/kafka/clients/consumer/ConsumerPartitionAssignor.RebalanceProtocol.html),
   * and the partition's next assignment went back to the same member.
   */
  private keptThroughEager(revoke: number): boolean {
    const p = this.run.scenario.processor;
    if (p.type !== 'consumer' || p['partition.assignment.strategy'] !== 'range') return false;
    const t = this.t;
    const assigns = this.index.ofKind('assign');
    for (let x = firstAtOrAfter(assigns, revoke); x < assigns.length; x++) {
      const i = assigns[x]!;
      if (t.topic[i] === t.topic[revoke] && t.partition[i] === t.partition[revoke])
        return t.actor[i] === t.actor[revoke];
    }
    return false;
  }

  /**
   * The eager revocation (see {@link keptThroughEager}) by `actor` of the partition of processing
   * entry `rec`, between entries `from` and `to`, or -1.
   */
  private eagerRevokeOf(actor: number, rec: number, from: number, to: number): number {
    const t = this.t;
    const revokes = this.index.ofKind('revoke');
    for (let x = firstAtOrAfter(revokes, from + 1); x < revokes.length && revokes[x]! < to; x++) {
      const i = revokes[x]!;
      if (
        t.actor[i] === actor &&
        t.topic[i] === t.topic[rec] &&
        t.partition[i] === t.partition[rec] &&
        this.keptThroughEager(i)
      )
        return i;
    }
    return -1;
  }

  /**
   * The sentence part naming an eager revocation (entry `revoke`) of a partition that stayed,
   * its member called `who`.
   */
  private eagerRevokeText(revoke: number, who: string): string {
    return `a rebalance made ${who} revoke partition ${this.t.partition[revoke]} although the new assignment kept it there (partition.assignment.strategy=range: the eager protocol gives up every owned partition at each rebalance)`;
  }

  /** Whether the record of processing entry `a` reached the sink (a row or an effect) before entry `until`. */
  private writtenBetween(a: number, until: number): boolean {
    const t = this.t;
    const ident = this.run.events.identity;
    const j = ident[t.event[a]!];
    for (let x = a + 1; x < until; x++) {
      const k = this.index.kind(x);
      if ((k === 'row-insert' || k === 'row-update' || k === 'effect') && t.event[x]! >= 0)
        if (ident[t.event[x]!] === j) return true;
    }
    return false;
  }

  /**
   * A zombie's duplicate: `paused` stalled past session.timeout.ms holding the record, the group
   * gave its partition to `other`, which read it again from the committed offset, and the paused
   * instance still wrote its copy when it woke up (docs/semantics/consumer.md#zombie-consumer; the KafkaConsumer javadoc,
   * "Detecting Consumer Failures").
   */
  private zombieText(paused: number, other: number): string {
    const t = this.t;
    return `${t.actors[paused]} paused longer than session.timeout.ms while it held {id} → the group gave its partition to ${t.actors[other]}, which started from the committed offset and processed {id}, while the paused instance still wrote its own copy when it woke up`;
  }

  /** The replay of a batch whose consumer left its group at its poll timeout (entry `leave`). */
  private pollTimeoutStory(actor: number, a: number, leave: number, b: number): Clause {
    const p = this.run.scenario.processor;
    const max = p.type === 'consumer' ? ` (${p['max.poll.interval.ms']} ms)` : '';
    // The refused commit of that batch: the first after the leave, before the second attempt.
    const failed = this.index.ofKind('commit-failed');
    const k = firstAtOrAfter(failed, leave);
    const refused = k < failed.length && failed[k]! < b ? failed[k]! : -1;
    // CommitFailedException is what commitSync() throws; with enable.auto.commit there is no
    // such call, and the batch's position is simply never committed
    // (https://kafka.apache.org/42/javadoc/org/apache/kafka/clients/consumer/CommitFailedException.html).
    const lost =
      refused >= 0
        ? 'its offset commit for the batch failed (CommitFailedException)'
        : p.type === 'consumer' && p['enable.auto.commit']
          ? 'the position after the batch was never auto-committed'
          : 'the offset of the batch was never committed';
    return {
      text: `${this.t.actors[actor]} spent longer than max.poll.interval.ms${max} on the batch holding {id} without calling poll() → it left the group and ${lost} → the batch was read again from the committed offset and {id} was processed again`,
      entries: refused >= 0 ? [a, leave, refused, b] : [a, leave, b],
    };
  }

  private resumeText(who: string, crash: number, next: number): string {
    const t = this.t;
    for (let i = crash + 1; i <= next; i++) {
      const k = this.index.kind(i);
      if (k === 'assign' && t.actors[t.actor[i]!] === who)
        return `it restarted ${this.startText(i)}`;
      // Another member read the record again: the crashed one was still down when the group
      // moved its partition (its session expired), so no restart of its own is in this story.
      if (
        k === 'assign' &&
        t.actor[i] === t.actor[next] &&
        t.topic[i] === t.topic[next] &&
        t.partition[i] === t.partition[next]
      )
        return this.takeoverText(who, crash, i);
      if (k === 'restore' && t.actors[t.actor[i]!] === 'spark')
        return `on restart the offset log's batch ${t.ckpt[i]} had no commit-log entry, so the query ran batch ${t.ckpt[i]} again with the same batch id and offsets`;
      if (k === 'restore')
        return t.ckpt[i]! >= 0
          ? `the job restored checkpoint ${t.ckpt[i]} and rewound the source to offset ${t.offset[i]}`
          : 'the job restarted without a checkpoint and rewound the source';
      if (k === 'batch-planned') return `the query re-ran batch ${t.ckpt[i]} with the same offsets`;
    }
    return 'it restarted from its last committed position';
  }

  /**
   * A crashed member's partition given to another member of the group: when the crash's session
   * expired (session.timeout.ms after its last heartbeat, https://kafka.apache.org/documentation/#consumerconfigs_session.timeout.ms),
   * or at a rebalance. `assign` is the other member's 'assign' entry, caused by the `crash` entry
   * when the session expiry moved it.
   */
  takeoverText(who: string, crash: number, assign: number): string {
    const t = this.t;
    const p = this.run.scenario.processor;
    const other = t.actors[t.actor[assign]!]!;
    const why =
      p.type === 'consumer' && t.cause[assign] === crash
        ? `${who}'s session expired (session.timeout.ms = ${p['session.timeout.ms']} ms) and the group gave`
        : 'the group gave';
    return `${why} partition ${t.partition[assign]} to ${other}, which started ${this.startText(assign)}`;
  }

  /**
   * Where the consumer of 'assign' entry `assign` started: the group's committed offset, or —
   * when the group had none — the position auto.offset.reset gave it
   * (https://kafka.apache.org/documentation/#consumerconfigs_auto.offset.reset: "What to do when
   * there is no initial offset in Kafka").
   */
  startText(assign: number): string {
    const t = this.t;
    const offset = t.offset[assign]!;
    if (this.hadCommittedOffset(assign)) return `from the last committed offset ${offset}`;
    const p = this.run.scenario.processor;
    // Downstream readers start from the earliest offset; the processor as configured.
    const reset =
      p.type === 'consumer' && t.topic[assign] === this.run.state.input.index
        ? p['auto.offset.reset']
        : 'earliest';
    return `from offset ${offset}: the group had no committed offset, so auto.offset.reset=${reset} applied`;
  }

  /** Whether the group had an offset committed for the partition of 'assign' entry `assign`. */
  private hadCommittedOffset(assign: number): boolean {
    if (this.committedBefore(assign)) return true;
    const t = this.t;
    const p = this.run.scenario.processor;
    // A transaction's offsets are traced as a 'commit' when its producer learns of the commit;
    // one that crashed after the commit decision never does, yet the coordinator completed it
    // and stored them (initTransactions "awaits its completion").
    if (
      p.type !== 'consumer' ||
      p.commit !== 'with-transaction' ||
      t.topic[assign] !== this.run.state.input.index
    )
      return false;
    // From earliest, offset 0 is where a group without a committed offset starts.
    if (p['auto.offset.reset'] === 'earliest' && t.offset[assign] === 0) return false;
    const complete = TXN_STATES.indexOf('CompleteCommit');
    for (let i = 0; i < assign; i++)
      if (this.index.kind(i) === 'txn' && t.aux[i] === complete) return true;
    return false;
  }

  /** Whether a commit of the assigned partition happened before entry `assign`. */
  committedBefore(assign: number): boolean {
    const t = this.t;
    for (let i = 0; i < assign; i++)
      if (
        this.index.kind(i) === 'commit' &&
        t.topic[i] === t.topic[assign] &&
        t.partition[i] === t.partition[assign]
      )
        return true;
    return false;
  }
}
