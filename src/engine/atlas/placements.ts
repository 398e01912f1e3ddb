/**
 * The fault atlas, step 1: every **placement** of one more fault in a scenario — each chance its
 * first run gave a fault to strike — written as an ordinary scenario fault, appended after the
 * scenario's own (which keep their indices, counts and random streams), so any placement opens
 * as a normal run.
 *
 * Read from the first run (simulated with `opportunities: true`, see opportunities.ts) and its
 * trace:
 * - every message on every link ({@link MESSAGE_LINK}): `drop-request` / `drop-response` for each
 *   request and response, `delay-response` past the client's timeout for each response on the
 *   links whose client has one (produce, txn, sink, effect). The fault is armed from the message's
 *   send time with `match.nth` its rank among the link's messages sent from then on — the count
 *   the engine recorded, so it strikes that message and no other. Messages one of the scenario's
 *   own faults already dropped or delayed are left out (their fate is decided);
 * - every crash point a component reached (after-poll, each record of a batch — `mid-batch` with
 *   `afterRecords` —, before/after the commit (after it only where the commit precedes the
 *   writes: after one that follows them a crash changes nothing, consumerBatch.batchCommitted),
 *   the Flink checkpoint steps, the Spark sink write,
 *   the transactional producer's commit): a `crash` armed from that moment, `nth` its rank there;
 * - the leader of a partition failing right after each produce request it appends (a `random`
 *   `leader-failover` with probability 1, armed for that millisecond only: the scheduled kind
 *   strikes before the append, this one between the append and the replication), and failing a
 *   millisecond later, when its followers hold the batch but it has not yet heard so (a scheduled
 *   `leader-failover`; only while the high watermark has not passed the batch by then);
 * - a `rebalance` and a `zombie` (paused 15 s past `session.timeout.ms`, as the fault menu
 *   offers it) of each consumer at each of its polls;
 * - an `app-resend` and a `source-duplicate` of each business event.
 * A crash `now` at an arbitrary time is not enumerated: the named points are where a crash
 * changes the outcome, and a time has no natural grid. Nor is anything of the downstream readers
 * (`reader-N`): a reader is where the lab observes the end of the pipeline — it copies what it
 * reads into a plain table — so a fault of its own would measure the reader, not the claim.
 */
import type { FaultSpec, Link, Scenario } from '../scenario/schema';
import type { Run } from '../simulate';
import { K, MESSAGE_TYPES, TXN_API } from '../trace';
import { MESSAGE_LINK } from '../faults';
import { linkKey } from '../opportunities';
import { CRASH_POINT_WORDS, ordinal } from '../faultWords';
import { PLACEMENT_KINDS, type PlacementKind } from './kinds';

/** The kinds of fault the atlas places (the `--kinds` of the CLI): ./kinds.ts. */
export { PLACEMENT_KINDS, type PlacementKind } from './kinds';

/** One added fault and where it strikes in the first run. */
export interface Placement {
  kind: PlacementKind;
  /** The fault to append to the scenario's (every default written out: valid as input too). */
  fault: FaultSpec;
  /**
   * The component it strikes (the heat map's row): the client of a message's link (a request's
   * sender, a response's receiver), a crash's target, `partition:<topic>:<p>` for a leader
   * failover, the consumer of a rebalance or zombie, `producer` for a re-send or a duplicate.
   */
  component: string;
  /** When it strikes in the first run (virtual ms): the heat map's column. */
  time: number;
  /** Where, in words: "the produce response of p-4 (the 4th on its link)". */
  label: string;
}

/** Extra delay past a client's timeout that a delayed response gets (ms). */
const PAST_TIMEOUT_MS = 1_000;

/** The zombie's pause beyond `session.timeout.ms` (as the page's fault menu offers it). */
const ZOMBIE_PAST_SESSION_MS = 15_000;

/** Restart delay of a placed crash (the schema's default). */
const RESTART_AFTER_MS = 1_000;

/** The client's timeout on `link` (ms) a response must outlast to arrive too late, or null. */
function clientTimeoutMs(s: Scenario, link: Link): number | null {
  switch (link) {
    case 'produce':
    case 'txn':
      return s.producer['request.timeout.ms'];
    case 'sink':
      return s.sink.type === 'table' ? s.sink['statement.timeout.ms'] : null;
    case 'effect':
      return s.sink.type === 'effect' ? s.sink['timeout.ms'] : null;
    default:
      return null;
  }
}

/** A downstream reader: the lab's observer of the output, not a part of the pipeline. */
/** Each partition's high-watermark moves (topic index, partition → time and value, in order). */
function highWatermarkMoves(t: Run['trace']): Map<string, { time: number; hw: number }[]> {
  const moves = new Map<string, { time: number; hw: number }[]>();
  for (let e = 0; e < t.length; e++) {
    if (t.kind[e] !== K.hw) continue;
    const key = `${t.topic[e]!}\u0000${t.partition[e]!}`;
    let list = moves.get(key);
    if (!list) moves.set(key, (list = []));
    list.push({ time: t.time[e]!, hw: t.offset[e]! });
  }
  return moves;
}

function isReader(name: string): boolean {
  return name.startsWith('reader-');
}

/** Human words of a message type. */
const MESSAGE_WORDS: Record<string, string> = {
  produce: 'produce request',
  'produce-response': 'produce response',
  fetch: 'fetch request',
  'fetch-response': 'fetch response',
  commit: 'offset commit',
  'commit-response': 'offset commit response',
  'sink-write': 'sink write',
  'sink-response': 'sink response',
  'effect-call': 'service call',
  'effect-response': 'service response',
  'txn-request': 'transaction request',
  'txn-response': 'transaction response',
  barrier: 'checkpoint barrier',
  'checkpoint-ack': 'checkpoint acknowledgement',
  'checkpoint-notify': 'checkpoint completion notice',
};

/**
 * A message in words; a transaction coordinator's by its Kafka API (`InitProducerId request`): an
 * idempotent producer's InitProducerId is no transaction
 * (https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence).
 */
function messageWords(type: string, count: number): string {
  if (type === 'txn-request' || type === 'txn-response') {
    const api = Object.entries(TXN_API).find(([, code]) => code === count)?.[0];
    if (api) return `${api} ${type === 'txn-request' ? 'request' : 'response'}`;
  }
  return MESSAGE_WORDS[type] ?? type;
}

/**
 * For items in time order, each item's rank among those of its key from time `time` on: its
 * recorded rank minus the rank of the last one of its key before that time.
 */
function rankFromTime<T>(
  items: readonly T[],
  keyOf: (x: T) => string,
  timeOf: (x: T) => number,
  rankOf: (x: T) => number,
): number[] {
  const lastBefore = new Map<string, { time: number; rank: number }>();
  const prev = new Map<string, { time: number; rank: number }>();
  return items.map((x) => {
    const key = keyOf(x);
    const t = timeOf(x);
    const r = rankOf(x);
    const p = prev.get(key);
    // `lastBefore` holds the rank of the last item of the key at an earlier time than `t`.
    if (p && p.time < t) lastBefore.set(key, p);
    prev.set(key, { time: t, rank: r });
    const base = lastBefore.get(key);
    return base && base.time < t ? r - base.rank : r;
  });
}

/**
 * Every placement of one added fault in `s`, in a fixed order (kind, then time, then as
 * recorded), from `run`: the scenario's run made with `opportunities: true`.
 * @param kinds - only these kinds (default: all).
 * @throws Error when `run` was made without `opportunities`.
 */
export function enumeratePlacements(
  s: Scenario,
  run: Run,
  kinds: readonly PlacementKind[] = PLACEMENT_KINDS,
): Placement[] {
  const o = run.opportunities;
  if (!o) throw new Error('enumeratePlacements: simulate the scenario with opportunities: true');
  const want = new Set(kinds);
  const t = run.trace;
  const names = t.actors;
  const ev = run.events;
  const eventWords = (e: number) => (e >= 0 ? ` of ${ev.id(e)}` : '');
  const out: Placement[] = [];

  // Messages.
  const msgs = o.messageEntry.map((entry, i) => {
    const type = MESSAGE_TYPES[t.aux[entry]!]!;
    return { entry, type, rank: o.messageRank[i]!, time: t.time[entry]! };
  });
  const msgNth = rankFromTime(
    msgs,
    (m) => linkKey(MESSAGE_LINK[m.type].link, MESSAGE_LINK[m.type].request),
    (m) => m.time,
    (m) => m.rank,
  );
  msgs.forEach((m, i) => {
    const cause = t.cause[m.entry]!;
    // Already dropped or delayed by one of the scenario's faults: its fate is decided.
    if (cause >= 0 && t.kind[cause] === K.fault) return;
    const { link, request } = MESSAGE_LINK[m.type];
    const client = names[request ? t.actor[m.entry]! : t.peer[m.entry]!]!;
    if (isReader(client)) return;
    const what = `the ${messageWords(m.type, t.count[m.entry]!)}${eventWords(t.event[m.entry]!)} at ${m.time} ms (the ${ordinal(m.rank)} on the ${link} link)`;
    const match = { nth: msgNth[i]! };
    if (request) {
      if (want.has('drop-request'))
        out.push({
          kind: 'drop-request',
          fault: { kind: 'drop-request', at: m.time, link, match },
          component: client,
          time: m.time,
          label: `${what} is lost`,
        });
      return;
    }
    if (want.has('drop-response'))
      out.push({
        kind: 'drop-response',
        fault: { kind: 'drop-response', at: m.time, link, match },
        component: client,
        time: m.time,
        label: `${what} is lost`,
      });
    const timeout = clientTimeoutMs(s, link);
    if (want.has('delay-response') && timeout !== null)
      out.push({
        kind: 'delay-response',
        fault: {
          kind: 'delay-response',
          at: m.time,
          link,
          match,
          delayMs: timeout + PAST_TIMEOUT_MS,
        },
        component: client,
        time: m.time,
        label: `${what} arrives ${timeout + PAST_TIMEOUT_MS} ms late, past the client's ${timeout} ms timeout`,
      });
  });

  // Crash points.
  if (want.has('crash')) {
    const pts = o.points;
    const ptNth = rankFromTime(
      pts,
      (p) => `${p.target}\u0000${p.point}\u0000${p.detail}`,
      (p) => p.time,
      (p) => p.rank,
    );
    pts.forEach((p, i) => {
      // A mid-batch crash needs at least one record processed (the schema refuses 0).
      if ((p.point === 'mid-batch' && p.detail < 1) || isReader(p.target)) return;
      const where =
        p.point === 'mid-batch'
          ? `mid-batch after ${p.detail} record${p.detail === 1 ? '' : 's'}`
          : CRASH_POINT_WORDS[p.point as Exclude<typeof p.point, 'now' | 'mid-batch'>];
      out.push({
        kind: 'crash',
        fault: {
          kind: 'crash',
          at: p.time,
          target: p.target,
          point: p.point,
          nth: ptNth[i]!,
          afterRecords: p.point === 'mid-batch' ? p.detail : 1,
          restartAfterMs: RESTART_AFTER_MS,
        },
        component: p.target,
        time: p.time,
        label: `${p.target} crashes ${where} at ${p.time} ms (the ${ordinal(p.rank)} time there)`,
      });
    });
  }

  // Trace-read placements: appends (leader failover), polls (rebalance, zombie).
  const input = s.workload.topic;
  const consumer = s.processor.type === 'consumer' ? s.processor : null;
  const seenAppend = new Set<string>();
  const seenPoll = new Set<string>();
  const topics = t.topics;
  const hwMoves = want.has('leader-failover') ? highWatermarkMoves(t) : null;
  for (let e = 0; e < t.length; e++) {
    const k = t.kind[e]!;
    if (k === K.append && hwMoves) {
      const topic = topics[t.topic[e]!]!;
      const partition = t.partition[e]!;
      const time = t.time[e]!;
      const key = `${topic}\u0000${partition}\u0000${time}`;
      if (seenAppend.has(key)) continue;
      seenAppend.add(key);
      const appended = t.event[e]! >= 0 ? ` ${ev.id(t.event[e]!)}` : '';
      out.push({
        kind: 'leader-failover',
        fault: {
          kind: 'random',
          what: 'leader-failover',
          at: time,
          untilMs: time,
          probability: 1,
          ...(topic === input ? {} : { topic }),
          partition,
          restartAfterMs: 60_000,
        },
        component: `partition:${topic}:${partition}`,
        time,
        label: `the leader of ${topic}-${partition} fails right after appending${appended} at ${time} ms, before its followers copy it`,
      });
      // And a millisecond later, when the leader has answered its followers' fetches with the
      // batch but not yet heard back that they hold it (docs/semantics/broker.md#replication-and-isr):
      // a window only while the high watermark has not yet passed the batch's first record.
      const known = hwMoves
        .get(`${t.topic[e]!}\u0000${partition}`)
        ?.find((m) => m.time >= time && m.hw > t.offset[e]!);
      if (known && known.time >= time + 2)
        out.push({
          kind: 'leader-failover',
          fault: {
            kind: 'leader-failover',
            at: time + 1,
            ...(topic === input ? {} : { topic }),
            partition,
            restartAfterMs: 60_000,
          },
          component: `partition:${topic}:${partition}`,
          time: time + 1,
          label: `the leader of ${topic}-${partition} fails at ${time + 1} ms, 1 ms after appending${appended}, before it learns its followers hold it`,
        });
    } else if (k === K.poll && consumer) {
      const name = names[t.actor[e]!]!;
      if (!name.startsWith('consumer-') || name.endsWith('-replacement')) continue;
      const time = t.time[e]!;
      const key = `${name}\u0000${time}`;
      if (seenPoll.has(key)) continue;
      seenPoll.add(key);
      if (want.has('rebalance'))
        out.push({
          kind: 'rebalance',
          fault: { kind: 'rebalance', at: time, target: name },
          component: name,
          time,
          label: `${name}'s partitions move at its poll at ${time} ms`,
        });
      if (want.has('zombie')) {
        const pauseMs = consumer['session.timeout.ms'] + ZOMBIE_PAST_SESSION_MS;
        out.push({
          kind: 'zombie',
          fault: { kind: 'zombie', at: time, target: name, pauseMs },
          component: name,
          time,
          label: `${name} freezes for ${pauseMs} ms at its poll at ${time} ms, past session.timeout.ms`,
        });
      }
    }
  }

  // The source: each business event re-sent by the application, or emitted twice upstream.
  for (let j = 0; j < ev.identities; j++) {
    const id = ev.identityId(j);
    const time = ev.at[ev.firstIndexOf(j)]!;
    if (want.has('app-resend'))
      out.push({
        kind: 'app-resend',
        fault: { kind: 'app-resend', at: 0, event: id },
        component: 'producer',
        time,
        label: `the application sends ${id} again, as a new record`,
      });
    if (want.has('source-duplicate'))
      out.push({
        kind: 'source-duplicate',
        fault: { kind: 'source-duplicate', at: 0, event: id },
        component: 'producer',
        time,
        label: `the upstream source emits ${id} twice`,
      });
  }

  // One order for every caller (the CLI, any number of workers): by kind, then time.
  const order = new Map(PLACEMENT_KINDS.map((k, i) => [k, i]));
  return out
    .map((p, i) => ({ p, i }))
    .sort((a, b) => order.get(a.p.kind)! - order.get(b.p.kind)! || a.p.time - b.p.time || a.i - b.i)
    .map((x) => x.p);
}
