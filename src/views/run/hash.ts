/**
 * The run's trace hash, from a {@link RunView}'s columns: the engine's `traceHash` over the very
 * same bytes (a unit test pins the equality), so the page can show and compare it without the
 * engine's Trace object (the view may come from a Worker). Computed on demand only.
 */
import { hashTraceData, TRACE_COLUMNS } from '../../engine';
import type { RunView } from './runView';

/** Hex SHA-256 of the trace, identical to the engine's `traceHash`. */
export function traceHashOfView(v: RunView): string {
  return hashTraceData(
    v.n,
    TRACE_COLUMNS.map((c) => v.cols[c]),
    v.actors,
    v.topics,
  );
}
