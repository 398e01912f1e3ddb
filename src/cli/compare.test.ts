/**
 * `sim <scenario> --compare <lane>`: the verdicts and the per-event diff, in text and JSON, and
 * the argument problems (exit 2, one line naming the option).
 */
import { describe, expect, it } from 'vitest';
import { main } from './main';
import type { CompareJson } from './compare';
import { captured } from './cliTesting';

const cli = (argv: string[]) => captured(main, argv);

const RUN_TIMEOUT = 60_000;

describe('sim --compare', () => {
  it(
    'prints every lane verdict and the events whose fate differs, with each lane sentence',
    () => {
      const r = cli(['at-least-once', '--compare', 'at-most-once', '--compare', 'exactly-once']);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      // The three verdicts (src/views/compare/compare.test.ts derives the runs by hand).
      expect(r.out).toContain(
        'guarantee, judged at sink table payments: claimed at-least-once, observed at-least-once — held',
      );
      expect(r.out).toContain(
        'guarantee, judged at sink table payments: claimed at-most-once, observed at-most-once — held',
      );
      expect(r.out).toContain(
        'guarantee, judged at sink table payments: claimed exactly-once, observed exactly-once — held',
      );
      const diff = r.out.slice(r.out.indexOf('── per-event diff'));
      expect(diff.split('\n').filter((l) => /^ {2}\S/.test(l))).toEqual([
        '  p-4: 2 rows | 1 row | 1 row',
        '  p-5: 2 rows | 1 row | 1 row',
        '  p-6: 2 rows | 1 row | 1 row',
        '  p-7: 2 rows | 1 row | 1 row',
        '  p-9: 1 row | 0 rows (lost) | 1 row',
        '  p-10: 1 row | 0 rows (lost) | 1 row',
      ]);
      expect(diff).toContain('── per-event diff: 6 of 20 events differ (lanes 1 | 2 | 3)');
      expect(diff).toContain(
        '      lane 2: the loop committed offset 10 before processing the batch holding p-9',
      );
      expect(r.out).toContain('  acks (Kafka producer): all | 0 | all');
    },
    RUN_TIMEOUT,
  );

  it(
    "names lane 1 once: its heading leaves the title to the report's first line, which gives it",
    () => {
      // The heading read "── lane 1: at-least-once/default" over "At-least-once: retry
      // everything, dedupe nothing  [at-least-once/default]", and a scenario file's name twice.
      const r = cli(['at-least-once/default', '--compare', 'exactly-once']);
      expect(r.code).toBe(0);
      const lane1 = r.out.slice(0, r.out.indexOf('── lane 2'));
      expect(lane1.split('\n').slice(0, 2)).toEqual([
        '── lane 1',
        'At-least-once: retry everything, dedupe nothing  [at-least-once/default]',
      ]);
      expect(lane1.split('at-least-once/default').length - 1).toBe(1);
      // A knob lane's report is named by its title too: said once.
      const k = cli(['at-least-once/default', '--compare', 'enable.idempotence=true']);
      const lane2 = k.out.slice(k.out.indexOf('── lane 2'), k.out.indexOf('── what differs'));
      expect(lane2.split('\n').slice(0, 2)).toEqual([
        '── lane 2',
        'lane 1 with enable.idempotence = true',
      ]);
    },
    RUN_TIMEOUT,
  );

  it('names a batch job’s lane 1 once', () => {
    const r = cli(['clear-rerun-window', '--compare', 'exactly-once']);
    expect(r.code).toBe(0);
    const lane1 = r.out.slice(0, r.out.indexOf('── lane 2'));
    expect(lane1.split('\n')[0]).toBe('── lane 1');
    expect(lane1.split('clear-rerun-window/clock-overwrite').length - 1).toBe(1);
  });

  it(
    "titles a changed lane by its own configuration, never by lane 1's name (issue #24)",
    () => {
      // The preset's name ends "— idempotence off"; lane 2 runs exactly-once, idempotence on.
      const r = cli(['lost-ack-retry', '--compare', 'exactly-once']);
      expect(r.code).toBe(0);
      const lane2 = r.out.slice(r.out.indexOf('── lane 2'), r.out.indexOf('── what differs'));
      expect(lane2.split('\n').slice(0, 2)).toEqual([
        '── lane 2: exactly-once',
        'lane 1 at exactly-once',
      ]);
      expect(lane2).not.toContain('idempotence off');
      const j = JSON.parse(
        cli(['lost-ack-retry', '--compare', 'exactly-once', '--format', 'json']).out,
      ) as CompareJson;
      expect(j.lanes.map((l) => l.scenario)).toEqual([
        'A lost acknowledgement, retried — idempotence off',
        'lane 1 at exactly-once',
      ]);
    },
    RUN_TIMEOUT,
  );

  it('words a knob lane for a terminal: lane 1 with its knobs, not "as on screen"', () => {
    // The page's title ("as on screen · enable.idempotence = true") read "lane 1's scenario with
    // as on screen · …" here before.
    const r = cli([
      'at-least-once/default',
      '--compare',
      'producer.enable.idempotence=true acks=all',
    ]);
    expect(r.code).toBe(0);
    const lane2 = r.out.slice(r.out.indexOf('── lane 2'), r.out.indexOf('── what differs'));
    expect(lane2.split('\n').slice(0, 2)).toEqual([
      '── lane 2',
      'lane 1 with enable.idempotence = true · acks = all',
    ]);
    expect(r.out).not.toContain('screen');
  });

  it(
    "reads a knob value as the page's lane does: maxOffsetsPerTrigger=off leaves it out (no limit)",
    () => {
      // "off" was passed on as the text "off": refused, "expected a number, got a string".
      // By hand: the 30 orders (e1..e30, 10 ms apart from 10 ms) are all in the log by 1 s, the
      // first trigger; with no limit micro-batch 0 takes the 30 and is recorded as done, so the
      // crash set for the 3rd batch never comes: 30 rows, against lane 1's 40 (batch 2 =
      // e21..e30 run again).
      const r = cli(['spark-batch-replay/append', '--compare', 'maxOffsetsPerTrigger=off']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('── lane 2\nlane 1 with maxOffsetsPerTrigger = no limit\n');
      expect(r.out).toContain('  maxOffsetsPerTrigger (Spark Kafka source): 10 | no limit');
      expect(r.out).toContain('micro-batch 0 planned: 30 records from offset 0');
      expect(r.out).toContain('── per-event diff: 10 of 30 events differ (lanes 1 | 2)');
      expect(r.out).toContain('  e21: 2 rows | 1 row');
    },
    RUN_TIMEOUT,
  );

  it(
    'gives { lanes: [report, report], diff: [{ id, fates }] } as JSON, a knob named by its real name',
    () => {
      const r = cli([
        'lost-ack-retry/idempotence-off',
        '--compare',
        'enable.idempotence=true',
        '--format',
        'json',
      ]);
      expect(r.code).toBe(0);
      const j = JSON.parse(r.out) as CompareJson;
      expect(j.lanes.map((l) => [l.lane, l.totals.sinkRows, l.guarantee.held])).toEqual([
        ['lost-ack-retry/idempotence-off', 11, false],
        ['lane 1 with enable.idempotence = true', 10, true],
      ]);
      // Only e3 differs: its retry is appended again without idempotence, dropped by its
      // sequence number with it (https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence).
      expect(j.diff).toHaveLength(1);
      expect(j.diff[0]!.id).toBe('e3');
      expect(j.diff[0]!.fates.map((f) => [f.count, f.fate])).toEqual([
        [2, 'duplicated'],
        [1, 'once'],
      ]);
      expect(j.diff[0]!.fates[0]!.why).toMatch(/^the acknowledgement of e3 was lost/);
      expect(j.knobs).toEqual([
        {
          path: 'producer.enable.idempotence',
          name: 'enable.idempotence',
          values: ['false', 'true'],
        },
      ]);
    },
    RUN_TIMEOUT,
  );

  it(
    'a lane Kafka refuses is listed as refused with its reason; the others are compared, exit 0',
    () => {
      // acks=1 with enable.idempotence=true: the producer's ConfigException
      // (https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence). Before, the
      // whole comparison stopped with exit 2 and the exactly-once lane did not run.
      const argv = [
        'lost-ack-retry',
        '--compare',
        'enable.idempotence=true acks=1',
        '--compare',
        'exactly-once',
      ];
      const reason =
        "this lane's configuration is refused: producer.acks: ConfigException: Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.";
      const json = cli([...argv, '--format', 'json']);
      expect(json.code).toBe(0);
      expect(json.err).toBe(
        `--compare "enable.idempotence=true acks=1": ${reason} (lane refused; the others compared)`,
      );
      const c = JSON.parse(json.out) as CompareJson;
      expect(c.lanes.map((l) => l.lane)).toEqual([
        'lost-ack-retry/idempotence-off',
        'exactly-once',
      ]);
      expect(c.refused).toEqual([
        { lane: 2, title: 'lane 1 with enable.idempotence = true · acks = 1', reason },
      ]);
      // e3's lost ack is retried: appended twice with idempotence off, once under exactly-once.
      expect(c.diff.map((d) => [d.id, d.fates.map((f) => f.count)])).toEqual([['e3', [2, 1]]]);
      const text = cli(argv);
      expect(text.code).toBe(0);
      expect(text.out).toContain(
        `── lane 2: lane 1 with enable.idempotence = true · acks = 1\ncannot run: ${reason}\n`,
      );
      expect(text.out).toContain('── per-event diff: 1 of 10 events differ (lanes 1 | 3)');
    },
    RUN_TIMEOUT,
  );

  it(
    "a batch job's refused lane too: listed in `refused`, the other lanes compared",
    () => {
      const r = cli([
        'airflow-retry-append',
        '--compare',
        'batch.task.retries=-1',
        '--compare',
        'batch.task.retries=0',
        '--format',
        'json',
      ]);
      expect(r.code).toBe(0);
      const c = JSON.parse(r.out) as CompareJson;
      expect(c.lanes.map((l) => l.lane)).toEqual([
        'airflow-retry-append/append',
        'lane 1 with batch.task.retries = 0',
      ]);
      expect(c.refused).toEqual([
        {
          lane: 2,
          title: 'lane 1 with batch.task.retries = -1',
          reason: "this lane's configuration is refused: batch.task.retries: at least 0",
        },
      ]);
    },
    RUN_TIMEOUT,
  );

  it('refuses what it cannot use, naming the option', () => {
    expect(cli(['at-least-once', '--compare', 'nope=1'])).toMatchObject({
      code: 2,
      err: '--compare: no knob "nope" (give a knob\'s path, e.g. producer.enable.idempotence — the Knobs tab shows each knob\'s path under its ⓘ — or its real name, e.g. acks)',
    });
    // The Knobs tab names the sink's key "key column": a lane's words cannot hold its space, so
    // "key" is answered with the knob's path.
    expect(cli(['at-least-once', '--compare', 'key=source-offset'])).toMatchObject({
      code: 2,
      err: '--compare: no knob "key"; did you mean sink.key (key column), sink.uniqueKey (UNIQUE / PRIMARY KEY)?',
    });
    // A tired engineer's typo of a real name, one swap or letter away: the knob it meant, by its
    // path and name (it said only "give a knob's path …").
    expect(cli(['at-least-once', '--compare', 'enable.idempotance=true'])).toMatchObject({
      code: 2,
      err: '--compare: no knob "enable.idempotance"; did you mean producer.enable.idempotence (enable.idempotence)?',
    });
    expect(cli(['at-least-once', '--compare', 'producer.akcs=1'])).toMatchObject({
      code: 2,
      err: '--compare: no knob "producer.akcs"; did you mean producer.acks (acks)?',
    });
    expect(cli(['at-least-once', '--compare', 'exactly-once', '--check'])).toMatchObject({
      code: 2,
      err: '--check: applies to one run, not with --compare',
    });
    expect(
      cli([
        'at-least-once',
        '--compare',
        'exactly-once',
        '--compare',
        'at-most-once',
        '--compare',
        'x=1',
      ]),
    ).toMatchObject({ code: 2, err: '--compare: at most 2 lanes beside the scenario, got 3' });
    // A knob value the scenario format refuses: exit 2, the field and what it allows, in the
    // words of a scenario file's problems (not zod's 'Invalid option: expected one of "insert"|…').
    expect(cli(['at-least-once', '--compare', 'statement=nonsense'])).toEqual({
      code: 2,
      out: '',
      err: '--compare "statement=nonsense": this lane\'s configuration is refused: sink.statement: expected "insert", "on-conflict-do-nothing", "on-conflict-do-update" or "merge", got "nonsense"',
    });
    // acks=2 was refused without the 2.
    expect(cli(['at-least-once', '--compare', 'acks=2']).err).toBe(
      '--compare "acks=2": this lane\'s configuration is refused: producer.acks: expected "0", "1", "all" or "-1", got 2',
    );
    expect(cli(['at-least-once', '--compare', 'no-such-thing'])).toMatchObject({
      code: 2,
      err: '--compare: "no-such-thing" is no guarantee, knob=value, preset id, share link or scenario file',
    });
  });
});
