import { describe, expect, it } from 'vitest';
// The layer rule keeps runtime code in scenarios/ from depending on the CLI; this test checks the
// CLI's contract over the library's ids (issue 5, "Tests") and ships nowhere.
// eslint-disable-next-line no-restricted-imports
import { main } from '../cli/main';
import { libraryPresets, presetIds } from '.';
// eslint-disable-next-line no-restricted-imports
import { captured } from '../cli/cliTesting';

/** Run the CLI in-process; returns the exit code and what it printed. */
const cli = (argv: string[]) => captured(main, argv, { join: '', trimEnd: true });

/** The preset ids of the issue's table, verbatim. */
const ISSUE_IDS = [
  'lost-ack-retry',
  'acks0-dropped-request',
  'payment-resent-by-app',
  'flink-checkpoint-replay',
  'flink-commit-phase-crash',
  'aborted-transaction-dirty-read',
  'commit-before-process',
  'commit-after-process',
  'consume-transform-produce',
  'spark-batch-replay',
  'pipeline-generated-ids',
  'merge-duplicate-source',
  'card-charge-idempotency',
  'retry-storm',
  'auto-commit-crash',
  'rebalance-midflight',
];

describe('sim CLI over the library', () => {
  it('--list prints every streaming preset/variant id first, covering every id of the issue', () => {
    const r = cli(['--list']);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    // The batch jobs follow (src/cli/main.test.ts checks them).
    expect(lines.slice(0, presetIds().length)).toEqual(presetIds());
    for (const id of ISSUE_IDS)
      expect(
        lines.some((l) => l.startsWith(`${id}/`)),
        id,
      ).toBe(true);
    // The issue's presets in its order, then the ones added since.
    expect(libraryPresets.map((p) => p.id)).toEqual([
      ...ISSUE_IDS,
      'poll-timeout-slow-batch',
      'zombie-consumer',
      'spark-watermark-dedupe',
      'flink-dedupe-ttl',
      'raw-clean-layer',
      'spark-checkpoint-reset-txnappid',
      'content-key-on-conflict',
    ]);
  });

  it('payment-resent-by-app/plain-insert --format json --check exits 0 with p-77 twice', () => {
    const r = cli(['payment-resent-by-app/plain-insert', '--format', 'json', '--check']);
    expect(r.err).toBe('check: the run matches the "expect" block');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as {
      preset: string;
      totals: { sinkRows: number; duplicates: number; observedSum: number };
      events: { id: string; sinkRows: number }[];
    };
    expect(report.preset).toBe('payment-resent-by-app/plain-insert');
    expect(report.totals).toMatchObject({ sinkRows: 6, duplicates: 1, observedSum: 815 });
    expect(report.events.find((e) => e.id === 'p-77')?.sinkRows).toBe(2);
  });

  it('a bare preset id runs the variant its question is about, else its first, and checks it', () => {
    const r = cli(['flink-checkpoint-replay', '--format', 'json', '--check']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { preset: string }).preset).toBe(
      'flink-checkpoint-replay/plain-sink',
    );
    // Its question is about read_uncommitted (broker.ts `predict.variant`), its second variant:
    // the aborted e1..e5 are read and written too, 15 rows, 5 duplicates, 550 + 150 = 700. Its
    // first, read_committed, writes 10 rows, 550 (what a bare id ran before).
    const about = cli(['aborted-transaction-dirty-read', '--format', 'json', '--check']);
    expect(about.code).toBe(0);
    const report = JSON.parse(about.out) as {
      preset: string;
      totals: { sinkRows: number; duplicates: number; observedSum: number };
    };
    expect(report.preset).toBe('aborted-transaction-dirty-read/read-uncommitted');
    expect(report.totals).toMatchObject({ sinkRows: 15, duplicates: 5, observedSum: 700 });
  });
});
