/**
 * Kafka transactions in the stories: open, aborted or uncommitted transactions, markers waiting
 * for a leader, a refused InitProducerId, the last stable offset.
 */
import { ERROR_CODES } from '../trace';
import { outputTransactionTimeoutMs } from '../scenario/transactionTimeouts';
import { StoryFamily, type Clause, type Story } from './story';

export class TransactionStories extends StoryFamily {
  /**
   * When the primary point is every record of the Kafka sink's topic (no reader declared): which
   * of `j`'s copies there were in a transaction that aborted or never committed, in words — a
   * read_committed consumer, as Kafka's and Flink's exactly-once docs require downstream, skips
   * them (https://kafka.apache.org/documentation/#consumerconfigs_isolation.level). Null when
   * every copy committed or was written without a transaction.
   */
  uncommittedCopies(j: number): Clause | null {
    const s = this.run.scenario;
    if (s.sink.type !== 'kafka' || this.v.primary !== `log:${s.sink.topic}`) return null;
    const topic = s.sink.topic;
    const outs = this.records(j, topic);
    const notCommitted = outs.filter(
      (r) => r.txn >= 0 && this.outcome(topic, r.p, r.txn) !== 'committed',
    );
    if (notCommitted.length === 0) return null;
    const first = notCommitted[0]!;
    const ended =
      this.outcome(topic, first.p, first.txn) === 'aborted'
        ? this.abortReason(first.txn)
        : `transaction ${first.txn} never committed (still open when the run ended)`;
    const more = notCommitted.length > 1 ? ` (and ${notCommitted.length - 1} more)` : '';
    const seen = outs.length - notCommitted.length;
    return {
      text: `${ended}, and it held a copy of {id}${more} → an uncommitted copy stays in the log, and topic ${topic} is judged here by every record in its log; a read_committed consumer sees {id} ${seen === 1 ? 'once' : `${seen} times`}`,
      entries: [first.append],
    };
  }

  /**
   * A transaction that has ended (its EndTxn decision logged) whose marker on `topicName`-`p` still
   * waits for a partition leader — the coordinator writes it once the partition has a live leader
   * again (TransactionMarkerChannelManager) — in words, with the decision and the leader's loss;
   * null when it is simply open.
   */
  markerWaiting(topicName: string, p: number, no: number): Clause | null {
    const cluster = this.run.state.cluster;
    const part = cluster.topics.get(topicName)?.partitions[p];
    if (!part || !cluster.markers.markerPending(part, no)) return null;
    const t = this.t;
    const decision = this.index
      .ofKind('txn')
      .find((i) => t.txn[i] === no && (t.aux[i] === 1 || t.aux[i] === 2));
    const commit = decision !== undefined && t.aux[decision] === 1;
    const ended = commit
      ? `transaction ${no} was committed`
      : decision !== undefined
        ? this.abortReason(no)
        : `transaction ${no} ended`;
    // The partition's leader: gone for good (none elected), or crashed and not replaced yet.
    const topic = t.topics.indexOf(topicName);
    const leaders = this.index
      .ofKind('leader')
      .filter((i) => t.topic[i] === topic && t.partition[i] === p);
    const last = leaders[leaders.length - 1];
    const gone =
      last !== undefined && t.aux[last]! < 0
        ? `partition ${p} has had no leader since ${t.time[last]} ms`
        : `the leader of partition ${p} is down`;
    return {
      text: `${ended}${decision !== undefined ? ` at ${t.time[decision]} ms` : ''}, but its ${commit ? 'commit' : 'abort'} marker is not written: ${gone}, and the coordinator writes it only to a live leader (the transaction stays ${commit ? 'PrepareCommit' : 'PrepareAbort'} until then)`,
      entries: [decision ?? -1, last ?? -1].filter((x) => x >= 0),
    };
  }

  /** Why transaction `no` ended aborted: the 'txn' PrepareAbort entry's reason. */
  abortReason(no: number): string {
    const t = this.t;
    for (const i of this.index.ofKind('txn')) {
      if (t.txn[i] !== no || t.aux[i] !== 2) continue;
      switch (t.count[i]) {
        case 1:
          return `transaction ${no} stayed open longer than transaction.timeout.ms and the coordinator aborted it`;
        case 2:
          return `transaction ${no} was aborted when a new instance with the same transactional.id called initTransactions`;
        default:
          return `transaction ${no} was aborted`;
      }
    }
    return `transaction ${no} was aborted`;
  }

  /**
   * Who reads the topic whose records end up at the primary point, with which isolation level:
   * the primary reader itself, or the consumer loop that writes the sink.
   */
  readerOf():
    | { name: string; topic: string; 'isolation.level': 'read_committed' | 'read_uncommitted' }
    | undefined {
    const p = this.v.primary;
    const s = this.run.scenario;
    if (p.startsWith('reader:')) return s.readers.find((r) => `reader:${r.name}` === p);
    if (p === 'sink' && s.processor.type === 'consumer')
      return {
        name: 'the consumer',
        topic: s.workload.topic,
        'isolation.level': s.processor['isolation.level'],
      };
    return undefined;
  }

  /** The 'data-loss' entry about transaction `no`, or -1. */
  dataLossFor(no: number): number {
    const t = this.t;
    for (const i of this.index.ofKind('data-loss')) if (t.txn[i] === no) return i;
    return -1;
  }

  outcome(topicName: string, partition: number, txn: number): string | undefined {
    return this.run.state.cluster.topics.get(topicName)?.partitions[partition]?.txnOutcome.get(txn);
  }

  /**
   * The first InitProducerId the coordinator refused with INVALID_TRANSACTION_TIMEOUT (of
   * `actor`'s producer, or of any pipeline producer when null), worded with the two settings.
   */
  initRefused(actor: string | null): { entry: number; actor: string; text: string } | null {
    const t = this.t;
    const s = this.run.scenario;
    for (const i of this.index.ofKind('reject')) {
      if (ERROR_CODES[t.aux[i]!] !== 'INVALID_TRANSACTION_TIMEOUT') continue;
      const req = t.cause[i]!;
      const who = req >= 0 ? this.actorName(req) : '?';
      if (actor !== null ? who !== actor : who === 'producer') continue;
      const timeout =
        who === 'producer' ? s.producer['transaction.timeout.ms'] : outputTransactionTimeoutMs(s);
      const unset =
        who === 'flink' && s.sink.type === 'kafka' && s.sink['transaction.timeout.ms'] === undefined
          ? " (KafkaSink's default when it is not set)"
          : '';
      return {
        entry: i,
        actor: who,
        text: `the transaction coordinator refused ${who}'s InitProducerId with INVALID_TRANSACTION_TIMEOUT: its transaction.timeout.ms, ${timeout} ms${unset}, is above the broker's transaction.max.timeout.ms, ${s.broker['transaction.max.timeout.ms']} ms`,
      };
    }
    return null;
  }

  blockedByLso(topicName: string, partition: number, offset: number): Story | null {
    const part = this.run.state.cluster.topics.get(topicName)?.partitions[partition];
    if (!part) return null;
    if (offset >= part.lso && part.lso < part.hw) {
      const open = [...part.openTxns.entries()].sort((a, b) => a[1] - b[1])[0];
      const waiting = open ? this.markerWaiting(topicName, partition, open[0]) : null;
      if (waiting)
        return {
          template: `{id} sits after transaction ${open![0]}: ${waiting.text} → read_committed readers stop at the last stable offset (${part.lso}), so {id} is held back`,
          entries: waiting.entries,
        };
      return {
        template: `{id} sits after transaction ${open?.[0] ?? '?'}, which is still open → read_committed readers stop at the last stable offset (${part.lso}), so {id} is held back`,
        entries: [],
      };
    }
    return null;
  }
}
