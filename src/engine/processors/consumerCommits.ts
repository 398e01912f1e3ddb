/**
 * A consumer's offset commits — commitSync and commitAsync as OffsetCommit round trips to the
 * group coordinator, with their timeouts and retries — and the per-partition state they
 * commit from: the first layer of the loop's class, whose last is {@link ConsumerInstance}
 * (src/engine/processors/consumer.ts).
 * Each call in progress is a record its timers and messages name, so a snapshot copies it
 * (docs/ARCHITECTURE.md, "Pending work and forks").
 */
import { Actor, type Timer } from '../world';
import type { Topic } from '../broker/cluster';
import { errorIndex } from '../broker/cluster';
import type { ConsumerGroup } from './group';
import { FETCH_REQUEST_TIMEOUT_MS } from './fetch';
import type { ErrorCode } from '../trace';
import { retryBackoff } from '../client';
import { writeCommit, writeCommitFailed, writeReject } from '../traceWriters';
import { NO_EVENT, type ActorId, type EntryId } from '../ids';
import { call } from '../core/call';
import { answer, reply, type Reply } from '../reply';

/**
 * Kafka consumer `default.api.timeout.ms` default (ms): how long commitSync() (and the other
 * blocking calls without a timeout argument) retries before it throws TimeoutException (KIP-266,
 * https://kafka.apache.org/documentation/#consumerconfigs_default.api.timeout.ms).
 */
export const DEFAULT_API_TIMEOUT_MS = 60_000;
/**
 * Kafka consumer `retry.backoff.ms` and `retry.backoff.max.ms` defaults (ms): the wait before a
 * retriable request is sent again, doubled per failed attempt up to the maximum (KIP-580,
 * https://kafka.apache.org/documentation/#consumerconfigs_retry.backoff.ms); Kafka's ±20 % jitter
 * is not drawn.
 */
const CONSUMER_RETRY_BACKOFF = { retryBackoffMs: 100, retryBackoffMaxMs: 1000 };

export interface PartState {
  /** Next offset poll() returns (the position committed by auto-commit). */
  position: number;
  /** Next offset to fetch. */
  fetchPos: number;
  /**
   * Fetched records not yet returned by poll(): `offsets[head..]` and their `events`, the fetch
   * response's own columns (no object per buffered record).
   */
  offsets: Int32Array;
  events: Int32Array;
  head: number;
  fetching: boolean;
  /** Caught up: waiting for the partition's readable end to move. */
  parked: boolean;
  revoking: boolean;
  /** Being given up: its final commit is in flight (a second revokeNow must not start another). */
  releasing: boolean;
  /** Parallel mode: offsets finished beyond the committed prefix. */
  done: Set<number>;
  /** Parallel mode: records started (in flight), by offset. */
  started: Set<number>;
  /** Last committed offset this instance knows. */
  committed: number;
  /**
   * Parallel and handoff modes with manual commits: the highest offset a commit was requested
   * for — for a hand-off worker, the offset after the last record it finished.
   */
  requested: number;
}

/** A consumer group member's state and offset commits (the loop: {@link ConsumerInstance}). */
export abstract class CommittingConsumer extends Actor {
  protected parts = new Map<number, PartState>();
  protected generation = 0;
  /** Set when the group expelled this instance (zombie): it does not know yet. */
  expelled = false;
  /** The poll timeout expired: this member left the group; its next poll() rejoins. */
  protected pollExpired = false;
  abstract readonly topic: Topic;
  abstract readonly group: ConsumerGroup;

  /**
   * An OffsetCommit round trip. commitAsync (`done` absent) sends it once: the client does not
   * retry it (its callback gets a RetriableCommitFailedException; committing again is the
   * application's call). commitSync (`done` given) waits for the answer; a
   * request unanswered after the consumer's `request.timeout.ms` ({@link FETCH_REQUEST_TIMEOUT_MS})
   * has its connection closed and, the error being retriable, is sent again — the same offsets,
   * which the group coordinator simply stores again — after `retry.backoff.ms`, doubling up to
   * `retry.backoff.max.ms`, until `default.api.timeout.ms` ({@link DEFAULT_API_TIMEOUT_MS}) has
   * passed since the call: then commitSync throws TimeoutException ("Timeout of 60000ms expired
   * before successfully committing offsets"), traced as a 'commit-failed' with COMMIT_TIMEOUT, and
   * the loop gives its work up as after a CommitFailedException (see {@link afterCommitFailed}).
   * ConsumerCoordinator.commitOffsetsSync; KIP-266
   * (https://cwiki.apache.org/confluence/display/KAFKA/KIP-266+Fix+consumer+indefinite+blocking+behavior);
   * https://kafka.apache.org/documentation/#consumerconfigs_default.api.timeout.ms
   */
  private commitRequest(offsets: Offsets, cause: EntryId, done: Reply<boolean> | null): void {
    const x: CommitCall = {
      offsets,
      done,
      deadline: this.world.now + DEFAULT_API_TIMEOUT_MS,
      over: false,
      deadlineTimer: null,
      timer: null,
      last: cause,
      n: 0,
      answered: false,
    };
    if (done) x.deadlineTimer = this.later(DEFAULT_API_TIMEOUT_MS, this.commitDeadline, x);
    this.commitAttempt(x, cause, 1);
  }

  /** Attempt `n` of a commit call. */
  private commitAttempt(x: CommitCall, c: EntryId, n: number): void {
    if (this.pollExpired) {
      // No generation since the poll timeout: the client fails the commit without sending it
      // (CommitFailedException).
      let l = c;
      for (const o of x.offsets) l = this.traceCommitFailed(this.id, c, o);
      this.commitOver(x, false, l);
      return;
    }
    x.n = n;
    x.answered = false;
    const m = this.sendCommit(x.offsets, c, reply(this, this.commitAnswered, x, n));
    if (!x.done) return;
    x.timer = this.later(FETCH_REQUEST_TIMEOUT_MS, this.commitTimedOut, x, m);
  }

  /** The answer to attempt `n`: an answer to an attempt that timed out comes on a closed connection, never read. */
  private commitAnswered(x: CommitCall, n: number, _c: undefined, ok: boolean, e: EntryId): void {
    if (n !== x.n || x.answered || x.over) return;
    x.answered = true;
    this.commitOver(x, ok, e);
  }

  /** The current attempt (its request `m`) got no answer within request.timeout.ms. */
  private commitTimedOut(x: CommitCall, m: EntryId): void {
    const w = this.world;
    x.timer = null;
    if (x.answered || x.over) return;
    x.answered = true;
    const first = x.offsets[0]!;
    x.last = writeReject(
      w.trace,
      w.now,
      this.id,
      m,
      NO_EVENT,
      this.topic.index,
      first.partition,
      first.offset,
      -1,
      errorIndex('REQUEST_TIMED_OUT'),
    );
    const backoff = retryBackoff(CONSUMER_RETRY_BACKOFF, x.n);
    // The retry would leave after the call's deadline: commitSync throws before that.
    if (w.now + backoff >= x.deadline) return;
    this.later(backoff, this.commitRetry, x, x.last);
  }

  private commitRetry(x: CommitCall, cause: EntryId): void {
    if (!x.over) this.commitAttempt(x, cause, x.n + 1);
  }

  /** `default.api.timeout.ms` since commitSync was called: it throws TimeoutException. */
  private commitDeadline(x: CommitCall): void {
    x.deadlineTimer = null;
    if (x.over) return;
    let l = x.last;
    for (const o of x.offsets) l = this.traceCommitFailed(this.id, x.last, o, 'COMMIT_TIMEOUT');
    this.commitOver(x, false, l);
  }

  /** The call has returned (answered, refused or timed out): later answers are not waited for. */
  private commitOver(x: CommitCall, ok: boolean, c: EntryId): void {
    const w = this.world;
    x.over = true;
    // Timers whose reason is gone: they would keep the run from settling.
    if (x.deadlineTimer) w.cancel(x.deadlineTimer);
    if (x.timer) w.cancel(x.timer);
    if (x.done) answer(x.done, ok, c);
  }

  /**
   * One OffsetCommit request: the coordinator stores each offset the member may still commit (its
   * generation owns the partition) and answers; `answer` gets ok (every offset stored) at the
   * consumer, in this incarnation. Returns the request's 'msg' entry.
   */
  private sendCommit(offsets: Offsets, cause: EntryId, ans: Reply<boolean>): EntryId {
    const first = offsets[0]!;
    const req: CommitRequest = {
      offsets,
      states: this.statesOf(offsets),
      answer: ans,
      inc: this.incarnation,
    };
    return this.world.send(
      this,
      this.group.coordinator,
      'commit',
      cause,
      this.world.carry(NO_EVENT, this.topic.index, first.partition, first.offset, offsets.length),
      call(this, this.commitArrives, req),
    );
  }

  /** The partition states `offsets` name (an indexed loop: a commit's request is frequent). */
  private statesOf(offsets: Offsets): (PartState | undefined)[] {
    const out = new Array<PartState | undefined>(offsets.length);
    for (let i = 0; i < offsets.length; i++) out[i] = this.parts.get(offsets[i]!.partition);
    return out;
  }

  /** At the group coordinator: store what the member may commit, and answer. */
  private commitArrives(req: CommitRequest, _b: undefined, _c: undefined, e: EntryId): void {
    const w = this.world;
    const coord = this.group.coordinator;
    let ok = true;
    for (const o of req.offsets) {
      if (this.group.mayCommit(this.name, o.partition) && !this.expelled) {
        coord.storeOffset(this.group.id, this.topic.index, o.partition, o.offset);
        writeCommit(
          w.trace,
          w.now,
          coord.id,
          e,
          this.topic.index,
          o.partition,
          o.offset,
          this.generation,
          this.id,
        );
      } else {
        ok = false;
        this.traceCommitFailed(coord.id, e, o);
      }
    }
    const first = req.offsets[0]!;
    w.sendMessage(
      coord,
      this,
      req.inc,
      'commit-response',
      e,
      w.carry(NO_EVENT, this.topic.index, first.partition, first.offset),
      call(this, this.commitResponse, req, ok),
      undefined,
    );
  }

  /** The coordinator's answer is back at the member. */
  private commitResponse(req: CommitRequest, ok: boolean, _c: undefined, e: EntryId): void {
    if (ok)
      for (let i = 0; i < req.offsets.length; i++) {
        const o = req.offsets[i]!;
        const s = req.states[i];
        if (s && o.offset > s.committed) s.committed = o.offset;
      }
    answer(req.answer, ok, e);
  }

  /**
   * A failed offset commit, written by `actor`: refused (CommitFailedException, the default), or
   * given up by commitSync after `default.api.timeout.ms` (COMMIT_TIMEOUT).
   */
  protected traceCommitFailed(
    actor: ActorId,
    cause: EntryId,
    o: { partition: number; offset: number },
    code: ErrorCode = 'COMMIT_FAILED',
  ): EntryId {
    const w = this.world;
    return writeCommitFailed(
      w.trace,
      w.now,
      actor,
      cause,
      this.topic.index,
      o.partition,
      o.offset,
      errorIndex(code),
    );
  }

  /** commitSync: wait for the answer. */
  protected commitSync(offsets: Offsets, cause: EntryId, done: Reply<boolean>): void {
    this.commitRequest(offsets, cause, done);
  }

  /** commitAsync / auto-commit: do not wait. */
  protected commitAsync(offsets: Offsets, cause: EntryId): void {
    this.commitRequest(offsets, cause, null);
  }
}

/** Offsets to commit, per partition. */
export type Offsets = { partition: number; offset: number }[];

/** One commitSync / commitAsync call in progress (see {@link CommittingConsumer.commitRequest}). */
interface CommitCall {
  offsets: Offsets;
  /** commitSync's continuation; null for commitAsync (nothing waits). */
  done: Reply<boolean> | null;
  /** When commitSync throws TimeoutException (virtual ms). */
  deadline: number;
  /** The call has returned: later answers are not waited for. */
  over: boolean;
  deadlineTimer: Timer | null;
  /** The current attempt's request.timeout.ms timer. */
  timer: Timer | null;
  /** What the last attempt's failure follows from. */
  last: EntryId;
  /** The current attempt (from 1), and whether it was answered or timed out. */
  n: number;
  answered: boolean;
}

/** One OffsetCommit request on its way (see {@link CommittingConsumer.sendCommit}). */
interface CommitRequest {
  offsets: Offsets;
  /** The partition states the offsets belong to, when sent. */
  states: (PartState | undefined)[];
  answer: Reply<boolean>;
  /** The member's incarnation that sent it (the answer goes to it). */
  inc: number;
}
