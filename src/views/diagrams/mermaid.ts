/**
 * Mermaid diagrams of a run, as text (pure: no mermaid import here — `platform/mermaid` renders
 * the text in the page, the CLI prints it).
 *
 * - {@link runSequenceDiagram}: the whole run as a sequence diagram, condensed — one arrow per
 *   network message ('msg' / 'msg-lost' trace entries), lost messages drawn with a cross (`-x`),
 *   crashes, restarts, faults and the other turning points as notes; idle polls left out; long
 *   runs capped with a "showing N of M" note.
 * - {@link eventSequenceDiagram}: the causal chain of one business event — every entry about it
 *   and the entries they cite (send, lost ack, retry, offsets, crash, replay, duplicate write),
 *   each stamped with its virtual time.
 * - {@link topologyFlowchart}: the pipeline's topology with the knobs that decide the guarantee.
 *
 * Every piece of scenario text goes through {@link mermaidText} (entity codes, truncation), so a
 * hostile business id cannot break a diagram or inject anything into it.
 * Syntax: https://mermaid.js.org/syntax/sequenceDiagram.html and
 * https://mermaid.js.org/syntax/flowchart.html
 */
import {
  CHECKPOINT_STEPS,
  END_STOP,
  END_TRACE_LIMIT,
  ERROR_CODES,
  MESSAGE_TYPES,
  SEND_CAUSES,
  SKIP_REASONS,
  TXN_API,
  TXN_STATES,
  describeFault,
  effectiveIdempotence,
  failoverCause,
  fencedExit,
  firstIdleCheckpoint,
  flinkRestartStrategy,
  normalizeAcks,
  type EntryKind,
  type FaultSpec,
  type Run,
  sinkWriteLabel,
  type Scenario,
  type Trace,
  TraceIndex,
} from '../../engine';
import { anomalyDiagram } from './anomalyDiagram';
import { idleCheckpointsWords, restoreWords } from './describe';
import { K } from '../run/kinds';
import { rowNumber } from '../run/format';
import { mermaidText, shortName } from './mermaidText';

export { mermaidText } from './mermaidText';

/** Options of {@link runSequenceDiagram}. */
export interface RunDiagramOptions {
  /** Most arrows and notes drawn (default 200); the rest is summarised in a note. */
  maxSteps?: number;
  /** Only entries at or after this virtual time (ms). */
  fromMs?: number;
  /** Only entries at or before this virtual time (ms). */
  untilMs?: number;
}

/** Options of {@link eventSequenceDiagram}. */
export interface EventDiagramOptions {
  /** Most arrows and notes drawn (default 150). */
  maxSteps?: number;
}

/** Default cap of {@link runSequenceDiagram}. */
const RUN_MAX_STEPS = 200;
/**
 * Steps kept before the first fault when {@link runSequenceDiagram} has to start later than the
 * beginning of the run to show it.
 */
const RUN_LEAD_STEPS = 40;
/** Default cap of {@link eventSequenceDiagram}. */
const EVENT_MAX_STEPS = 150;

// ─────────────────────────────────────────────────────────────────────────── shared context

const RESPONSES = new Set([
  'produce-response',
  'fetch-response',
  'commit-response',
  'sink-response',
  'effect-response',
  'txn-response',
]);

type Step =
  | { type: 'msg'; from: number; to: number; arrow: string; text: string }
  | { type: 'note'; over: number[]; text: string };

/** Reads a run for labels: names, record coordinates, statement words. */
class Reader {
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

  /** Business id of workload event `e` (cut for display). */
  id(e: number): string {
    return e >= 0 && e < this.run.events.count ? shortName(this.run.events.id(e)) : '?';
  }

  /** "p-4", "p-4 +2" (a batch starting with p-4), or "3 records". */
  records(i: number): string {
    const e = this.t.event[i]!;
    const n = this.t.count[i]!;
    if (e < 0) return n > 0 ? `${n} record${n === 1 ? '' : 's'}` : '';
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
        return `log${where} cut from offset ${o} (${t.count[i]} record${t.count[i] === 1 ? '' : 's'} lost)`;
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
        return `data loss · ${t.count[i]} record${t.count[i] === 1 ? '' : 's'} (${this.error(i)})`;
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

/** The first entry of `kind` caused by entry `from` (searched a bounded distance ahead), or -1. */

/** A copy of a fault with its free-text fields cut for display. */
function shortFault(f: FaultSpec | undefined): FaultSpec | undefined {
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
function rank(name: string): number {
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

/** Turn steps into mermaid text: participants in pipeline order, then the steps. */
function render(r: Reader, steps: Step[], summary: string | null, title: string): string {
  const used = new Set<number>();
  for (const s of steps) {
    if (s.type === 'msg') {
      used.add(s.from);
      used.add(s.to);
    } else for (const a of s.over) used.add(a);
  }
  const producer = r.t.actors.indexOf('producer');
  if (used.size === 0 && producer >= 0) used.add(producer);
  const order = [...used].sort(
    (a, b) => rank(r.t.actors[a] ?? '') - rank(r.t.actors[b] ?? '') || a - b,
  );
  const pid = new Map(order.map((a, i) => [a, `P${i}`]));
  const lines = ['sequenceDiagram', `  title ${mermaidText(title)}`];
  for (const a of order)
    lines.push(`  participant ${pid.get(a)} as ${mermaidText(r.actorLabel(a))}`);
  const span = (over: number[]) => {
    const ids = [...new Set(over)]
      .sort((a, b) => order.indexOf(a) - order.indexOf(b))
      .map((a) => pid.get(a)!);
    return ids.length > 1 ? `${ids[0]},${ids[ids.length - 1]}` : ids[0]!;
  };
  for (const s of steps) {
    if (s.type === 'msg')
      lines.push(`  ${pid.get(s.from)}${s.arrow}${pid.get(s.to)}: ${mermaidText(s.text)}`);
    else lines.push(`  Note over ${span(s.over)}: ${mermaidText(s.text)}`);
  }
  if (summary !== null) lines.push(`  Note over ${span(order)}: ${mermaidText(summary)}`);
  return lines.join('\n') + '\n';
}

/** The Kafka API name of a transaction-coordinator call (the trace's `count` column). */
export function txnApi(code: number): string {
  for (const [name, c] of Object.entries(TXN_API)) if (c === code) return name;
  return 'coordinator';
}

/** Arrow for a message entry: solid for requests, dotted for responses, a cross when lost. */
function arrow(type: string, lost: boolean): string {
  const response = RESPONSES.has(type);
  if (lost) return response ? '--x' : '-x';
  return response ? '-->>' : '->>';
}

/**
 * The step for a 'msg' / 'msg-lost' entry, or null when it is not drawn. A message that reached
 * a dead receiver is one 'msg' entry plus a 'msg-lost' entry recorded by the receiver (actor and
 * peer swapped, cause = the 'msg'); it is drawn once, as lost.
 */
function messageStep(r: Reader, i: number, lostAtReceiver: Set<number>, time: string): Step | null {
  const t = r.t;
  const type = MESSAGE_TYPES[t.aux[i]!] ?? 'message';
  if (t.kind[i] === K['msg-lost']) {
    const c = t.cause[i]!;
    if (c >= 0 && t.kind[c] === K.msg) return null; // drawn with its 'msg'
    return {
      type: 'msg',
      from: t.actor[i]!,
      to: t.peer[i]!,
      arrow: arrow(type, true),
      text: `${time}${r.message(i)} (lost)`,
    };
  }
  const dead = lostAtReceiver.has(i);
  return {
    type: 'msg',
    from: t.actor[i]!,
    to: t.peer[i]!,
    arrow: arrow(type, dead),
    text: `${time}${r.message(i)}${dead ? (CONNECTED.has(type) ? ' (receiver down, connection reset)' : ' (receiver down, lost)') : ''}`,
  };
}

/**
 * Requests on a client's TCP connection to a broker: one that meets the broker dead is not lost
 * silently, the crash resets the connection and the client sees it (src/engine/connections.ts).
 */
const CONNECTED: ReadonlySet<string> = new Set(['produce', 'fetch']);

/** 'msg' entries whose receiver was dead on arrival (a 'msg-lost' with the 'msg' as cause). */
function lostAtReceiver(t: Trace, from: number, to: number): Set<number> {
  const out = new Set<number>();
  for (let i = from; i < to; i++) {
    if (t.kind[i] !== K['msg-lost']) continue;
    const c = t.cause[i]!;
    if (c >= 0 && t.kind[c] === K.msg) out.add(c);
  }
  return out;
}

/** Where a note about entry `i` goes: its actor, or for the lab's entries the actors involved. */
function noteOver(r: Reader, i: number): number[] {
  const t = r.t;
  const a = t.actor[i]!;
  if (!r.isLab(a)) return [a];
  const kind = t.kindOf(i);
  if (kind === 'fault') return r.faultActors(i);
  if (kind === 'leader' && t.aux[i]! > 0) {
    const b = t.actors.indexOf(`broker-${t.aux[i]}`);
    if (b >= 0) return [b];
  }
  const c = t.cause[i]!;
  if (c >= 0 && !r.isLab(t.actor[c]!)) return [t.actor[c]!];
  const broker = t.actors.findIndex((n) => n.startsWith('broker-'));
  return broker >= 0 ? [broker] : [];
}

// ─────────────────────────────────────────────────────────────────────────── (a) whole run

/** Entry kinds drawn as notes in the whole-run diagram: the turning points. */
const RUN_NOTES = new Set<EntryKind>([
  'fault',
  'crash',
  'restart',
  'stall',
  'leader',
  'truncate',
  'data-loss',
  'reject',
  'app-send-failed',
  'batch-failed',
  'dedupe',
  'commit-failed',
  'stmt-error',
  'fenced',
  'assign',
  'revoke',
  'restore',
  'leave-group',
]);

/**
 * The whole run as a condensed sequence diagram.
 *
 * Participants are the run's actors in pipeline order (producer, brokers, coordinator, processor,
 * sink, service, readers). Each network message is an arrow labelled in the systems' words
 * ("produce p-4", "ack p-4 offset 3", "fetch from offset 5", "commit offset 5", "INSERT p-77");
 * responses are dotted; a lost message ends in a cross. Turning points are notes: faults, crashes,
 * restarts, pauses, leader changes, truncations, timeouts, refused commits, failed statements,
 * partition assignments, re-sends, aborted transactions and completed checkpoints. Left out: empty
 * long-poll round trips, high-watermark moves and per-record bookkeeping (the event diagram has
 * those). Identical consecutive steps are merged ("×N"). At most `maxSteps` steps are drawn; a
 * final note says "showing N of M steps".
 *
 * Without a window (`fromMs`/`untilMs`), a run whose first fault (an injected fault or a crash)
 * lies beyond the cap is drawn from {@link RUN_LEAD_STEPS} steps before that fault (or earlier,
 * to fill the cap when the rest of the run is short) instead of from its beginning, and the title
 * says so: the fault is what a reader came to see, and a long run's
 * first 200 steps are usually routine polling.
 *
 * @param run - a finished run (`simulate(scenario)`).
 * @returns mermaid `sequenceDiagram` text, one statement per line, ending with a newline.
 */
export function runSequenceDiagram(run: Run, opts: RunDiagramOptions = {}): string {
  const r = new Reader(run);
  const t = r.t;
  const max = Math.max(1, opts.maxSteps ?? RUN_MAX_STEPS);
  const from = opts.fromMs === undefined ? 0 : t.upperBound(opts.fromMs - 1);
  const to = opts.untilMs === undefined ? t.length : t.upperBound(opts.untilMs);
  // A message's loss at a dead receiver and a fetch's response come later than the message.
  const dead = lostAtReceiver(t, from, t.length);
  const fruitful = new Set<number>();
  const fetchResp = MESSAGE_TYPES.indexOf('fetch-response');
  const fetch = MESSAGE_TYPES.indexOf('fetch');
  for (let i = from; i < t.length; i++)
    if (t.kind[i] === K.msg && t.aux[i] === fetchResp && t.count[i]! > 0) fruitful.add(t.cause[i]!);

  /** Whether entry `i` is drawn as a step (before merging). */
  const drawn = (i: number): boolean => {
    const k = t.kind[i]!;
    if (k === K.msg || k === K['msg-lost']) {
      const type = t.aux[i]!;
      if (k === K.msg && !dead.has(i)) {
        if (type === fetch && !fruitful.has(i)) return false; // an idle long poll
        if (type === fetchResp && t.count[i]! <= 0) return false;
      }
      return !(k === K['msg-lost'] && t.cause[i]! >= 0 && t.kind[t.cause[i]!] === K.msg);
    }
    return runNote(t, i, t.kindOf(i));
  };
  /** Condense entries [start, to); `closedAt` is the entry that found the cap full (-1: none). */
  const collect = (start: number) => {
    const steps = new Condenser(max);
    let closedAt = -1;
    for (let i = start; i < to; i++) {
      if (!drawn(i)) continue;
      if (steps.full()) {
        if (closedAt < 0) closedAt = i;
        steps.skip();
        continue;
      }
      const k = t.kind[i]!;
      if (k === K.msg || k === K['msg-lost']) {
        const s = messageStep(r, i, dead, '');
        if (s) steps.add(s);
      } else {
        const text = r.note(i);
        const over = noteOver(r, i);
        if (text !== null && over.length > 0) steps.add({ type: 'note', over, text });
      }
      if (steps.full() && closedAt < 0) closedAt = i;
    }
    return { steps, closedAt };
  };

  const first = collect(from);
  const closedAt = first.closedAt;
  let steps = first.steps;
  let title = run.scenario.name;
  let skippedBefore = 0;
  let window =
    opts.fromMs !== undefined || opts.untilMs !== undefined
      ? ` between ${opts.fromMs ?? 0} ms and ${opts.untilMs ?? run.endTime} ms`
      : '';
  title += window;
  if (window === '' && closedAt >= 0) {
    const fault = firstFault(t, closedAt, to);
    if (fault >= 0) {
      // Start RUN_LEAD_STEPS drawn entries before the fault, or earlier if the rest of the run
      // is short, so that the cap is used (merging can make either fewer steps).
      let start = fault;
      for (let n = 0; start > from && n < Math.min(RUN_LEAD_STEPS, max - 1);) {
        start--;
        if (drawn(start)) n++;
      }
      let tail = to;
      for (let n = 0; tail > from && n < max;) {
        tail--;
        if (drawn(tail)) n++;
      }
      start = Math.min(start, tail);
      for (let i = from; i < start; i++) if (drawn(i)) skippedBefore++;
      steps = collect(start).steps;
      window = `, from ${t.time[start]!} ms`;
      // Not "the first fault": an earlier one may be among the first steps (and in this window).
      title += ` — from ${t.time[start]!} ms, shortly before the fault at ${t.time[fault]!} ms`;
    }
  }
  const shown = steps.steps();
  const skipped = skippedBefore + steps.skipped;
  const summary =
    skipped > 0 ? `showing ${shown.length} of ${shown.length + skipped} steps${window}` : null;
  return render(r, shown, summary, title);
}

/** The first injected fault or crash in entries [from, to), or -1. */
function firstFault(t: Trace, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const k = t.kind[i]!;
    if (k === K.fault || k === K.crash) return i;
  }
  return -1;
}

/**
 * Collects steps, merging consecutive identical ones ("×N"); once `max` distinct steps are held,
 * further ones are only counted (no label is built for them, so a million-event run stays cheap).
 */
class Condenser {
  private readonly held: { step: Step; key: string; repeat: number }[] = [];
  private closed = false;
  /** Steps seen after the cap (not merged: counted one by one). */
  skipped = 0;

  constructor(private readonly max: number) {}

  /** True once a distinct step beyond the cap has arrived: from then on steps are only counted. */
  full(): boolean {
    return this.closed;
  }

  add(s: Step): void {
    const key =
      s.type === 'msg' ? `m|${s.from}|${s.to}|${s.arrow}|${s.text}` : `n|${s.over}|${s.text}`;
    const last = this.held[this.held.length - 1];
    if (last && last.key === key) {
      last.repeat++;
      return;
    }
    if (this.held.length >= this.max) {
      this.closed = true;
      this.skipped++;
      return;
    }
    this.held.push({ step: s, key, repeat: 1 });
  }

  skip(): void {
    this.skipped++;
  }

  steps(): Step[] {
    return this.held.map(({ step, repeat }) =>
      repeat > 1 ? { ...step, text: `${step.text} ×${repeat}` } : step,
    );
  }
}

function runNote(t: Trace, i: number, kind: EntryKind): boolean {
  if (RUN_NOTES.has(kind)) return true;
  switch (kind) {
    case 'app-send':
      return SEND_CAUSES[t.aux[i]!] !== 'first';
    case 'txn': {
      const st = TXN_STATES[t.aux[i]!];
      return st === 'CompleteAbort' || st === 'PrepareEpochFence';
    }
    case 'checkpoint': {
      const step = CHECKPOINT_STEPS[t.aux[i]!];
      return (
        step === 'completed' ||
        step === 'idle' ||
        step === 'aborted' ||
        step === 'expired' ||
        step === 'declined'
      );
    }
    default:
      return false;
  }
}

// ─────────────────────────────────────────────────────────────────────────── (b) one event

/** A record of the business event in a topic's log. */
interface RecordRef {
  topic: number;
  partition: number;
  offset: number;
}

/** Entry kinds pulled in when an entry of the event cites them (its cause). */
const CITED = new Set<EntryKind>([
  'fault',
  'crash',
  'restart',
  'msg-lost',
  'reject',
  'app-send-failed',
  'retry',
  'stall',
  'revoke',
  'assign',
  'leader',
  'truncate',
  'commit-failed',
  'stmt-error',
  'restore',
  'leave-group',
]);

/**
 * The trace entries that make up one business event's causal chain, in trace order: every entry
 * carrying the event; the polls, fetches and commits that cover its records' offsets (the first
 * commit past each record); the entries those cite when they are turning points (fault, lost
 * message, timeout, retry, crash, restart, pause, rebalance, leader change, truncation, restore);
 * the crashes, restarts and pauses of the actors that handled it while they handled it; and the
 * entries the checker's explanation of the event rests on.
 * @returns entry ids in increasing order, or null when the run has no such business id.
 */
export function eventChain(run: Run, eventId: string): number[] | null {
  const j = run.events.identityOf(eventId);
  if (j < 0) return null;
  const t = run.trace;
  const index = new TraceIndex(t);
  const ident = run.events.identity;
  const set = new Set<number>();
  // 1. Entries carrying the event.
  for (let i = 0; i < t.length; i++) {
    const e = t.event[i]!;
    if (e >= 0 && ident[e] === j) set.add(i);
  }
  // 2. Its records in every log (batches carry only their first event in the trace).
  const records: RecordRef[] = [];
  for (const topic of run.state.cluster.topics.values()) {
    for (const p of topic.partitions) {
      for (let o = 0; o < p.leo; o++) {
        const e = p.event.get(o);
        if (e >= 0 && ident[e] === j) {
          records.push({ topic: topic.index, partition: p.index, offset: o });
          const a = p.appendEntry.get(o);
          if (a >= 0) set.add(a);
        }
      }
    }
  }
  const processes = [...set].filter((i) => t.kindOf(i) === 'process');
  const firstProcess = processes.length > 0 ? Math.min(...processes) : -1;
  const lastProcess = processes.length > 0 ? Math.max(...processes) : -1;
  const fetchResp = MESSAGE_TYPES.indexOf('fetch-response');
  const commitMsg = MESSAGE_TYPES.indexOf('commit');
  const covered = new Set<string>();
  for (let i = 0; i < t.length; i++) {
    const k = t.kindOf(i);
    const isFetchResp = k === 'msg' && t.aux[i] === fetchResp;
    if (k !== 'poll' && k !== 'commit' && k !== 'assign' && !isFetchResp) continue;
    for (const rec of records) {
      if (t.topic[i] !== rec.topic || t.partition[i] !== rec.partition) continue;
      const o = t.offset[i]!;
      if (k === 'poll' || isFetchResp) {
        if (o <= rec.offset && rec.offset < o + Math.max(0, t.count[i]!)) set.add(i);
      } else if (k === 'commit') {
        const key = `${rec.topic}/${rec.partition}/${rec.offset}`;
        if (o > rec.offset && !covered.has(key)) {
          covered.add(key);
          set.add(i);
          const c = t.cause[i]!;
          if (c >= 0 && t.kind[c] === K.msg && t.aux[c] === commitMsg) set.add(c);
        }
      } else if (i > firstProcess && i < lastProcess && o <= rec.offset) {
        set.add(i); // a restart or rebalance that resumes before the record: the replay
      }
    }
  }
  // 3. Crashes, restarts and pauses of the actors while they handled the event.
  const span = new Map<number, [number, number]>();
  for (const i of set) {
    const a = t.actor[i]!;
    const s = span.get(a);
    if (!s) span.set(a, [i, i]);
    else span.set(a, [Math.min(s[0], i), Math.max(s[1], i)]);
  }
  const lab = t.actors.indexOf('lab');
  for (let i = 0; i < t.length; i++) {
    const k = t.kindOf(i);
    if (k !== 'crash' && k !== 'restart' && k !== 'stall') continue;
    const s = span.get(t.actor[i]!);
    if (s && t.actor[i] !== lab && i >= s[0] && i <= s[1]) {
      set.add(i);
      const c = t.cause[i]!;
      if (c >= 0 && t.kindOf(c) === 'fault') set.add(c);
    }
  }
  // 4. What the checker's explanation cites.
  for (const x of run.verdict.explanations)
    if (x.events[0] === eventId) for (const i of x.entries) if (i >= 0 && i < t.length) set.add(i);
  // After a crash in the chain: the restart, and where the restarted actor resumed reading.
  for (const i of [...set]) {
    if (t.kindOf(i) !== 'crash') continue;
    const restart = index.firstChildOf(i, 'restart');
    if (restart < 0) continue;
    set.add(restart);
    for (let k = restart + 1; k < t.length && t.time[k]! <= t.time[restart]! + 60_000; k++) {
      if (t.kindOf(k) !== 'assign' || t.actor[k] !== t.actor[i]) continue;
      if (records.some((r) => r.topic === t.topic[k] && r.partition === t.partition[k])) {
        set.add(k);
        break;
      }
    }
  }
  // 5. Entries cited by the chain when they are turning points (a few levels up).
  let frontier = [...set];
  for (let depth = 0; depth < 4 && frontier.length > 0; depth++) {
    const next: number[] = [];
    for (const i of frontier) {
      const c = t.cause[i]!;
      if (c >= 0 && !set.has(c) && CITED.has(t.kindOf(c))) {
        set.add(c);
        next.push(c);
      }
    }
    frontier = next;
  }
  // Housekeeping entries never help the story.
  const out = [...set].filter((i) => {
    const k = t.kindOf(i);
    return k !== 'hw' && k !== 'end';
  });
  return out.sort((a, b) => a - b);
}

/**
 * The causal chain of one business event as a sequence diagram: every step of {@link eventChain},
 * messages as arrows and the rest as notes, each stamped with its virtual time ("30255 ms ·
 * produce p-4 (retry 1)"). At most `maxSteps` steps, then a "showing N of M" note.
 *
 * @param run - a finished run.
 * @param eventId - a business id of the run's workload (`p-77`).
 * @returns mermaid `sequenceDiagram` text, or null when the workload has no such id.
 */
export function eventSequenceDiagram(
  run: Run,
  eventId: string,
  opts: EventDiagramOptions = {},
): string | null {
  const chain = eventChain(run, eventId);
  if (chain === null) return null;
  const r = new Reader(run);
  const t = r.t;
  const max = Math.max(1, opts.maxSteps ?? EVENT_MAX_STEPS);
  const inChain = new Set(chain);
  const dead = new Set<number>();
  for (const i of chain) {
    if (t.kind[i] !== K.msg) continue;
    const l = r.firstChild(i, (k) => t.kind[k] === K['msg-lost']);
    if (l >= 0) dead.add(i);
  }
  const steps: Step[] = [];
  for (const i of chain) {
    const time = `${t.time[i]} ms · `;
    const k = t.kind[i]!;
    if (k === K.msg || k === K['msg-lost']) {
      if (k === K['msg-lost'] && inChain.has(t.cause[i]!) && t.kind[t.cause[i]!] === K.msg)
        continue;
      const s = messageStep(r, i, dead, time);
      if (s && s.type === 'msg' && s.to >= 0) steps.push(s);
      continue;
    }
    const text = r.note(i);
    const over = noteOver(r, i);
    if (text !== null && over.length > 0) steps.push({ type: 'note', over, text: time + text });
  }
  const shown = steps.slice(0, max);
  const summary =
    steps.length > shown.length ? `showing ${shown.length} of ${steps.length} steps` : null;
  const fate = fateText(run, eventId);
  return render(r, shown, summary, `${shortName(eventId)}${fate}`);
}

function fateText(run: Run, eventId: string): string {
  const j = run.events.identityOf(eventId);
  const v = run.verdict;
  const p = v.points.find((x) => x.name === v.primary);
  if (!p || j < 0) return '';
  const n = Math.max(p.rows[j]!, p.effects[j]!);
  const fate = n === 0 ? 'lost' : n === 1 ? 'once' : `duplicated (${n})`;
  return ` — ${fate} at ${v.primary.replace(/^(reader|log):/, (_, k: string) => (k === 'log' ? 'topic ' : 'reader '))}`;
}

// ─────────────────────────────────────────────────────────────────────────── (c) topology

/** A flowchart node label: escaped lines joined with `<br/>` (our markup, never the user's). */
function nodeLabel(lines: string[]): string {
  return lines.map((l) => mermaidText(l)).join('<br/>');
}

function onOff(v: boolean): string {
  return v ? 'true' : 'false';
}

/** The knobs of the producer that decide loss and duplication. */
function producerLines(s: Scenario): string[] {
  const p = s.producer;
  const acks = normalizeAcks(p.acks);
  const idem = effectiveIdempotence(p);
  const explicit = p['enable.idempotence'];
  const lines = [
    'producer',
    `acks=${acks} · enable.idempotence=${onOff(idem)}${explicit === undefined ? ' (default)' : ''}`,
    `retries=${p.retries} · max.in.flight=${p['max.in.flight.requests.per.connection']}`,
    `request.timeout.ms=${p['request.timeout.ms']} · delivery.timeout.ms=${p['delivery.timeout.ms']}`,
    `application ${p.app.mode} send · on failure ${p.app.onFailure}`,
  ];
  if (p['transactional.id'] !== undefined)
    lines.push(`transactional.id=${shortName(p['transactional.id'])}`);
  return lines;
}

function topicLines(s: Scenario): string[] {
  const b = s.broker;
  return [
    `topic ${shortName(s.workload.topic)}`,
    `${b.partitions} partition${b.partitions === 1 ? '' : 's'} · ${b.brokers} broker${b.brokers === 1 ? '' : 's'}`,
    `replication.factor=${b['replication.factor']} · min.insync.replicas=${b['min.insync.replicas']}`,
    `unclean.leader.election.enable=${onOff(b['unclean.leader.election.enable'])}`,
  ];
}

function processorLines(s: Scenario): string[] {
  const p = s.processor;
  const lines: string[] = [];
  switch (p.type) {
    case 'consumer': {
      lines.push(
        `consumer group ${shortName(p['group.id'])} (${p.instances} instance${p.instances === 1 ? '' : 's'})`,
      );
      lines.push(
        p['enable.auto.commit']
          ? `enable.auto.commit=true · every ${p['auto.commit.interval.ms']} ms`
          : `enable.auto.commit=false · commit ${p.commit}`,
      );
      lines.push(
        `max.poll.records=${p['max.poll.records']} · isolation.level=${p['isolation.level']}`,
      );
      lines.push(`processing ${p.processing.mode} · on statement error ${p.onStatementError}`);
      break;
    }
    case 'flink': {
      const ck = p['execution.checkpointing.interval'];
      lines.push('Flink job');
      lines.push(
        ck === null
          ? 'checkpointing off'
          : `checkpoint every ${ck} ms · ${p['execution.checkpointing.mode']}`,
      );
      // Only when changed, so the usual job's diagram stays short.
      const timeout = p['execution.checkpointing.timeout'];
      const tolerable = p['execution.checkpointing.tolerable-failed-checkpoints'];
      if (ck !== null && (timeout !== 600_000 || tolerable !== 0))
        lines.push(`checkpoint timeout ${timeout} ms · tolerates ${tolerable} failed`);
      // The strategy in effect (restart-strategy.type, or Flink's default for the job).
      const restart = flinkRestartStrategy(p);
      lines.push(
        restart === 'fixed-delay'
          ? `restart fixed-delay ${p['restart-strategy.fixed-delay.delay']} ms · attempts ${p['restart-strategy.fixed-delay.attempts']}`
          : restart === 'none'
            ? 'restart strategy none'
            : 'restart exponential-delay (1 s ×1.5, max 1 min)',
      );
      if (p.offsetsInitializer !== 'committedOffsets')
        lines.push(`starting offsets ${p.offsetsInitializer}()`);
      break;
    }
    case 'spark': {
      lines.push('Spark query');
      lines.push(`trigger every ${p['trigger.processingTime']} ms`);
      lines.push(`startingOffsets=${p.startingOffsets}`);
      break;
    }
  }
  if (p.sideEffect)
    lines.push(
      `side effect ${p.sideEffect.service} · idempotency key ${p.sideEffect.idempotencyKey}`,
    );
  return lines;
}

function sinkLines(s: Scenario): string[] {
  const k = s.sink;
  switch (k.type) {
    case 'table': {
      const stmt = sinkWriteLabel(s.sink);
      const lines = [`table ${shortName(k.name)}`, `${stmt} per ${k.statementPer}`];
      if (k.statement === 'on-conflict-do-update')
        lines.push(
          k.set === 'add-excluded'
            ? 'SET amount = amount + EXCLUDED.amount'
            : 'SET amount = EXCLUDED.amount',
        );
      lines.push(
        `key ${k.key}${k.uniqueKey === undefined ? '' : ` · unique=${onOff(k.uniqueKey)}`}`,
      );
      if (k.dedupe) lines.push(`dedupe table, retention ${k.dedupe.retentionMs} ms`);
      if (k.xa) lines.push('XA transaction per checkpoint (JdbcSink.exactlyOnceSink)');
      // The field's name, and what it is: the client's wait (pgJDBC socketTimeout), not the
      // server's statement_timeout (the Knobs tab's name for it).
      lines.push(
        `statement.timeout.ms=${k['statement.timeout.ms']} (client socketTimeout) · retries=${k.retries}`,
      );
      return lines;
    }
    case 'delta':
      return [
        `Delta table ${shortName(k.name)}`,
        `${k.mode} · txnAppId=${k.txnAppId === null ? 'none' : shortName(k.txnAppId)}`,
      ];
    case 'file':
      return [`file sink ${shortName(k.name)}`, `${k.format}, with its metadata log`];
    case 'kafka': {
      const lines = [
        `topic ${shortName(k.topic)}`,
        `${k.partitions} partition${k.partitions === 1 ? '' : 's'}`,
      ];
      if (s.processor.type === 'flink')
        lines.push(`KafkaSink deliveryGuarantee=${k.deliveryGuarantee}`);
      if (k['transactional.id'] !== undefined)
        lines.push(`transactional.id=${shortName(k['transactional.id'])}`);
      if (k.transactionalIdPrefix !== undefined)
        lines.push(`transactionalIdPrefix=${shortName(k.transactionalIdPrefix)}`);
      return lines;
    }
    case 'effect':
      return [
        `service ${k.service}`,
        `idempotency key ${k.idempotencyKey} · retention ${k.retentionMs} ms`,
        `timeout.ms=${k['timeout.ms']} · retries=${k.retries}`,
      ];
  }
}

/** Which edge a network fault on `link` sits on. */
function linkEdge(link: string): [string, string] | null {
  switch (link) {
    case 'produce':
    case 'txn':
      return ['producer', 'topic'];
    case 'fetch':
    case 'commit':
      return ['topic', 'processor'];
    case 'sink':
    case 'effect':
      return ['processor', 'sink'];
    default:
      return null;
  }
}

/** The node a fault is attached to. */
function faultNode(s: Scenario, f: Scenario['faults'][number]): string {
  if ('link' in f) return linkEdge(f.link)?.[0] ?? 'processor';
  if ('target' in f) {
    const target = f.target;
    if (target === 'producer') return 'producer';
    if (target.startsWith('broker-')) return 'topic';
    if (target === 'sink') return 'sink';
    const m = /^reader-(\d+)$/.exec(target);
    if (m && Number(m[1]) < s.readers.length) return `reader${m[1]}`;
    return 'processor';
  }
  const what = f.kind === 'random' ? f.what : f.kind;
  if (what === 'leader-failover') return 'topic';
  if (what === 'app-resend' || what === 'source-duplicate') return 'producer';
  if (f.kind === 'abort-transaction' || f.kind === 'hang-transaction') return 'producer';
  return 'processor';
}

/**
 * The pipeline's topology as a flowchart (left to right), each component with the knobs that
 * decide what is lost or duplicated: `acks`, `enable.idempotence`, `retries`,
 * `max.in.flight.requests.per.connection`, replication, the commit mode, `isolation.level`, the
 * sink statement and its key, transactional ids, idempotency keys; readers with their isolation
 * level; and each scheduled fault as a hexagon attached to where it strikes.
 *
 * @param scenario - a validated scenario (defaults applied).
 * @returns mermaid `flowchart LR` text, ending with a newline.
 */
export function topologyFlowchart(scenario: Scenario): string {
  const s = scenario;
  const lines = ['flowchart LR'];
  lines.push(`  producer["${nodeLabel(producerLines(s))}"]`);
  lines.push(`  topic[("${nodeLabel(topicLines(s))}")]`);
  lines.push(`  processor["${nodeLabel(processorLines(s))}"]`);
  const sinkShape = s.sink.type === 'effect' ? ['{{"', '"}}'] : ['[("', '")]'];
  lines.push(`  sink${sinkShape[0]}${nodeLabel(sinkLines(s))}${sinkShape[1]}`);
  const write = sinkWriteLabel(s.sink);
  lines.push(`  producer -->|"${mermaidText('produce')}"| topic`);
  lines.push(`  topic -->|"${mermaidText('poll')}"| processor`);
  lines.push(`  processor -.->|"${mermaidText(commitEdge(s))}"| topic`);
  lines.push(`  processor -->|"${mermaidText(write)}"| sink`);
  s.readers.forEach((rd, i) => {
    lines.push(
      `  reader${i}["${nodeLabel([`reader ${shortName(rd.name)}`, `topic ${shortName(rd.topic)}`, `isolation.level=${rd['isolation.level']}`])}"]`,
    );
    const from = s.sink.type === 'kafka' && rd.topic === s.sink.topic ? 'sink' : 'topic';
    lines.push(`  ${from} -->|"${mermaidText('read')}"| reader${i}`);
  });
  s.faults.forEach((f, i) => {
    const when = f.at > 0 ? [`armed at ${f.at} ms`] : [];
    lines.push(`  fault${i}{{"${nodeLabel([`⚡ ${describeFault(shortFault(f))}`, ...when])}"}}`);
    lines.push(`  fault${i} -.- ${faultNode(s, f)}`);
    lines.push(`  class fault${i} fault`);
  });
  if (s.faults.length > 0) lines.push('  classDef fault fill:#fff1f0,stroke:#cf222e');
  return lines.join('\n') + '\n';
}

function commitEdge(s: Scenario): string {
  const p = s.processor;
  if (p.type === 'consumer')
    return p['enable.auto.commit'] ? 'auto-commit offsets' : `commit offsets (${p.commit})`;
  if (p.type === 'flink') return 'offsets in checkpoints';
  return 'offsets in its checkpoint';
}

/** Every diagram a run offers, for pickers and the CLI's `--diagram`. */
export type DiagramKind = 'sequence' | 'flow' | 'anomaly' | `event:${string}`;

/**
 * One diagram of a run by kind: `sequence` (the whole run), `flow` (the topology) or
 * `event:<business id>` (one event's causal chain) or `anomaly` (the first loss or duplicate, from
 * its cause, for a slide: src/views/diagrams/anomalyDiagram.ts).
 * @returns the mermaid text, or null for an unknown event id.
 */
export function diagramOf(run: Run, kind: DiagramKind): string | null {
  switch (kind) {
    case 'sequence':
      return runSequenceDiagram(run);
    case 'flow':
      return topologyFlowchart(run.scenario);
    case 'anomaly':
      return anomalyDiagram(run);
    default: {
      // Only `event:<id>` is left: a new DiagramKind without its case is a type error here, and
      // an untyped caller's unknown kind an error rather than an event id made of its tail.
      const event: `event:${string}` = kind;
      if (!event.startsWith('event:')) throw new Error(`unknown diagram kind "${String(kind)}"`);
      return eventSequenceDiagram(run, event.slice('event:'.length));
    }
  }
}
