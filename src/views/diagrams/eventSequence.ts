/**
 * The causal chain of one business event as a mermaid sequence diagram
 * ({@link eventSequenceDiagram}): every entry about it and the entries they cite.
 */
import { MESSAGE_TYPES, type EntryKind, type Run, TraceIndex } from '../../engine';
import { K } from '../run/kinds';
import { shortName } from './mermaidText';
import { Reader, type Step } from './sequenceReader';
import { messageStep, noteOver, render } from './sequenceSteps';

/** Options of {@link eventSequenceDiagram}. */
export interface EventDiagramOptions {
  /** Most arrows and notes drawn (default 150). */
  maxSteps?: number;
}

/** Default cap of {@link eventSequenceDiagram}. */
const EVENT_MAX_STEPS = 150;

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
 * the crashes, restarts and pauses of the actors that handled it while they handled it; the
 * entries the checker's explanation of the event rests on; and the fault behind an entry through up
 * to three messages (an application's abort, whose EndTxn exchange made it send the event again).
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
  // The fault behind an entry through the requests it made (an application's abort: its EndTxn
  // request and response, then the records sent again in a new transaction).
  for (const i of [...set]) {
    let c = t.cause[i]!;
    for (let hop = 0; hop < 3 && c >= 0 && t.kind[c] === K.msg; hop++) c = t.cause[c]!;
    if (c >= 0 && !set.has(c) && t.kindOf(c) === 'fault') set.add(c);
  }
  // Housekeeping entries never help the story.
  const out = [...set].filter((i) => {
    const k = t.kindOf(i);
    return k !== 'hw' && k !== 'end';
  });
  return out.sort((a, b) => a - b);
}

/** One business event's causal chain as diagram steps ({@link eventSequenceSteps}). */
export interface EventSequence {
  reader: Reader;
  /** At most `maxSteps`, stamped with their virtual times. */
  steps: Step[];
  /** "showing N of M steps" when the chain had more, else null. */
  summary: string | null;
  /** The event and its fate at the verdict's primary point: "p-4 — duplicated (2) at sink". */
  title: string;
}

/**
 * The causal chain of one business event as steps: every step of {@link eventChain}, messages
 * as arrows and the rest as notes, each with its virtual time. At most `maxSteps` steps.
 * @returns null when the workload has no such id.
 */
export function eventSequenceSteps(
  run: Run,
  eventId: string,
  opts: EventDiagramOptions = {},
): EventSequence | null {
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
    const time = t.time[i]!;
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
    if (text !== null && over.length > 0) steps.push({ type: 'note', over, text, time, entry: i });
  }
  const shown = steps.slice(0, max);
  const summary =
    steps.length > shown.length ? `showing ${shown.length} of ${steps.length} steps` : null;
  return {
    reader: r,
    steps: shown,
    summary,
    title: `${shortName(eventId)}${fateText(run, eventId)}`,
  };
}

/**
 * The causal chain of one business event as a sequence diagram ({@link eventSequenceSteps}),
 * each step stamped with its virtual time ("30255 ms · produce p-4 (retry 1)"); past `maxSteps`
 * a "showing N of M" note.
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
  const seq = eventSequenceSteps(run, eventId, opts);
  return seq && render(seq.reader, seq.steps, seq);
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
