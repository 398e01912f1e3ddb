/** The CLI's trace hash: Node's native SHA-256. */
import { createHash } from 'node:crypto';
import { traceBytePartsOf, type Trace } from '../engine';

/**
 * The engine's trace hash computed with Node's native SHA-256 over the same bytes
 * ({@link traceBytePartsOf}): the same hex string as `traceHash`, without the pure-JavaScript
 * digest's seconds on a million-event trace, and fed piece by piece, without a copy of the trace.
 */
export function nodeTraceHash(t: Trace): string {
  const hash = createHash('sha256');
  for (const part of traceBytePartsOf(t)) hash.update(part);
  return hash.digest('hex');
}
