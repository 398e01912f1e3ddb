/**
 * The whole run as a mermaid sequence diagram, condensed: one arrow per network message, the
 * turning points as notes, long runs capped ({@link runSequenceDiagram}).
 */
import {
  CHECKPOINT_STEPS,
  MESSAGE_TYPES,
  SEND_CAUSES,
  TXN_STATES,
  type EntryKind,
  type Run,
  type Trace,
} from '../../engine';
import { K } from '../run/kinds';
import { Reader, type Step } from './sequenceReader';
import { lostAtReceiver, messageStep, noteOver, render } from './sequenceSteps';

/** Options of {@link runSequenceDiagram}. */
export interface RunDiagramOptions {
  /** Most arrows and notes drawn (default 200); the rest is summarised in a note. */
  maxSteps?: number;
  /** Only entries at or after this virtual time (ms). */
  fromMs?: number;
  /** Only entries at or before this virtual time (ms). */
  untilMs?: number;
}

/** Default cap of {@link runSequenceDiagram}. */
const RUN_MAX_STEPS = 200;
/**
 * Steps kept before the first fault when {@link runSequenceDiagram} has to start later than the
 * beginning of the run to show it.
 */
const RUN_LEAD_STEPS = 40;

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
        const s = messageStep(r, i, dead);
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
  return render(r, shown, { summary, title });
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
