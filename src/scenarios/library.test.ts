import { describe, expect, it, vi } from 'vitest';
import { compareExpect, parseScenario, simulate, type Run } from '../engine';
import { entriesOf } from '../engine/testing';
import {
  LIBRARY_GROUPS,
  SOURCES,
  findPreset,
  groupPresets,
  libraryPresets,
  presetIds,
  presets,
  searchPresets,
} from '.';

// Whole runs on a loaded two-core machine: its slowest test took 1.3 s in a full CI run
// (this file 7.4 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

/**
 * The issue's table: every preset id with the variants it must have (ids are part of the
 * contract: the CLI, URLs and the browser tests address them).
 */
const REQUIRED: Record<string, string[]> = {
  'lost-ack-retry': ['idempotence-off', 'idempotence-on', 'acks-1', 'retries-0'],
  'acks0-dropped-request': ['default'],
  'payment-resent-by-app': [
    'plain-insert',
    'on-conflict-do-nothing',
    'merge-per-record',
    'merge-per-batch',
    'merge-per-batch-unique-key',
    'merge-dedupe-source',
    'dedupe-table',
  ],
  'flink-checkpoint-replay': [
    'plain-sink',
    'upsert',
    '2pc-read-committed',
    '2pc-read-uncommitted',
    '2pc-jdbc-xa',
    'flushed-20-of-50',
  ],
  'flink-commit-phase-crash': ['recovered-in-time', 'after-transaction-timeout'],
  'aborted-transaction-dirty-read': ['read-committed', 'read-uncommitted', 'open-transaction'],
  'commit-before-process': ['default'],
  'commit-after-process': ['plain-insert', 'on-conflict-do-nothing', 'additive-upsert'],
  'consume-transform-produce': ['read-committed', 'read-uncommitted', 'after-commit-decision'],
  'spark-batch-replay': ['append', 'delta-txn', 'merge', 'file-sink'],
  'pipeline-generated-ids': ['random-id', 'deterministic-id'],
  'merge-duplicate-source': [
    'key-exists',
    'new-key',
    'new-key-unique',
    'insert-only',
    'source-deduped',
  ],
  'card-charge-idempotency': [
    'stable-key',
    'key-per-attempt',
    'after-retention',
    'changed-amount',
    'email-in-operator',
  ],
  'retry-storm': ['idempotence-off', 'idempotence-on'],
  'auto-commit-crash': ['handoff'],
  'rebalance-midflight': ['plain-insert'],
};

/** Presets beyond the issue's table, in library order. */
const ADDED: Record<string, string[]> = {
  'poll-timeout-slow-batch': ['plain-insert', 'longer-interval', 'upsert'],
  'zombie-consumer': ['plain-insert', 'on-conflict-do-nothing', 'transactional'],
  'spark-watermark-dedupe': ['within-2s', 'within-10s', 'drop-duplicates', 'payload-event-time'],
  'flink-dedupe-ttl': ['ttl-2s', 'ttl-10s', 'no-dedupe'],
  'raw-clean-layer': ['raw-only', 'raw-then-clean'],
  'spark-checkpoint-reset-txnappid': ['same-txnappid', 'new-txnappid', 'merge'],
  'content-key-on-conflict': ['event-time-amount', 'event-id'],
};

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const runs = new Map<string, Run>();
/** Run a preset variant once per test file (several tests look at the same run). */
function runOf(ref: string): Run {
  let run = runs.get(ref);
  if (!run) {
    const found = findPreset(ref);
    if (!found) throw new Error(`no preset ${ref}`);
    const parsed = parseScenario(found.variant.scenario);
    if (!parsed.ok) throw new Error(`${ref}: ${JSON.stringify(parsed.issues)}`);
    run = simulate(parsed.scenario);
    runs.set(ref, run);
  }
  return run;
}

describe('every preset variant reproduces its expected outcome', () => {
  it.each(presetIds())('%s', (ref) => {
    const { variant } = findPreset(ref)!;
    const parsed = parseScenario(variant.scenario);
    expect(parsed.ok, ok(parsed)).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.scenario.expect, `${ref} has no expect block`).toBeDefined();
    expect(compareExpect(runOf(ref), parsed.scenario.expect!)).toEqual([]);
  });
});

function ok(p: ReturnType<typeof parseScenario>): string {
  return p.ok ? '' : JSON.stringify(p.issues);
}

describe('the library is complete and well formed', () => {
  it('has every preset of the issue, with at least its variants, after the foundation presets', () => {
    const ids = libraryPresets.map((p) => p.id);
    // The issue's presets in its order, then the ones added since.
    expect(ids).toEqual([...Object.keys(REQUIRED), ...Object.keys(ADDED)]);
    for (const [id, variants] of Object.entries({ ...REQUIRED, ...ADDED })) {
      const have = libraryPresets.find((p) => p.id === id)!.variants.map((v) => v.id);
      for (const v of variants) expect(have, id).toContain(v);
    }
    expect(presets.slice(-libraryPresets.length)).toEqual(libraryPresets);
  });

  it('uses unique kebab-case ids', () => {
    const ids = presets.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of presets) {
      expect(p.id).toMatch(KEBAB);
      const vids = p.variants.map((v) => v.id);
      expect(new Set(vids).size, p.id).toBe(vids.length);
      for (const v of vids) expect(v, p.id).toMatch(KEBAB);
    }
  });

  it.each(libraryPresets.map((p) => [p.id, p] as const))(
    '%s carries its teaching texts',
    (_, p) => {
      for (const text of [p.title, p.oneLine, p.watch, p.predict.question, p.predict.answer])
        expect(text.trim().length, p.id).toBeGreaterThan(10);
      const sentences = p.story.split(/(?<=[.!?])\s+(?=[A-Z“"])/).filter((s) => s.trim());
      expect(sentences.length, `${p.id}: ${sentences.length} sentences`).toBeGreaterThanOrEqual(2);
      expect(sentences.length, `${p.id}: ${sentences.length} sentences`).toBeLessThanOrEqual(4);
      expect(p.fix, p.id).toMatch(/^Try: /);
      expect(p.sources.length, p.id).toBeGreaterThan(0);
      const known = new Set<string>(Object.values(SOURCES).map((s) => s.url));
      for (const url of p.sources) expect(known.has(url), `${p.id}: ${url}`).toBe(true);
      expect(LIBRARY_GROUPS.map((g) => g.id)).toContain(p.group);
    },
  );

  it.each(libraryPresets.flatMap((p) => p.variants.map((v) => [`${p.id}/${v.id}`, v] as const)))(
    '%s pins its exact totals, rows and guarantee',
    (_, v) => {
      const e = v.scenario.expect!;
      expect(Object.keys(e.totals ?? {}).sort()).toEqual(['duplicates', 'lost', 'rows', 'sum']);
      expect(Object.keys(e.rows ?? {}).length).toBeGreaterThan(0);
      expect(e.observed).toBeDefined();
      expect(v.label.length).toBeGreaterThan(0);
      expect(v.summary.length).toBeGreaterThan(0);
    },
  );
});

describe('outcomes the expect block cannot hold', () => {
  it('retries=0: e3 is in the log once, but the application was told it failed', () => {
    expect(runOf('lost-ack-retry/retries-0').verdict.falseFailures).toEqual(['e3']);
    expect(runOf('lost-ack-retry/idempotence-on').verdict.falseFailures).toEqual([]);
  });

  // docs/semantics/scenarios.md#s06-payment-re-sent-by-the-application: the same poisoned batch is retried, failing each time, until someone
  // intervenes; the committed offset never moves.
  it('the poisoned MERGE batch is retried until the run stops, never committed', () => {
    const run = runOf('payment-resent-by-app/merge-per-batch-unique-key');
    const t = run.trace;
    let failures = 0;
    const committed: number[] = [];
    for (let i = 0; i < t.length; i++) {
      if (t.kindOf(i) === 'stmt-error') failures++;
      if (t.kindOf(i) === 'commit') committed.push(t.get(i).offset);
    }
    // The statement first fails at 5,014 ms; each retry waits 1,000 ms and takes a 4 ms round
    // trip, so failures fall at 5,014 + 1,004·k ms: k = 0..14 before stopAtMs (20,000) → 15.
    expect(committed).toEqual([]);
    expect(failures).toBe(15);
    expect(run.cutOff).toBe(true);
  });

  it('Flink restores the checkpoint at offset 200 after the crash', () => {
    const run = runOf('flink-checkpoint-replay/plain-sink');
    const restores: number[] = [];
    for (let i = 0; i < run.trace.length; i++)
      if (run.trace.kindOf(i) === 'restore') restores.push(run.trace.get(i).offset);
    expect(restores).toEqual([0, 200]);
  });

  it('an expired 2PC transaction without ignoreFailures… makes every restore fail again', () => {
    const run = runOf('flink-commit-phase-crash/fail-on-expired');
    const restored: number[] = [];
    for (let i = 0; i < run.trace.length; i++)
      if (run.trace.kindOf(i) === 'restore') restored.push(run.trace.get(i).offset);
    // The start (offset 0), then after the 10-min outage a restore of C2 (offset 250) after each
    // exponential-delay backoff, each failing 2 ms later: restores at 607,011 (1 s after the
    // TaskManager is back), then + 1,502, + 2,252, + 3,377, + 5,064, + 7,595, + 11,391,
    // + 17,085 and + 25,626 ms (backoffs 1,500 … 25,624); the next (38,436) ends after 700 s.
    expect(restored).toEqual([0, ...Array<number>(9).fill(250)]);
    expect(run.cutOff).toBe(true);
    // The explanation says why nothing comes back: the job fails at every restore.
    const restarts = entriesOf(run, 'restart').length;
    expect(run.verdict.explanations.find((x) => x.fate === 'lost')!.sentence).toBe(
      `transaction 2 stayed open longer than transaction.timeout.ms and the coordinator aborted it → on recovery its commit failed and, without ignoreFailuresAfterTransactionTimeout, the job failed at every restore (${restarts} restarts): e201 was never written again`,
    );
  });

  it('auto-commit saved offset 200 before the worker crashed at offset 150', () => {
    const run = runOf('auto-commit-crash/handoff');
    const t = run.trace;
    const commits: { time: number; offset: number }[] = [];
    let crashAt = -1;
    for (let i = 0; i < t.length; i++) {
      const k = t.kindOf(i);
      if (k === 'commit') commits.push({ time: t.get(i).time, offset: t.get(i).offset });
      if (k === 'crash' && crashAt < 0) crashAt = t.get(i).time;
    }
    expect(commits.filter((c) => c.time < crashAt).map((c) => c.offset)).toEqual([200]);
  });
});

describe('library panel data', () => {
  it('resolves a bare preset id to its first variant', () => {
    const found = findPreset('payment-resent-by-app');
    expect(found?.variant.id).toBe('plain-insert');
    expect(findPreset('payment-resent-by-app/on-conflict-do-nothing')?.variant.id).toBe(
      'on-conflict-do-nothing',
    );
    expect(findPreset('payment-resent-by-app/nope')).toBeUndefined();
  });

  it('groups presets in pipeline order and leaves no preset out', () => {
    const grouped = groupPresets(presets);
    expect(grouped.map((g) => g.group.id)).toEqual([
      'guarantees',
      'producer',
      'broker',
      'consumer',
      'processor',
      'sink',
      'side effect',
    ]);
    expect(grouped.flatMap((g) => g.presets).length).toBe(presets.length);
  });

  it('searches ids, titles, stories and variants, every word must match', () => {
    expect(searchPresets(presets, '')).toHaveLength(presets.length);
    const ids = (q: string) => searchPresets(presets, q).map((p) => p.id);
    expect(ids('p-77')).toContain('payment-resent-by-app');
    expect(ids('FLINK restore')).toEqual(
      expect.arrayContaining(['flink-checkpoint-replay', 'flink-commit-phase-crash']),
    );
    expect(ids('txnAppId')).toEqual(['spark-batch-replay', 'spark-checkpoint-reset-txnappid']);
    expect(ids('stripe')).toEqual(['card-charge-idempotency']);
    expect(ids('no-such-word-anywhere')).toEqual([]);
  });
});

describe('predictions', () => {
  it("a question's variant, when named, is one of the preset's variants", () => {
    for (const p of presets)
      if (p.predict.variant) expect(p.variants.map((v) => v.id)).toContain(p.predict.variant);
  });
});
