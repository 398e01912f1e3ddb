/**
 * replica.fetch.wait.max.ms: a follower's fetch that finds nothing new is held by the leader at
 * most that long, then answered empty, with the leader's high watermark — so on an idle partition
 * the followers learn the last high watermark within about 500 ms, and a new leader elected later
 * starts from it (docs/semantics/broker.md#a-followers-fetch-that-times-out).
 */
import { expect, it } from 'vitest';
import { entriesOf, runScenario, totals } from '../testing';
import { MESSAGE_TYPES } from '../traceCodes';
import { parseScenario } from '../scenario/validate';

/**
 * One partition on brokers 1 (leader), 2, 3; one record a batch; e1..e4 sent at 100, 200, 300,
 * 400 ms; 2 ms a message. e4 reaches broker-1 and is appended at 402 ms; its answer to the
 * followers' waiting fetches carries HW 3; they hold e4 at 404, and their next fetches, at 406,
 * move the HW to 4 — and find nothing new, so broker-1 holds them. Nothing more is appended:
 * 500 ms later, at 906, it answers them empty with HW 4, which the followers take at 908 (and
 * fetch again, held until 1,410, answered at 1,412…). The leader dies at `failAt` and stays
 * down; the controller elects broker-2 9 s later. A consumer starts 2 ms before the election.
 */
function idleThenFailover(acks: '1' | 'all', failAt: number, fetchWait?: number) {
  return runScenario({
    workload: {
      events: [
        { id: 'e1', amount: 10, at: 100 },
        { id: 'e2', amount: 20, at: 200 },
        { id: 'e3', amount: 30, at: 300 },
        { id: 'e4', amount: 40, at: 400 },
      ],
    },
    producer: { acks, 'linger.ms': 0 },
    broker: {
      partitions: 1,
      ...(fetchWait === undefined ? {} : { 'replica.fetch.wait.max.ms': fetchWait }),
    },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      startAtMs: failAt + 9000 - 2,
    },
    faults: [{ kind: 'leader-failover', at: failAt, restartAfterMs: null }],
  });
}

function hwEntries(run: ReturnType<typeof runScenario>): string[] {
  const t = run.trace;
  return entriesOf(run, 'hw').map((i) => `${t.time[i]}:${t.offset[i]}`);
}

/** The consumer's fetch answers after the failover: time, first offset and count. */
function readsAfter(run: ReturnType<typeof runScenario>, from: number): string[] {
  const t = run.trace;
  const fetchResponse = MESSAGE_TYPES.indexOf('fetch-response');
  return entriesOf(run, 'msg')
    .filter((i) => t.aux[i] === fetchResponse && t.time[i]! > from && t.count[i]! > 0)
    .map((i) => `${t.time[i]}:${t.offset[i]}+${t.count[i]}`);
}

for (const acks of ['1', 'all'] as const) {
  it(`acks=${acks}: a failover 400 ms after the last append hides it for one fetch round`, () => {
    // Killed at 802, before the timeout at 906: broker-2 knows HW 3 (from e4's answer). Elected
    // at 9,802 it starts there ('hw' down to 3, its own: aux 1), answers broker-3's waiting fetch
    // at once, and broker-3's next fetch, at 9,806, moves it to 4.
    const run = idleThenFailover(acks, 802);
    expect(hwEntries(run)).toEqual(['106:1', '206:2', '306:3', '406:4', '9802:3', '9806:4']);
    const t = run.trace;
    expect(
      entriesOf(run, 'hw')
        .filter((i) => t.aux[i] === 1)
        .map((i) => t.time[i]),
    ).toEqual([9802]);
    // The consumer, assigned at 9,802, fetches from broker-2 at 9,804: e1..e3 (HW 3); again at
    // 9,808, after the HW reached 4: e4.
    expect(readsAfter(run, 9000)).toEqual(['9804:0+3', '9808:3+1']);
    expect(totals(run)).toEqual({ rows: 4, sum: 100, duplicates: 0, lost: 0 });
  });

  it(`acks=${acks}: a failover 600 ms after the last append finds the followers knowing it`, () => {
    // Killed at 1,002, after the followers took HW 4 at 908: broker-2 leads from HW 4 (no 'hw'
    // entry at the election, nor after: broker-3's fetches only confirm it), and the consumer's
    // first fetch, at 10,004, reads all four.
    const run = idleThenFailover(acks, 1002);
    expect(hwEntries(run)).toEqual(['106:1', '206:2', '306:3', '406:4']);
    expect(readsAfter(run, 9000)).toEqual(['10004:0+4']);
    expect(totals(run)).toEqual({ rows: 4, sum: 100, duplicates: 0, lost: 0 });
    const p = run.state.input.partitions[0]!;
    expect({ leader: p.leader, hw: p.hw, broker3: p.replica(3)!.hw }).toEqual({
      leader: 2,
      hw: 4,
      broker3: 4,
    });
  });
}

it('the timeout at the crash itself never answers; one a millisecond earlier does, though the leader dies before the answer lands', () => {
  // At 906 the crash comes first (a timeout comes after whatever else happens at its moment):
  // broker-1 answers nothing, the followers keep HW 3. At 907 the timeout of 906 has been
  // answered; the answer, on its way, reaches the followers at 908, after the crash.
  expect(hwEntries(idleThenFailover('all', 906)).slice(4)).toEqual(['9906:3', '9910:4']);
  expect(hwEntries(idleThenFailover('all', 907)).slice(4)).toEqual([]);
});

it('replica.fetch.wait.max.ms=1000: the same failover at 1,002 hides e4 again', () => {
  // The held fetches of 406 time out at 1,406 now, after the crash.
  const run = idleThenFailover('all', 1002, 1000);
  expect(hwEntries(run)).toEqual(['106:1', '206:2', '306:3', '406:4', '10002:3', '10006:4']);
  expect(readsAfter(run, 9000)).toEqual(['10004:0+3', '10008:3+1']);
});

/**
 * e1 at 100 ms: HW 1 at 106, the followers' next fetches held from 106, timed out at 606 (the
 * empty answers reach them at 608, their next fetches broker-1 at 610). e2 sent at `e2At`.
 */
function appendNearTimeout(e2At: number) {
  return runScenario({
    workload: {
      events: [
        { id: 'e1', amount: 10, at: 100 },
        { id: 'e2', amount: 20, at: e2At },
      ],
    },
    producer: { acks: 'all', 'linger.ms': 0 },
    broker: { partitions: 1 },
    processor: { type: 'consumer', 'auto.offset.reset': 'earliest', startAtMs: 2000 },
  });
}

it('an append while the timed-out answer is on its way waits for the follower’s next fetch', () => {
  // e2 sent at 604 reaches broker-1 at 606, with the timeout: the append comes first and answers
  // the held fetches (followers hold e2 at 608, fetch again at 610: HW 2). Sent at 605, it
  // arrives at 607, when the followers have no fetch at broker-1 (answered empty at 606): their
  // next fetches, at 610, are answered with e2, which they hold at 612; HW 2 at 614.
  expect(hwEntries(appendNearTimeout(604))).toEqual(['106:1', '610:2']);
  expect(hwEntries(appendNearTimeout(605))).toEqual(['106:1', '614:2']);
  // Eight rounds later (every 504 ms: 500 held, 2 to the follower, 2 back) the timeout is at
  // 606 + 8 × 504 = 4,638: the same two cases a round of the clock later.
  expect(hwEntries(appendNearTimeout(4636))).toEqual(['106:1', '4642:2']);
  expect(hwEntries(appendNearTimeout(4637))).toEqual(['106:1', '4646:2']);
  // The 'hw' entry still follows from e2's append.
  const run = appendNearTimeout(605);
  const t = run.trace;
  const hw2 = entriesOf(run, 'hw')[1]!;
  expect(t.kindOf(t.cause[hw2]!)).toBe('append');
  expect(totals(run)).toEqual({ rows: 2, sum: 30, duplicates: 0, lost: 0 });
});

it('a replica.fetch.wait.max.ms above replica.lag.time.max.ms is refused, as Kafka refuses to start', () => {
  const r = parseScenario({
    version: 1,
    name: 'wait above lag',
    workload: { events: [{ id: 'e1', amount: 10, at: 0 }] },
    broker: { 'replica.fetch.wait.max.ms': 20_000, 'replica.lag.time.max.ms': 10_000 },
  });
  expect(r.ok).toBe(false);
  if (!r.ok)
    expect(r.issues.map((i) => i.message)).toContain(
      'replica.fetch.wait.max.ms should always be less than or equal to replica.lag.time.max.ms to prevent frequent changes in ISR',
    );
});

it('a held fetch with nothing new stays held when the leader answers another follower', () => {
  // acks=1, e1..e4 as above: HW 4 at 406, both followers' fetches held from then. broker-3 dies
  // at 410 and is back at 600, before the controller would notice: broker-1 answers its fresh
  // fetch (with HW 4), but broker-2's held fetch gets nothing new and stays held — its timeout
  // would come at 906, and broker-1 dies at 700. So broker-2, elected at 9,700, knows only HW 3.
  const run = runScenario({
    workload: {
      events: [
        { id: 'e1', amount: 10, at: 100 },
        { id: 'e2', amount: 20, at: 200 },
        { id: 'e3', amount: 30, at: 300 },
        { id: 'e4', amount: 40, at: 400 },
      ],
    },
    producer: { acks: '1', 'linger.ms': 0 },
    broker: { partitions: 1 },
    processor: { type: 'consumer', 'auto.offset.reset': 'earliest', startAtMs: 20_000 },
    faults: [
      { kind: 'crash', target: 'broker-3', at: 410, restartAfterMs: 190 },
      { kind: 'leader-failover', at: 700, restartAfterMs: null },
    ],
  });
  expect(hwEntries(run)).toEqual(['106:1', '206:2', '306:3', '406:4', '9700:3', '9704:4']);
  const p = run.state.input.partitions[0]!;
  expect(p.leader).toBe(2);
});

it('with network jitter the rounds are drawn one by one: the followers still learn the HW, the same way every run', () => {
  // Latencies of 2–5 ms: a round of the idle partition takes 504–510 ms, so by 5 s the followers
  // took HW 4 several rounds ago, and broker-2 leads from it.
  const input = {
    network: { latencyMs: 2, jitterMs: 3 },
    workload: {
      events: [
        { id: 'e1', amount: 10, at: 100 },
        { id: 'e2', amount: 20, at: 200 },
      ],
    },
    producer: { acks: 'all' as const, 'linger.ms': 0 },
    broker: { partitions: 1 },
    processor: {
      type: 'consumer' as const,
      'auto.offset.reset': 'earliest' as const,
      startAtMs: 20_000,
    },
    faults: [{ kind: 'leader-failover' as const, at: 5000, restartAfterMs: null }],
  };
  const run = runScenario(input);
  const t = run.trace;
  expect(entriesOf(run, 'hw').map((i) => t.offset[i])).toEqual([1, 2]);
  expect(run.state.input.partitions[0]!.replica(3)!.hw).toBe(2);
  expect(Array.from(runScenario(input).trace.time)).toEqual(Array.from(t.time));
});
