/**
 * The fault-link rule, in one place: which link each message type travels on, which scripted
 * fault kinds can act on it, and which messages a message fault counts towards its `nth`. The
 * fault registry ({@link Faults.onMessage} in faults.ts) decides with it during a run; the page's
 * "drop this message" action reads it back over a finished trace to write the fault that hits
 * exactly one message.
 */
import type { EventId } from './ids';
import type { Link } from './scenario/schema';
import { K, MESSAGE_TYPES, type MessageType, type TraceColumns } from './trace';

/** The link (fault `link`) a message type travels on, and whether it is a request. */
export const MESSAGE_LINK: Record<MessageType, { link: Link; request: boolean }> = {
  produce: { link: 'produce', request: true },
  'produce-response': { link: 'produce', request: false },
  fetch: { link: 'fetch', request: true },
  'fetch-response': { link: 'fetch', request: false },
  commit: { link: 'commit', request: true },
  'commit-response': { link: 'commit', request: false },
  'sink-write': { link: 'sink', request: true },
  'sink-response': { link: 'sink', request: false },
  'effect-call': { link: 'effect', request: true },
  'effect-response': { link: 'effect', request: false },
  'txn-request': { link: 'txn', request: true },
  'txn-response': { link: 'txn', request: false },
  replicate: { link: 'produce', request: true },
  barrier: { link: 'checkpoint', request: true },
  'checkpoint-ack': { link: 'checkpoint', request: false },
  'checkpoint-notify': { link: 'checkpoint', request: true },
};

/**
 * Whether a message fault of `kind` on `link` acts on a message of `type`: same link, a
 * `drop-request` on requests, a `drop-response` / `delay-response` on responses. Replication
 * between brokers is never hit (broker-to-broker traffic is not a client link).
 */
export function faultActsOn(kind: string, link: Link, type: MessageType): boolean {
  if (type === 'replicate') return false;
  const m = MESSAGE_LINK[type];
  return m.link === link && (kind === 'drop-request') === m.request;
}

const ON_REQUEST = ['drop-request'] as const;
const ON_RESPONSE = ['drop-response', 'delay-response'] as const;

/**
 * The fault kinds that can act on a message of `type`, the dropping one first (none for
 * replication).
 */
export function messageFaultKinds(
  type: MessageType,
): typeof ON_REQUEST | typeof ON_RESPONSE | readonly [] {
  if (type === 'replicate') return [];
  return MESSAGE_LINK[type].request ? ON_REQUEST : ON_RESPONSE;
}

/** What a message fault matches besides its link: a partition, a business identity (-1: any). */
export interface MessageMatch {
  partition: number;
  identity: number;
}

/**
 * The `nth` a new message fault of `match`, armed at `armedAt` (by default the send time of
 * message entry `entry`), needs to hit that message: its rank among the messages on the same link
 * and direction sent from then on that the fault would count. As in {@link Faults.onMessage}, a message already decided by
 * another fault (its entry's cause is a 'fault' entry) is not counted: a fault appended last
 * waits for the next match.
 * @param msgs - the ascending ids of the 'msg' and 'msg-lost' entries.
 * @param identityOf - the business identity of an event.
 */
export function messageMatchCount(
  cols: TraceColumns,
  msgs: ArrayLike<number>,
  entry: number,
  match: MessageMatch,
  identityOf: (event: EventId) => number,
  armedAt = cols.time[entry]!,
): number {
  const type = MESSAGE_TYPES[cols.aux[entry]!]!;
  const { link, request } = MESSAGE_LINK[type];
  let nth = 0;
  for (let k = firstSentAt(cols, msgs, armedAt); k < msgs.length; k++) {
    const i = msgs[k]!;
    if (i > entry) break;
    const ti = MESSAGE_TYPES[cols.aux[i]!];
    if (ti === undefined) continue;
    const m = MESSAGE_LINK[ti];
    if (m.link !== link || m.request !== request) continue;
    const cause = cols.cause[i]!;
    if (cause >= 0 && cols.kind[cause] === K['fault']) continue;
    if (match.partition >= 0 && cols.partition[i] !== match.partition) continue;
    if (
      match.identity >= 0 &&
      (cols.event[i]! < 0 || identityOf(cols.event[i]! as EventId) !== match.identity)
    )
      continue;
    nth++;
  }
  return nth;
}

/** Index in `msgs` of the first message sent at or after `at` (entries are in time order). */
function firstSentAt(cols: TraceColumns, msgs: ArrayLike<number>, at: number): number {
  let lo = 0;
  let hi = msgs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cols.time[msgs[mid]!]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
