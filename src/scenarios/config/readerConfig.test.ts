/**
 * A downstream reader's consumer `.properties` beside the pipeline consumer's: a file whose
 * `group.id` names one of the workload's readers is that reader's configuration
 * (docs/cli.md#your-configuration-in), so its `isolation.level` sets the reader's and overrides
 * nothing of the pipeline's. Counts by hand from the presets' stories
 * (src/scenarios/library/broker.ts `aborted-transaction-dirty-read`, processor.ts
 * `flink-checkpoint-replay`).
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, simulate } from '../../engine';
import { findPreset } from '..';
import { getKnob } from '../guarantees';
import { importConfig, type ConfigFile, type ConfigTarget } from './importConfig';
import flinkConfig from './examples/config.yaml?raw';

const file = (name: string, text: string): ConfigFile => ({ name, text });

/** The aborted-transaction story, read_committed in the pipeline: its reader `ru` beside it. */
const onAborted = (variant: string): ConfigTarget => ({
  scenario: findPreset(`aborted-transaction-dirty-read/${variant}`)!.variant.scenario,
  name: 'the scenario on screen',
});

function imported(files: ConfigFile[], target?: ConfigTarget) {
  const r = importConfig(files, target);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r;
}

/** A point's totals at the run's end. */
function totalsAt(r: ReturnType<typeof imported>, point: string) {
  const parsed = parseScenario(r.scenario);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const v = simulate(parsed.scenario).verdict;
  const at = point === 'primary' ? v.primary : point;
  const t = v.points.find((p) => p.name === at)!.totals;
  return { rows: t.rows, duplicates: t.duplicates, sum: t.observedSum };
}

describe("a reader's consumer file, told by its group.id", () => {
  it('a reader with read_uncommitted sees the aborted transaction’s rows; the pipeline’s file stays the pipeline’s', () => {
    // The read_uncommitted variant: the pipeline reads uncommitted, reader rc read_committed.
    // The files turn both around: the pipeline's consumer.properties says read_committed, and
    // rc's says read_uncommitted. T1's e1..e5 are aborted but stay in the log; T2 re-sends
    // e1..e5 and T3 sends e6..e10 (sum 550). read_committed skips the aborted records: 10 rows,
    // 550. read_uncommitted returns them too: 15 rows, e1..e5 twice, 550 + 150 = 700.
    const r = imported(
      [
        file('consumer.properties', 'group.id=billing-copy\nisolation.level=read_committed\n'),
        file(
          'rc.properties',
          'group.id=rc\nisolation.level=read_uncommitted\nmax.poll.records=50\n',
        ),
      ],
      onAborted('read-uncommitted'),
    );
    expect(getKnob(r.scenario, 'processor.isolation.level')).toBe('read_committed');
    expect(getKnob(r.scenario, 'readers.0.isolation.level')).toBe('read_uncommitted');
    // Neither file overrides the other's isolation.level.
    expect(
      r.keys.filter((k) => k.key === 'isolation.level').map((k) => [k.file, k.status, k.path]),
    ).toEqual([
      ['consumer.properties', 'applied', 'processor.isolation.level'],
      ['rc.properties', 'applied', 'readers.0.isolation.level'],
    ]);
    expect(r.keys.find((k) => k.file === 'rc.properties' && k.key === 'group.id')).toMatchObject({
      status: 'applied',
      path: 'readers.0',
    });
    // A reader copies its topic from its start and commits nothing: its max.poll.records sets nothing.
    expect(r.keys.find((k) => k.key === 'max.poll.records')).toMatchObject({
      status: 'ignored',
      why: expect.stringContaining("reader rc's file") as unknown as string,
    });
    expect(r.settings).toEqual([
      { path: 'processor.group.id', value: 'billing-copy' },
      { path: 'processor.isolation.level', value: 'read_committed' },
      { path: 'readers.0.isolation.level', value: 'read_uncommitted' },
    ]);
    expect(totalsAt(r, 'primary')).toEqual({ rows: 10, duplicates: 0, sum: 550 });
    expect(totalsAt(r, 'reader:rc')).toEqual({ rows: 15, duplicates: 5, sum: 700 });
  });

  it('before the rule, the second file overrode the first: a group.id that names no reader is still the pipeline’s', () => {
    // The read_committed variant's reader is ru, not rc: rc.properties is a pipeline consumer
    // file, and its isolation.level overrides consumer.properties's (the last value counts).
    const r = imported(
      [
        file('consumer.properties', 'group.id=billing-copy\nisolation.level=read_committed\n'),
        file('rc.properties', 'group.id=rc\nisolation.level=read_uncommitted\n'),
      ],
      onAborted('read-committed'),
    );
    expect(
      r.keys.find((k) => k.file === 'consumer.properties' && k.key === 'isolation.level'),
    ).toMatchObject({
      status: 'overridden',
    });
    expect(getKnob(r.scenario, 'processor.isolation.level')).toBe('read_uncommitted');
    expect(getKnob(r.scenario, 'readers.0.isolation.level')).toBe('read_uncommitted');
  });

  it('from-config: the Flink workload’s reader rc, read_uncommitted, reads the replayed and aborted records', () => {
    // flink-checkpoint-replay: the log of topic "out" ends with 300 records, e201..e250 twice
    // (the transactions aborted at the crash, then written again); reader rc (read_committed)
    // reads 250, ru (read_uncommitted) 300. rc's own file makes it read_uncommitted: 300, 50 twice.
    const r = imported([
      file('config.yaml', flinkConfig),
      file('rc.properties', 'group.id=rc\nisolation.level=read_uncommitted\n'),
    ]);
    expect(r.kind).toBe('flink');
    expect(getKnob(r.scenario, 'readers.0.isolation.level')).toBe('read_uncommitted');
    expect(totalsAt(r, 'reader:rc')).toMatchObject({ rows: 300, duplicates: 50 });
    expect(totalsAt(r, 'reader:ru')).toMatchObject({ rows: 300, duplicates: 50 });
  });

  it("a reader's file beside a sink statement that replaces the Flink job's KafkaSink is refused, naming both", () => {
    const r = importConfig([
      file('config.yaml', 'execution.checkpointing.interval: 1 s\n'),
      file('rc.properties', 'group.id=rc\nisolation.level=read_uncommitted\n'),
      file('sink.sql', 'INSERT INTO events (event_id, amount) VALUES ($1, $2);\n'),
    ]);
    expect(r).toEqual({
      ok: false,
      errors: [expect.stringMatching(/^sink\.sql:1: .*rc\.properties:1 \(group\.id=rc\)/)],
    });
  });
});
