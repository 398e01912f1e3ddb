/**
 * Faults on one message: its type's human name, and the fault that drops exactly that message
 * (the message's link, partition, event and rank, by the engine's fault-link rule).
 */
import { MESSAGE_LINK, messageFaultKinds, messageMatchCount } from '../../engine';
import { K, messageTypeName } from '../run/kinds';
import { txnApi } from '../run/txnApi';
import { eventIdOf, type RunView } from '../run/runView';
import type { FaultInput } from './faultActions';

/**
 * Human name of a message type: "record", "ack", "fetch", … A transaction coordinator's message is
 * named by its Kafka API when `api` (the trace's `count`) is given: an idempotent producer's
 * InitProducerId request is no transaction (Kafka: an idempotent producer gets its producer id by
 * InitProducerId, https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence).
 */
export function messageLabel(type: string, api?: number): string {
  if (api !== undefined && (type === 'txn-request' || type === 'txn-response'))
    return `${txnApi(api)} ${type === 'txn-request' ? 'request' : 'response'}`;
  switch (type) {
    case 'produce':
      return 'produce request';
    case 'produce-response':
      return 'ack';
    case 'fetch':
      return 'fetch request';
    case 'fetch-response':
      return 'fetched records';
    case 'commit':
      return 'offset commit';
    case 'commit-response':
      return 'commit response';
    case 'sink-write':
      return 'sink write';
    case 'sink-response':
      return 'sink response';
    case 'effect-call':
      return 'service call';
    case 'effect-response':
      return 'service response';
    case 'txn-request':
      return 'transaction request';
    case 'txn-response':
      return 'transaction response';
    default:
      return type;
  }
}

/**
 * The fault that drops exactly the message of trace entry `entry`: a drop-request or drop-response
 * on its link, armed from its send time, matching its partition (and its event when it carries a
 * single record), with `nth` = its rank among the messages that fault would count.
 *
 * Why `at` is the send time and not "now": the message left its sender at that time; a fault
 * armed later would match the next such message instead. Which fault kinds act on it and how the
 * `nth` counts are the engine's rule ({@link messageFaultKinds}, {@link messageMatchCount}).
 * @returns null if the entry is not a message in flight.
 */
export function dropMessageFault(v: RunView, entry: number): FaultInput | null {
  const c = v.cols;
  if (entry < 0 || entry >= v.n || c.kind[entry] !== K.msg) return null;
  const type = messageTypeName(c.aux[entry]!);
  if (type === 'message') return null;
  const kind = messageFaultKinds(type)[0];
  if (kind === undefined) return null;
  const at = c.time[entry]!;
  const partition = c.partition[entry]!;
  const event = c.event[entry]!;
  const single = event >= 0 && c.count[entry]! <= 1;
  const identity = single ? v.events.identity[event]! : -1;
  const nth = messageMatchCount(
    c,
    v.msgs,
    entry,
    { partition, identity },
    (e) => v.events.identity[e]!,
  );
  const match: { partition?: number; event?: string; nth: number } = { nth: Math.max(1, nth) };
  if (partition >= 0) match.partition = partition;
  if (identity >= 0) match.event = eventIdOf(v.events, identity);
  const label = `${messageLabel(type, c.count[entry])}${identity >= 0 ? ` of ${eventIdOf(v.events, identity)}` : ''} dropped`;
  return { id: label, kind, link: MESSAGE_LINK[type].link, at, match };
}
