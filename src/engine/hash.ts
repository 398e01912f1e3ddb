/**
 * `traceHash`: a hex digest of everything a run recorded — the trace columns, the actor and topic
 * tables — so two runs can be compared by one string (share links, embeds, the CLI, tests).
 * SHA-256 from @noble/hashes: the same bytes give the same digest in Node and in the browser.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Trace } from './trace';

/** Hex SHA-256 of the trace's columns (little-endian) and name tables. */
export function traceHash(t: Trace): string {
  const h = sha256.create();
  const header = new Int32Array([t.length, t.actors.length, t.topics.length]);
  h.update(new Uint8Array(header.buffer));
  for (const c of t.columns()) h.update(new Uint8Array(c.buffer, c.byteOffset, c.byteLength));
  const names = t.actors.join('\n') + '\u0000' + t.topics.join('\n');
  const bytes: number[] = [];
  for (let i = 0; i < names.length; i++) {
    const c = names.charCodeAt(i);
    bytes.push(c & 0xff, c >> 8);
  }
  h.update(new Uint8Array(bytes));
  return bytesToHex(h.digest());
}
