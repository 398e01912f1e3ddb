/**
 * The run's trace hash, from a {@link RunView}'s columns: the engine's `traceHash` over the very
 * same bytes (a unit test pins the equality), so the page can show and compare it without the
 * engine's Trace object (the view may come from a Worker). Computed on demand only.
 */
import { hashTraceData } from '../engine';
import type { RunView } from './runView';

/** Hex SHA-256 of the trace, identical to the engine's `traceHash`. */
export function traceHashOfView(v: RunView): string {
  const c = v.cols;
  // The column order of Trace.columns().
  const columns: ArrayBufferView[] = [
    c.time,
    c.kind,
    c.actor,
    c.peer,
    c.cause,
    c.event,
    c.topic,
    c.partition,
    c.offset,
    c.count,
    c.txn,
    c.ckpt,
    c.aux,
    c.until,
  ];
  return hashTraceData(v.n, columns, v.actors, v.topics);
}
