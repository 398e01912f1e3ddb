/**
 * What the sequence diagrams share: the run read for labels — names, record coordinates,
 * statement words, participants' order ({@link Reader}). The steps and their rendering are in
 * sequenceSteps.ts.
 */
import {
  CHECKPOINT_STEPS,
  END_STOP,
  END_TRACE_LIMIT,
  ERROR_CODES,
  MESSAGE_TYPES,
  SEND_CAUSES,
  SKIP_REASONS,
  TXN_STATES,
  describeFault,
  failoverCause,
  fencedExit,
  firstIdleCheckpoint,
  type FaultSpec,
  type Run,
  sinkWriteLabel,
  type Scenario,
  type Trace,
} from '../../engine';
import { idleCheckpointsWords, restoreWords } from './describe';
import { formatCountOf, rowNumber } from '../run/format';
import { shortName } from './mermaidText';
import { txnApi } from '../run/txnApi';

export const RESPONSES = new Set([
  'produce-response',
  'fetch-response',
  'commit-response',
  'sink-response',
  'effect-response',
  'txn-response',
]);

/**
 * A step a sequence diagram draws: a message arrow between two actors, or a note over some, in
 * words (escaped only when written: src/views/diagrams/sequenceSteps.ts's `render`).
 */
export type Step = (
  | { type: 'msg'; from: number; to: number; arrow: string }
  | {
      type: 'note';
      over: number[];
      /** A second line under the text (mermaid's `<br/>`). */
      more?: string;
    }
) & {
  text: string;
  /** Virtual time, written before the text ("30255 ms · produce p-4"); none: no stamp. */
  time?: number;
  /** The trace entry the step draws (a folded repeat: its first's; none: a step the diagram adds). */
  entry?: number;
  /** A colour drawn behind the step (mermaid's `rect`): the slide's duplicate or lost rows. */
  rect?: string;
};

/** Reads a run for labels: names, record coordinates, statement words. */
export class Reader {
  readonly t: Trace;
  readonly s: Scenario;
  private readonly lab: number;
  private readonly multiTopic: boolean;

  constructor(readonly run: Run) {
    this.t = run.trace;
    this.s = run.scenario;
    this.lab = this.t.actors.indexOf('lab');
    this.multiTopic = this.t.topics.length > 1;
  }

  isLab(actor: number): boolean {
    return actor === this.lab || actor < 0;
  }

  /** Per entry, 1 when another entry names it as its cause; built on first use. */
  private taken: Uint8Array | null = null;

  /**
   * Whether entry `i` led to anything: for a message, whether its receiver took it up. A produce
   * answer queued behind a missing one on its connection (TCP delivers in order) leads to nothing
   * when the timeout closes the connection (src/engine/clientRequests.ts, `onAnswer`).
   */
  hasEffect(i: number): boolean {
    if (!this.taken) {
      const t = this.t;
      const taken = new Uint8Array(t.length);
      for (let k = 0; k < t.length; k++) {
        const c = t.cause[k]!;
        if (c >= 0) taken[c] = 1;
      }
      this.taken = taken;
    }
    return this.taken[i] === 1;
  }

  /** Business id of workload event `e` (cut for display). */
  id(e: number): string {
    return e >= 0 && e < this.run.events.count ? shortName(this.run.events.id(e)) : '?';
  }

  /** "p-4", "p-4 +2" (a batch starting with p-4), or "3 records". */
  records(i: number): string {
    const e = this.t.event[i]!;
    const n = this.t.count[i]!;
    if (e < 0) return n > 0 ? formatCountOf(n, 'record') : '';
    return n > 1 ? `${this.id(e)} +${n - 1}` : this.id(e);
  }

  /** " payments-1" when the run has several topics or partitions, else "". */
  where(i: number): string {
    const topic = this.t.topic[i]!;
    const p = this.t.partition[i]!;
    if (topic < 0 || p < 0) return '';
    const name = this.t.topics[topic] ?? '?';
    const parts = this.run.state.cluster.topics.get(name)?.partitions.length ?? 1;
    return this.multiTopic || parts > 1 ? ` ${shortName(name)}-${p}` : '';
  }

  /** Display name of actor `a` for a participant box. */
  actorLabel(a: number): string {
    const name = this.t.actors[a] ?? '?';
    const s = this.s;
    if (name === 'sink') {
      const k = s.sink;
      if (k.type === 'table') return `sink (table ${shortName(k.name)})`;
      if (k.type === 'delta') return `sink (Delta table ${shortName(k.name)})`;
      if (k.type === 'file') return `sink (${k.format} files ${shortName(k.name)})`;
      return 'sink';
    }
    if (name === 'service') {
      const svc =
        s.sink.type === 'effect' ? s.sink.service : (s.processor.sideEffect?.service ?? 'service');
      return `service (${svc})`;
    }
    const m = /^reader-(\d+)$/.exec(name);
    if (m) {
      const r = s.readers[Number(m[1])];
      if (r) return `${name} (${shortName(r.name)}, ${r['isolation.level']})`;
    }
    return name;
  }

  statement(): string {
    return sinkWriteLabel(this.s.sink);
  }

  effectVerb(): string {
    const svc =
      this.s.sink.type === 'effect' ? this.s.sink.service : this.s.processor.sideEffect?.service;
    return svc === 'email' ? 'send email' : 'charge';
  }

  error(i: number): string {
    return ERROR_CODES[this.t.aux[i]!] ?? `error ${this.t.aux[i]}`;
  }

  /** The first entry after `from` (within a short window) whose cause is `from`, or -1. */
  firstChild(from: number, accept: (i: number) => boolean = () => true): number {
    const t = this.t;
    const end = Math.min(t.length, from + 256);
    for (let i = from + 1; i < end; i++) if (t.cause[i] === from && accept(i)) return i;
    return -1;
  }

  /** Actors a 'fault' entry hits: the endpoints of the message it drops, or the crashed actor. */
  faultActors(i: number): number[] {
    const t = this.t;
    const c = this.firstChild(i, (k) => !this.isLab(t.actor[k]!));
    if (c >= 0) {
      const kind = t.kindOf(c);
      if ((kind === 'msg' || kind === 'msg-lost') && t.peer[c]! >= 0)
        return [t.actor[c]!, t.peer[c]!];
      return [t.actor[c]!];
    }
    const cause = t.cause[i]!;
    if (cause >= 0 && !this.isLab(t.actor[cause]!)) return [t.actor[cause]!];
    return [];
  }

  /**
   * The row (or side effect) entry `i` wrote, by its number, and whether it updated a row there:
   * a row or effect entry's own, or a sink/effect response's — the first its request wrote. Null
   * for any other entry.
   */
  written(i: number): { row: number; updated: boolean } | null {
    const t = this.t;
    const own = rowWritten(t, i);
    if (own !== null || t.kindOf(i) !== 'msg') return own;
    const type = MESSAGE_TYPES[t.aux[i]!];
    const req = t.cause[i]!;
    if ((type !== 'sink-response' && type !== 'effect-response') || req < 0) return null;
    for (let k = req + 1; k < i; k++) {
      const w = t.cause[k] === req ? rowWritten(t, k) : null;
      if (w !== null) return w;
    }
    return null;
  }

  /** For a sink/effect response: what the request did at the receiver (inserted, skipped…). */
  outcome(response: number): string {
    const t = this.t;
    const req = t.cause[response]!;
    if (req < 0) return '';
    const parts: string[] = [];
    for (let i = req + 1; i < response; i++) {
      if (t.cause[i] !== req) continue;
      switch (t.kindOf(i)) {
        case 'row-insert':
          parts.push(`inserted row ${rowNumber(t.aux[i]!)}`);
          break;
        case 'row-update':
          parts.push(
            `updated row ${rowNumber(t.aux[i]!)}${t.count[i] === 1 ? '' : ' (same value)'}`,
          );
          break;
        case 'row-skip':
          parts.push(`no-op (${SKIP_REASONS[t.aux[i]!] ?? 'skipped'})`);
          break;
        case 'stmt-error':
          parts.push(`error ${this.error(i)}, rolled back`);
          break;
        case 'effect':
          parts.push(`effect ${t.aux[i]}`);
          break;
        case 'effect-replayed':
          parts.push('replayed from the idempotency store');
          break;
        default:
          break;
      }
    }
    if (parts.length > 2) return `${parts.slice(0, 2).join(', ')} …`;
    return parts.join(', ');
  }

  /** The label of a 'msg' / 'msg-lost' entry. */
  message(i: number): string {
    const t = this.t;
    const type = MESSAGE_TYPES[t.aux[i]!] ?? 'message';
    const recs = this.records(i);
    const where = this.where(i);
    const o = t.offset[i]!;
    const txn = t.txn[i]! >= 0 ? ` (txn ${t.txn[i]})` : '';
    switch (type) {
      case 'produce': {
        const cause = t.cause[i]!;
        const retry = cause >= 0 && t.kindOf(cause) === 'retry' ? ` (retry ${t.aux[cause]})` : '';
        return `produce ${recs}${where}${txn}${retry}`;
      }
      case 'produce-response': {
        // A refusal answers too (its cause is the broker's 'reject'): named by its error code.
        const cause = t.cause[i]!;
        if (cause >= 0 && t.kindOf(cause) === 'reject')
          return `${ERROR_CODES[t.aux[cause]!] ?? 'error'} ${recs}${where}`;
        return o >= 0 ? `ack ${recs}${where} offset ${o}` : `ack ${recs}${where}`;
      }
      case 'fetch':
        return `fetch${where} from offset ${o}`;
      case 'fetch-response':
        return t.count[i]! > 0 ? `${recs}${where} from offset ${o}` : `no records${where}`;
      case 'commit':
        return `commit offset ${o}${where}${this.resent(i)}`;
      case 'commit-response':
        return `committed offset ${o}${where}`;
      case 'sink-write': {
        // Flink's JDBC exactly-once sink also calls the database for its XA transactions: no
        // record, the xid (or none: the recovery after a restore), named by what asked for it.
        if (t.event[i]! < 0 && t.count[i]! < 0) {
          const c = t.cause[i]!;
          const xid = t.txn[i]!;
          if (xid < 0) return 'XA recovery: commit the restored, roll back the rest';
          if (c >= 0 && t.kindOf(c) === 'checkpoint') return `PREPARE TRANSACTION xid ${xid}`;
          return `COMMIT PREPARED xid ${xid}`;
        }
        return `${this.statement()} ${recs}`;
      }
      case 'sink-response': {
        const what = this.outcome(i);
        return what || 'OK';
      }
      case 'effect-call':
        return `${this.effectVerb()} ${recs}`;
      case 'effect-response': {
        const what = this.outcome(i);
        return what || 'OK';
      }
      // Outside a transaction, the call is InitProducerId: an idempotent producer's id and epoch
      // (a transactional one's too, before its first transaction).
      case 'txn-request':
        return t.txn[i]! >= 0
          ? `transaction ${t.txn[i]} request${this.resent(i)}`
          : `${txnApi(t.count[i]!)} request${this.resent(i)}`;
      case 'txn-response':
        return t.txn[i]! >= 0
          ? `transaction ${t.txn[i]} response`
          : `${txnApi(t.count[i]!)} response`;
      case 'replicate':
        return `replicate${where} from offset ${o}`;
      default:
        return MESSAGE_LABELS[type] ?? type;
    }
  }

  /**
   * ' (sent again)' for a request the client re-sent after its request timed out (its cause is
   * the client's REQUEST_TIMED_OUT 'reject', or the fault that then dropped it), else ''.
   */
  private resent(i: number): string {
    const t = this.t;
    let c = t.cause[i]!;
    if (c >= 0 && t.kindOf(c) === 'fault') c = t.cause[c]!;
    return c >= 0 && t.kindOf(c) === 'reject' && ERROR_CODES[t.aux[c]!] === 'REQUEST_TIMED_OUT'
      ? ' (sent again)'
      : '';
  }

  /** The text of a note for a non-message entry (null: the kind is not drawn as a note). */
  note(i: number): string | null {
    const t = this.t;
    const kind = t.kindOf(i);
    const where = this.where(i);
    const recs = this.records(i);
    const o = t.offset[i]!;
    const actor = this.t.actors[t.actor[i]!] ?? '?';
    switch (kind) {
      case 'app-send': {
        const why = SEND_CAUSES[t.aux[i]!] ?? 'first';
        if (why === 'first') return `application sends ${recs}`;
        if (why === 'app-resend') return `application sends ${recs} again (a new record)`;
        if (why === 'source-duplicate') return `upstream source emits ${recs} again`;
        return `application sends ${recs} again in a new transaction`;
      }
      case 'app-send-failed':
        return `send of ${recs} failed (${this.error(i)})`;
      case 'batch':
        return `batch ${recs}${where}`;
      case 'retry':
        return `retry ${recs} (attempt ${t.aux[i]})`;
      case 'ack':
        return o >= 0 ? `${recs} acknowledged, offset ${o}` : `${recs} acknowledged (no offset)`;
      case 'batch-failed':
        return `gave up on ${recs} (${this.error(i)})`;
      case 'append':
        return `appended ${recs}${where} at offset ${o}${t.txn[i]! >= 0 ? ` (txn ${t.txn[i]})` : ''}`;
      case 'dedupe':
        return `${recs} already written at offset ${o} · duplicate batch not appended`;
      case 'reject': {
        // A broker crash seen by its client: the connection reset, or an attempt refused.
        const code = ERROR_CODES[t.aux[i]!];
        const peer = t.peer[i]! >= 0 ? t.actors[t.peer[i]!] : undefined;
        if (peer && code === 'NETWORK_EXCEPTION')
          return `${peer} crashed → connection closed · ${recs ? `${recs} ` : `fetch${where} `}failed (NETWORK_EXCEPTION), retried`;
        if (code === 'OFFSET_NOT_AVAILABLE')
          return `ListOffsets latest${where} · OFFSET_NOT_AVAILABLE (the new leader's high watermark is behind its epoch's start) · asked again after retry.backoff.ms`;
        if (peer && code === 'CONNECTION_REFUSED')
          return `connection to ${peer} refused (down) · next try after reconnect.backoff.ms`;
        // A commit or transaction request that got no answer in time: named by the request.
        const c = t.cause[i]!;
        const kind = c >= 0 ? t.kindOf(c) : null;
        const type = kind === 'msg' || kind === 'msg-lost' ? MESSAGE_TYPES[t.aux[c]!] : null;
        if (!recs && (type === 'commit' || type === 'txn-request'))
          return `no answer to ${this.message(c)} · ${this.error(i)}`;
        return `${recs ? `${recs} · ` : ''}${this.error(i)}`;
      }
      case 'hw':
        return `high watermark${where} → ${o}`;
      case 'truncate':
        return `log${where} cut from offset ${o} (${formatCountOf(t.count[i]!, 'record')} lost)`;
      case 'leader':
        return t.aux[i]! < 0
          ? `no leader for${where || ' the partition'} · offline`
          : `broker-${t.aux[i]} becomes leader${where} (epoch ${t.txn[i]})`;
      case 'isr':
        return `broker-${t.aux[i]} ${t.count[i] === 1 ? 'rejoins' : 'leaves'} the ISR${where}`;
      case 'crash': {
        const why = failoverCause(t, i);
        if (why >= 0) return `✗ failover (checkpoint ${t.ckpt[why]} expired)`;
        return fencedExit(t, i) ? '✗ exits (producer fenced)' : '✗ crash';
      }
      case 'restart':
        return `restart (incarnation ${t.aux[i]})`;
      case 'stall':
        return `paused until ${t.until[i]} ms`;
      case 'fault':
        return `⚡ ${describeFault(shortFault(this.s.faults[t.aux[i]!]))}`;
      case 'poll':
        return `poll ${recs}${where} from offset ${o}`;
      case 'process':
        // Flink's process entries carry the keyed state: aux = key index, count = its new count.
        if (actor === 'flink')
          return `process ${recs} (offset ${o}, count for its key ${t.count[i]})`;
        return `process ${recs} (offset ${o}${t.aux[i]! > 0 ? `, incarnation ${t.aux[i]}` : ''})`;
      case 'row-insert':
        return `${recs} · new row ${rowNumber(t.aux[i]!)}`;
      case 'row-update':
        return `${recs} · row ${rowNumber(t.aux[i]!)} updated${t.count[i] === 1 ? '' : ' (same value)'}`;
      case 'row-skip':
        return `${recs} · no-op (${SKIP_REASONS[t.aux[i]!] ?? 'skipped'})`;
      case 'stmt-error':
        return `statement failed (${this.error(i)}), rolled back`;
      case 'commit':
        return `offset ${o}${where} committed`;
      case 'commit-failed':
        if (ERROR_CODES[t.aux[i]!] === 'COMMIT_TIMEOUT')
          return `commitSync of offset ${o}${where} gave up after default.api.timeout.ms (COMMIT_TIMEOUT)`;
        return `commit of offset ${o}${where} refused (${this.error(i)})`;
      case 'assign':
        return `${actor} reads${where || ' its partition'} from offset ${o}`;
      case 'revoke':
        return `${actor} gives up${where || ' its partition'}`;
      case 'txn':
        return `transaction ${t.txn[i]} ${TXN_STATES[t.aux[i]!] ?? '?'}`;
      case 'marker':
        return `${t.aux[i] === 1 ? 'COMMIT' : 'ABORT'} marker of transaction ${t.txn[i]}${where} at offset ${o}`;
      case 'fenced':
        return `fenced (epoch ${t.aux[i]})`;
      case 'checkpoint': {
        const step = CHECKPOINT_STEPS[t.aux[i]!] ?? '?';
        if (step === 'source-position')
          return `checkpoint ${t.ckpt[i]} holds${where} at offset ${o}`;
        if (step === 'idle') {
          const p = this.s.processor;
          const interval = p.type === 'flink' ? (p['execution.checkpointing.interval'] ?? 0) : 0;
          return idleCheckpointsWords(
            firstIdleCheckpoint(t, i),
            t.ckpt[i]!,
            t.until[i]!,
            interval,
            o,
          );
        }
        // The database's side of the JDBC exactly-once sink: its XA transaction of the epoch.
        if (t.actors[t.actor[i]!] === 'sink') {
          const xid = `xid ${t.txn[i]}`;
          if (step === 'pre-committed') return `PREPARE TRANSACTION ${xid} (${t.count[i]} rows)`;
          if (step === 'committed') return `COMMIT PREPARED ${xid} · rows visible`;
          if (step === 'aborted')
            return t.until[i]! >= 0
              ? `ROLLBACK PREPARED ${xid} (${t.count[i]} rows)`
              : `ROLLBACK of open ${xid} (${t.count[i]} rows)`;
        }
        return `checkpoint ${t.ckpt[i]} ${step}${o >= 0 ? ` (source offset ${o})` : ''}`;
      }
      case 'restore':
        return restoreWords(t.actors[t.actor[i]!]!, t.ckpt[i]!, o);
      case 'batch-planned':
        return `batch ${t.ckpt[i]} planned from offset ${o} (${t.count[i]} records)`;
      case 'batch-committed':
        return `batch ${t.ckpt[i]} committed`;
      case 'effect':
        return `${recs} · effect ${t.aux[i]} (${this.effectVerb() === 'charge' ? 'card charged' : 'email sent'})`;
      case 'effect-replayed':
        return `${recs} · answered from the idempotency store, no new effect`;
      case 'data-loss':
        return `data loss · ${formatCountOf(t.count[i]!, 'record')} (${this.error(i)})`;
      case 'end':
        return t.aux[i] === END_TRACE_LIMIT
          ? 'run stopped (trace limit)'
          : t.aux[i] === END_STOP
            ? 'run stopped (stopAtMs)'
            : 'end of run';
      case 'leave-group':
        return `✗ poll timeout (max.poll.interval.ms): stops heartbeating`;
      case 'stream-dedupe':
        return `${recs} · dropped by the dedupe (${t.aux[i] === 1 ? 'late: at or before the watermark' : 'its key is in the state'})`;
      case 'msg':
      case 'msg-lost':
        return null;
    }
  }
}

/** A copy of a fault with its free-text fields cut for display. */
export function shortFault(f: FaultSpec | undefined): FaultSpec | undefined {
  if (!f) return f;
  const c: Record<string, unknown> = { ...f };
  for (const key of ['id', 'event', 'target', 'topic'])
    if (typeof c[key] === 'string') c[key] = shortName(c[key]);
  return c as FaultSpec;
}

/** Labels of message types added to the engine after this module (a readable fallback). */
const MESSAGE_LABELS: Partial<Record<string, string>> = {
  barrier: 'checkpoint barrier',
  'checkpoint-ack': 'checkpoint acknowledged',
  'checkpoint-notify': 'checkpoint complete',
};

// ─────────────────────────────────────────────────────────────────────────── rendering

/** Participant order: left to right as the data flows. */
export function rank(name: string): number {
  if (name === 'producer') return 0;
  const broker = /^broker-(\d+)$/.exec(name);
  if (broker) return 100 + Number(broker[1]);
  if (name === 'coordinator') return 200;
  if (name === 'jobmanager') return 290;
  if (name.startsWith('consumer-') || name === 'flink' || name === 'spark') return 300;
  if (name === 'sink') return 400;
  if (name === 'service') return 500;
  const reader = /^reader-(\d+)$/.exec(name);
  if (reader) return 600 + Number(reader[1]);
  return 900;
}

/** The row a row-insert or row-update entry wrote, or the number of an effect entry's effect. */
function rowWritten(t: Trace, i: number): { row: number; updated: boolean } | null {
  switch (t.kindOf(i)) {
    case 'row-insert':
      return { row: rowNumber(t.aux[i]!), updated: false };
    case 'row-update':
      return { row: rowNumber(t.aux[i]!), updated: true };
    case 'effect':
      return { row: t.aux[i]!, updated: false };
    default:
      return null;
  }
}
