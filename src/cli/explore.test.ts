/**
 * `sim <scenario> --explore`: the fault atlas's counts, its minimal counterexample as a scenario
 * fault, the exit codes (--check: 3 when a placement breaks the claim) and its argument checks.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from './main';
import type { ExploreReport } from './explore';
import { captured } from './cliTesting';

// Whole runs on a loaded two-core machine: its slowest test took 2.9 s in a full CI run
// (this file 4.5 s), so each gets 15 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 15_000 });

const cli = (argv: string[]) => captured(main, argv);

describe('sim --explore', () => {
  it('--check on a scenario that breaks its claim on its own says so (no counterexample to see)', () => {
    // It said "a placement breaks the claim (see the minimal counterexample)" above a report
    // whose last line was "no fault needs adding", with no counterexample in it.
    const r = cli([
      'flink-checkpoint-replay/plain-sink',
      '--explore',
      '--kinds',
      'leader-failover',
      '--check',
    ]);
    expect(r.code).toBe(3);
    expect(r.out).toContain('no fault needs adding');
    expect(r.err).toBe(
      'check: the scenario breaks its exactly-once claim on its own (duplicates), before any fault is added',
    );
  }, 120_000);

  it('effectively-once survives every single fault: --check exits 0', () => {
    const r = cli(['effectively-once', '--explore', '--format', 'json', '--check']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as ExploreReport;
    // Every placement of src/scenarios/atlas.prop.test.ts's exhaustive run: 268, all held.
    expect(report.trials).toBe(268);
    expect(report.outcomes).toEqual({ held: 268, duplicates: 0, losses: 0, both: 0, stuck: 0 });
    expect(report.counterexample).toBeNull();
    expect(report.summary).toBe(
      '268 placements: 268 held — the exactly-once claim survives every single fault tried.',
    );
    expect(r.err).toBe('check: no placement breaks the claim');
  }, 120_000);

  it('at-most-once: the minimal counterexample is a re-send of p-1; --check exits 3', () => {
    const r = cli([
      'at-most-once',
      '--explore',
      '--kinds',
      'app-resend,crash,drop-response',
      '--format',
      'json',
      '--check',
    ]);
    expect(r.code).toBe(3);
    const report = JSON.parse(r.out) as ExploreReport;
    // 20 re-sends + 28 crash points + 25 responses (the at-most-once producer, acks=0, gets no
    // produce response: fetch, sink and commit responses only). A re-send of p-1..p-7 or
    // p-11..p-20 is written twice beside the preset's own 2 losses (17, `both`).
    expect(report.trials).toBe(73);
    expect(report.outcomes).toEqual({ held: 56, duplicates: 0, losses: 0, both: 17, stuck: 0 });
    // Earliest: p-1's re-send, at 0 ms (no crash or response breaks anything).
    expect(report.counterexample?.faults).toEqual([{ kind: 'app-resend', at: 0, event: 'p-1' }]);
    expect(report.counterexample?.explanation[0]).toMatch(/^the application sending p-1 again/);
    // The at-most-once recipe is the scenario's own: no knob of it to suggest.
    expect(report.counterexample?.fix).toBeNull();
    expect(r.err).toBe('check: a placement breaks the claim (see the minimal counterexample)');
  }, 120_000);

  it('prints the counts per kind and the counterexample as text', () => {
    const r = cli(['at-most-once', '--explore', '--kinds', 'app-resend']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      // The 2 losses are the scenario's own: at-most-once/default loses p-9 and p-10 alone.
      '20 placements: 3 held, 17 lose and duplicate — every loss with a duplicate comes from a re-send by the application; each of the 17 loses 2 events, as the scenario alone does, which its at-most-once claim allows.',
    );
    expect(r.out).toMatch(/\napp-resend +3 +0 +0 +17 +0 +20\n/);
    expect(r.out).toContain('{"kind":"app-resend","at":0,"event":"p-1"}');
  }, 120_000);

  it('--depth 2 runs every pair within the bound, and refuses past it', () => {
    // 27 single placements in this one-event preset (one of them its leader failing between the
    // append and hearing its followers hold it): 27 · 26 / 2 = 351 pairs.
    const small = cli([
      'card-charge-idempotency/stable-key',
      '--explore',
      '--depth',
      '2',
      '--format',
      'json',
    ]);
    expect(small.code).toBe(0);
    const report = JSON.parse(small.out) as ExploreReport;
    expect([report.placements, report.trials]).toEqual([27, 351]);
    // In the text, a pair counts under its later fault's kind, and the column says so.
    const text = cli(['card-charge-idempotency/stable-key', '--explore', '--depth', '2']);
    expect(text.out).toMatch(/\nlater fault +held +duplicates +losses +both +stuck +total\n/);
    // 277 placements make 38,226 pairs.
    const big = cli(['at-least-once', '--explore', '--depth', '2']);
    expect(big.code).toBe(2);
    expect(big.err).toBe(
      '--depth 2: 277 placements make 38,226 pairs, more than the bound of 20,000 runs: narrow them with --kinds',
    );
  }, 180_000);

  it('--format json lists every trial that breaks the claim: which fault, and where', () => {
    // Three payments 1 s apart, each sent alone (linger.ms 0), acks=all without idempotence,
    // three replicas, a plain INSERT. Latency 2 ms: p1's produce request leaves at 0 ms and is
    // appended at 2 ms; the followers' fetch answers arrive at 4 ms and their next fetches tell
    // the leader at 6 ms (docs/semantics/broker.md#replication-and-isr). The leader failing
    // right after the append (2 ms): nothing copied, the retry is appended once — held. Failing
    // at 3 ms: the followers hold p1, the new leader has it, the producer never got its ack and
    // retries: p1 twice (enable.idempotence=false, the producer configs). The same for p2 (1,002
    // and 1,003 ms) and p3 (2,002, 2,003 ms): 6 placements, 3 break the claim.
    const file = join(mkdtempSync(join(tmpdir(), 'explore-breaking-')), 'three.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        name: 'three payments',
        claim: 'exactly-once',
        workload: {
          topic: 'payments',
          events: [
            { id: 'p1', amount: 10, at: 0 },
            { id: 'p2', amount: 20, at: 1000 },
            { id: 'p3', amount: 30, at: 2000 },
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
          startAtMs: 5000,
        },
        sink: { type: 'table', name: 'payments', statement: 'insert' },
      }),
    );
    const r = cli([file, '--explore', '--kinds', 'leader-failover', '--format', 'json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as ExploreReport;
    expect(report.outcomes).toEqual({ held: 3, duplicates: 3, losses: 0, both: 0, stuck: 0 });
    const failover = (at: number) => ({
      kind: 'leader-failover',
      at,
      partition: 0,
      restartAfterMs: 60_000,
    });
    expect(report.breaking).toEqual(
      [
        [3, 'p1'],
        [1003, 'p2'],
        [2003, 'p3'],
      ].map(([at, id]) => ({
        faults: [failover(at as number)],
        labels: [
          `the leader of payments-0 fails at ${at as number} ms, 1 ms after appending ${id as string}, before it learns its followers hold it`,
        ],
        timeMs: at,
        outcome: 'duplicates',
        duplicated: 1,
        lost: 0,
      })),
    );
    // The first of them is the minimal counterexample.
    expect(report.counterexample).toMatchObject({ faults: [failover(3)], timeMs: 3 });
    // A configuration that survives lists none.
    const held = JSON.parse(
      cli(['effectively-once', '--explore', '--kinds', 'leader-failover', '--format', 'json']).out,
    ) as ExploreReport;
    expect(held.breaking).toEqual([]);
  }, 60_000);

  it('refuses bad atlas arguments with one line naming the option', () => {
    expect(cli(['at-most-once', '--explore', '--depth', '3']).err).toBe(
      '--depth: expected 1 or 2, got "3"',
    );
    expect(cli(['at-most-once', '--explore', '--kinds', 'crash,meteor']).err).toMatch(
      /^--kinds \(a comma-separated list\): expected drop-request, .+, got "meteor"$/,
    );
    // A misspelt kind names the one meant (one edit from a 5-letter name, a swap counting one).
    expect(cli(['at-most-once', '--explore', '--kinds', 'crsh']).err).toMatch(
      /^--kinds \(a comma-separated list\): expected .+, got "crsh" \(did you mean crash\?\)$/,
    );
    expect(cli(['at-most-once', '--explore', '--kinds', 'drop-respnose']).err).toMatch(
      /got "drop-respnose" \(did you mean drop-response\?\)$/,
    );
    expect(cli(['at-most-once', '--depth', '2']).err).toBe('--depth: applies to --explore');
    expect(cli(['at-most-once', '--explore', '--format', 'mermaid']).err).toBe(
      '--explore: prints json or text, got --format mermaid',
    );
    expect(cli(['at-most-once', '--explore', '--depth', '3']).code).toBe(2);
    // The atlas explores the scenario given; a --compare lane beside it was dropped without a
    // word (exit 0, lane 1's atlas alone), as if exactly-once had been explored too.
    expect(cli(['at-most-once', '--explore', '--compare', 'exactly-once'])).toMatchObject({
      code: 2,
      out: '',
      err: '--compare: not with --explore: the atlas explores the scenario given, one configuration; to explore a lane, give its configuration as the scenario (a file, a preset variant, a share link)',
    });
  });
});
