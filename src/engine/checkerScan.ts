/**
 * The checker's one pass over the trace: per business identity, what was processed, what the
 * application saw fail or re-sent, its first send and its first effect at the primary point.
 */
import type { Run } from './simulate';
import { KIND_CODE, type Trace } from './trace';
import { alloc } from './core/pool';

export interface Scan {
  processed: Int32Array;
  processedTotal: number;
  processedSum: number;
  /** Identities the application saw fail, and identities it re-sent. */
  failed: Set<number>;
  resent: Set<number>;
  /** First send per identity (ms; -1: none). `latency()` reuses it as scratch: read it before. */
  sent: Float64Array;
  /** Trace entry of the first effect at the primary point, per identity (-1: none). */
  seenAt: Int32Array;
}

/** Read, in one pass, the per-event facts the checker takes from the trace. */
export function scanTrace(run: Run, primary: string): Scan {
  const t = run.trace;
  const n = run.events.identities;
  const ident = run.events.identity;
  const amount = run.events.amount;
  const processed = alloc(Int32Array, n);
  const sent = alloc(Float64Array, n).fill(-1);
  const seenAt = alloc(Int32Array, n).fill(-1);
  const failed = new Set<number>();
  const resent = new Set<number>();
  const processor = new Uint8Array(t.actors.length);
  t.actors.forEach((a, i) => {
    if (a.startsWith('consumer-') || a === 'flink' || a === 'spark') processor[i] = 1;
  });
  let primaryActor = -1;
  // The clean table is built from the raw one: an event reaches it with its first raw row.
  if (primary === 'sink' || primary === 'clean') primaryActor = t.actors.indexOf('sink');
  else if (primary === 'effects') primaryActor = t.actors.indexOf('service');
  else if (primary.startsWith('reader:')) {
    const idx = run.scenario.readers.findIndex((r) => `reader:${r.name}` === primary);
    primaryActor = t.actors.indexOf(`reader-${idx}`);
  }
  const primaryTopic = primaryActor < 0 ? t.topics.indexOf(primary.slice(4)) : -1;
  const totals = new Float64Array(2);
  scanEntries(
    t.kind,
    t.event,
    t.actor,
    t.time,
    t.aux,
    t.topic,
    t.length,
    ident,
    amount,
    processor,
    primaryActor,
    primaryTopic,
    totals,
    {
      processed,
      sent,
      seenAt,
      failed,
      resent,
    },
  );
  const [processedTotal, processedSum] = totals as unknown as [number, number];
  return { processed, processedTotal, processedSum, failed, resent, sent, seenAt };
}

/**
 * The loop of {@link scanTrace}, over every trace entry (its columns as arguments): apart, and
 * summing into `totals` [processed records, their Σ amount], for the reasons of
 * `countLog` (checker.ts).
 */
function scanEntries(
  kinds: Trace['kind'],
  events: Trace['event'],
  actors: Trace['actor'],
  times: Trace['time'],
  auxes: Trace['aux'],
  topics: Trace['topic'],
  length: number,
  ident: Int32Array,
  amount: Float64Array,
  processor: Uint8Array,
  primaryActor: number,
  primaryTopic: number,
  totals: Float64Array,
  out: Pick<Scan, 'processed' | 'sent' | 'seenAt' | 'failed' | 'resent'>,
): void {
  const { processed, sent, seenAt, failed, resent } = out;
  const PROCESS = KIND_CODE.process;
  const SEND = KIND_CODE['app-send'];
  const FAILED = KIND_CODE['app-send-failed'];
  const ROW = KIND_CODE['row-insert'];
  const EFFECT = KIND_CODE.effect;
  const APPEND = KIND_CODE.append;
  for (let i = 0; i < length; i++) {
    const e = events[i]!;
    if (e < 0) continue;
    const k = kinds[i]!;
    const j = ident[e]!;
    if (k === PROCESS) {
      if (processor[actors[i]!] === 1) {
        processed[j]!++;
        totals[0]!++;
        totals[1]! += amount[e]!;
      }
    } else if (k === SEND) {
      if (sent[j]! < 0) sent[j] = times[i]!;
      if (auxes[i] === 1) resent.add(j);
    } else if (k === FAILED) failed.add(j);
    else if ((k === ROW || k === EFFECT) && actors[i] === primaryActor) {
      if (seenAt[j]! < 0) seenAt[j] = i;
    } else if (k === APPEND && primaryActor < 0 && topics[i] === primaryTopic && seenAt[j]! < 0)
      seenAt[j] = i;
  }
}
