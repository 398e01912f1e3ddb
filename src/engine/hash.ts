/**
 * `traceHash`: a hex digest of everything a run recorded — the trace columns, the actor and topic
 * tables — so two runs can be compared by one string (share links, embeds, the CLI, tests).
 * SHA-256 from @noble/hashes: the same bytes give the same digest in Node and in the browser.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Trace } from './trace';

/**
 * The bytes a trace hash digests: entry count, the columns in {@link Trace.columns} order
 * (little-endian), and the actor and topic name tables. Laid out once so the digest runs in one
 * call: feeding the hash column by column is many times slower (columns whose length is not a
 * multiple of the hash block go through its buffered path).
 * @returns a new array of 12 + Σ column bytes + 2 × name characters bytes.
 */
export function traceBytes(
  n: number,
  columns: readonly ArrayBufferView[],
  actors: readonly string[],
  topics: readonly string[],
): Uint8Array {
  const names = actors.join('\n') + '\u0000' + topics.join('\n');
  const total = 12 + columns.reduce((s, x) => s + x.byteLength, 0) + names.length * 2;
  const bytes = new Uint8Array(total);
  bytes.set(new Uint8Array(new Int32Array([n, actors.length, topics.length]).buffer), 0);
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
  return bytes;
}

/** Hex SHA-256 of a trace given as its parts (see {@link traceBytes}). */
export function hashTraceData(
  n: number,
  columns: readonly ArrayBufferView[],
  actors: readonly string[],
  topics: readonly string[],
): string {
  return bytesToHex(sha256(traceBytes(n, columns, actors, topics)));
}

/** The bytes of a run's trace that {@link traceHash} digests. */
export function traceBytesOf(t: Trace): Uint8Array {
  return traceBytes(t.length, t.columns(), t.actors, t.topics);
}

/**
 * Hex SHA-256 of a run's trace (see {@link traceBytes}). Pure JavaScript, so the page, the worker
 * and the tests agree; the CLI digests {@link traceBytesOf} with Node's native SHA-256 instead,
 * which gives the same string in a fraction of the time (a million-event trace is ~140 MB of bytes).
 */
export function traceHash(t: Trace): string {
  return bytesToHex(sha256(traceBytesOf(t)));
}
