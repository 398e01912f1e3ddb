/**
 * Stuck detection (src/engine/stuck.ts): a run that ends with a component still waiting — a
 * request never answered, a transaction never completed, a job neither running nor failed,
 * records never delivered — names it, with since when, and is never a clean, finished run.
 */
import { describe, expect, it } from 'vitest';
import { NO_ENTRY } from './ids';
import { Actor, World, type PendingWork } from './world';
import { parseScenario } from './scenario/validate';
import { buildEvents } from './scenario/workload';
import { findStuck, stuckLine, stuckWords } from './stuck';
import { K } from './trace';
import { entriesOf, runScenario, totals } from './testing';

describe('findStuck asks every live component what it waits for', () => {
  class Waiting extends Actor {
    constructor(
      world: World,
      name: string,
      private readonly waits: PendingWork[],
    ) {
      super(world, name);
    }
    protected override onRestart(): void {}
    override pendingWork(): PendingWork[] {
      return this.waits;
    }
  }
  const parsed = parseScenario({
    version: 1,
    name: 't',
    workload: { events: [{ id: 'e1', amount: 1, at: 0 }] },
  });
  if (!parsed.ok) throw new Error('invalid');
  const w = new World(parsed.scenario, buildEvents(parsed.scenario.workload, 1));
  const a = new Waiting(w, 'a', [{ what: 'an answer', since: 7 }]);
  const b = new Waiting(w, 'b', [{ what: 'a record', since: -1 }]);
  const c = new Waiting(w, 'c', [{ what: 'its commit', since: -1 }]);
  const dead = new Waiting(w, 'dead', [{ what: 'anything', since: 1 }]);
  // b's last trace entry is at 42 ms (its since, as it knows none); c has none (0).
  w.now = 42;
  w.trace.add(42, K['stall'], b.id, NO_ENTRY);
  w.now = 50;
  dead.crash(NO_ENTRY, -1, null);

  it('names each live component with what it waits for and since when; a dead one waits for nothing', () => {
    expect(findStuck(w)).toEqual([
      { component: 'a', what: 'an answer', since: 7 },
      { component: 'b', what: 'a record', since: 42 },
      { component: 'c', what: 'its commit', since: 0 },
    ]);
    expect(a.alive && !dead.alive && c.alive).toBe(true);
  });

  it('words: one line each, and the first two for a parenthesis (with how many more)', () => {
    const stuck = findStuck(w);
    expect(stuckLine(stuck[0]!)).toBe('a (since 7 ms) waits for an answer');
    expect(stuckWords({ cutOffBy: 'stuck', stuck })).toBe(
      'nothing was left to happen but a (since 7 ms) waits for an answer; b (since 42 ms) waits for a record; and 1 more',
    );
    expect(stuckWords({ cutOffBy: 'stop', stuck })).toBe('');
  });
});

describe('a run that drains names nothing', () => {
  it('e1 through a consumer loop into a table: settled, not cut off, nothing stuck', () => {
    const run = runScenario({
      workload: { events: [{ id: 'e1', amount: 10, at: 0 }] },
      processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
      sink: { type: 'table' },
    });
    expect([run.cutOff, run.cutOffBy, run.stuck]).toEqual([false, null, []]);
    expect(totals(run)).toEqual({ rows: 1, sum: 10, duplicates: 0, lost: 0 });
  });
});

describe('a stop after the work is done is not a cut-off', () => {
  // e1..e3 at 100, 200, 300 ms; the consumer has written all three by 5,004 ms, its last step.
  // What is still queued then are released timers only (answered fetches' and requests' 30 s
  // timeouts, from 30,002 ms): they would run and do nothing, so the run settles there as it does
  // without a stop, not cut off at 20 s "with work still pending".
  const input = {
    stopAtMs: 20_000,
    workload: { topic: 'events', generate: { count: 3, startAtMs: 100, intervalMs: 100 } },
    processor: { type: 'consumer' as const },
  };

  it('stopAtMs 20 s, nothing left but released timers: settled at 5,004 ms, as without the stop', () => {
    const run = runScenario(input);
    expect([run.cutOff, run.cutOffBy, run.endTime]).toEqual([false, null, 5_004]);
    const free = runScenario({ ...input, stopAtMs: undefined });
    expect([free.cutOff, free.endTime, free.trace.length]).toEqual([
      false,
      5_004,
      run.trace.length,
    ]);
  });

  it("a crash due at 25 s, after the stop, is the scenario's fault still to come, not pending work: settled, the fault never fires", () => {
    const run = runScenario({
      ...input,
      faults: [{ kind: 'crash', target: 'consumer-0', at: 25_000, restartAfterMs: 1000 }],
    });
    expect([run.cutOff, run.cutOffBy, run.endTime]).toEqual([false, null, 5_004]);
    expect(entriesOf(run, 'fault')).toEqual([]);
    expect(totals(run)).toEqual({ rows: 3, sum: 60, duplicates: 0, lost: 0 });
  });

  it('a crash at 3 s, restarted after 30 s: its restart is pending work, so the run is cut off at the stop', () => {
    const run = runScenario({
      ...input,
      faults: [{ kind: 'crash', target: 'consumer-0', at: 3_000, restartAfterMs: 30_000 }],
    });
    expect([run.cutOff, run.cutOffBy, run.endTime]).toEqual([true, 'stop', 20_000]);
  });
});

describe('stuck by design: a transaction left open past the stop (transaction.timeout.ms 60 s, stopAtMs 30 s)', () => {
  // As the preset aborted-transaction-dirty-read/open-transaction: e1..e11 every 100 ms from 100 ms, five per transaction; T1
  // (e1..e5) aborted, T2 re-sends e1..e5, T3 e6..e10, T4 = {e11}: e11 is sent at 1,100 ms (the
  // coordinator begins T4 then, with its AddPartitionsToTxn), acknowledged at 1,108 ms, and the
  // application hangs with T4 open (hang-transaction 4). Offsets: T1 0–4 + marker 5, T2 6–10 +
  // marker 11, T3 12–16 + marker 17, e11 at 18. Only the coordinator's timeout (60 s) would end
  // T4; the run stops at 30 s. read_committed reads up to the last stable offset, T4's first
  // offset 18 (https://kafka.apache.org/documentation/#consumerconfigs_isolation.level).
  const run = runScenario({
    claim: 'exactly-once',
    stopAtMs: 30_000,
    workload: { topic: 'events', generate: { count: 11, startAtMs: 100, intervalMs: 100 } },
    producer: { 'transactional.id': 't-1', app: { eventsPerTransaction: 5 } },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      'isolation.level': 'read_committed',
    },
    sink: { type: 'table', name: 'events_copy' },
    readers: [{ name: 'ru', topic: 'events', 'isolation.level': 'read_uncommitted' }],
    faults: [
      { kind: 'abort-transaction', transaction: 1 },
      { kind: 'hang-transaction', transaction: 4 },
    ],
  });

  it('cut off at the stop, still waiting: the coordinator for T4 since 1,100 ms, the hung producer since 1,108 ms, consumer-0 for record 18 since its append at 1,102 ms', () => {
    expect([run.cutOffBy, run.endTime]).toEqual(['stop', 30_000]);
    expect(run.stuck).toEqual([
      { component: 'coordinator', what: 'the end of transaction 4 of t-1 (Ongoing)', since: 1100 },
      {
        component: 'producer',
        what: 'the end of its transaction (hung by a fault, it never ends it)',
        since: 1108,
      },
      {
        component: 'consumer-0',
        what: 'record 18 of events/0, held back by an open transaction (read_committed reads up to the last stable offset, 18)',
        since: 1102, // e11's record 18, appended at 1,102 ms
      },
    ]);
  });
});

describe("issue 30's reproducers of a component waiting forever (items 1 and 4): stuck and named — or, once fixed, drained", () => {
  // Each either says what is stuck (the engine as it was: the lost message is never answered and
  // nothing retries it), or — after the fix of its item — drains with nothing lost. What it must
  // never be again: a finished run with a clean "lost e1" verdict.
  const stuckOrDrained = (
    run: ReturnType<typeof runScenario>,
    stuck: { component: string; what: RegExp; since: number; endTime: number },
  ) => {
    if (run.cutOffBy === 'stuck') {
      expect(run.cutOff).toBe(true);
      expect(run.endTime).toBe(stuck.endTime);
      expect(run.stuck.map((s) => [s.component, s.since])).toEqual([
        [stuck.component, stuck.since],
      ]);
      expect(run.stuck[0]!.what).toMatch(stuck.what);
    } else {
      expect(run.cutOff).toBe(false);
      expect(totals(run).lost).toBe(0);
    }
  };

  it('item 1, KafkaSink: the start-up EndTxn lost at 0 ms → flink waits for its answer since 0 ms; the run settles at 13 ms (e1 acknowledged)', () => {
    // restore at 0 ms sends the EndTxn that commits/aborts the restored transactions: dropped
    // (drop-request on txn, first match). e1: InitProducerId? none (idempotence off), batch sent
    // at 5 ms (linger.ms 5), appended at 7, acknowledged at 13 — the last entry.
    const run = runScenario({
      claim: 'exactly-once',
      workload: { events: [{ id: 'e1', amount: 1, at: 0 }] },
      producer: { 'enable.idempotence': false },
      processor: { type: 'flink', 'execution.checkpointing.interval': 1000 },
      sink: {
        type: 'kafka',
        topic: 'out',
        deliveryGuarantee: 'EXACTLY_ONCE',
        transactionalIdPrefix: 'job',
        'transaction.timeout.ms': 900000,
      },
      readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
      faults: [{ kind: 'drop-request', link: 'txn' }],
    });
    stuckOrDrained(run, { component: 'flink', what: /start-up.*EndTxn/, since: 0, endTime: 13 });
  });

  it("item 1, XA sink: the start-up recovery statement lost at 0 ms → flink waits for the database's answer since 0 ms; settles at 17 ms", () => {
    // Idempotent producer: InitProducerId answered at 4 ms, e1 sent at 9, appended at 11,
    // acknowledged at 17 — the last entry.
    const run = runScenario({
      claim: 'exactly-once',
      workload: { events: [{ id: 'e1', amount: 1, at: 0 }] },
      processor: { type: 'flink', 'execution.checkpointing.interval': 1000 },
      sink: { type: 'table', xa: true, retries: 0 },
      faults: [{ kind: 'drop-request', link: 'sink' }],
    });
    stuckOrDrained(run, {
      component: 'flink',
      what: /start-up.*XA recovery/,
      since: 0,
      endTime: 17,
    });
  });

  it('item 1, XA sink mid-run: the COMMIT PREPARED of checkpoint 1 lost → flink waits for it since the prepare at 1,004 ms; settles at 1,012 ms', () => {
    // e1..e11 are written into XA transaction 1 by 155 ms; checkpoint 1 is triggered at
    // 1,000 ms, its PREPARE TRANSACTION (sent at 1,002 ms) runs at the database at 1,004 ms, and
    // the checkpoint completes at 1,008 ms. The fault is armed from 927 ms, after every record
    // write: the 1st sink message from then is the PREPARE, the 2nd — dropped — the COMMIT
    // PREPARED sent at 1,010 ms. The offsets reach the group at 1,012 ms, the last entry.
    // Nothing times the commit out; the 11 rows stay prepared, in doubt.
    const run = runScenario({
      seed: 607,
      workload: {
        events: [0, 13, 27, 40, 54, 67, 81, 94, 108, 121, 135].map((at, i) => ({
          id: `e${i + 1}`,
          key: `k${i % 3}`,
          amount: 10 * (i + 1),
          at,
        })),
      },
      broker: { partitions: 2 },
      processor: {
        type: 'flink',
        'execution.checkpointing.interval': 1000,
        offsetsInitializer: 'committedOffsets',
      },
      sink: { type: 'table', xa: true, retries: 0 },
      faults: [{ kind: 'drop-request', at: 927, link: 'sink', match: { nth: 2, every: 6 } }],
    });
    stuckOrDrained(run, {
      component: 'flink',
      what: /^COMMIT PREPARED or ROLLBACK PREPARED of XA transaction 1 at the database \(11 row\(s\) in doubt\)$/,
      since: 1004,
      endTime: 1012,
    });
  });

  it("item 4: the fenced consumer-0 exits; every 4th produce request lost keeps aborting the replacement's transactions, so the run is cut off at its stop, naming what was still waiting", () => {
    // consumer-0 pauses at 1,529 ms for 50 s; fenced by its replacement, it closes its producer
    // and exits (src/engine/processors/fenced-zombie.test.ts derives that run). A lost produce
    // request waits request.timeout.ms (30 s) for its retry; each transaction sends at least four,
    // so each loses one and times out (transaction.timeout.ms, 60 s): the replacement aborts and
    // rewinds again and again until the default stop (the last event + 1 h) cuts the run off.
    const run = runScenario({
      claim: 'exactly-once',
      workload: { topic: 'in', generate: { count: 10, startAtMs: 10, intervalMs: 10 } },
      processor: {
        type: 'consumer',
        commit: 'with-transaction',
        'enable.auto.commit': false,
        'isolation.level': 'read_committed',
        'auto.offset.reset': 'earliest',
      },
      sink: { type: 'kafka', topic: 'out', 'transactional.id': 'copier-0' },
      readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
      faults: [
        { kind: 'zombie', at: 1529, target: 'consumer-0', pauseMs: 50000 },
        { kind: 'drop-request', link: 'produce', match: { nth: 3, every: 4 } },
      ],
    });
    expect([run.cutOff, run.cutOffBy, run.endTime]).toEqual([true, 'stop', 3_651_529]);
    // reader-0 was listed too while requests sent behind a lost one still reached out's leader;
    // they are lost with it now (TCP keeps a connection's order: src/engine/clientRequests.ts),
    // and at the stop the reader is not waiting.
    expect(run.stuck.map((x) => x.component)).toEqual([
      'coordinator',
      'consumer-0-replacement',
      'consumer-0-replacement',
    ]);
    expect(run.stuck[0]!.what).toBe('the end of transaction 32 of copier-0 (Ongoing)');
  });
});
