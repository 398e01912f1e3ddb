/**
 * The source application (actor `producer`): it takes business events from upstream at their
 * times and hands them to its Kafka producer client ({@link ProducerClient}).
 *
 * What the application does around the client is where many duplicates come from, so it is
 * explicit: `app.mode` (fire-and-forget with a callback, or `send().get(timeout)` one at a time),
 * `app.onFailure` (skip, re-send the business event as a NEW record, or halt) and, for a
 * transactional producer, how events are grouped into transactions. An application re-send is not a
 * producer retry: "To take advantage of the idempotent producer, it is imperative to avoid
 * application level re-sends since these cannot be de-duplicated" (KafkaProducer javadoc,
 * https://kafka.apache.org/documentation/#producerapi).
 */
import { Actor, type PendingWork, type World } from './world';
import type { Cluster, Topic } from './broker/cluster';
import { errorIndex } from './broker/cluster';
import { ProducerClient, sourceClientConfig, type RecordListener } from './client';
import { effectiveIdempotence, normalizeAcks } from './scenario/producerRules';
import type { ErrorCode, SendCause } from './trace';
import { SEND_CAUSES } from './trace';
import { alloc } from './core/pool';
import { call } from './core/call';
import { writeAppSend, writeAppSendFailed, writeAppSendTxn } from './traceWriters';
import { NO_ENTRY, type EntryId, type EventId } from './ids';

interface Pending {
  event: EventId;
  why: SendCause;
  cause: EntryId;
}

/** The source application process with its producer client. */
export class SourceApp extends Actor implements RecordListener {
  readonly cfg: World['scenario']['producer'];
  client: ProducerClient;
  /** Next workload event to take from upstream (upstream keeps it until taken: durable). */
  private cursor = 0;
  /**
   * Per workload event: 1 + its latest 'app-send' entry while the application has not seen it
   * acknowledged, else 0 (a typed array: a million events cost 4 MB and no hashing).
   */
  private readonly unacked: Int32Array;
  /** Sends waiting their turn: re-sends, injected duplicates, carried-over transaction events. */
  private queue: Pending[] = [];
  /** Injected copies of events upstream has not handed over yet (see {@link inject}). */
  private afterOriginal: Pending[] = [];
  private halted = false;
  /** Whether a random fault copies events taken from upstream (asked once, not per event). */
  private readonly randomCopies: boolean;
  /** sync mode: the 'app-send' entry of the future the application is blocked on (-1: none). */
  private waitingFor = -1;
  private wakeAt = -1;
  // transactions
  private txnCount = 0;
  private txnBusy = false;
  private txnHung = false;

  constructor(
    world: World,
    private readonly cluster: Cluster,
    readonly topic: Topic,
  ) {
    super(world, 'producer');
    this.cfg = world.scenario.producer;
    const acks = normalizeAcks(this.cfg.acks);
    this.unacked = alloc(Int32Array, world.events.count);
    this.client = new ProducerClient(
      this,
      cluster,
      topic,
      sourceClientConfig(this.cfg, acks, effectiveIdempotence(this.cfg)),
    );
    this.client.onRecord = this;
    this.randomCopies = world.faults.drawsPerUpstreamEvent;
  }

  private get transactional(): boolean {
    return this.client.cfg.transactionalId !== null;
  }

  /** Start the application: producer id / initTransactions, then events. */
  start(): void {
    this.client.init(NO_ENTRY, call(this, this.ready), call(this, this.initFailed));
  }

  /**
   * What the application still waits for when the run ends (src/engine/stuck.ts): its client's
   * acknowledgements, the future its synchronous send() blocks on, the end of its transaction,
   * or events it still means to send. Stopped on purpose (app.onFailure=halt, initTransactions
   * refused), it waits for nothing; hung in its transaction by a fault, it waits forever.
   */
  override pendingWork(): PendingWork[] {
    if (this.halted) return [];
    const out: PendingWork[] = [];
    const client = this.client.pendingWork();
    if (client) out.push(client);
    if (this.txnHung)
      out.push({
        what: 'the end of its transaction (hung by a fault, it never ends it)',
        since: -1,
      });
    else if (this.txnBusy) out.push({ what: 'the end of its transaction', since: -1 });
    else if (this.waitingFor >= 0)
      out.push({ what: 'the answer to the send() it waits on', since: -1 });
    const left = this.queue.length + (this.world.events.count - this.cursor);
    if (left > 0 && out.length === 0)
      out.push({ what: `its turn to send ${left} more event(s)`, since: -1 });
    return out;
  }

  /** The client has its producer id (at `cause`): events go. */
  private ready(_a: undefined, _b: undefined, _c: undefined, cause: EntryId): void {
    this.pump(cause);
  }

  /** initTransactions threw (INVALID_TRANSACTION_TIMEOUT): the application stops sending. */
  private initFailed(): void {
    this.halted = true;
  }

  protected override onCrash(): void {
    // Records buffered or in flight in the client die with the process (F2).
  }

  protected override onRestart(cause: EntryId): void {
    const fresh = new ProducerClient(this, this.cluster, this.topic, this.client.cfg);
    fresh.onRecord = this;
    this.client = fresh;
    this.waitingFor = -1;
    this.txnBusy = false;
    // A new process: not stalled in the old one's transaction (a hang fault), and sending again
    // after an application that stopped on a failure (app.onFailure=halt) — its initTransactions
    // aborts what the old one left open (KafkaProducer#initTransactions). A configuration that
    // stopped the old one (initTransactions refused) stops this one the same way, in `init`.
    this.txnHung = false;
    this.halted = false;
    this.wakeAt = -1;
    const lost: [EventId, EntryId][] = [];
    for (let i = 0; i < this.unacked.length; i++)
      if (this.unacked[i]! > 0) lost.push([i as EventId, (this.unacked[i]! - 1) as EntryId]);
    this.unacked.fill(0);
    this.queue = this.queue.filter((q) => q.why === 'app-resend' || q.why === 'source-duplicate');
    if (this.cfg.app.onFailure === 'resend') {
      // The application never saw these acknowledged (or committed): it sends them again, from a
      // new producer session — nothing can recognise them as the same records.
      for (const [event, entry] of lost)
        this.queue.push({
          event,
          why: this.transactional ? 'txn-resend' : 'app-resend',
          cause: entry,
        });
    }
    fresh.init(cause, call(this, this.ready), call(this, this.initFailed));
  }

  /**
   * A fault: the application sends `event` again (F10), or the upstream emits it twice (F11). A
   * copy of an event upstream has not handed over yet waits for the original: a re-send or a
   * second emission comes after the first, even when both fall on the same millisecond.
   */
  inject(event: EventId, why: SendCause, cause: EntryId): void {
    if (event >= this.cursor) {
      this.afterOriginal.push({ event, why, cause });
      return;
    }
    this.queue.push({ event, why, cause });
    if (this.alive) this.pump(cause);
  }

  /**
   * Take the next workload event from upstream; copies waiting for it join the send queue, and so
   * does a copy a random `app-resend` or `source-duplicate` makes of it (sent right after it).
   */
  private takeNext(cause: EntryId): EventId {
    const event = this.cursor++ as EventId;
    if (this.afterOriginal.length > 0) {
      const ready = this.afterOriginal.filter((p) => p.event < this.cursor);
      if (ready.length > 0) {
        this.afterOriginal = this.afterOriginal.filter((p) => p.event >= this.cursor);
        this.queue.push(...ready);
      }
    }
    if (this.randomCopies)
      this.world.faults.takenFromUpstream(event, cause, (why, fe) =>
        this.queue.push({ event, why, cause: fe }),
      );
    return event;
  }

  private wake(at: number): void {
    if (this.wakeAt >= 0 && this.wakeAt <= at) return;
    this.wakeAt = at;
    this.later(at - this.world.now, this.woken, at);
  }

  /** The wake-up set for `at` (ignored if a later {@link wake} replaced it). */
  private woken(at: number): void {
    if (this.wakeAt !== at) return;
    this.wakeAt = -1;
    this.pump(NO_ENTRY);
  }

  /** Hand over whatever is due, as the mode allows. */
  private pump(cause: EntryId): void {
    if (!this.client.ready || this.halted || !this.alive || this.client.fatalError) return;
    if (this.transactional) return this.pumpTransactional(cause);
    const w = this.world;
    const ev = w.events;
    const sync = this.cfg.app.mode === 'sync';
    for (;;) {
      if (sync && this.waitingFor >= 0) return;
      const q = this.queue.shift();
      if (q) {
        this.appSend(q.event, q.why, q.cause);
        continue;
      }
      if (this.cursor >= ev.count) return;
      const at = ev.at[this.cursor]!;
      if (at > w.now) return this.wake(at);
      this.appSend(this.takeNext(cause), 'first', cause);
    }
  }

  private traceSend(event: EventId, why: SendCause, cause: EntryId): EntryId {
    const w = this.world;
    const e = writeAppSend(
      w.trace,
      w.now,
      this.id,
      cause,
      event,
      this.topic.index,
      this.client.partitionOf(event),
      why === 'first' ? 0 : SEND_CAUSES.indexOf(why),
    );
    this.unacked[event] = e + 1;
    return e;
  }

  private appSend(event: EventId, why: SendCause, cause: EntryId): void {
    const e = this.traceSend(event, why, cause);
    if (this.cfg.app.mode === 'sync') {
      this.waitingFor = e;
      this.later(this.cfg.app['get.timeout.ms']!, this.getTimedOut, event, e);
    }
    this.client.send(event, e);
  }

  /** A synchronous send's `get()` gave up waiting (unless its answer came first). */
  private getTimedOut(event: EventId, e: EntryId): void {
    if (this.waitingFor !== e) return;
    this.waitingFor = -1;
    this.onFailure(event, 'APP_GET_TIMEOUT', e);
  }

  /** The client settled a record (the future completed, or the callback ran). */
  recordSettled(
    event: EventId,
    sendEntry: EntryId,
    ok: boolean,
    error: ErrorCode,
    cause: EntryId,
  ): void {
    // In a transaction an acknowledged record is not yet written for good: only the commit
    // settles it (finishTransaction). A process that dies before then sends it again.
    if (this.transactional) return;
    if (ok && this.unacked[event] === sendEntry + 1) this.unacked[event] = 0;
    if (this.cfg.app.mode === 'sync') {
      if (this.waitingFor !== sendEntry) return; // nobody waits on this future any more
      this.waitingFor = -1;
      if (ok) this.pump(cause);
      else this.onFailure(event, error, cause);
    } else if (!ok) {
      this.onFailure(event, error, cause);
    }
  }

  /** The application sees a failed send (or gave up waiting) and applies `app.onFailure`. */
  private onFailure(event: EventId, error: ErrorCode, cause: EntryId): void {
    const w = this.world;
    const e = writeAppSendFailed(
      w.trace,
      w.now,
      this.id,
      cause,
      event,
      this.topic.index,
      errorIndex(error),
    );
    switch (this.cfg.app.onFailure) {
      case 'resend':
        this.queue.push({ event, why: 'app-resend', cause: e });
        break;
      case 'halt':
        this.halted = true;
        return;
      case 'skip':
        this.unacked[event] = 0;
        break;
    }
    this.pump(e);
  }

  /**
   * Transactional application: begin → send up to `eventsPerTransaction` events → commit (or
   * abort / hang, as the fault schedule says). An aborted transaction's events go into the next.
   */
  private pumpTransactional(cause: EntryId): void {
    if (this.txnBusy || this.txnHung) return;
    const w = this.world;
    const ev = w.events;
    const per = this.cfg.app.eventsPerTransaction;
    let due = 0;
    while (
      this.cursor + due < ev.count &&
      ev.at[this.cursor + due]! <= w.now &&
      this.queue.length + due < per
    )
      due++;
    const available = this.queue.length + due;
    const more = this.cursor + due < ev.count;
    if (available === 0 || (available < per && more)) {
      if (more) this.wake(ev.at[this.cursor + due]!);
      return;
    }
    const group: Pending[] = this.queue.splice(0, per);
    while (group.length < per && this.cursor < ev.count && ev.at[this.cursor]! <= w.now)
      group.push({ event: this.takeNext(cause), why: 'first', cause });
    if (!this.client.beginTransaction()) {
      this.halted = true;
      return;
    }
    this.txnCount++;
    this.txnBusy = true;
    const n = this.txnCount;
    const sent: { event: EventId; entry: EntryId }[] = [];
    for (const g of group) {
      const e = this.traceSend(g.event, g.why, g.cause);
      this.client.send(g.event, e);
      writeAppSendTxn(w.trace, e, this.client.txn?.no ?? -1);
      sent.push({ event: g.event, entry: e });
    }
    this.client.flush(call(this, this.finishTransaction, n, sent, cause));
  }

  private finishTransaction(
    n: number,
    sent: { event: EventId; entry: EntryId }[],
    cause: EntryId,
  ): void {
    const w = this.world;
    const fate = w.faults.transactionFate(n);
    if (fate.fate === 'hang') {
      // The application stalls with its transaction open; only the coordinator's timeout ends it.
      this.txnHung = true;
      w.faults.fire(fate.index, cause);
      return;
    }
    const fe = fate.fate === 'abort' ? w.faults.fire(fate.index, cause) : cause;
    this.client.endTransaction(
      fate.fate === 'commit',
      fe,
      call(this, this.transactionEnded, sent),
      {
        beforeEnd: call(this, this.beforeCommit),
        afterSent: call(this, this.afterCommitDecision),
      },
    );
  }

  /** The transaction of `sent` ended (at `c`): committed, or its events go into the next. */
  private transactionEnded(
    sent: { event: EventId; entry: EntryId }[],
    _b: undefined,
    _c: undefined,
    committed: boolean,
    c: EntryId,
  ): void {
    this.txnBusy = false;
    if (committed) {
      for (const s of sent) if (this.unacked[s.event] === s.entry + 1) this.unacked[s.event] = 0;
    } else {
      for (const s of sent) this.queue.push({ event: s.event, why: 'txn-resend', cause: c });
    }
    this.pump(c);
  }

  /** Just before EndTxn leaves: a crash point (true: the process died there). */
  private beforeCommit(_a: undefined, _b: undefined, _c: undefined, c: EntryId): boolean {
    return this.world.faults.crashPoint(this, 'producer', 'before-commit-transaction', c);
  }

  /** Just after EndTxn left: a crash point. */
  private afterCommitDecision(_a: undefined, _b: undefined, _c: undefined, c: EntryId): void {
    this.world.faults.crashPoint(this, 'producer', 'after-commit-decision', c);
  }
}
