/**
 * Compare's lane from configuration files: the files' knobs set on the scenario on screen (its
 * workload and faults kept), stored as knobs so that a link replays the lane; bad files refused
 * naming the file and line, as Import refuses them. Counts by hand from src/scenarios/foundation.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, simulate, sqlShape } from '../../engine';
import { findPreset } from '../../scenarios';
import { artifactOf } from '../io/exportArtifact';
import { decodeCompare, withCompareParam } from './compareLink';
import { configLane } from './laneFromConfig';
import { laneScenario, laneTitle } from './lanes';

const onScreen = () => structuredClone(findPreset('at-least-once/default')!.variant.scenario);
const file = (name: string, text: string) => ({ name, text });

function totals(input: unknown) {
  const parsed = parseScenario(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const v = simulate(parsed.scenario).verdict;
  const t = v.points.find((p) => p.name === v.primary)!.totals;
  return {
    observed: v.observed,
    rows: t.rows,
    duplicates: t.duplicates,
    lost: t.lost,
    sum: t.observedSum,
  };
}

describe('configLane', () => {
  it("sets a producer.properties' keys on the scenario on screen, its faults kept, as the lane's knobs", () => {
    const base = onScreen();
    const r = configLane(
      [
        file(
          'producer.properties',
          'enable.idempotence=true\nacks=all\nbootstrap.servers=k:9092\n',
        ),
      ],
      base,
      'producer.properties',
    );
    if (!r.ok) throw new Error(r.lines.join('\n'));
    expect(r.lane).toEqual({
      knobs: [
        { path: 'producer.enable.idempotence', value: true },
        { path: 'producer.acks', value: 'all' },
      ],
      from: 'producer.properties',
    });
    expect(r.imported.keys.find((k) => k.key === 'bootstrap.servers')?.status).toBe('ignored');
    expect(laneTitle(base, r.lane)).toBe('as on screen · producer.properties (2 knobs)');
    const built = laneScenario(base, r.lane);
    if (!built.ok) throw new Error(built.reason);
    // The workload and faults are the scenario's: the lost ack of p-4 and the crash mid-batch.
    expect(built.input.workload).toEqual(base.workload);
    expect(built.input.faults).toEqual(base.faults);
    // By hand: the idempotent producer's retry of p-4 is recognised (20 records); batch 2
    // (p-6..p-10) writes p-6..p-8 and crashes before its commit, the restart writes them again
    // with the plain INSERT: 23 rows, p-6..p-8 twice, 2,100 + 60 + 70 + 80 = 2,310, none lost.
    expect(totals(built.input)).toEqual({
      observed: 'at-least-once',
      rows: 23,
      duplicates: 3,
      lost: 0,
      sum: 2310,
    });
    // Lane 1 as shipped: 24 rows, 4 twice (p-4's retry besides).
    expect(totals(base)).toMatchObject({ rows: 24, duplicates: 4 });
  });

  it('a link carries the lane: its knobs and its files’ names, no file', () => {
    const base = onScreen();
    const r = configLane([file('p.properties', 'enable.idempotence=true\n')], base, 'p.properties');
    if (!r.ok) throw new Error(r.lines.join('\n'));
    const back = decodeCompare(withCompareParam('s=x', { lanes: [r.lane] }));
    expect(back).toEqual({ ok: true, spec: { lanes: [r.lane] } });
  });

  it("a lane from the sink's SQL keeps its key column's name through the link, the lane and the report", () => {
    const base = onScreen();
    const sql =
      'INSERT INTO payments (payment_id, amount) VALUES ($1, $2)\nON CONFLICT (payment_id) DO NOTHING;';
    const r = configLane([file('sink.sql', sql)], base, 'sink.sql');
    if (!r.ok) throw new Error(r.lines.join('\n'));
    expect(r.lane.knobs).toContainEqual({ path: 'sink.columns', value: { id: 'payment_id' } });
    const back = decodeCompare(withCompareParam('s=x', { lanes: [r.lane] }));
    if (!back?.ok) throw new Error('the link lost the lane');
    const built = laneScenario(base, back.spec.lanes[0]!);
    if (!built.ok) throw new Error(built.reason);
    if (built.scenario.sink.type !== 'table') throw new Error('not a table sink');
    expect(sqlShape(built.scenario.sink)).toBe('INSERT … ON CONFLICT (payment_id) DO NOTHING');
    const parsed = parseScenario(base);
    if (!parsed.ok) throw new Error('the preset is refused');
    const text = artifactOf(simulate(parsed.scenario), 'markdown', {
      compare: { base, spec: { lanes: [r.lane] } },
    })!.text;
    // What differs: lane 1 has the lab's names, lane 2 the statement's (Markdown escapes the _).
    expect(text).toContain("| `column names` (PostgreSQL) | the lab's | payment\\_id for id |");
  });

  it('the Markdown report names the lane by its files, and its knobs under What differs', () => {
    const base = onScreen();
    const r = configLane(
      [file('producer.properties', 'enable.idempotence=true\n')],
      base,
      'producer.properties',
    );
    if (!r.ok) throw new Error(r.lines.join('\n'));
    const parsed = parseScenario(base);
    if (!parsed.ok) throw new Error('the preset is refused');
    const text = artifactOf(simulate(parsed.scenario), 'markdown', {
      compare: { base, spec: { lanes: [r.lane] } },
    })!.text;
    // The run of the first test: 23 rows, 3 duplicates, none lost.
    expect(text).toMatch(
      /\| 2\. as on screen · producer\.properties \(1 knob\) \| claimed at-least-once, observed at-least-once: held \| 23 \| 3 \| 0 \|/,
    );
    expect(text).toContain('| `enable.idempotence` (Kafka producer) | false | true |');
  });

  it('refuses a bad file naming its line, and a processor the scenario does not run', () => {
    const base = onScreen();
    expect(
      configLane(
        [file('producer.properties', 'acks=1\nretries=many\n')],
        base,
        'producer.properties',
      ),
    ).toEqual({
      ok: false,
      lines: ['producer.properties:2: retries: expected an integer, got "many"'],
    });
    const flink = configLane(
      [file('config.yaml', 'execution.checkpointing.interval: 10 s\n')],
      base,
      'config.yaml',
    );
    expect(flink.ok).toBe(false);
    expect(!flink.ok && flink.lines[0]).toMatch(
      /^config\.yaml:1: execution\.checkpointing\.interval: a Flink job's key, and the scenario on screen runs a consumer loop/,
    );
    // A value Kafka refuses (idempotence needs acks=all): the lane is not made.
    const refused = configLane(
      [file('producer.properties', 'enable.idempotence=true\nacks=1\n')],
      base,
      'producer.properties',
    );
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.lines[0]).toMatch(/^producer\.properties:\d: .* refused — /);
    // A sink statement's clause, then the knob it set: not `ON CONFLICT (…) DO NOTHING={…}`.
    const sql = configLane(
      [
        file(
          'sink.sql',
          'INSERT INTO p (payment_id) VALUES ($1)\nON CONFLICT ("payment id") DO NOTHING\n',
        ),
      ],
      base,
      'sink.sql',
    );
    expect(!sql.ok && sql.lines[0]).toMatch(
      /^sink\.sql:2: ON CONFLICT \("payment id"\) DO NOTHING → sink\.columns = \{"id":"payment id"\} refused — /,
    );
    // Only keys that set nothing: the lane would be lane 1.
    const nothing = configLane(
      [file('c.properties', 'bootstrap.servers=k:9092\n')],
      base,
      'c.properties',
    );
    expect(nothing).toEqual({
      ok: false,
      lines: [
        'c.properties:1: the files set no knob of the scenario on screen: bootstrap.servers — where to connect: no effect on which records arrive once or twice',
      ],
    });
  });
});
