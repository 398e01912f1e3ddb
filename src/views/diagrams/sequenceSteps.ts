/**
 * The steps a sequence diagram draws — a message arrow, a note over its actors — and their
 * rendering as mermaid text (https://mermaid.js.org/syntax/sequenceDiagram.html).
 */
import { MESSAGE_TYPES, type Trace } from '../../engine';
import { K } from '../run/kinds';
import { mermaidText } from './mermaidText';
import { rank, RESPONSES, type Reader, type Step } from './sequenceReader';

/** What {@link render} writes besides the steps. */
export interface RenderOptions {
  title: string;
  /** A last note over every participant ("showing 150 of 912 steps"). */
  summary?: string | null;
  /** Actors declared even when no step is theirs (a slide's folded steps drew them). */
  participants?: Iterable<number>;
}

/** Turn steps into mermaid text: participants in pipeline order, then the steps. */
export function render(r: Reader, steps: Step[], opts: RenderOptions): string {
  const { title, summary = null } = opts;
  const used = new Set<number>(opts.participants);
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
    const text = mermaidText(stamped(s));
    const line =
      s.type === 'msg'
        ? `  ${pid.get(s.from)}${s.arrow}${pid.get(s.to)}: ${text}`
        : `  Note over ${span(s.over)}: ${text}${s.more === undefined ? '' : `<br/>${mermaidText(s.more)}`}`;
    if (s.rect === undefined) lines.push(line);
    else lines.push(`  rect ${s.rect}`, `  ${line}`, '  end');
  }
  if (summary !== null) lines.push(`  Note over ${span(order)}: ${mermaidText(summary)}`);
  return lines.join('\n') + '\n';
}

/** A step's words with its time before them: "30255 ms · produce p-4". */
export function stamped(s: Step): string {
  return s.time === undefined ? s.text : `${s.time} ms · ${s.text}`;
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
export function messageStep(
  r: Reader,
  i: number,
  lostAtReceiver: Set<number>,
  time?: number,
): Step | null {
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
      text: `${r.message(i)} (lost)`,
      time,
      entry: i,
    };
  }
  const dead = lostAtReceiver.has(i);
  // An acknowledgement the producer never read (queued behind a missing one on its connection,
  // or arriving after the connection was closed), within the run: drawn as an ack it would read
  // as one, before the retry of the same records. An error answer (a 'reject': a fenced zombie's
  // INVALID_PRODUCER_EPOCH, which it exits on) is left as it is.
  const cause = t.cause[i]!;
  const unread =
    !dead &&
    type === 'produce-response' &&
    !(cause >= 0 && t.kindOf(cause) === 'reject') &&
    t.until[i]! <= r.run.endTime &&
    !r.hasEffect(i);
  return {
    type: 'msg',
    from: t.actor[i]!,
    to: t.peer[i]!,
    arrow: arrow(type, dead),
    time,
    entry: i,
    text: `${r.message(i)}${dead ? (CONNECTED.has(type) ? ' (receiver down, connection reset)' : ' (receiver down, lost)') : unread ? ' (never read, the producer closed the connection first)' : ''}`,
  };
}

/**
 * Requests on a client's TCP connection to a broker: one that meets the broker dead is not lost
 * silently, the crash resets the connection and the client sees it (src/engine/connections.ts).
 */
const CONNECTED: ReadonlySet<string> = new Set(['produce', 'fetch']);

/** 'msg' entries whose receiver was dead on arrival (a 'msg-lost' with the 'msg' as cause). */
export function lostAtReceiver(t: Trace, from: number, to: number): Set<number> {
  const out = new Set<number>();
  for (let i = from; i < to; i++) {
    if (t.kind[i] !== K['msg-lost']) continue;
    const c = t.cause[i]!;
    if (c >= 0 && t.kind[c] === K.msg) out.add(c);
  }
  return out;
}

/** Where a note about entry `i` goes: its actor, or for the lab's entries the actors involved. */
export function noteOver(r: Reader, i: number): number[] {
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
