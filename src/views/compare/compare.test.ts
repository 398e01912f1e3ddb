import { describe, expect, it, vi } from 'vitest';
import { parseScenario, simulate, traceHash, type ScenarioInput } from '../../engine';
import { findPreset } from '../../scenarios';
import { toRunView } from '../run/runView';
import { decodeCompare, withCompareParam } from './compareLink';
import { compareModel } from './compareModel';
import { diffLine, eventDiff, type LaneOutcome } from './diff';
import { laneLinesAt, laneTableNote } from './laneAt';
import {
  defaultCompare,
  laneScenario,
  laneScenarios,
  laneTitle,
  parseCompareSpec,
  type CompareSpec,
} from './lanes';
import { encodeShare, decodeShare } from '../io/shareLink';
import { artifactOf } from '../io/exportArtifact';

// Whole runs on a loaded two-core machine: its slowest test took 0.6 s in a full CI run
// (this file 2.0 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

const RUN_TIMEOUT = 60_000;

const preset = (ref: string) => structuredClone(findPreset(ref)!.variant.scenario);

/** The lanes of `spec` beside `base`, run, with their compare model. */
function compareRuns(base: ScenarioInput, spec: CompareSpec) {
  const runs = laneScenarios(base, spec).map((l) => {
    if (!l.ok) throw new Error(l.reason);
    return simulate(l.scenario);
  });
  const model = compareModel(runs.map((r, i) => ({ title: `lane ${i + 1}`, view: toRunView(r) })));
  return { runs, model };
}

const differingLines = (m: ReturnType<typeof compareRuns>['model']) =>
  m.diff
    .filter((r) => r.differs)
    .map((r) =>
      diffLine(
        r,
        m.outcomes.map((o) => o.unit),
      ),
    );

describe('eventDiff', () => {
  const lane = (counts: [string, number][]): LaneOutcome => ({
    ids: counts.map(([id]) => id),
    counts: new Map(counts),
    why: new Map(),
    unit: 'row',
  });

  it('puts exactly the events whose count differs first, each group in workload order', () => {
    const d = eventDiff([
      lane([
        ['a', 1],
        ['b', 2],
        ['c', 1],
        ['d', 0],
      ]),
      lane([
        ['a', 1],
        ['b', 1],
        ['c', 1],
        ['d', 1],
      ]),
    ]);
    expect(d.map((r) => [r.id, r.differs])).toEqual([
      ['b', true],
      ['d', true],
      ['a', false],
      ['c', false],
    ]);
    expect(diffLine(d[1]!, ['row', 'row'])).toBe('d: 0 rows (lost) | 1 row');
  });

  it('marks an event only one lane has as differing, absent in the other', () => {
    const d = eventDiff([
      lane([['a', 1]]),
      lane([
        ['a', 1],
        ['z', 1],
      ]),
    ]);
    expect(d[0]).toEqual({
      id: 'z',
      differs: true,
      fates: [
        { count: null, fate: null },
        { count: 1, fate: 'once' },
      ],
    });
  });
});

describe('compare two presets, hand-derived', () => {
  it(
    'at-least-once/default against its at-most-once and exactly-once lanes',
    () => {
      const base = preset('at-least-once/default');
      const spec = defaultCompare(base);
      expect(spec).toEqual({
        lanes: [{ guarantee: 'at-most-once' }, { guarantee: 'exactly-once' }],
      });
      const { model } = compareRuns(base, spec);
      // Lane 1 (as shipped, its expect block): the lost ack of p-4 is retried without idempotence
      // → p-4 twice in the log (21 records, offsets 0–20); batches of max.poll.records = 5: the 2nd
      // batch is offsets 5–9 = p-5…p-9; the crash after 3 records (p-5, p-6, p-7 written) comes
      // before the commit, so the restart re-reads from 5 → p-5, p-6, p-7 twice. 24 rows.
      // Lane 2, at-most-once (acks=0: no ack to lose, https://kafka.apache.org/documentation/#producerconfigs_acks;
      // commit before processing): the log is p-1…p-20 at offsets 0–19, the 2nd batch is
      // p-6…p-10, committed (offset 10) before processing; the crash after p-6, p-7, p-8 → the
      // restart resumes at 10: p-9 and p-10 lost. 18 rows.
      // Lane 3, exactly-once (idempotent producer; upsert on the business id): 1 row each.
      // So the events whose fate differs are p-4…p-7 (2 | 1 | 1) and p-9, p-10 (1 | 0 | 1).
      expect(differingLines(model)).toEqual([
        'p-4: 2 rows | 1 row | 1 row',
        'p-5: 2 rows | 1 row | 1 row',
        'p-6: 2 rows | 1 row | 1 row',
        'p-7: 2 rows | 1 row | 1 row',
        'p-9: 1 row | 0 rows (lost) | 1 row',
        'p-10: 1 row | 0 rows (lost) | 1 row',
      ]);
      expect(model.differing).toBe(6);
      expect(model.diff).toHaveLength(20);
      // Each differing fate carries its lane's sentence.
      expect(model.diff[0]!.fates[0]!.why).toMatch(/^the acknowledgement of p-4 was lost/);
      expect(model.diff[4]!.fates[1]!.why).toMatch(
        /committed offset 10 before processing the batch holding p-9/,
      );
      // The lost ack cannot fire under acks=0, and lane 2 says so.
      expect(model.unfired.map((u) => u.map((f) => f.cannot))).toEqual([[], [true], []]);
      expect(model.unfired[1]![0]!.text).toBe(
        'fault "lost ack", a lost acknowledgement, never fired: with acks=0 the broker sends no acknowledgement to lose',
      );
      // What differs, under the real names: the recipes' knobs (src/scenarios/guarantees.ts).
      expect(model.knobs.map((k) => k.name)).toContain('acks');
      expect(model.knobs.find((k) => k.name === 'acks')!.values).toEqual(['all', '0', 'all']);
      expect(model.knobs.find((k) => k.name === 'enable.idempotence')!.values).toEqual([
        'false',
        'false',
        'true',
      ]);
    },
    RUN_TIMEOUT,
  );

  it(
    'lost-ack-retry/idempotence-off against a lane with enable.idempotence=true',
    () => {
      const base = preset('lost-ack-retry/idempotence-off');
      const spec: CompareSpec = {
        lanes: [{ knobs: [{ path: 'producer.enable.idempotence', value: true }] }],
      };
      const { model, runs } = compareRuns(base, spec);
      // Ten events e1…e10, the ack of e3 lost: without idempotence the retry is appended again
      // (2 rows of e3); with it the broker drops the retry by its sequence number
      // (https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence): 1 row.
      // Nothing else differs.
      expect(differingLines(model)).toEqual(['e3: 2 rows | 1 row']);
      expect(model.knobs.map((k) => [k.name, ...k.values])).toEqual([
        ['enable.idempotence', 'false', 'true'],
      ]);
      // The idempotent producer asks for its producer id before it sends anything: the runs part
      // at the very first entry.
      expect(model.divergences[0]).toMatchObject({ entry: 0, time: 0 });
      expect(runs[1]!.verdict.observed).toBe('exactly-once');
    },
    RUN_TIMEOUT,
  );

  it(
    'says what differs at the divergence when both entries read alike (a send inside a transaction)',
    () => {
      // lost-ack-retry/idempotence-on: both lanes ask for a producer id at 0 ms and get it; at
      // 100 ms the application sends e1 — in lane 2, with transactional.id set, as the first
      // record of transaction 1 (docs/semantics/producer.md#transactional-producer). The two
      // entries differ only in their transaction: the sentence must say so, not repeat itself.
      const base = preset('lost-ack-retry/idempotence-on');
      const { model } = compareRuns(base, {
        lanes: [{ knobs: [{ path: 'producer.transactional.id', value: 'pay-0' }] }],
      });
      expect(model.divergences[0]).toEqual({
        entry: 5,
        time: 100,
        base: 'the application sends e1 (outside any transaction)',
        other: 'the application sends e1 (in transaction 1)',
      });
      // What differs: transactional.id alone. The knobs it brings into play keep the value they
      // have in either lane (transaction.max.timeout.ms 900000, one event per transaction): they
      // were listed as "— | 900000 ms", as if the broker had been changed.
      expect(model.knobs.map((k) => [k.name, ...k.values])).toEqual([
        ['transactional.id', '(unset)', 'pay-0'],
      ]);
    },
    RUN_TIMEOUT,
  );

  it(
    'lists no knob that applies in no lane (a table sink beside a Delta one)',
    () => {
      // spark-batch-replay: foreachBatch's plain append into a table, then Delta's txnAppId
      // (the "then flip to" of exactly-once-flink-spark step 8). MERGE's WHEN MATCHED and
      // Flink's exactlyOnceSink belong to neither lane: no row ("— | —").
      const base = preset('spark-batch-replay/append');
      const { model } = compareRuns(base, { lanes: [{ guarantee: 'exactly-once' }] });
      const rows = model.knobs.map((k) => k.values);
      expect(rows.filter((v) => v.every((x) => x === '—'))).toEqual([]);
      expect(model.knobs.map((k) => k.name)).toContain('txnAppId');
    },
    RUN_TIMEOUT,
  );

  it(
    'gives identical runs no divergence and an empty differing set',
    () => {
      const base = preset('lost-ack-retry/idempotence-off');
      const { model } = compareRuns(base, { lanes: [{}] });
      expect(model.differing).toBe(0);
      expect(model.divergences).toEqual([null]);
      expect(model.knobs).toEqual([]);
    },
    RUN_TIMEOUT,
  );
});

describe('lanes', () => {
  it('says why a guarantee cannot be a lane instead of dropping the fault', () => {
    const base = preset('flink-commit-phase-crash/during-commit');
    const r = laneScenario(base, { guarantee: 'at-most-once' });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/^at-most-once is unavailable: fault .* checkpoint/);
  });

  it('names a lane by its guarantee and its knobs, real names', () => {
    const base = preset('lost-ack-retry/idempotence-off');
    expect(laneTitle(base, { knobs: [{ path: 'producer.enable.idempotence', value: true }] })).toBe(
      'as on screen · enable.idempotence = true',
    );
    expect(laneTitle(base, null)).toBe('as on screen (claims exactly-once)');
  });

  it(
    'runs a lane with a fault of its own beside the scenario: only that event differs',
    () => {
      // The preset loses e3's ack with idempotence off: e3 is appended twice (11 rows). The lane
      // also loses e7's ack, so e7 is retried and appended twice too (the producer's retries
      // without idempotence may duplicate: https://kafka.apache.org/documentation/#producerconfigs_retries);
      // every other event is written once in both.
      const base = preset('lost-ack-retry/idempotence-off');
      const spec: CompareSpec = {
        lanes: [{ faults: [{ kind: 'drop-response', link: 'produce', match: { event: 'e7' } }] }],
      };
      expect(laneTitle(base, spec.lanes[0]!)).toBe('as on screen · + a lost acknowledgement');
      const { model } = compareRuns(base, spec);
      expect(
        model.diff.filter((r) => r.differs).map((r) => [r.id, r.fates.map((f) => f.count)]),
      ).toEqual([['e7', [1, 2]]]);
    },
    RUN_TIMEOUT,
  );

  it(
    'a lane table none of whose listed events has a row yet does not say "no rows yet" of rows past them',
    () => {
      // 250 events e1..e250; a lane lists the first 200. At-most-once starts the Flink source at
      // the end of the log (OffsetsInitializer.latest()), so e1..e200 are lost and only
      // e201..e250 are written: just before the end the table is empty though 50 rows are in.
      const base = preset('flink-checkpoint-replay/2pc-read-committed');
      const lane = laneScenario(base, { guarantee: 'at-most-once' });
      if (!lane.ok) throw new Error(lane.reason);
      const v = toRunView(simulate(lane.scenario));
      const before = laneLinesAt(v, v.n - 1);
      expect([before.lines.length, before.listed, before.more]).toEqual([0, 200, 50]);
      expect(laneTableNote(before)).toBe(
        'no rows yet of the first 200 events (the 50 after them are not listed)',
      );
      // At the end the 200 lost events are gap lines: the 50 are "after these".
      const end = laneLinesAt(v, v.n);
      expect(end.lines.filter((l) => l.lost)).toHaveLength(200);
      expect(laneTableNote(end)).toBe('and the 50 events after these');
      // A run of 20 events, all listed, before its first row: "no rows yet", as before.
      const parsed = parseScenario(preset('at-least-once'));
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      const small = toRunView(simulate(parsed.scenario));
      expect(laneTableNote(laneLinesAt(small, 0))).toBe('no rows yet');
    },
    RUN_TIMEOUT,
  );

  it('refuses a lane whose added fault is not an object, naming the field', () => {
    expect(parseCompareSpec({ lanes: [{ faults: ['crash'] }] })).toEqual({
      ok: false,
      reason: 'lanes.0.faults.0: expected a fault object',
    });
  });

  it('refuses a bad spec naming the field', () => {
    expect(parseCompareSpec({ lanes: [{ guarantee: 'twice' }] })).toEqual({
      ok: false,
      reason:
        'lanes.0.guarantee: expected at-most-once, at-least-once or exactly-once, got "twice"',
    });
    expect(parseCompareSpec({ lanes: [] })).toEqual({
      ok: false,
      reason: 'lanes: expected 1 to 2 lanes',
    });
    expect(parseCompareSpec({ lanes: [{ knobs: [{ value: 1 }] }] })).toEqual({
      ok: false,
      reason: 'lanes.0.knobs.0.path: expected a knob path',
    });
  });
});

describe('compare share link', () => {
  it(
    'replays identical lanes: same trace hashes',
    () => {
      const base = preset('at-least-once/default');
      const spec: CompareSpec = {
        lanes: [{ guarantee: 'exactly-once' }, { knobs: [{ path: 'producer.acks', value: '1' }] }],
      };
      const hash = `#${withCompareParam(encodeShare(base), spec)}`;
      const shared = decodeShare(hash);
      const linked = decodeCompare(hash);
      expect(shared.ok && linked?.ok).toBe(true);
      if (!shared.ok || !linked?.ok) return;
      expect(linked.spec).toEqual(spec);
      const hashes = (s: ScenarioInput, c: CompareSpec) =>
        compareRuns(s, c).runs.map((r) => traceHash(r.trace));
      const before = hashes(base, spec);
      expect(hashes(shared.input, linked.spec)).toEqual(before);
      // Three different runs, not one run three times.
      expect(new Set(before).size).toBe(3);
    },
    RUN_TIMEOUT,
  );

  it('reports a damaged c= and leaves a link without one alone', () => {
    expect(decodeCompare('#s=2.abc')).toBeNull();
    expect(decodeCompare('#s=2.abc&c=1.%%%')).toEqual({
      ok: false,
      reason: 'share link, compare (c=): expected <version>.<data>',
    });
    expect(decodeCompare('#c=9.e30')).toEqual({
      ok: false,
      reason: 'share link, compare (c=): unknown version 9',
    });
    expect(withCompareParam('s=2.x&c=1.y', null)).toBe('s=2.x');
  });
});

describe('the Markdown report with Compare', () => {
  it(
    'adds the lanes, what differs and the events whose fate differs',
    () => {
      const base = preset('at-least-once/default');
      const parsed = parseScenario(base);
      if (!parsed.ok) throw new Error('the preset is refused');
      const run = simulate(parsed.scenario);
      const text = artifactOf(run, 'markdown', {
        compare: { base, spec: { lanes: [{ guarantee: 'at-most-once' }] } },
      })!.text;
      const section = text.slice(text.indexOf('\n### Compare\n') + 1);
      // A section of the report (an H2 title by default): one level below it.
      expect(section.startsWith('### Compare\n')).toBe(true);
      // The runs of the first test above: 24 rows, 4 duplicates | 18 rows, 2 lost.
      expect(section).toContain(
        '| 2. at-most-once | claimed at-most-once, observed at-most-once: held | 18 | 0 | 2 | `07489c16a58af5d2` |',
      );
      expect(section).toContain('| `acks` (Kafka producer) | all | 0 |');
      expect(section.match(/^- \*\*p-\d+\*\*/gm)).toEqual([
        '- **p-4**',
        '- **p-5**',
        '- **p-6**',
        '- **p-7**',
        '- **p-9**',
        '- **p-10**',
      ]);
      expect(section).toContain('14 other events: the same in every lane.');
    },
    RUN_TIMEOUT,
  );
});
