/**
 * The run's trace hash, from a {@link RunView}'s columns: the same digest as the engine's
 * `traceHash(run.trace)` (a unit test pins the equality), so the page can show and compare it
 * without the engine's Trace object (the view may come from a Worker).
 *
 * Why not call `traceHash`: it feeds the hash column by column, and columns whose byte length is
 * not a multiple of 64 push every later byte through the hash's slow, buffered path — about 5 s
 * for a 100,000-event run. Concatenating the very same bytes once and hashing in one shot takes
 * a few hundred milliseconds. Computed on demand only (share links, tests), never per run.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { RunView } from './runView';

/** Hex SHA-256 of the trace, byte-identical to the engine's `traceHash`. */
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
  const names = v.actors.join('\n') + '\u0000' + v.topics.join('\n');
  const total = 12 + columns.reduce((s, x) => s + x.byteLength, 0) + names.length * 2;
  const bytes = new Uint8Array(total);
  bytes.set(new Uint8Array(new Int32Array([v.n, v.actors.length, v.topics.length]).buffer), 0);
  let at = 12;
  for (const x of columns) {
    bytes.set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength), at);
    at += x.byteLength;
  }
  for (let i = 0; i < names.length; i++) {
    const ch = names.charCodeAt(i);
    bytes[at++] = ch & 0xff;
    bytes[at++] = ch >> 8;
  }
  return bytesToHex(sha256(bytes));
}
