/**
 * An analytics engineer's batch files in (a dbt model's config, a properties file,
 * dbt_project.yml, an Airflow DAG), a batch scenario out: each setting at its line, and the run of
 * the scenario it builds, its counts derived by hand from the library's S21 story (10 events of
 * 2024-03-10; try 1 writes them, commits, then fails its post-load check).
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, runBatch, type ScenarioInput } from '../../engine';
import { findPreset } from '..';
import { importConfig, type ConfigFile } from './importConfig';
import model from './examples/events_incremental.sql?raw';
import dag from './examples/load_events.py?raw';

function imported(files: ConfigFile[], on?: string) {
  const r = importConfig(files, undefined, on === undefined ? {} : { on });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r;
}
const refused = (files: ConfigFile[], on?: string) => {
  const r = importConfig(files, undefined, on === undefined ? {} : { on });
  return r.ok ? [] : r.errors;
};

function runOf(s: ScenarioInput) {
  const parsed = parseScenario(s);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const r = runBatch(parsed.scenario);
  const t = r.verdict.totals;
  return {
    rows: t.rows,
    sum: t.observedSum,
    duplicates: t.duplicates,
    lost: t.lost,
    tries: r.run.attempts.length,
    hash: r.run.hash,
  };
}

const sqlModel = (...config: string[]): ConfigFile => ({
  name: 'events.sql',
  text: ['{{', '  config(', ...config.map((c) => `    ${c},`), '  )', '}}', 'select 1'].join('\n'),
});
const dagFile = (...args: string[]): ConfigFile => ({
  name: 'load_events.py',
  text: ['from airflow import DAG', 'with DAG(', ...args.map((a) => `    ${a},`), ') as dag:'].join(
    '\n',
  ),
});
const statusOf = (r: ReturnType<typeof imported>, key: string) =>
  r.keys.filter((k) => k.key === key).map((k) => `${k.file}:${k.line} ${k.status}`);

describe('a dbt model onto a batch workload', () => {
  it("unique_key='event_id' with merge on airflow-retry-append: the dbt-incremental-unique-key/unique-key run", () => {
    // The retry writes e1..e10 again; a MERGE on event_id updates the same 10 rows: 10 rows,
    // 10+20+…+100 = 550, none twice — the library variant's run, statement for statement.
    const r = imported([example('events_incremental.sql')], 'airflow-retry-append');
    expect(r.kind).toBe('batch');
    expect(r.base).toBe('airflow-retry-append/append');
    expect(r.keys.map((k) => `${k.file}:${k.line} ${k.key} ${k.status} ${k.path ?? ''}`)).toEqual([
      'events_incremental.sql:5 materialized applied batch.write.mode',
      'events_incremental.sql:6 unique_key applied batch.write.uniqueKey',
      'events_incremental.sql:7 incremental_strategy applied batch.write.strategy',
      'events_incremental.sql:8 on_schema_change ignored ',
    ]);
    expect(r.keys[3]!.why).toBe("read, not modelled: the lab's target keeps its columns");
    expect(r.scenario.batch?.dedupeKey).toBe('event-id');
    const mine = runOf(r.scenario);
    const library = runOf(findPreset('dbt-incremental-unique-key/unique-key')!.variant.scenario);
    expect(mine).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0, tries: 2, hash: mine.hash });
    expect(mine).toEqual(library);
  });

  it('no unique_key: append-only, as dbt says — the retry appends the day again (20 rows, 10 twice)', () => {
    const r = imported([sqlModel("materialized='incremental'")], 'airflow-retry-append');
    expect(r.scenario.batch?.write).toMatchObject({ mode: 'dbt-incremental', uniqueKey: false });
    expect(r.notes?.[0]).toMatch(/^unique_key not given: batch.write.uniqueKey = false/);
    expect(r.notes?.[1]).toMatch(
      /^incremental_strategy not given: dbt takes the adapter's default/,
    );
    expect(runOf(r.scenario)).toMatchObject({ rows: 20, sum: 1100, duplicates: 10, tries: 2 });
  });

  it('insert_overwrite replaces the partition: 10 rows; delete+insert deletes the keys first: 10', () => {
    for (const strategy of ['insert_overwrite', 'delete+insert'])
      expect(
        runOf(
          imported([
            sqlModel(
              "materialized='incremental'",
              "unique_key='event_id'",
              `incremental_strategy='${strategy}'`,
            ),
          ]).scenario,
        ),
      ).toMatchObject({ rows: 10, sum: 550, duplicates: 0 });
  });

  it('a list unique_key of the lab’s columns is a content key; another single column is the event id', () => {
    const list = imported([sqlModel("unique_key=['event_date', 'amount']")]);
    expect(list.scenario.batch?.dedupeKey).toEqual(['date', 'amount']);
    const business = imported([sqlModel("unique_key='order_id'")]);
    expect(business.scenario.batch?.dedupeKey).toBe('event-id');
    expect(business.keys[0]!.why).toMatch(
      /^not a column of the lab's table: read as the business id/,
    );
  });

  it('a strategy dbt refuses, microbatch and another materialization: refused at file:line', () => {
    expect(refused([sqlModel("incremental_strategy='upsert'")])).toEqual([
      'events.sql:3: incremental_strategy: expected "append", "merge", "delete+insert" or "insert_overwrite", got "upsert" (https://docs.getdbt.com/docs/build/incremental-strategy)',
    ]);
    expect(refused([sqlModel("incremental_strategy='microbatch'")])[0]).toMatch(
      /got "microbatch" \(dbt's microbatch runs a model in batches of its event_time: not modelled\)$/,
    );
    expect(refused([sqlModel("materialized='table'")])[0]).toMatch(
      /^events.sql:3: materialized: expected "incremental", got "table"/,
    );
  });

  it('a computed value is not read: its line named, nothing guessed', () => {
    const r = imported([sqlModel("unique_key=var('key')", "incremental_strategy='append'")]);
    expect(r.keys[0]).toMatchObject({ line: 3, status: 'ignored', value: "var('key')" });
    expect(r.keys[0]!.why).toMatch(/^not read: not a literal \(var\('key'\)\)/);
    // Not read is not "not given": the model's key is unknown, so no append-only note either.
    expect(r.notes?.some((n) => n.startsWith('unique_key not given'))).toBe(false);
  });

  it("properties file and dbt_project.yml: the model's config() wins, then the properties file, then the project", () => {
    const project = {
      name: 'dbt_project.yml',
      text: [
        'name: shop',
        'models:',
        '  shop:',
        '    +materialized: incremental',
        '    +incremental_strategy: append',
        '    marts:',
        '      +incremental_strategy: delete+insert',
      ].join('\n'),
    };
    const props = {
      name: 'models/schema.yml',
      text: [
        'version: 2',
        'models:',
        '  - name: events_incremental',
        '    config:',
        '      unique_key: event_id',
        '      tags: [marts]',
      ].join('\n'),
    };
    const r = imported([project, props]);
    expect(r.base).toBe('dbt-incremental-unique-key/no-unique-key');
    expect(statusOf(r, 'incremental_strategy')).toEqual([
      'dbt_project.yml:5 overridden',
      'dbt_project.yml:7 applied',
    ]);
    expect(r.scenario.batch?.write).toMatchObject({
      mode: 'dbt-incremental',
      uniqueKey: true,
      strategy: 'delete+insert',
    });
    const withModel = imported([project, props, sqlModel("incremental_strategy='merge'")]);
    expect(statusOf(withModel, 'incremental_strategy')).toEqual([
      'dbt_project.yml:5 overridden',
      'dbt_project.yml:7 overridden',
      'events.sql:3 applied',
    ]);
    expect(withModel.keys.find((k) => k.line === 7)!.why).toBe(
      "set at events.sql:3 (incremental_strategy='merge'), the more specific: that one counts",
    );
  });
});

describe("dbt_project.yml's folders: a setting is the model's where its resource path leads to it", () => {
  // https://docs.getdbt.com/reference/resource-configs/resource-path: models: <project>: <folder>: …
  const project = {
    name: 'dbt_project.yml',
    text: [
      'name: shop',
      'models:',
      '  shop:',
      '    +materialized: incremental',
      '    staging:',
      '      +incremental_strategy: append',
      '    marts:',
      '      +incremental_strategy: delete+insert',
      '  audit_pkg:',
      '    +incremental_strategy: merge',
    ].join('\n'),
  };
  const model = (path: string): ConfigFile => ({
    name: path,
    text: '{{ config(unique_key="event_id") }}\nselect 1',
  });

  it("a model under models/staging/ takes staging's strategy; marts' and a package's are not its", () => {
    const r = imported([project, model('shop/models/staging/events.sql')]);
    expect(
      r.keys.filter((k) => k.key === 'incremental_strategy').map((k) => `${k.line} ${k.status}`),
    ).toEqual(['6 applied', '8 ignored', '10 ignored']);
    expect(r.keys.find((k) => k.line === 8)!.why).toBe(
      "not this model's: it configures marts, and events is models/staging/events.sql (https://docs.getdbt.com/reference/resource-configs/resource-path)",
    );
    expect(r.keys.find((k) => k.line === 10)!.why).toBe(
      "not this model's: it configures package audit_pkg's models, not project shop's (https://docs.getdbt.com/reference/resource-configs/resource-path)",
    );
    expect(r.scenario.batch?.write).toMatchObject({
      mode: 'dbt-incremental',
      uniqueKey: true,
      strategy: 'append',
    });
  });

  it('under models/marts/: delete+insert; a model named without its folders takes the last read, as before', () => {
    const marts = imported([project, model('models/marts/events.sql')]);
    expect(marts.scenario.batch?.write).toMatchObject({ strategy: 'delete+insert' });
    expect(statusOf(marts, 'incremental_strategy')).toEqual([
      'dbt_project.yml:6 ignored',
      'dbt_project.yml:8 applied',
      'dbt_project.yml:10 ignored',
    ]);
    const bare = imported([project, model('events.sql')]);
    expect(statusOf(bare, 'incremental_strategy')).toEqual([
      'dbt_project.yml:6 overridden',
      'dbt_project.yml:8 applied',
      'dbt_project.yml:10 ignored',
    ]);
  });
});

describe('an Airflow DAG onto a batch workload', () => {
  it('the example DAG: each literal at its line, its retries the story’s (20 rows after the retry)', () => {
    const r = imported([example('load_events.py')]);
    expect(r.base).toBe('airflow-retry-append/append');
    expect(r.keys.map((k) => `${k.line} ${k.key} ${k.status} ${k.path ?? ''}`)).toEqual([
      '15 dag_id ignored ',
      '16 schedule applied batch.schedule',
      '17 start_date applied batch.startDate',
      '18 catchup applied batch.catchup',
      '9 default_args.owner ignored ',
      '10 default_args.retries applied batch.task.retries',
      '11 default_args.retry_delay applied batch.task.retryDelayMs',
      '20 tags ignored ',
    ]);
    expect(r.scenario.batch).toMatchObject({
      schedule: 'daily',
      startDate: '2024-03-10',
      catchup: true,
      task: { retries: 1, retryDelayMs: 300_000 },
    });
    expect(runOf(r.scenario)).toMatchObject({ rows: 20, sum: 1100, duplicates: 10, tries: 2 });
  });

  it('retries=0: the failed try is not retried — the day once, 10 rows; the DAG with the dbt model: 10', () => {
    const noRetry = imported([dagFile('default_args={"retries": 0}')]);
    expect(runOf(noRetry.scenario)).toMatchObject({ rows: 10, sum: 550, duplicates: 0, tries: 1 });
    const both = imported([
      dagFile("default_args={'retries': 3}"),
      example('events_incremental.sql'),
    ]);
    expect(both.base).toBe('dbt-incremental-unique-key/no-unique-key');
    // Try 1 writes and fails after its commit, try 2 merges the same 10 rows and succeeds.
    expect(runOf(both.scenario)).toMatchObject({ rows: 10, sum: 550, duplicates: 0, tries: 2 });
  });

  it("a task's own retries win over default_args: the operator's retries=1 retries the failed try (20 rows)", () => {
    const task = (...tasks: string[]): ConfigFile => ({
      name: 'load_events.py',
      text: [
        'from airflow import DAG',
        'from airflow.operators.bash import BashOperator',
        'class LoadOperator(BaseOperator):',
        '    pass',
        'with DAG("load_events", default_args={"retries": 0}) as dag:',
        ...tasks,
      ].join('\n'),
    });
    const one = imported([
      task('    BashOperator(task_id="load", bash_command="dbt run", retries=1)'),
    ]);
    expect(one.keys.map((k) => `${k.line} ${k.key} ${k.status} ${k.path ?? ''}`)).toEqual([
      '5 dag_id ignored ',
      '5 default_args.retries overridden ',
      '6 load.retries applied batch.task.retries',
    ]);
    expect(one.keys[1]!.why).toBe(
      'set at load_events.py:6 (load.retries=1), the more specific: that one counts',
    );
    // Try 1 writes its 10 rows, commits, fails its check; the task's 1 retry appends them again.
    expect(runOf(one.scenario)).toMatchObject({ rows: 20, duplicates: 10, tries: 2 });
    // Two tasks: which one is the load is not the lab's to guess; default_args' 0 counts.
    const two = imported([
      task(
        '    BashOperator(task_id="load", bash_command="dbt run", retries=1)',
        '    BashOperator(task_id="check", bash_command="dbt test")',
      ),
    ]);
    expect(two.keys.find((k) => k.key === 'load.retries')!.why).toBe(
      "read, not modelled: the lab runs the DAG's one load task, and this file declares 2 tasks: give the load's retries in default_args",
    );
    expect(runOf(two.scenario)).toMatchObject({ rows: 10, duplicates: 0, tries: 1 });
  });

  it("a task's sql is listed as not read: the write is the workload's, whatever the statement does", () => {
    // A DAG as written at work: the load is a SQL operator whose statement the lab does not parse.
    const r = imported([
      {
        name: 'backfill_payments.py',
        text: [
          'from airflow import DAG',
          'with DAG("backfill_payments", schedule="@daily", default_args={"retries": 2}) as dag:',
          '    PostgresOperator(',
          '        task_id="load_payments",',
          '        sql="""',
          '            INSERT INTO payments_daily',
          "            SELECT * FROM raw_payments WHERE event_date = '{{ ds }}'",
          '        """,',
          '    )',
        ].join('\n'),
      },
    ]);
    const sql = r.keys.find((k) => k.key === 'load_payments.sql');
    expect(sql && [sql.line, sql.status]).toEqual([5, 'ignored']);
    expect(sql!.why).toMatch(
      /^not read: the lab does not parse a task's SQL — the job writes as the workload's batch.write says/,
    );
    // One short line in the report: blanks folded, cut at 60 characters.
    expect(sql!.value).toBe('""" INSERT INTO payments_daily SELECT * FROM raw_payments W…');
    // The workload's write is kept: the retry appends the day again (20 rows, 10 twice).
    expect(r.scenario.batch?.write).toMatchObject({ mode: 'append' });
    expect(runOf(r.scenario)).toMatchObject({ rows: 20, duplicates: 10, tries: 2 });
  });

  it('a start_date moves the workload’s rows with it: the same story on the DAG’s dates', () => {
    const r = imported([dagFile('start_date=pendulum.datetime(2023, 12, 30, tz="UTC")')]);
    expect(r.scenario.batch?.startDate).toBe('2023-12-30');
    expect(r.scenario.batch?.source?.[0]?.date).toBe('2023-12-30');
    expect(r.fitted).toBe(
      "the workload's source rows moved from 2024-03-10 to your start_date 2023-12-30 (-71 days), so that its story falls on the same logical dates",
    );
    expect(runOf(r.scenario)).toMatchObject({ rows: 20, duplicates: 10 });
  });

  it('what is computed is "not read: not a literal", at its line; the workload’s value kept', () => {
    const r = imported([
      dagFile(
        'schedule=SCHEDULE',
        'catchup=os.environ.get("CATCHUP") == "1"',
        'default_args={"retries": int(Variable.get("retries"))}',
      ),
    ]);
    expect(r.keys.map((k) => `${k.line} ${k.key} ${k.status}`)).toEqual([
      '3 schedule ignored',
      '4 catchup ignored',
      '5 default_args.retries ignored',
    ]);
    expect(r.keys[2]!.why).toBe(
      'not read: not a literal (int(Variable.get("retries"))): the lab reads a value written in the file, never one computed when it runs',
    );
    expect(r.scenario.batch?.task?.retries).toBe(1);
    expect(r.settings).toEqual([]);
    // Read, though not a literal: no "not given" note for them; retry_delay is not in the file.
    expect(r.notes).toEqual([
      "retry_delay not given: the workload's 300000 ms kept (Airflow's [core] default_task_retry_delay is 300 s)",
    ]);
  });

  it('Airflow 2 and 3 defaults are said where the DAG leaves a setting out', () => {
    const r = imported([dagFile('dag_id="x"')]);
    expect(r.notes).toEqual([
      'schedule not given: Airflow 2 runs the DAG daily (its default, timedelta(days=1)), Airflow 3 not at all (its default is None); the workload\'s "daily" kept',
      "catchup not given: Airflow 2's [scheduler] catchup_by_default is True, Airflow 3's False (docs/semantics/batch.md#the-scheduler); the workload's true kept",
      "retries not given: the workload's 1 kept (Airflow's [core] default_task_retries is 0)",
      "retry_delay not given: the workload's 300000 ms kept (Airflow's [core] default_task_retry_delay is 300 s)",
    ]);
  });

  it('schedules: @hourly and timedelta(hours=1) read, @weekly and None refused naming the line', () => {
    expect(imported([dagFile('schedule="@hourly"')]).scenario.batch?.schedule).toBe('hourly');
    const interval = imported([dagFile('schedule_interval=timedelta(hours=1)')]);
    expect(interval.scenario.batch?.schedule).toBe('hourly');
    expect(interval.keys[0]!.why).toBe(
      "Airflow 2's name for schedule (deprecated since 2.4, removed in 3)",
    );
    expect(refused([dagFile('schedule="@weekly"')])).toEqual([
      'load_events.py:3: schedule: expected "@daily", "@hourly", timedelta(days=1) or timedelta(hours=1), got "@weekly" (the lab\'s scheduler runs one data interval a day or an hour (docs/semantics/batch.md#the-scheduler))',
    ]);
    expect(refused([dagFile('schedule=None')])[0]).toMatch(
      /^load_events.py:3: schedule: expected .*, got None \(None schedules no run/,
    );
  });

  it('catchup in default_args reaches the tasks, not the DAG: read, not modelled', () => {
    const r = imported([dagFile('default_args={"catchup": False}')]);
    expect(r.keys[0]!.why).toMatch(
      /^read, not modelled: default_args are passed to each task's operator, not to the DAG/,
    );
    expect(r.settings).toEqual([]);
  });

  it('@dag(…) is read as DAG(…) is', () => {
    const r = imported([
      {
        name: 'flow.py',
        text: 'from airflow.decorators import dag\n@dag(schedule="@daily", catchup=False)\ndef flow():\n    pass\n',
      },
    ]);
    expect(r.scenario.batch?.catchup).toBe(false);
  });
});

describe('batch and stream files', () => {
  it('a dbt model beside a Kafka client file is refused with one sentence', () => {
    expect(
      refused([example('events_incremental.sql'), { name: 'p.properties', text: 'acks=all' }]),
    ).toEqual([
      "events_incremental.sql is a dbt model, a batch job's, and p.properties a stream pipeline's configuration (Kafka clients, a Flink job, a Spark query, a sink statement): the lab runs them as two scenarios — import the batch files or the stream files, not both",
    ]);
  });
  it('--on a stream workload with a DAG is refused, and --on a batch workload with a Kafka file', () => {
    expect(refused([example('load_events.py')], 'lost-ack-retry')).toEqual([
      '--on "lost-ack-retry": a stream pipeline, which no dbt model or Airflow DAG configures: give a batch workload (delivery-lab --list)',
    ]);
    expect(refused([{ name: 'p.properties', text: 'acks=all' }], 'airflow-retry-append')).toEqual([
      '--on "airflow-retry-append": a scheduled batch job, which no client, Flink or Spark file configures: give a stream workload (delivery-lab --list)',
    ]);
  });
});

describe('the DAG reader: small and strict', () => {
  it('a lambda, **base and a DAG( in a comment do not stop it; what they hold is not read', () => {
    const text = [
      '# an old version: DAG("old", schedule="@hourly")',
      'from airflow import DAG',
      'base = load()',
      'with DAG(',
      '    "d",',
      '    schedule="@daily",',
      '    on_failure_callback=lambda ctx: alert(ctx, {"a": 1}),',
      '    default_args={**base, "retries": 2},',
      ') as dag:',
      '    pass',
    ].join('\n');
    const r = imported([{ name: 'd.py', text }]);
    expect(r.keys.map((k) => `${k.line} ${k.key} ${k.status}`)).toEqual([
      '5 dag_id ignored',
      '6 schedule applied',
      '7 on_failure_callback ignored',
      '8 default_args.(computed) ignored',
      '8 default_args.retries applied',
    ]);
    expect(r.keys[3]!.why).toMatch(/^not read: not a literal \(\*\*…\)/);
    expect(r.scenario.batch).toMatchObject({ schedule: 'daily', task: { retries: 2 } });
  });

  it('brackets nested 10,000 deep: no stack overflow, the value not read', () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const r = imported([dagFile(`tags=${deep}`, 'catchup=False')]);
    expect(r.scenario.batch?.catchup).toBe(false);
  });

  it('a DAG call that does not close, and a file with none: refused naming the line', () => {
    expect(
      refused([{ name: 'd.py', text: 'from airflow import DAG\n\nDAG("d", schedule="@daily"\n' }]),
    ).toEqual(['d.py:3: its DAG( … ) does not close: a bracket or a quote is missing']);
    expect(refused([{ name: 'util.py', text: 'def f():\n    return 1\n' }])).toEqual([
      "util.py:1: no DAG(…), with DAG(…) or @dag(…) call: the lab reads a DAG's own arguments",
    ]);
  });
});

describe('a properties file of several models', () => {
  it("beside a model's .sql: only that model's entry is read", () => {
    const props = {
      name: 'schema.yml',
      text: [
        'models:',
        '  - name: orders',
        '    config:',
        '      unique_key: order_id',
        '  - name: events',
        '    config:',
        '      incremental_strategy: delete+insert',
      ].join('\n'),
    };
    const r = imported([props, sqlModel("materialized='incremental'")]);
    expect(r.keys.map((k) => `${k.file}:${k.line} ${k.key}`)).toEqual([
      'schema.yml:7 incremental_strategy',
      'events.sql:3 materialized',
    ]);
    expect(r.scenario.batch?.write).toMatchObject({ strategy: 'delete+insert', uniqueKey: false });
  });
});

describe('a Compare lane', () => {
  it('from a DAG is refused: a batch job’s files open as a scenario of their own', () => {
    const onScreen = findPreset('airflow-retry-append')!.variant.scenario;
    const r = importConfig([example('load_events.py')], {
      scenario: onScreen,
      name: 'the scenario on screen',
    });
    expect(r.ok ? [] : r.errors).toEqual([
      "load_events.py: a dbt model's or an Airflow DAG's settings open as a scenario of their own (Import), not as a lane of the scenario on screen",
    ]);
  });
});

function example(name: 'events_incremental.sql' | 'load_events.py'): ConfigFile {
  return { name, text: name === 'load_events.py' ? dag : model };
}
