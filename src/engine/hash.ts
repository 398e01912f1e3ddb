/**
 * `traceHash`: a hex digest of everything a run recorded — the trace columns, the actor and topic
 * tables — so two runs can be compared by one string (share links, embeds, the CLI, tests).
 * SHA-256 from @noble/hashes: the same bytes give the same digest in Node and in the browser.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Trace } from './trace';

/**
 * The bytes a trace hash digests, in pieces: entry count, the columns in {@link Trace.columns}
 * order (little-endian, views of the columns themselves, not copies), and the actor and topic
 * name tables. A digest fed piece by piece (Node's native one in the CLI) needs no second copy
 * of a trace of hundreds of MB.
 */
function traceByteParts(
  n: number,
  columns: readonly ArrayBufferView[],
  actors: readonly string[],
  topics: readonly string[],
): Uint8Array[] {
  const names = actors.join('\n') + '\u0000' + topics.join('\n');
  const nameBytes = new Uint8Array(names.length * 2);
  for (let i = 0; i < names.length; i++) {
    const ch = names.charCodeAt(i);
    nameBytes[2 * i] = ch & 0xff;
    nameBytes[2 * i + 1] = ch >> 8;
  }
  return [
    new Uint8Array(new Int32Array([n, actors.length, topics.length]).buffer),
    ...columns.map((x) => new Uint8Array(x.buffer, x.byteOffset, x.byteLength)),
    nameBytes,
  ];
}

/**
 * The bytes a trace hash digests ({@link traceByteParts}), laid out once so the pure-JavaScript
 * digest runs in one call: feeding it piece by piece is many times slower (columns whose length
 * is not a multiple of the hash block go through its buffered path).
 * @returns a new array of 12 + Σ column bytes + 2 × name characters bytes.
 */
export function traceBytes(
  n: number,
  columns: readonly ArrayBufferView[],
  actors: readonly string[],
  topics: readonly string[],
): Uint8Array {
  const parts = traceByteParts(n, columns, actors, topics);
  const bytes = new Uint8Array(parts.reduce((s, x) => s + x.byteLength, 0));
  let at = 0;
  for (const x of parts) {
    bytes.set(x, at);
    at += x.byteLength;
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

/** The same bytes as {@link traceBytesOf}, in pieces that view the trace's columns. */
export function traceBytePartsOf(t: Trace): Uint8Array[] {
  return traceByteParts(t.length, t.columns(), t.actors, t.topics);
}

/**
 * Hex SHA-256 of a run's trace (see {@link traceBytes}). Pure JavaScript, so the page, the worker
 * and the tests agree; the CLI digests {@link traceBytesOf} with Node's native SHA-256 instead,
 * which gives the same string in a fraction of the time (a million-event trace is ~140 MB of bytes).
 */
export function traceHash(t: Trace): string {
  return bytesToHex(sha256(traceBytesOf(t)));
}
