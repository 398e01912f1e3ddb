/**
 * Why an event never took effect: it was never sent, never reached the broker, was cut from the
 * log, or was in the log but never processed or written.
 */
import { ERROR_CODES, MESSAGE_TYPES, SKIP_REASONS } from '../trace';
import { normalizeAcks } from '../scenario/producerRules';
import { traceLimitWords } from '../cutoff';
import { stuckWords } from '../stuck';
import { SKIP_WORDS, crashCause } from './words';
import { firstAtOrAfter } from './traceIndex';
import { StoryFamily, type Story } from './story';
import { groupDigits } from '../groupDigits';

export class LostStories extends StoryFamily {
  // ------------------------------------------------------------------ losses

  whyLost(j: number): Story {
    const s = this.run.scenario;
    const t = this.t;
    const entries = this.index.entriesOf(j);
    const sends = entries.filter((i) => this.index.kind(i) === 'app-send');
    const input = this.records(j, s.workload.topic);
    if (sends.length === 0) {
      const refused = this.ctx.transactions.initRefused('producer');
      if (refused)
        return {
          template: `the application never sent {id}: ${refused.text} → initTransactions threw and the application stopped`,
          entries: [refused.entry],
        };
      // The run, not the application, stopped first: say so (the event was simply not due yet).
      if (this.run.cutOff)
        return {
          template: `the run was cut off at ${this.run.endTime} ms (${this.cutOffWhy()}) before {id} was sent`,
          entries: [],
        };
      return {
        template: 'the application never sent {id} (it had stopped before {id} was due)',
        entries: [],
      };
    }
    if (input.length === 0) {
      const trunc = this.truncation(j);
      if (trunc) return trunc;
      const lostReq = entries.find(
        (i) => this.index.kind(i) === 'msg-lost' && MESSAGE_TYPES[t.aux[i]!] === 'produce',
      );
      if (lostReq !== undefined && normalizeAcks(s.producer.acks) === '0') {
        const f = this.index.rootFault(lostReq);
        return {
          template: `the request carrying {id} was lost${f >= 0 ? ` (${this.faultText(f)})` : ''} → with acks=0 the producer considers a record sent as soon as it is on the socket and never retries`,
          entries: [lostReq, f],
        };
      }
      const failed = entries.find(
        (i) => this.index.kind(i) === 'app-send-failed' || this.index.kind(i) === 'batch-failed',
      );
      if (failed !== undefined) {
        const code = ERROR_CODES[t.aux[failed]!];
        const then = `the application ${s.producer.app.onFailure === 'halt' ? 'stopped' : 'moved on without it (app.onFailure=skip)'}`;
        if (code === 'DELIVERY_TIMEOUT') {
          const reject = this.index.lastReject(failed);
          const code = reject >= 0 ? ERROR_CODES[t.aux[reject]!] : undefined;
          // A connection the broker's crash closed: name the broker, not just the code.
          const peer = reject >= 0 && code === 'NETWORK_EXCEPTION' ? t.peer[reject]! : -1;
          const kept =
            peer >= 0
              ? `while the producer kept retrying after ${t.actors[peer]} crashed${crashCause(this.faultOfCrash(this.index.prevOf('crash', reject, peer)))} and closed the connection (NETWORK_EXCEPTION)`
              : reject >= 0
                ? `while the producer kept retrying ${code}`
                : 'before the batch was acknowledged';
          return {
            template: `the send of {id} failed with DELIVERY_TIMEOUT: delivery.timeout.ms (${s.producer['delivery.timeout.ms']} ms) passed ${kept}, and ${then}`,
            entries: reject >= 0 ? [failed, reject] : [failed],
          };
        }
        // Failed with a connection the producer closed because an earlier request on it timed
        // out (clientRequests.closeConnection: the failure's cause is that request's
        // REQUEST_TIMED_OUT): say whose request, and why it had no answer.
        const closedBy = t.cause[failed]!;
        if (
          code === 'NETWORK_EXCEPTION' &&
          closedBy >= 0 &&
          this.index.kind(closedBy) === 'reject' &&
          ERROR_CODES[t.aux[closedBy]!] === 'REQUEST_TIMED_OUT' &&
          t.event[closedBy] !== t.event[failed]
        ) {
          const other = this.run.events.identityId(this.run.events.identity[t.event[closedBy]!]!);
          const request = t.cause[closedBy]!;
          const f = request >= 0 ? this.index.rootFault(request) : -1;
          const why =
            request >= 0 && this.index.kind(request) === 'msg-lost'
              ? ` (it was lost${f >= 0 ? `: ${this.faultText(f)}` : ''}; the requests behind it on the connection never reached the broker either)`
              : '';
          const retried = s.producer.retries === 0 ? ', not retried (retries=0)' : '';
          return {
            template: `the request of ${other}, sent before the request of {id} on the same connection, got no answer within request.timeout.ms${why} → the producer closed the connection, failing the request of {id} too (NETWORK_EXCEPTION)${retried} → ${then}`,
            entries: [failed, closedBy, ...(f >= 0 ? [f] : [])],
          };
        }
        return { template: `the send of {id} failed (${code}) and ${then}`, entries: [failed] };
      }
      const crash = this.findCrash('producer', sends[sends.length - 1]!);
      if (crash >= 0)
        return {
          template: `the producer crashed with {id} still buffered or in flight, and nobody sent it again (app.onFailure=${s.producer.app.onFailure})`,
          entries: [sends[0]!, crash],
        };
      return { template: '{id} never reached the broker', entries: [sends[0]!] };
    }
    // In the log, but not at the end of the pipeline.
    const merged = this.ctx.sinks.falseMerge(j);
    if (merged) return merged;
    const reader = this.ctx.transactions.readerOf();
    const skip = entries.find(
      (i) => this.index.kind(i) === 'row-skip' && this.ctx.primaryActors.has(t.actor[i]!),
    );
    if (skip !== undefined) {
      const r = SKIP_REASONS[t.aux[skip]!];
      if (r === 'txn-version')
        return {
          template: `the write of {id}'s batch was skipped: the Delta table already had txnVersion ≥ this batch id for txnAppId "${s.sink.type === 'delta' ? s.sink.txnAppId : ''}" (the checkpoint was reset and batch ids started again from 0)`,
          entries: [skip],
        };
      if (r === 'file-sink-log')
        return {
          template: `the write of {id}'s batch was skipped: the file sink's log (_spark_metadata) already listed that batch id as written (the checkpoint was reset and batch ids started again from 0)`,
          entries: [skip],
        };
      return { template: `the write of {id} was skipped: ${SKIP_WORDS[r!]}`, entries: [skip] };
    }
    const stmtErr = this.ctx.sinks.stmtErrorFor(j) ?? this.ctx.sinks.unansweredStatementSkipped(j);
    if (stmtErr) return stmtErr;
    const loss = entries.find((i) => this.index.kind(i) === 'data-loss');
    if (loss !== undefined)
      return {
        template: `{id} was in a transaction that expired before the recovered job could commit it (transaction.timeout.ms) → data loss`,
        entries: [loss],
      };
    if (reader && reader['isolation.level'] === 'read_committed') {
      const outs = this.records(j, reader.topic);
      const open = outs.find(
        (r) => r.txn >= 0 && this.ctx.transactions.outcome(reader.topic, r.p, r.txn) === 'open',
      );
      if (open) {
        const waiting = this.ctx.transactions.markerWaiting(reader.topic, open.p, open.txn);
        if (waiting)
          return {
            template: `{id} is in transaction ${open.txn}: ${waiting.text} → read_committed readers stop at the last stable offset, so ${reader.name} has not seen it (nor anything after it)`,
            entries: [open.append, ...waiting.entries],
          };
        return {
          template: `{id} is in transaction ${open.txn}, which is still open → read_committed readers stop at the last stable offset, so ${reader.name} has not seen it (nor anything after it)`,
          entries: [open.append],
        };
      }
      const aborted = outs.find(
        (r) => r.txn >= 0 && this.ctx.transactions.outcome(reader.topic, r.p, r.txn) === 'aborted',
      );
      if (
        aborted &&
        outs.every(
          (r) =>
            r.txn >= 0 && this.ctx.transactions.outcome(reader.topic, r.p, r.txn) === 'aborted',
        )
      ) {
        // Written again and again, each time into a transaction that never committed: the story
        // is why no checkpoint covering it completed, not the first abort.
        const firstProcess = entries.find((i) => this.index.kind(i) === 'process');
        if (outs.length > 1 && s.processor.type === 'flink' && firstProcess !== undefined) {
          const story = this.ctx.flink.flinkNeverCommitted(firstProcess);
          if (story) return story;
        }
        const loss = this.ctx.transactions.dataLossFor(aborted.txn);
        // A sink on the legacy TwoPhaseCommitSinkFunction whose recovery commit throws, without
        // ignoreFailuresAfterTransactionTimeout(), rethrows when it finds the transaction
        // aborted: the job fails at every restore.
        const sink = s.sink;
        const failing =
          s.processor.type === 'flink' &&
          sink.type === 'kafka' &&
          sink.deliveryGuarantee === 'EXACTLY_ONCE' &&
          !sink.ignoreFailuresAfterTransactionTimeout
            ? this.ctx.flink.restartsOf('flink')
            : 0;
        const tail =
          loss >= 0
            ? ' → the recovered job could no longer commit it: data loss'
            : failing > 1
              ? ` → on recovery its commit failed and, without ignoreFailuresAfterTransactionTimeout, the job failed at every restore (${failing} restarts): {id} was never written again`
              : outs.length > 1
                ? `, and each of its ${outs.length} writes ended in an aborted transaction`
                : ', and {id} was never written again';
        return {
          template: `${this.ctx.transactions.abortReason(aborted.txn)}${tail}`,
          entries: [aborted.append, loss],
        };
      }
      if (outs.length > 0) {
        const lso = this.ctx.transactions.blockedByLso(reader.topic, outs[0]!.p, outs[0]!.o);
        if (lso) return lso;
      }
    }
    const late = this.ctx.streamDedupe.droppedLate(j);
    if (late) return late;
    const processed = entries.filter((i) => this.index.kind(i) === 'process');
    if (processed.length === 0) {
      const latest = this.ctx.spark.startedAtLatest(input[0]!);
      if (latest) return latest;
      const reset = this.ctx.spark.checkpointReset();
      if (reset >= 0 && s.processor.type === 'spark' && s.processor.startingOffsets === 'latest')
        return {
          template: `the checkpoint location was deleted before {id} was read → the query started again with startingOffsets=latest, after {id}`,
          entries: [reset, input[0]!.append],
        };
      const ahead = this.ctx.commits.committedAhead(j, input[0]!);
      if (ahead) return ahead;
      const skipped = this.ctx.commits.resetPast(input[0]!);
      if (skipped) return skipped;
      const refused = this.ctx.transactions.initRefused(null);
      if (refused)
        return {
          template: `{id} is in the log but was never processed: ${refused.text} → ${
            refused.actor === 'flink'
              ? 'the sink writer could not start, so the job failed at every start'
              : `initTransactions threw and ${refused.actor} stopped`
          }`,
          entries: [refused.entry, input[0]!.append],
        };
      const blocked = this.ctx.sinks.blockedByFailedStatement();
      if (blocked) return blocked;
      const failed = this.ctx.flink.flinkFailedForGood();
      if (failed)
        return {
          template: `{id} is in the log but was never processed: flink crashed${failed.cause} and ${failed.why}`,
          entries: [failed.crash, input[0]!.append],
        };
      if (this.run.cutOff)
        return {
          template: `{id} is in the log but had not been processed when the run was cut off at ${this.run.endTime} ms with work still pending (${this.cutOffWhy()})${this.crashLoop()}`,
          entries: [input[0]!.append],
        };
      return {
        template: '{id} is in the log but was never processed',
        entries: [input[0]!.append],
      };
    }
    if (s.processor.type === 'flink') {
      const story = this.ctx.flink.flinkNeverCommitted(processed[0]!);
      if (story) return story;
    }
    const crash = this.findCrash(this.actorName(processed[0]!), processed[0]!);
    if (crash >= 0)
      return {
        template: `{id} was processed, but ${this.actorName(processed[0]!)} crashed before its write was durable, and its offset had already been committed`,
        entries: [processed[0]!, crash],
      };
    return { template: `{id} never reached ${this.v.primary}`, entries: [input[0]!.append] };
  }

  private truncation(j: number): Story | null {
    const t = this.t;
    const sends = this.index.entriesOf(j).filter((i) => this.index.kind(i) === 'app-send');
    // An append of one of its batches later cut by a leader change.
    for (const i of this.index.ofKind('truncate')) {
      for (const s of sends) {
        const held = this.cutRecordOf(s, i);
        if (!held) continue;
        const c = held.append;
        const sc = this.run.scenario;
        const acks = normalizeAcks(sc.producer.acks);
        // The leader that appended it, its crash (the fault behind it, when one did), and
        // the broker elected in its place (the truncation's cause is that election).
        const oldLeader = t.actor[c]!;
        const crash = this.index.prevOf('crash', i, oldLeader);
        const f = this.index.rootFault(crash >= 0 ? crash : i);
        const le = t.cause[i]!;
        const next = le >= 0 && this.index.kind(le) === 'leader' ? `broker-${t.aux[le]}` : null;
        // Records below the old high watermark were cut: only an unclean election does that.
        const unclean = this.index.childrenOf(i).some((x) => this.index.kind(x) === 'data-loss');
        // A plain scheduled crash of that broker needs no parenthesis ("broker-1 failed").
        const spec = f >= 0 ? sc.faults[t.aux[f]!] : undefined;
        const why = spec && (spec.id || spec.kind !== 'crash') ? ` (${this.faultText(f)})` : '';
        const failed = `${t.actors[oldLeader]} failed${why}`;
        const written = `{id} was written to the leader ${t.actors[oldLeader]} (offset ${held.offset})`;
        return {
          template: unclean
            ? `${written} while no follower was in sync (min.insync.replicas=${sc.broker['min.insync.replicas']}), so it was ${acks === '0' ? 'sent' : 'acknowledged'} without a copy → ${failed}, and with unclean.leader.election.enable=true the out-of-sync ${next ?? 'follower'} was elected leader although it never had {id}: {id} was cut from the log`
            : `${written}${acks === '1' ? ' and acknowledged with acks=1' : ''} but not yet copied to a follower → ${failed} and the new leader${next ? ` ${next}` : ''}, which never had it, became the reference: {id} was cut from the log`,
          entries: [c, ...(f >= 0 ? [f] : []), ...(crash >= 0 ? [crash] : []), i],
        };
      }
    }
    return null;
  }

  /**
   * The append that wrote the record of 'app-send' entry `send` at an offset 'truncate' entry
   * `trunc` cut, and that offset; null when none did. A batch's request and append carry its
   * first send only: a record's place in the batch is its rank among the producer's sends to the
   * partition since that first send (records join a partition's batch in send order).
   */
  private cutRecordOf(send: number, trunc: number): { append: number; offset: number } | null {
    const t = this.t;
    const from = t.offset[trunc]!;
    const cut = (o: number) => o >= from && o < from + t.count[trunc]!;
    // Its own batch's appends (the send is the batch's first): the batch overlapping the cut.
    for (const c of this.childrenOfSend(send))
      if (
        this.index.kind(c) === 'append' &&
        t.partition[c] === t.partition[trunc] &&
        t.offset[c]! + t.count[c]! > from &&
        t.offset[c]! < from + t.count[trunc]!
      )
        return { append: c, offset: t.offset[c]! };
    if (t.topic[send] !== t.topic[trunc] || t.partition[send] !== t.partition[trunc]) return null;
    const appends = this.index.ofKind('append');
    for (let x = firstAtOrAfter(appends, send); x < appends.length && appends[x]! < trunc; x++) {
      const c = appends[x]!;
      if (t.topic[c] !== t.topic[trunc] || t.partition[c] !== t.partition[trunc]) continue;
      const first = this.index.upTo('app-send', c);
      if (first < 0 || first >= send || t.actor[first] !== t.actor[send]) continue;
      const rank = this.sendsBetween(first, send);
      if (rank < t.count[c]! && cut(t.offset[c]! + rank))
        return { append: c, offset: t.offset[c]! + rank };
    }
    return null;
  }

  /** How many sends to the partition of 'app-send' entry `to`, by its producer, from `from` on. */
  private sendsBetween(from: number, to: number): number {
    const t = this.t;
    const sends = this.index.ofKind('app-send');
    let n = 0;
    for (let x = firstAtOrAfter(sends, from); x < sends.length && sends[x]! < to; x++) {
      const s = sends[x]!;
      if (
        t.actor[s] === t.actor[to] &&
        t.topic[s] === t.topic[to] &&
        t.partition[s] === t.partition[to]
      )
        n++;
    }
    return n;
  }

  /** Appends descending from an 'app-send' entry (through batches, messages, retries). */
  private childrenOfSend(send: number): number[] {
    const out: number[] = [];
    const queue = [send];
    const seen = new Set<number>();
    while (queue.length > 0 && out.length < 50) {
      const x = queue.shift()!;
      for (const c of this.index.childrenOf(x)) {
        if (seen.has(c)) continue;
        seen.add(c);
        const k = this.index.kind(c);
        if (k === 'append') out.push(c);
        if (k === 'msg' || k === 'retry' || k === 'reject') queue.push(c);
      }
    }
    return out;
  }

  /**
   * A processor that crashed again and again before a cut-off run's stop, in words (" — meanwhile
   * consumer-0 crashed 598,220 times, …"), or '' (fewer than 10 crashes: not a loop). A run kept
   * busy by a crash loop would otherwise be explained by its stop alone.
   */
  private crashLoop(): string {
    const t = this.t;
    const counts = new Map<number, number>();
    for (const i of this.index.ofKind('crash'))
      if (this.isProcessor(i)) counts.set(t.actor[i]!, (counts.get(t.actor[i]!) ?? 0) + 1);
    let who = -1;
    let most = 0;
    for (const [a, n] of counts)
      if (n > most) {
        who = a;
        most = n;
      }
    if (most < 10) return '';
    const type = this.run.scenario.processor.type;
    const again =
      type === 'flink'
        ? 'restoring its last completed checkpoint each time'
        : type === 'spark'
          ? 'running its uncommitted batch again each time'
          : 'starting again from its last committed offset each time';
    return ` — meanwhile ${t.actors[who]} crashed ${groupDigits(most)} times, ${again}`;
  }

  /** Why the run was cut off, in words (for a parenthesis). */
  private cutOffWhy(): string {
    return this.run.cutOffBy === 'trace-limit'
      ? traceLimitWords(this.run, true)
      : this.run.cutOffBy === 'stuck'
        ? stuckWords(this.run)
        : 'stopAtMs, or the default: the last event or fault + 1 h';
  }
}
