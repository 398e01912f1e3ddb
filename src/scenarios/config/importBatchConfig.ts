/**
 * An analytics engineer's batch files in, a batch scenario out: a dbt incremental model's
 * settings (its `{{ config(…) }}`, a properties file, dbt_project.yml: ./dbtModel.ts) and an
 * Airflow DAG's literal scheduling settings (./airflowDag.ts) set on a library batch workload —
 * `batch.write` (mode `dbt-incremental`, `uniqueKey`, `strategy`), `batch.dedupeKey`,
 * `batch.schedule`, `batch.catchup`, `batch.startDate`, `batch.task.retries` and `retryDelayMs`
 * (docs/semantics/batch.md, docs/cli.md#batch-files). Each setting is reported with its file and
 * line: applied, read and not modelled, not read (not a literal), overridden, or refused.
 */
import {
  CONTENT_COLUMN_SQL,
  dateOf,
  dayNumber,
  notOneOf,
  parseScenario,
  type ScenarioInput,
} from '../../engine';
import { findPreset } from '..';
import { setKnob } from '../guarantees';
import { claimOf } from '../claim';
import type {
  ConfigFile,
  ConfigImport,
  ConfigOptions,
  ConfigTarget,
  KeyReport,
} from './importConfig';
import {
  isDbtModelSql,
  isDbtYaml,
  modelPlace,
  readDbtModelSql,
  readDbtYaml,
  type DbtSetting,
  type DbtValue,
} from './dbtModel';
import { isAirflowDag, readAirflowDag, type DagSetting } from './airflowDag';
import { markRefused } from './refusedKeys';
import { KnobRecorder } from './knobRecorder';
import type { PyValue } from './callArguments';

export type BatchFileKind = 'dbt model' | 'dbt properties file' | 'Airflow DAG';

/** Which batch file `f` is, or null for a stream configuration. */
export function batchFileKind(f: ConfigFile): BatchFileKind | null {
  // A dbt model is a SELECT under Jinja, not the statement a pipeline runs per record.
  if (isDbtModelSql(f.text) && !/\.(properties|ya?ml|py|json)$/i.test(f.name)) return 'dbt model';
  if (isDbtYaml(f.name, f.text)) return 'dbt properties file';
  if (isAirflowDag(f.name, f.text)) return 'Airflow DAG';
  return null;
}

/** The workload each kind of file is set on when no `--on` names one. */
const BASE_FOR_DBT = 'dbt-incremental-unique-key/no-unique-key';
const BASE_FOR_AIRFLOW = 'airflow-retry-append/append';

/** What one setting does to the scenario. */
type Mapped =
  | { path: string; value: unknown; also?: { path: string; value: unknown }[]; why?: string }
  | { ignore: string }
  | { refuse: string };

const NOT_MODELLED = 'read, not modelled';

const notLiteral = (text: string): Mapped => ({
  ignore: `not read: not a literal (${text}): the lab reads a value written in the file, never one computed when it runs`,
});

const quoted = (v: DbtValue | undefined) =>
  typeof v === 'string' ? `"${v}"` : v === undefined ? '(not a literal)' : JSON.stringify(v);

/** dbt's strategies (https://docs.getdbt.com/docs/build/incremental-strategy) the lab runs. */
const STRATEGIES = ['append', 'merge', 'delete+insert', 'insert_overwrite'] as const;

/** The lab's target columns by their SQL names (event_time → time). */
const COLUMN_OF: Record<string, string> = Object.fromEntries(
  Object.entries(CONTENT_COLUMN_SQL).map(([lab, sql]) => [sql, lab]),
);

/** A dbt config the lab reads no further, with why it changes nothing here. */
const DBT_NOT_MODELLED: Record<string, string> = {
  on_schema_change: "the lab's target keeps its columns",
  incremental_predicates: "the lab's MERGE and DELETE match against the whole target",
  merge_update_columns: 'a matched row is replaced whole',
  merge_exclude_columns: 'a matched row is replaced whole',
  full_refresh: 'every run here is an incremental run; a full refresh rebuilds the table',
  event_time: "microbatch's column: the lab reads the run's window (batch.window)",
};

/** A `unique_key`: dbt's column or list of columns, as the lab's key (batch.dedupeKey). */
function uniqueKeyOf(v: DbtValue): Mapped {
  const columns = Array.isArray(v) ? v : [v];
  if (v === null || (Array.isArray(v) && v.length === 0))
    return { path: 'batch.write.uniqueKey', value: false };
  const names = columns.map((c) => (typeof c === 'string' ? c.trim() : c));
  const bad = names.find((c) => typeof c !== 'string' || !/^\w+$/.test(c));
  const takes = `a column of the lab's table (event_id, ${Object.values(CONTENT_COLUMN_SQL).join(', ')}) or a list of them`;
  if (bad !== undefined)
    return { refuse: `unique_key: ${quoted(bad as DbtValue)} is no column name: ${takes}` };
  const keyed = (key: unknown, why: string) => ({
    path: 'batch.write.uniqueKey',
    value: true,
    also: [{ path: 'batch.dedupeKey', value: key }],
    why: `${why} → batch.dedupeKey = ${JSON.stringify(key)}`,
  });
  const lower = (names as string[]).map((c) => c.toLowerCase());
  if (lower.includes('event_id')) return keyed('event-id', 'the event id');
  const content = lower.map((c) => COLUMN_OF[c] ?? (c in CONTENT_COLUMN_SQL ? c : undefined));
  if (content.every((c) => c !== undefined))
    return keyed(content, 'content columns: two events with equal content are one row');
  if (lower.length === 1)
    return keyed(
      'event-id',
      `not a column of the lab's table: read as the business id its rows carry, event_id`,
    );
  const unknown = (names as string[])[content.indexOf(undefined)]!;
  return { refuse: `unique_key: "${unknown}" is no column of the lab's table: ${takes}` };
}

/** `partition_by`: a column name, BigQuery's `{field: …}` or a list of columns. */
function partitionByOf(v: DbtValue): Mapped {
  const fields = (Array.isArray(v) ? v : [v]).map((f) =>
    f !== null && typeof f === 'object' && !Array.isArray(f) ? f.field : f,
  );
  if (fields.some((f) => typeof f === 'string' && f.toLowerCase() === 'event_date'))
    return {
      path: 'batch.write.partitionBy',
      value: 'event-date',
      why: "each row goes to its own event date's partition",
    };
  if (fields.some((f) => typeof f === 'string' && f.toLowerCase() === 'ds'))
    return {
      ignore: `${NOT_MODELLED}: ds is the lab's partition column already; which date it holds is batch.write.partitionBy, the workload's kept`,
    };
  return {
    ignore: `${NOT_MODELLED}: the lab's target is partitioned by ds (the run's date) or event_date, not ${quoted(v)}`,
  };
}

function mapDbt(s: DbtSetting): Mapped {
  if (s.elsewhere)
    return {
      ignore: `not this model's: ${s.elsewhere} (https://docs.getdbt.com/reference/resource-configs/resource-path)`,
    };
  const v = s.value;
  if (v === undefined && s.key in { materialized: 1, unique_key: 1, incremental_strategy: 1 })
    return notLiteral(s.text);
  switch (s.key) {
    case 'materialized':
      return v === 'incremental'
        ? { path: 'batch.write.mode', value: 'dbt-incremental' }
        : {
            refuse: `materialized: ${notOneOf(['"incremental"'], quoted(v), "the lab runs an incremental model's runs; a table, view or snapshot is built another way")}`,
          };
    case 'unique_key':
      return uniqueKeyOf(v!);
    case 'incremental_strategy':
      return typeof v === 'string' && (STRATEGIES as readonly string[]).includes(v)
        ? { path: 'batch.write.strategy', value: v }
        : {
            refuse: `incremental_strategy: ${notOneOf(
              STRATEGIES.map((x) => `"${x}"`),
              quoted(v),
              v === 'microbatch'
                ? "dbt's microbatch runs a model in batches of its event_time: not modelled"
                : 'https://docs.getdbt.com/docs/build/incremental-strategy',
            )}`,
          };
    case 'partition_by':
      return v === undefined ? notLiteral(s.text) : partitionByOf(v);
    default:
      return {
        ignore: `${NOT_MODELLED}: ${DBT_NOT_MODELLED[s.key] ?? 'it does not change which rows a run writes'}`,
      };
  }
}

/** `timedelta(…)`'s milliseconds (its positional order: days, seconds, microseconds, milliseconds, minutes, hours, weeks). */
function timedeltaMs(v: PyValue): number | null {
  if (v.kind !== 'call' || !/^(datetime\.)?timedelta$/.test(v.name)) return null;
  const unit: Record<string, number> = {
    days: 86_400_000,
    seconds: 1000,
    microseconds: 0.001,
    milliseconds: 1,
    minutes: 60_000,
    hours: 3_600_000,
    weeks: 604_800_000,
  };
  const order = Object.keys(unit);
  let ms = 0;
  for (const [i, a] of v.args.entries()) {
    const name = a.name ?? order[i];
    if (name === undefined || !(name in unit) || a.value.kind !== 'num') return null;
    ms += a.value.value * unit[name]!;
  }
  return Math.round(ms);
}

/** `datetime(2024, 3, 10)`, `pendulum.datetime(2024, 3, 10, tz="UTC")`: its date, and a time of day if any. */
function dateLiteral(v: PyValue): { date: string; time: boolean } | null {
  if (v.kind !== 'call' || !/^(datetime\.|pendulum\.)?datetime$/.test(v.name)) return null;
  const parts = v.args.filter((a) => a.name === undefined).map((a) => a.value);
  if (parts.length < 3 || parts.some((p) => p.kind !== 'num' || !Number.isInteger(p.value)))
    return null;
  const [y, m, d, ...rest] = parts.map((p) => (p as { value: number }).value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { date: `${y}-${pad(m!)}-${pad(d!)}`, time: rest.some((n) => n !== 0) };
}

const SCHEDULES = ['"@daily"', '"@hourly"', 'timedelta(days=1)', 'timedelta(hours=1)'];

function scheduleOf(v: PyValue, text: string): Mapped {
  const period: Record<string, 'daily' | 'hourly'> = {
    '@daily': 'daily',
    '0 0 * * *': 'daily',
    '@hourly': 'hourly',
    '0 * * * *': 'hourly',
  };
  const why =
    "the lab's scheduler runs one data interval a day or an hour (docs/semantics/batch.md#the-scheduler)";
  if (v.kind === 'str')
    return v.value.trim() in period
      ? { path: 'batch.schedule', value: period[v.value.trim()] }
      : { refuse: `schedule: ${notOneOf(SCHEDULES, `"${v.value}"`, why)}` };
  if (v.kind === 'none')
    return {
      refuse: `schedule: ${notOneOf(SCHEDULES, 'None', 'None schedules no run: the DAG runs only when triggered')}`,
    };
  const ms = timedeltaMs(v);
  if (ms === 86_400_000) return { path: 'batch.schedule', value: 'daily' };
  if (ms === 3_600_000) return { path: 'batch.schedule', value: 'hourly' };
  if (ms !== null) return { refuse: `schedule: ${notOneOf(SCHEDULES, text, why)}` };
  return notLiteral(text);
}

/** The DAG's arguments the lab reads no further, with why. */
const DAG_NOT_MODELLED: Record<string, string> = {
  end_date: 'the workload has its own last logical date (batch.periods)',
  max_active_runs: "the lab's backfill runs one date at a time, beside the scheduled runs",
  'default_args.retry_exponential_backoff': 'every retry waits batch.task.retryDelayMs',
  'default_args.max_retry_delay': 'every retry waits batch.task.retryDelayMs',
};

/** Settings Airflow reads from the DAG's own arguments only: in default_args they reach the tasks. */
const DAG_ONLY = new Set(['schedule', 'schedule_interval', 'catchup']);

function mapDag(s: DagSetting): Mapped {
  const v = s.value;
  if (s.task) {
    // The lab writes as the workload's batch.write says: a task's statement is not parsed.
    if (s.key === `${s.task.id}.sql`)
      return {
        ignore:
          "not read: the lab does not parse a task's SQL — the job writes as the workload's batch.write says, whatever this statement does; to run your write, choose a workload that writes as it does (--on airflow-retry-append/overwrite or …/merge) or give the dbt model it runs",
      };
    if (s.task.tasks > 1)
      return {
        ignore: `${NOT_MODELLED}: the lab runs the DAG's one load task, and this file declares ${s.task.tasks} tasks: give the load's ${s.key.slice(s.task.id.length + 1)} in default_args`,
      };
    return mapDag({
      ...s,
      key: `default_args.${s.key.slice(s.task.id.length + 1)}`,
      task: undefined,
    });
  }
  const inArgs = s.key.startsWith('default_args.');
  const key = inArgs ? s.key.slice('default_args.'.length) : s.key;
  if (inArgs && DAG_ONLY.has(key))
    return {
      ignore: `${NOT_MODELLED}: default_args are passed to each task's operator, not to the DAG (https://airflow.apache.org/docs/apache-airflow/stable/core-concepts/dags.html#default-arguments): give ${key} to DAG(…) itself`,
    };
  switch (inArgs && key === 'start_date' ? key : s.key) {
    case 'schedule':
    case 'schedule_interval': {
      const m = scheduleOf(v, s.text);
      return 'path' in m && s.key === 'schedule_interval'
        ? { ...m, why: "Airflow 2's name for schedule (deprecated since 2.4, removed in 3)" }
        : m;
    }
    case 'default_args':
      // A name whose one module-level `{…}` the reader could not find, or a call: computed.
      return notLiteral(s.text);
    case 'catchup':
      return v.kind === 'bool' ? { path: 'batch.catchup', value: v.value } : notLiteral(s.text);
    case 'start_date': {
      const d = dateLiteral(v);
      if (!d) return notLiteral(s.text);
      return {
        path: 'batch.startDate',
        value: d.date,
        ...(d.time
          ? { why: "its time of day not modelled: the lab's intervals start at midnight" }
          : {}),
      };
    }
    case 'default_args.retries':
      return v.kind === 'num' && Number.isInteger(v.value)
        ? { path: 'batch.task.retries', value: v.value }
        : notLiteral(s.text);
    case 'default_args.retry_delay': {
      // BaseOperator takes a timedelta, or a number of seconds.
      const ms = v.kind === 'num' ? Math.round(v.value * 1000) : timedeltaMs(v);
      return ms === null ? notLiteral(s.text) : { path: 'batch.task.retryDelayMs', value: ms };
    }
    default:
      // A positional argument past dag_id, or `**base` in default_args: computed.
      if (s.key === '(positional)' || key === '(computed)') return notLiteral(s.text);
      return {
        ignore: `${NOT_MODELLED}: ${DAG_NOT_MODELLED[s.key] ?? 'it does not change which rows a run writes'}`,
      };
  }
}

/** A setting read, whatever its file. */
interface Read {
  file: string;
  line: number;
  key: string;
  text: string;
  rank: number;
  mapped: Mapped;
}

/** The workload's source rows moved to the DAG's start_date: the story keeps its logical dates. */
function shiftSource(s: ScenarioInput, from: string, to: string): ScenarioInput {
  const days = dayNumber(to) - dayNumber(from);
  if (days === 0 || !s.batch) return s;
  return {
    ...s,
    batch: {
      ...s.batch,
      source: s.batch.source.map((r) => ({ ...r, date: dateOf(dayNumber(r.date) + days) })),
    },
  };
}

export function importBatchConfig(
  files: readonly ConfigFile[],
  target: ConfigTarget | undefined,
  options: ConfigOptions,
): ConfigImport {
  const errors: string[] = [];
  const reads: Read[] = [];
  const kinds = new Set<BatchFileKind>();
  // A properties file describes many models: the ones whose .sql is given, when it names them.
  const places = files
    .filter((f) => batchFileKind(f) === 'dbt model')
    .map((f) => modelPlace(f.name));
  const models = places.map((m) => m.name);
  for (const f of files) {
    const kind = batchFileKind(f)!;
    kinds.add(kind);
    const r =
      kind === 'dbt model'
        ? readDbtModelSql(f.name, f.text)
        : kind === 'dbt properties file'
          ? readDbtYaml(f.name, f.text, models, places[0])
          : readAirflowDag(f.name, f.text);
    if (!r.ok) {
      errors.push(r.error);
      continue;
    }
    for (const s of r.settings as (DbtSetting | DagSetting)[]) {
      const isDag = kind === 'Airflow DAG';
      const mapped = isDag ? mapDag(s as DagSetting) : mapDbt(s as DbtSetting);
      // A DAG's own argument over its default_args (the DAG's start_date wins); a task's own
      // retries over both (what the operator is given wins over default_args).
      const rank = isDag
        ? (s as DagSetting).task
          ? 2
          : s.key.startsWith('default_args.')
            ? 0
            : 1
        : (s as DbtSetting).rank;
      reads.push({ file: s.file, line: s.line, key: s.key, text: s.text, rank, mapped });
    }
  }
  for (const r of reads)
    if ('refuse' in r.mapped) errors.push(`${r.file}:${r.line}: ${r.mapped.refuse}`);
  const hasDbt = kinds.has('dbt model') || kinds.has('dbt properties file');
  const hasDag = kinds.has('Airflow DAG');
  const chosen = options.on === undefined ? undefined : findPreset(options.on);
  if (options.on !== undefined && !chosen)
    errors.push(`--on "${options.on}": no library workload of that name`);
  else if (chosen && chosen.variant.scenario.batch === undefined)
    errors.push(
      `--on "${options.on}": a stream pipeline, which no dbt model or Airflow DAG configures: give a batch workload (delivery-lab --list)`,
    );
  // Compare's lane from files sets stream knobs on the scenario on screen; a batch job's files
  // open as a scenario of their own (Import, from-config).
  if (target)
    errors.push(
      `${files[0]!.name}: a dbt model's or an Airflow DAG's settings open as a scenario of their own (Import), not as a lane of ${target.name}`,
    );
  if (errors.length > 0) return { ok: false, errors };

  const baseRef = chosen
    ? `${chosen.preset.id}/${chosen.variant.id}`
    : hasDbt
      ? BASE_FOR_DBT
      : BASE_FOR_AIRFLOW;
  const base = findPreset(baseRef)!.variant.scenario;
  const scenario: ScenarioInput = structuredClone(base);
  delete (scenario as { expect?: unknown }).expect;
  scenario.name = `${files.map((f) => f.name.split(/[\\/]/).pop()).join(' + ')} on "${findPreset(baseRef)!.preset.title}"`;
  if (options.claim !== undefined) scenario.claim = options.claim;

  // Per path, the setting that counts: the most specific, and of equals the last read.
  const winner = new Map<string, Read>();
  for (const r of reads)
    if ('path' in r.mapped) {
      const before = winner.get(r.mapped.path);
      if (!before || r.rank >= before.rank) winner.set(r.mapped.path, r);
    }
  const keys: KeyReport[] = [];
  const byPath = new Map<string, KeyReport>();
  const knobs = new KnobRecorder(scenario);
  const read = (key: string) => reads.some((r) => r.key === key || r.key.endsWith(`.${key}`));
  for (const r of reads) {
    const k = { file: r.file, line: r.line, key: r.key, value: r.text };
    const m = r.mapped;
    if ('ignore' in m) keys.push({ ...k, status: 'ignored', why: m.ignore });
    else if ('path' in m) {
      const win = winner.get(m.path)!;
      if (win !== r) {
        keys.push({
          ...k,
          status: 'overridden',
          why: `set at ${win.file}:${win.line} (${win.key}=${win.text})${win.rank > r.rank ? ', the more specific' : ', read later'}: that one counts`,
        });
        continue;
      }
      knobs.set(m.path, m.value);
      for (const a of m.also ?? []) knobs.set(a.path, a.value);
      const report: KeyReport = {
        ...k,
        status: 'applied',
        path: m.path,
        ...(m.why ? { why: m.why } : {}),
      };
      keys.push(report);
      byPath.set(m.path, report);
      for (const a of m.also ?? []) byPath.set(a.path, report);
    }
  }
  const notes: string[] = [];
  const batch = () => knobs.scenario.batch!;
  if (hasDbt) {
    if (!knobs.has('batch.write.mode')) {
      knobs.set('batch.write.mode', 'dbt-incremental');
      notes.push(
        'materialized not given: read as incremental, the materialization unique_key and incremental_strategy configure (→ batch.write.mode = dbt-incremental)',
      );
    }
    if (!read('unique_key')) {
      knobs.set('batch.write.uniqueKey', false);
      notes.push(
        'unique_key not given: batch.write.uniqueKey = false — "Not specifying a unique_key will result in append-only behavior" (https://docs.getdbt.com/docs/build/incremental-models)',
      );
    }
    if (!read('incremental_strategy'))
      notes.push(
        `incremental_strategy not given: dbt takes the adapter's default (https://docs.getdbt.com/docs/build/incremental-strategy); the workload's "${batch().write?.strategy ?? 'merge'}" kept — give it to run with yours`,
      );
  }
  if (hasDag) {
    if (!read('schedule') && !read('schedule_interval'))
      notes.push(
        `schedule not given: Airflow 2 runs the DAG daily (its default, timedelta(days=1)), Airflow 3 not at all (its default is None); the workload's "${batch().schedule ?? 'daily'}" kept`,
      );
    if (!read('catchup'))
      notes.push(
        `catchup not given: Airflow 2's [scheduler] catchup_by_default is True, Airflow 3's False (docs/semantics/batch.md#the-scheduler); the workload's ${String(batch().catchup ?? true)} kept`,
      );
    if (!read('retries'))
      notes.push(
        `retries not given: the workload's ${batch().task?.retries ?? 0} kept (Airflow's [core] default_task_retries is 0)`,
      );
    if (!read('retry_delay'))
      notes.push(
        `retry_delay not given: the workload's ${batch().task?.retryDelayMs ?? 300_000} ms kept (Airflow's [core] default_task_retry_delay is 300 s)`,
      );
  }
  // The workload's rows move with the start date, so that its story happens on its logical dates.
  let fitted: string | null = null;
  const startDate = knobs.get('batch.startDate');
  const baseStart = base.batch?.startDate ?? '2024-03-10';
  if (typeof startDate === 'string' && startDate !== baseStart) {
    const ok = parseScenario(setKnob(knobs.scenario, 'batch.startDate', baseStart)).ok;
    if (ok && /^\d{4}-\d{2}-\d{2}$/.test(startDate) && dateOf(dayNumber(startDate)) === startDate) {
      knobs.scenario = shiftSource(knobs.scenario, baseStart, startDate);
      fitted = `the workload's source rows moved from ${baseStart} to your start_date ${startDate} (${dayNumber(startDate) - dayNumber(baseStart)} days), so that its story falls on the same logical dates`;
    }
  }
  const parsed = parseScenario(knobs.scenario);
  if (!parsed.ok) markRefused(parsed.issues, byPath, keys);
  return {
    ok: true,
    kind: 'batch',
    base: baseRef,
    scenario: knobs.scenario,
    keys,
    settings: knobs.settings(),
    runnable: parsed.ok,
    fitted,
    kept: [],
    notes,
    cannotFire: [],
    sinkKept: null,
    claim: {
      value: claimOf(knobs.scenario),
      from: options.claim === undefined ? 'workload' : 'chosen',
    },
  };
}
