/**
 * Why an event took effect more than once: the producer's retries and re-sends, a replayed record,
 * a retried statement, a side effect, a downstream reader's own replay.
 */
import { ERROR_CODES, MESSAGE_TYPES, SEND_CAUSES, KIND_CODE } from '../trace';
import { effectiveIdempotence, normalizeAcks } from '../scenario/producerRules';
import { span, crashCause, countRepeats } from './words';
import { firstAtOrAfter } from './traceIndex';
import { StoryFamily, type Clause, type Story } from './story';

export class DuplicatedStories extends StoryFamily {
  // ------------------------------------------------------------------ duplicates

  whyDuplicated(j: number): Story {
    const s = this.run.scenario;
    const input = this.records(j, s.workload.topic);
    const steps: string[] = [];
    const cites: number[] = [];
    // 1. More than one record in the input log: where did the extra copies come from?
    if (input.length > 1) {
      const first = input[0]!;
      for (const r of input.slice(1)) {
        if (r.send === first.send) {
          const why = this.whyRetried(first.append, r.append);
          cites.push(first.append, r.append, ...why.entries);
          steps.push(
            `${why.text} → the producer retried the same batch → ${this.retryAppendedTwice()}`,
          );
        } else if (r.send >= 0) {
          steps.push(this.whySentAgain(r.send, cites));
        }
      }
    }
    // The processor's own dedupe let the copy through: its key had left the state.
    const passed = this.ctx.streamDedupe.passedAgain(j);
    if (passed) {
      steps.push(passed.template);
      cites.push(...passed.entries);
    }
    // 2. One record, several effects: replay or a retried statement.
    const rows = this.index
      .entriesOf(j)
      .filter(
        (i) =>
          (this.index.kind(i) === 'row-insert' ||
            this.index.kind(i) === 'effect' ||
            this.index.kind(i) === 'row-update') &&
          this.ctx.primaryActors.has(this.t.actor[i]!),
      );
    if (steps.length === 0 || rows.length > input.length) {
      const story = this.whyReplayed(j, rows);
      if (story) {
        steps.push(story.text);
        cites.push(...story.entries);
      }
    }
    // 3. A read_uncommitted reader also saw an aborted copy.
    const reader = this.ctx.transactions.readerOf();
    if (reader && reader['isolation.level'] === 'read_uncommitted') {
      const outTopic = s.sink.type === 'kafka' ? s.sink.topic : s.workload.topic;
      const outs = this.records(j, reader.topic === outTopic ? outTopic : reader.topic);
      const aborted = outs.filter(
        (r) => r.txn >= 0 && this.ctx.transactions.outcome(reader.topic, r.p, r.txn) === 'aborted',
      );
      if (aborted.length > 0) {
        const a = aborted[0]!;
        steps.push(
          `${this.ctx.transactions.abortReason(a.txn)}, but its copy of {id} stays in the log → ${reader.name.startsWith('the ') ? reader.name : `reader ${reader.name}`} reads with isolation.level=read_uncommitted, so it saw the aborted copy as well as the committed one`,
        );
        cites.push(a.append);
      }
    }
    // 4. The point is every record of a transactional output topic: copies that never committed
    // count there too, though a read_committed consumer never sees them.
    const uncommitted = this.ctx.transactions.uncommittedCopies(j);
    if (uncommitted) {
      steps.push(uncommitted.text);
      cites.push(...uncommitted.entries);
    }
    if (steps.length === 0) steps.push(`{id} took effect more than once at ${this.v.primary}`);
    const collapse = this.ctx.sinks.whyNotCollapsed();
    return {
      template: countRepeats(steps).join('; ') + (collapse ? ` → ${collapse}` : ''),
      entries: cites.filter((x) => x >= 0).slice(0, 12),
    };
  }

  /**
   * Why the producer retried the batch appended by `append` (and appended again by `again`): its
   * response was lost or late, or the broker crashed under it.
   */
  private whyRetried(append: number, again = -1): Clause {
    // The response leaves with the append as its cause; a fault that hit it sits in between.
    const responses = this.index
      .childrenOf(append)
      .flatMap((c) => (this.index.kind(c) === 'fault' ? this.index.childrenOf(c) : [c]));
    for (const c of responses) {
      const k = this.index.kind(c);
      if ((k !== 'msg-lost' && k !== 'msg') || MESSAGE_TYPES[this.t.aux[c]!] !== 'produce-response')
        continue;
      const f = this.index.rootFault(c);
      if (k === 'msg-lost')
        return {
          text: `the acknowledgement of {id} was lost${f >= 0 ? ` (${this.faultText(f)})` : ''}`,
          entries: [c, f],
        };
      if (f >= 0)
        return {
          text: `the acknowledgement of {id} came after request.timeout.ms (${this.faultText(f)})`,
          entries: [c, f],
        };
    }
    // acks=all: the ISR shrank below min.insync.replicas while the batch waited for it.
    const t = this.t;
    const afterAppend = ERROR_CODES.indexOf('NOT_ENOUGH_REPLICAS_AFTER_APPEND');
    const rejects = this.index.ofKind('reject');
    for (let x = firstAtOrAfter(rejects, append); x < rejects.length; x++) {
      const r = rejects[x]!;
      if (
        t.aux[r] === afterAppend &&
        t.event[r] === t.event[append] &&
        t.topic[r] === t.topic[append] &&
        t.partition[r] === t.partition[append]
      )
        return {
          text: `the in-sync replicas of partition ${t.partition[r]} fell below min.insync.replicas=${this.run.scenario.broker['min.insync.replicas']} before {id} was copied, so the leader answered NOT_ENOUGH_REPLICAS_AFTER_APPEND although {id} was in its log`,
          entries: [r],
        };
    }
    // The request timed out. Its own, or one sent before it on the same connection: the producer
    // then closes the connection, which fails every request in flight on it — {id}'s answer,
    // queued behind the missing one, is never read (NetworkClient; "the client will resend the
    // request if necessary", https://kafka.apache.org/documentation/#producerconfigs_request.timeout.ms).
    const retries = this.index.ofKind('retry');
    for (let x = firstAtOrAfter(retries, append); x < retries.length; x++) {
      const r = retries[x]!;
      if (
        t.event[r] !== t.event[append] ||
        t.topic[r] !== t.topic[append] ||
        t.partition[r] !== t.partition[append]
      )
        continue;
      const timedOut = t.cause[r]!;
      if (timedOut >= 0 && this.index.kind(timedOut) === 'reject' && t.peer[timedOut]! >= 0) {
        const reset = this.connectionReset(timedOut, append, again);
        if (reset) return reset;
      }
      if (
        timedOut < 0 ||
        this.index.kind(timedOut) !== 'reject' ||
        ERROR_CODES[t.aux[timedOut]!] !== 'REQUEST_TIMED_OUT'
      )
        break;
      const request = t.cause[timedOut]!;
      // The request arrived and its answer was lost on the way back: that answer's fault.
      const losts = this.index.ofKind('msg-lost');
      let answerLost = -1;
      if (request >= 0 && this.index.kind(request) !== 'msg-lost')
        for (let y = firstAtOrAfter(losts, request); y < losts.length && losts[y]! < timedOut; y++)
          if (
            MESSAGE_TYPES[t.aux[losts[y]!]!] === 'produce-response' &&
            t.event[losts[y]!] === t.event[request]
          ) {
            answerLost = losts[y]!;
            break;
          }
      const f =
        answerLost >= 0
          ? this.index.rootFault(answerLost)
          : request >= 0
            ? this.index.rootFault(request)
            : -1;
      const lost =
        request >= 0 && this.index.kind(request) === 'msg-lost'
          ? ` (the request was lost${f >= 0 ? `: ${this.faultText(f)}` : ''})`
          : answerLost >= 0
            ? ` (its answer was lost${f >= 0 ? `: ${this.faultText(f)}` : ''})`
            : f >= 0
              ? ` (${this.faultText(f)})`
              : '';
      const cites = [timedOut, ...(f >= 0 ? [f] : [])];
      if (t.event[timedOut] === t.event[append])
        return {
          text: `no answer to the request of {id} arrived within request.timeout.ms${lost}`,
          entries: cites,
        };
      const other = this.run.events.identityId(this.run.events.identity[t.event[timedOut]!]!);
      return {
        text: `no answer to the request of ${other} arrived within request.timeout.ms${lost} → the producer closed the connection, which failed the request of {id} in flight on it too`,
        entries: cites,
      };
    }
    return { text: 'no acknowledgement of {id} arrived within request.timeout.ms', entries: [] };
  }

  /**
   * A producer request failed with NETWORK_EXCEPTION because its broker's process crashed and
   * closed the connection (`reject`: the client's entry, peer = the broker): in words, with the
   * fault behind the crash, and — when the retry was appended again (`again`) — why the record
   * was still there: the broker came back with it in its log, or the new leader had a copy.
   * Sender.handleProduceResponse (`wasDisconnected()` → NETWORK_EXCEPTION, retried):
   * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/Sender.java
   */
  private connectionReset(reject: number, append: number, again: number): Clause | null {
    const t = this.t;
    if (ERROR_CODES[t.aux[reject]!] !== 'NETWORK_EXCEPTION') return null;
    const broker = t.peer[reject]!;
    const name = t.actors[broker] ?? 'the broker';
    const crash = this.index.prevOf('crash', reject, broker);
    const f = crash >= 0 ? this.index.rootFault(crash) : -1;
    const why = crash >= 0 ? crashCause(this.faultOfCrash(crash)) : '';
    let kept = '';
    if (again >= 0 && t.actor[again] === t.actor[append])
      kept = `, and ${name} came back with {id} still in its log`;
    else if (again >= 0)
      kept = `, and the new leader ${t.actors[t.actor[again]!]} had a copy of {id}`;
    return {
      text: `${name} crashed${why} before it answered: the connection closed and the request of {id} failed with NETWORK_EXCEPTION${kept}`,
      entries: [reject, ...(crash >= 0 ? [crash] : []), ...(f >= 0 ? [f] : [])],
    };
  }

  /** Why the application called send() for the business event again (entry `send`). */
  private whySentAgain(send: number, cites: number[]): string {
    const why = SEND_CAUSES[this.t.aux[send]!];
    cites.push(send);
    const cause = this.t.cause[send]!;
    switch (why) {
      case 'source-duplicate': {
        // Name the fault behind it when it has a label (its description would repeat the sentence).
        let f = cause >= 0 ? this.index.rootFault(cause) : -1;
        if (f >= 0 && !this.run.scenario.faults[this.t.aux[f]!]?.id) f = -1;
        if (f >= 0) cites.push(f);
        return `the upstream source emitted {id} twice${f >= 0 ? ` (${this.faultText(f)})` : ''} → two separate records in the log`;
      }
      case 'txn-resend': {
        return 'the transaction holding {id} did not commit → the application sent {id} again in a later transaction';
      }
      case 'app-resend': {
        let reason = 'the application sent {id} again';
        let crash = -1;
        let newSession = false;
        if (cause >= 0 && this.index.kind(cause) === 'app-send-failed') {
          const code = ERROR_CODES[this.t.aux[cause]!];
          cites.push(cause);
          if (code === 'APP_GET_TIMEOUT')
            reason = `the application's send().get() gave up waiting for the acknowledgement of {id} after ${this.run.scenario.producer.app['get.timeout.ms']} ms (its own timeout, not a Kafka setting) and sent it again`;
          else reason = `the send of {id} failed (${code}) and the application sent it again`;
          const f = this.index.rootFault(cause);
          if (f >= 0) reason = `${this.faultText(f)} → ${reason}`;
        } else if (cause >= 0 && this.index.kind(cause) === 'restart') {
          reason =
            'the producer crashed before it saw {id} acknowledged → after the restart the application sent it again from a new producer session';
        } else if ((crash = this.crashSince(cause, send)) >= 0) {
          // Re-sent after a restart: the send it repeats is its cause, the crash between them.
          const f = this.index.rootFault(crash);
          cites.push(crash, ...(f >= 0 ? [f] : []));
          newSession = true;
          reason = `the producer crashed${crashCause(this.faultOfCrash(crash))} before it saw {id} acknowledged → after the restart the application sent {id} again from a new producer session`;
        } else if (cause >= 0 && this.index.kind(cause) === 'fault') {
          // A random re-send names no event: say which one it copied.
          reason =
            this.run.scenario.faults[this.t.aux[cause]!]?.kind === 'random'
              ? `the application sent {id} again (${this.faultText(cause)})`
              : this.faultText(cause);
        }
        // A new session has a new producer id: the broker's duplicate check, by producer id and
        // sequence number, cannot match the copy to the record the old session wrote.
        if (newSession && effectiveIdempotence(this.run.scenario.producer))
          return `${reason} → it is a new record with a new producer id, which idempotence does not recognise (it deduplicates one producer id's retries; "application level re-sends cannot be de-duplicated")`;
        return effectiveIdempotence(this.run.scenario.producer)
          ? `${reason} → it is a new record (a new sequence number), which idempotence does not recognise ("application level re-sends cannot be de-duplicated")`
          : `${reason} → a second record of {id} in the log`;
      }
      default:
        return 'a second record of {id} was written';
    }
  }

  /**
   * Why the broker appended a retried batch again. With idempotence on (the producer's effective
   * setting, never the words "idempotence off"), only a batch numbered anew in a bumped epoch
   * escapes the broker's duplicate check (KIP-360: the retry carries a new epoch and sequence).
   * https://cwiki.apache.org/confluence/display/KAFKA/KIP-360%3A+Improve+reliability+of+idempotent%2Ftransactional+producer
   */
  private retryAppendedTwice(): string {
    if (effectiveIdempotence(this.run.scenario.producer))
      return 'the producer had bumped its epoch and numbered the batch from 0 again, so the broker did not recognise the retry as a duplicate and appended {id} a second time';
    return `with idempotence off (enable.idempotence=false${this.idemNote()}) the broker appended {id} a second time`;
  }

  private idemNote(): string {
    const p = this.run.scenario.producer;
    if (p['enable.idempotence'] === undefined && !effectiveIdempotence(p)) {
      if (normalizeAcks(p.acks) !== 'all') return `, implied by acks=${normalizeAcks(p.acks)}`;
      if (p.retries === 0) return ', implied by retries=0';
    }
    return '';
  }

  /**
   * The crash of the producer of 'app-send' entry `send` after entry `since` (the earlier send it
   * repeats), or -1.
   */
  private crashSince(since: number, send: number): number {
    if (since < 0 || this.index.kind(since) !== 'app-send') return -1;
    const crash = this.index.prevOf('crash', send, this.t.actor[send]!);
    return crash > since ? crash : -1;
  }

  /** Several effects from one record: a replay after a crash/rebalance, or a retried statement. */
  private whyReplayed(j: number, rows: number[]): Clause | null {
    const t = this.t;
    const s = this.run.scenario;
    if (rows.length < 2) {
      if (rows.length === 1 && this.index.kind(rows[0]!) === 'row-insert') return null;
    }
    // Processing attempts of this identity (by the processor, not by downstream readers).
    const processes = this.index
      .entriesOf(j)
      .filter((i) => this.index.kind(i) === 'process' && this.isProcessor(i));
    if (
      s.sink.type === 'table' &&
      s.sink.statement === 'on-conflict-do-update' &&
      s.sink.set === 'add-excluded' &&
      processes.length > 1
    ) {
      const story = this.ctx.consumer.replayStory(processes);
      return {
        text: `${story.text} → DO UPDATE SET amount = amount + EXCLUDED.amount added {id}'s amount a second time (one row, counted twice)`,
        entries: story.entries,
      };
    }
    // A second effect made before the record was processed again came from the first attempt (a
    // retried call), not from the replay (which may well have been answered as a no-op).
    const beforeReplay = rows.length >= 2 && processes.length > 1 && rows[1]! < processes[1]!;
    if (processes.length > 1 && !beforeReplay) return this.ctx.consumer.replayStory(processes);
    // Same processing attempt, two writes: the statement was retried after a lost answer.
    const retried = this.index
      .entriesOf(j)
      .find(
        (i) => this.index.kind(i) === 'reject' && ERROR_CODES[t.aux[i]!] === 'STATEMENT_TIMEOUT',
      );
    const lostResp = this.index
      .entriesOf(j)
      .find(
        (i) =>
          this.index.kind(i) === 'msg-lost' &&
          (MESSAGE_TYPES[t.aux[i]!] === 'sink-response' ||
            MESSAGE_TYPES[t.aux[i]!] === 'effect-response'),
      );
    if (lostResp !== undefined || retried !== undefined) {
      const f = lostResp !== undefined ? this.index.rootFault(lostResp) : -1;
      const what = s.sink.type === 'effect' ? 'call' : 'statement';
      let tail = 'it had been applied';
      const effects = this.index.entriesOf(j).filter((i) => this.index.kind(i) === 'effect');
      const sink = s.sink;
      if (sink.type === 'effect' && sink.idempotencyKey === 'business-id' && effects.length > 1) {
        const gap = t.time[effects[1]!]! - t.time[effects[0]!]!;
        if (gap >= sink.retentionMs)
          tail = `it had been applied, and the retry came ${span(gap)} later, after the service had pruned the idempotency key (kept ${span(sink.retentionMs)}), so the same key ${sink.service === 'email' ? 'sent a new email' : 'made a new charge'}`;
      }
      return {
        text: `${f >= 0 ? this.faultText(f) : 'no answer'} → the writer could not tell whether the ${what} for {id} had been applied and retried it after its timeout; ${tail}`,
        entries: [lostResp ?? -1, retried ?? -1, f],
      };
    }
    const effects = this.index.entriesOf(j).filter((i) => this.index.kind(i) === 'effect');
    if (effects.length > 1)
      return { text: 'the call for {id} was made more than once', entries: effects.slice(0, 3) };
    return null;
  }

  /** Why a side effect of the processor happened more than once for one event. */
  whyEffectRepeated(j: number): Story {
    const processes = this.index
      .entriesOf(j)
      .filter((i) => this.index.kind(i) === 'process' && this.isProcessor(i));
    const fx = this.run.scenario.processor.sideEffect;
    const svc = fx?.service === 'email' ? 'the email' : 'the card charge';
    const replay = processes.length > 1 ? this.ctx.consumer.replayStory(processes) : null;
    const why = replay
      ? `${replay.text}, so ${svc} for {id} was made again`
      : `${svc} for {id} was made more than once`;
    // What the call's idempotency key did: none to recognise the repeat, a new one per attempt,
    // or one from the event id that the service had pruned — it answers a key it still holds
    // from the saved result (https://docs.stripe.com/api/idempotent_requests).
    let key = 'it needs its own idempotency key';
    if (fx?.idempotencyKey === 'per-attempt')
      key =
        'its idempotency key was new on each attempt, so the service saw a new request: it needs a key derived from the event';
    else if (fx?.idempotencyKey === 'business-id') {
      const effects = this.index.entriesOf(j).filter((i) => this.index.kind(i) === 'effect');
      const gap = effects.length > 1 ? this.t.time[effects[1]!]! - this.t.time[effects[0]!]! : 0;
      key = `its idempotency key, from the event id, had been pruned: the service keeps a key ${span(fx.retentionMs)} and the repeat came ${span(gap)} later`;
    }
    return {
      template: `${why} → a side effect happens once per processing attempt: it is outside the exactly-once guarantee of the job's state and sink (${key})`,
      entries: replay?.entries ?? [],
    };
  }

  /**
   * Why downstream reader `index` (actor `actor`) copied {id} twice: it copied the record, went
   * back before committing its offset (a crash, in the cases the lab can make) and read it again
   * from where its group's committed offset put it — a consumer that processes before it saves
   * its position is at-least-once (https://kafka.apache.org/documentation/#semantics), the
   * reader's own replay. The copies the topic holds at the reader's isolation level are named, so
   * the sentence never hides a duplicate the pipeline made as well (explained on its own).
   */
  readerReplay(j: number, actor: number, index: number): Story {
    const t = this.t;
    const reader = this.run.scenario.readers[index]!;
    const ROW = KIND_CODE['row-insert'];
    const rows = this.index.entriesOf(j).filter((i) => t.kind[i] === ROW && t.actor[i] === actor);
    const b = rows.find((i) => t.count[i] === 0)!;
    const a =
      rows.find((i) => i < b && t.partition[i] === t.partition[b] && t.offset[i] === t.offset[b]) ??
      rows[0]!;
    let crash = -1;
    let assign = -1;
    for (let i = a + 1; i < b; i++) {
      if (t.actor[i] !== actor) continue;
      const k = this.index.kind(i);
      if (k === 'crash') crash = i;
      else if (k === 'assign' && crash >= 0 && t.partition[i] === t.partition[b]) assign = i;
    }
    const who = `reader ${reader.name}`;
    const went =
      crash >= 0
        ? `${who} crashed${crashCause(this.faultOfCrash(crash))} after copying {id} and before committing its offset`
        : `${who} copied {id} and started over before committing its offset`;
    const from =
      assign >= 0 ? this.ctx.consumer.startText(assign) : 'from its last committed offset';
    const committed = reader['isolation.level'] === 'read_committed';
    const log =
      this.v.points.find(
        (p) => p.name === `log:${reader.topic}${committed ? ':read_committed' : ''}`,
      ) ?? this.v.points.find((p) => p.name === `log:${reader.topic}`);
    const n = log ? log.rows[j]! : 1;
    const copies = `${n === 1 ? 'one' : n} ${committed ? 'committed ' : ''}cop${n === 1 ? 'y' : 'ies'}`;
    return {
      template: `${went} → it restarted ${from} → it read {id} again and copied it into its table a second time: the reader’s own replay (a consumer that processes before it commits is at-least-once), not the pipeline’s — topic ${reader.topic} holds ${copies} of {id}`,
      entries: crash >= 0 ? [a, crash, b] : [a, b],
    };
  }
}
