import { describe, expect, it, vi } from 'vitest';
import { parseScenario, type Scenario, type ScenarioInput } from '../index';
import { simulate } from '../simulate';
import { K } from '../trace';
import {
  assembleAtlas,
  classify,
  explore,
  firstRun,
  runTrials,
  trialFaults,
  trialSlices,
  withFaults,
} from './explore';
import { enumeratePlacements, type Placement } from './placements';

// Whole runs on a loaded two-core machine: its slowest test took 2.5 s in a full CI run
// (this file 5.6 s), so each gets 15 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 15_000 });

function parsed(input: ScenarioInput): Scenario {
  const r = parseScenario(input);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.scenario;
}

/**
 * Three payments a second apart, one producer (acks=all, idempotence off so no InitProducerId on
 * the txn link, linger.ms 0 and one request in flight: one produce request per event), a consumer
 * that starts at 10 s once all three are in the log and writes each to a table.
 */
const threeEvents: ScenarioInput = {
  version: 1,
  name: 'three payments',
  workload: {
    topic: 'payments',
    events: [
      { id: 'e1', amount: 1, at: 0 },
      { id: 'e2', amount: 2, at: 1000 },
      { id: 'e3', amount: 3, at: 2000 },
    ],
  },
  producer: {
    acks: 'all',
    'enable.idempotence': false,
    'linger.ms': 0,
    'max.in.flight.requests.per.connection': 1,
  },
  processor: {
    type: 'consumer',
    'enable.auto.commit': false,
    'auto.offset.reset': 'earliest',
    startAtMs: 10_000,
  },
  sink: { type: 'table', name: 'payments' },
};

/**
 * The same, with faults of its own that take a produce response (e1's: the producer retries it
 * 30 s later) and a crash point (the consumer's first record, at 10 s: it restarts and processes
 * it again): an added fault must not count what they took, or it would strike elsewhere.
 */
const withOwnFaults: ScenarioInput = {
  ...threeEvents,
  faults: [
    { kind: 'drop-response', link: 'produce', match: { event: 'e1' } },
    { kind: 'crash', target: 'consumer-0', point: 'mid-batch', afterRecords: 1 },
  ],
};

/** `kind[:link][:point[afterRecords]]` → placements. */
function tally(ps: readonly Placement[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of ps) {
    const f = p.fault;
    const k = `${p.kind}${'link' in f ? `:${f.link}` : ''}${f.kind === 'crash' ? `:${f.point}${f.point === 'mid-batch' ? f.afterRecords : ''}` : ''}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

/** The time the fault at `index` first fired in `run`, or -1. */
function firedAt(run: ReturnType<typeof simulate>, index: number): number {
  const t = run.trace;
  for (let e = 0; e < t.length; e++)
    if (t.kind[e] === K.fault && t.aux[e] === index) return t.time[e]!;
  return -1;
}

describe('enumeratePlacements', () => {
  it('counts the placements of a 3-event, one-producer, acks=all scenario by hand', () => {
    const s = parsed(threeEvents);
    const ps = enumeratePlacements(s, firstRun(s));
    // Produce link: 3 requests and 3 acknowledgements (one batch per event, no retry) — each
    // request lost, each response lost or delayed past request.timeout.ms (3 + 3 + 3).
    // Fetch: the consumer's first fetch at 10 s returns the 3 records, the next one (sent as the
    // batch is taken) waits and comes back empty: 2 requests, 2 responses, no client timeout.
    // Sink: one INSERT per record (statementPer record): 3 writes, 3 answers, each delayable past
    // statement.timeout.ms. Commit: one commitSync after the batch: 1 request, 1 response.
    // Crash points of consumer-0: one poll with records (after-poll), each of its 3 records
    // (mid-batch after 1, 2, 3), before the commit — 5; a commitSync after processing has no
    // after-commit point (that point follows a commit before processing).
    // A leader failover right after each of the 3 appends, and 1 ms after each (the appends are
    // far apart: the leader answered its followers' waiting fetches at once, and hears back one
    // round trip, 4 ms, after the append): 6; a rebalance and a zombie at the one poll
    // that returned records; a re-send and a source duplicate of each of the 3 events.
    expect(tally(ps)).toEqual({
      'drop-request:produce': 3,
      'drop-response:produce': 3,
      'delay-response:produce': 3,
      'drop-request:fetch': 2,
      'drop-response:fetch': 2,
      'drop-request:sink': 3,
      'drop-response:sink': 3,
      'delay-response:sink': 3,
      'drop-request:commit': 1,
      'drop-response:commit': 1,
      'crash:after-poll': 1,
      'crash:mid-batch1': 1,
      'crash:mid-batch2': 1,
      'crash:mid-batch3': 1,
      'crash:before-commit': 1,
      'leader-failover': 6,
      rebalance: 1,
      zombie: 1,
      'app-resend': 3,
      'source-duplicate': 3,
    });
    expect(ps).toHaveLength(43);
    // Each acknowledgement: armed from the time it leaves the broker, the first produce response
    // on the link from then on. An event sent at t reaches the leader at t + 2 ms (latencyMs 2);
    // acks=all waits for the followers: replicated and confirmed, 2 ms each way, the response
    // leaves at t + 6 ms.
    const acks = ps.filter((p) => p.fault.kind === 'drop-response' && p.fault.link === 'produce');
    expect(acks.map((p) => p.fault)).toEqual(
      [6, 1006, 2006].map((at) => ({
        kind: 'drop-response',
        at,
        link: 'produce',
        match: { nth: 1 },
      })),
    );
  });

  it('names a leader failover by the record it follows, in plain words', () => {
    // "fails right after appending of e1" read as a slip in the counterexample every
    // acks=1 configuration meets first.
    const s = parsed(threeEvents);
    const labels = enumeratePlacements(s, firstRun(s), ['leader-failover']).map((p) => p.label);
    expect(labels[0]).toMatch(
      /^the leader of \S+ fails right after appending e1 at \d+ ms, before its followers copy it$/,
    );
  });

  it('keeps only the kinds asked for, in a fixed order', () => {
    const s = parsed(threeEvents);
    const run = firstRun(s);
    const crashes = enumeratePlacements(s, run, ['crash']);
    expect(crashes.map((p) => p.kind)).toEqual(Array(5).fill('crash'));
    expect(enumeratePlacements(s, run)).toEqual(enumeratePlacements(s, firstRun(s)));
  });

  it('refuses a run made without opportunities', () => {
    const s = parsed(threeEvents);
    expect(() => enumeratePlacements(s, simulate(s))).toThrow(/opportunities: true/);
  });

  it('leaves the trace of the first run byte for byte as a plain run', () => {
    const s = parsed(withOwnFaults);
    const a = simulate(s).trace;
    const b = firstRun(s).trace;
    expect(b.length).toBe(a.length);
    for (const c of ['time', 'kind', 'cause', 'aux', 'event'] as const)
      expect(Array.from(b[c].subarray(0, b.length))).toEqual(
        Array.from(a[c].subarray(0, a.length)),
      );
  });
});

describe('each placement is an ordinary fault that strikes where it was placed', () => {
  const cases: [string, ScenarioInput][] = [
    ['three payments', threeEvents],
    ['three payments with faults of their own', withOwnFaults],
  ];
  it.each(cases)(
    '%s: valid as a scenario fault, fires at its time, same outcome when opened as a run',
    (_, input) => {
      const s = parsed(input);
      const first = firstRun(s);
      const ps = enumeratePlacements(s, first);
      expect(ps.length).toBeGreaterThan(0);
      for (const p of ps) {
        // Opened as the page opens it: the scenario as written, with the fault appended.
        const r = parseScenario({ ...input, faults: [...(input.faults ?? []), p.fault] });
        expect(r.ok, `${p.label}: ${r.ok ? '' : JSON.stringify(r.issues)}`).toBe(true);
        if (!r.ok) continue;
        const run = simulate(r.scenario);
        expect(firedAt(run, r.scenario.faults.length - 1), p.label).toBe(p.time);
        // The atlas's own run (the validated scenario with the fault appended, no explanations)
        // classifies the same.
        const atlasRun = simulate(withFaults(s, [p.fault]), { explain: false });
        expect(classify(run, first.cutOff, 1), p.label).toEqual(
          classify(atlasRun, first.cutOff, 1),
        );
      }
    },
    120_000,
  );
});

describe('trials split between workers', () => {
  it('gives the same atlas for any number of slices', () => {
    const s = parsed(withOwnFaults);
    const whole = explore(s);
    const first = firstRun(s);
    const placements = enumeratePlacements(s, first);
    const indices = placements.map((_, i) => [i]);
    const trials = trialFaults(placements, indices);
    for (const workers of [1, 2, 3, 7]) {
      const slices = trialSlices(trials.length, workers);
      expect(slices.map((x) => x.to - x.from).reduce((a, b) => a + b, 0)).toBe(trials.length);
      const results = slices.flatMap(({ from, to }) =>
        runTrials(s, trials, first.cutOff, { from, to }),
      );
      const atlas = assembleAtlas(s, 1, whole.kinds, whole.base, placements, indices, results);
      expect(atlas).toEqual(whole);
    }
    // 40 trials in 3 slices: 14, 13, 13.
    expect(trialSlices(40, 3)).toEqual([
      { from: 0, to: 14 },
      { from: 14, to: 27 },
      { from: 27, to: 40 },
    ]);
  }, 120_000);

  it('stops between two runs when cancelled, with progress reported', () => {
    const s = parsed(threeEvents);
    const placements = enumeratePlacements(s, firstRun(s));
    const trials = trialFaults(
      placements,
      placements.map((_, i) => [i]),
    );
    const seen: [number, number][] = [];
    // In order (replay): the four run are the slice's first four. (A snapshot runs trials by
    // moment, out of order: cancelled, it keeps those before the first one not run.)
    const results = runTrials(s, trials, false, {
      from: 10,
      to: 20,
      path: 'replay',
      onProgress: (done, total) => seen.push([done, total]),
      cancelled: () => seen.length >= 4,
    });
    expect(results).toHaveLength(4);
    expect(seen).toEqual([
      [1, 10],
      [2, 10],
      [3, 10],
      [4, 10],
    ]);
  }, 60_000);
});

describe('classify', () => {
  it('names what broke the claim, and a run left with work pending stuck', () => {
    const s = parsed(threeEvents);
    const first = firstRun(s);
    expect(classify(first, false)).toEqual({
      outcome: 'held',
      duplicated: 0,
      lost: 0,
      fired: true,
    });
    // consumer-0 dies after its first record and stays down: e1 is written, e2 and e3 never.
    const down = simulate(
      withFaults(s, [
        {
          kind: 'crash',
          at: 0,
          target: 'consumer-0',
          point: 'mid-batch',
          nth: 1,
          afterRecords: 1,
          restartAfterMs: null,
        },
      ]),
    );
    expect(down.cutOff).toBe(false);
    expect(classify(down, false, 1)).toEqual({
      outcome: 'losses',
      duplicated: 0,
      lost: 2,
      fired: true,
    });
    // Had the run stopped with work still pending where the scenario alone drained, its counts
    // would not be final: stuck. Where the scenario alone was cut off too, the counts decide.
    const pending = { ...down, cutOff: true };
    expect(classify(pending, false, 1).outcome).toBe('stuck');
    expect(classify(pending, true, 1).outcome).toBe('losses');
  }, 60_000);
});
