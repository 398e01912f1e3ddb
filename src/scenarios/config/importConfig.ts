/**
 * Real configuration files in, a scenario out: Kafka client `.properties`, a Flink `config.yaml`
 * / `flink-conf.yaml` (with the Kafka sink's options) and a Spark query's options (`.properties`
 * or YAML) set their knobs on a library workload, and a report says where every key went. Pure:
 * the CLI (`delivery-lab from-config`) and the page read files and run the result themselves.
 */
import { isMap, isScalar, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import {
  parseScenario,
  whyNeverFires,
  type FaultSpec,
  type Guarantee,
  type ScenarioInput,
} from '../../engine';
import { findPreset } from '..';
import { getKnob } from '../guarantees';
import { claimOf } from '../claim';
import { RECOGNISED, kindOfKey, notModelledWhy, unknownKeyWhy, type ConfigKind } from './catalogue';
import { fitFlinkWorkloadToInterval } from './fitToInterval';
import { parseProperties } from './properties';
import { isSinkSqlFile, readSinkSql, type SqlSetting } from './sinkSql';
import { batchFileKind, importBatchConfig } from './importBatchConfig';
import { markRefused } from './refusedKeys';
// How Import and a Compare lane list a refused key: from here, so that the page's lazy import
// of this module brings it (no chunk of its own).
export { refusedLine } from './refusedKeys';
import { KnobRecorder } from './knobRecorder';

export interface ConfigFile {
  name: string;
  text: string;
}

/** One key of one file, with where it went. */
export interface KeyReport {
  file: string;
  line: number;
  key: string;
  value: string;
  /** applied: set on `path`; ignored: known, not modelled (`why`); unknown: not a key the lab knows (`why` names the key it probably meant); overridden: set again later (`why` says where); refused. */
  status: 'applied' | 'ignored' | 'unknown' | 'overridden' | 'refused';
  path?: string;
  why?: string;
  /**
   * Read from a sink's SQL statement (src/scenarios/config/sinkSql.ts): `key` is its clause
   * (`ON CONFLICT (payment_id) DO NOTHING`) and `value` the value it sets on `path`.
   */
  sql?: true;
}

/** A setting of the workload that no file set. */
export interface KeptKnob {
  key: string;
  path: string;
  value: unknown;
}

/** One knob the files set: its path and the value it counts with (a key set twice: its last). */
interface ConfigSetting {
  path: string;
  value: unknown;
}

/**
 * The scenario the files' keys are set on, in place of a library workload: its workload, faults
 * and pipeline as they are (Compare's lane from files: the scenario on screen). Nothing of its
 * workload changes — no processor of another kind, no sink swapped, no times stretched — so a key
 * that would need that is refused, naming its file and line.
 */
export interface ConfigTarget {
  scenario: ScenarioInput;
  /** Its name in the report ("the scenario on screen"). */
  name: string;
}

export type ConfigImport =
  | {
      ok: true;
      /** The stream processor the files configure, or `batch`: a dbt model or an Airflow DAG. */
      kind: ConfigKind | 'batch';
      /** The library preset whose workload and faults the knobs are set on (or the target's name). */
      base: string;
      scenario: ScenarioInput;
      keys: KeyReport[];
      /** The knobs set, in the order they were set, each path once: `scenario` is the base with these. */
      settings: ConfigSetting[];
      /** The scenario can run: no value is refused. */
      runnable: boolean;
      /** How the workload was timed to the configuration (src/scenarios/config/fitToInterval.ts), if it was. */
      fitted: string | null;
      /**
       * The workload's own settings no file set, under their real keys: they stay as the story has
       * them, which is not always the real default (the lost-ack story's producer has
       * max.in.flight.requests.per.connection 1; Kafka's default is 5).
       */
      kept: KeptKnob[];
      /**
       * The workload's faults these settings keep from ever firing, with why (a lost
       * acknowledgement under acks=0): then its run tests nothing of them — `from-config` says
       * "not tested" from the run itself; the page's notice says it from these.
       */
      cannotFire: { fault: FaultSpec; index: number; why: string }[];
      /**
       * The workload's own table sink, in words, when no file gave the sink's statement (a
       * `.sql` file): it runs as the story has it, which is not your pipeline's statement.
       */
      sinkKept: string | null;
      /**
       * The guarantee the verdict checks (the scenario's `claim`) and where it came from: a
       * configuration file claims none, so it is the workload's unless the caller chose one
       * (`from-config --claim`, Import's notice): docs/cli.md#the-claim-your-files-do-not-make.
       */
      claim: { value: Guarantee; from: 'workload' | 'chosen' };
      /**
       * What the batch files left unset and what that means (dbt's append-only without a
       * unique_key, Airflow 2's and 3's defaults): src/scenarios/config/importBatchConfig.ts.
       */
      notes?: string[];
    }
  | { ok: false; errors: string[] };

/** What the caller chooses beside the files. */
export interface ConfigOptions {
  /** The guarantee the verdict checks, in place of the workload's claim. */
  claim?: Guarantee;
  /**
   * The library workload (`preset` or `preset/variant`) whose workload and faults the files'
   * knobs are set on, in place of the one for the files' processor (`from-config --on`).
   */
  on?: string;
}

/** The workload each processor's configuration is set on: a library story with one fault. */
const BASES: Record<ConfigKind, string> = {
  consumer: 'lost-ack-retry/idempotence-on',
  flink: 'flink-checkpoint-replay/2pc-read-committed',
  spark: 'spark-batch-replay/append',
};

interface RawKey {
  file: string;
  line: number;
  key: string;
  value: string;
}

/** A YAML document's keys, nested maps flattened to dotted names (Flink's config.yaml allows both). */
function yamlKeys(file: ConfigFile): RawKey[] | string {
  const lineCounter = new LineCounter();
  const doc = parseDocument(file.text, { lineCounter, uniqueKeys: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    // The parser's message ends " at line 3, column 1:" before a code frame: the place goes in
    // front, file:line:column, as a scenario file's JSON error (docs/cli.md).
    const at = e.linePos?.[0];
    const message = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return `${file.name}:${at ? `${at.line}:${at.col}` : 1}: ${message}`;
  }
  const out: RawKey[] = [];
  const walk = (node: YamlNode | null | undefined, prefix: string): string | undefined => {
    if (!isMap(node)) return undefined;
    for (const pair of node.items) {
      const k = isScalar(pair.key) ? String(pair.key.value) : undefined;
      const line = lineCounter.linePos((pair.key as YamlNode | null)?.range?.[0] ?? 0).line;
      if (k === undefined) return `${file.name}:${line}: a key must be a plain name`;
      const name = prefix ? `${prefix}.${k}` : k;
      const v = pair.value as YamlNode | null;
      if (isMap(v)) {
        const problem = walk(v, name);
        if (problem) return problem;
      } else if (isScalar(v))
        out.push({ file: file.name, line, key: name, value: String(v.value) });
      else if (v === null) out.push({ file: file.name, line, key: name, value: '' });
      else {
        // A list: of plain values as Flink writes one (`a;b` in its legacy format, a YAML list in
        // config.yaml), else as JSON — a list of maps read "[object Object],[object Object]".
        const json: unknown = v.toJSON();
        const plain = Array.isArray(json) && json.every((x) => x === null || typeof x !== 'object');
        out.push({
          file: file.name,
          line,
          key: name,
          value: plain ? json.join(';') : JSON.stringify(json),
        });
      }
    }
    return undefined;
  };
  if (doc.contents !== null && !isMap(doc.contents))
    return `${file.name}:1: expected "key: value" lines, got a ${doc.contents.constructor.name}`;
  return walk(doc.contents, '') ?? out;
}

function keysOf(file: ConfigFile): RawKey[] | string {
  if (/\.ya?ml$/i.test(file.name)) return yamlKeys(file);
  const parsed = parseProperties(file.text);
  if (!parsed.ok) return `${file.name}:${parsed.line}: ${parsed.message}`;
  return parsed.entries.map((e) => ({ file: file.name, ...e }));
}

const READS =
  "from-config reads Kafka client .properties, a Flink config.yaml or flink-conf.yaml, a Spark query's options and a sink's .sql — or a dbt model's config and an Airflow DAG, a batch job's";

const DBT_IS =
  "the lab reads a dbt model's config (its .sql's {{ config(…) }}, a properties file's models:, dbt_project.yml) onto a batch job's \"batch.write\" (docs/cli.md#batch-files)";

/**
 * Why a file sets nothing at all, or null when one of its keys is a key the lab knows (applied,
 * or known and not modelled). A file none of whose keys the lab knows is no configuration of a
 * Kafka client, a Flink job or a Spark query — a dbt sources file, a scenario (a DAG and a dbt
 * model's files are read before: ./importBatchConfig.ts) — and running the workload untouched would report a guarantee of settings never read
 * (docs/cli.md#your-configuration-in). Kafka, Flink and Spark run past an unknown key; a file of
 * nothing else is refused, naming what it looks like.
 */
function setsNothing(file: ConfigFile, keys: readonly RawKey[]): string | null {
  const known = (k: string) =>
    (ALIASES[k] ?? k) in RECOGNISED ||
    notModelledWhy(k) !== undefined ||
    kindOfKey(k) !== undefined;
  if (keys.some((k) => known(k.key))) return null;
  const text = file.text.replace(/^\uFEFF/, '');
  const first = keys[0]?.line ?? 1;
  const base = file.name.split(/[\\/]/).pop() ?? file.name;
  if (/^\s*[{[]/.test(text))
    return `${file.name}:1: a JSON file, not a configuration the lab reads: a scenario file runs as "delivery-lab ${base}"; ${READS}`;
  // dbt's properties files for what is no model (`sources:`, `seeds:`, `snapshots:`); a model's
  // (`models:`) and dbt_project.yml are read (./importBatchConfig.ts).
  const dbt = keys.find((k) => /^(sources|seeds|snapshots)(\.|$)/.test(k.key));
  if (dbt !== undefined)
    return `${file.name}:${dbt.line}: a dbt properties file (${dbt.key.split('.')[0]}:), not a configuration the lab reads: ${DBT_IS}; ${READS}`;
  if (keys.length === 0)
    return `${file.name}:1: no key at all (an empty file, or only comments); ${READS}`;
  const listed = keys
    .slice(0, 3)
    .map((k) => {
      const meant = / — (did you mean [^?]+\?)$/.exec(unknownKeyWhy(k.key))?.[1];
      return `${k.key} (line ${k.line}${meant ? `; ${meant}` : ''})`;
    })
    .join(', ');
  const more = keys.length > 3 ? `, and ${keys.length - 3} more` : '';
  return `${file.name}:${first}: none of its ${keys.length} keys is one the lab reads, so it would set nothing: ${listed}${more}; ${READS}`;
}

/** A table sink's statement, in words (the story's sink, reported when no `.sql` file gave one). */
const SINK_WORDS: Record<string, string> = {
  insert: 'a plain INSERT (no key: each copy of a record is another row)',
  'on-conflict-do-nothing': 'INSERT … ON CONFLICT DO NOTHING',
  'on-conflict-do-update': 'INSERT … ON CONFLICT DO UPDATE',
  merge: 'MERGE',
};

/** Flink's legacy flink-conf.yaml names the strategy with `restart-strategy` itself. */
const ALIASES: Record<string, string> = { 'restart-strategy': 'restart-strategy.type' };

/** The processor a scenario runs, as the configuration kinds name them. */
function processorKind(s: ScenarioInput): ConfigKind {
  const type = (s.processor as { type?: string } | undefined)?.type;
  return type === 'flink' || type === 'spark' ? type : 'consumer';
}

const KIND_WORDS: Record<ConfigKind, string> = {
  consumer: 'consumer loop',
  flink: 'Flink job',
  spark: 'Spark query',
};

/**
 * Which files are a downstream reader's consumer configuration: a file whose `group.id` (its last
 * value) is the name of one of the scenario's readers. A consumer group is one application —
 * "a unique string that identifies the consumer group this consumer belongs to"
 * (https://kafka.apache.org/documentation/#consumerconfigs_group.id), its members splitting the
 * partitions — so the pipeline's consumer and a reader that copies the whole topic are two
 * groups, and the lab names each reader by its group (docs/cli.md#your-configuration-in).
 */
function readerFiles(raw: readonly RawKey[], s: ScenarioInput): Map<string, number> {
  const names = (s.readers ?? []).map((r) => r.name);
  const groupOf = new Map<string, string>();
  for (const k of raw) if (k.key === 'group.id') groupOf.set(k.file, k.value.trim());
  const out = new Map<string, number>();
  for (const [file, group] of groupOf) {
    const i = names.indexOf(group);
    if (i >= 0) out.set(file, i);
  }
  return out;
}

/**
 * @param target - set the keys on this scenario (its workload, faults and pipeline kept) rather
 *   than on the library workload of the files' processor.
 */
export function importConfig(
  files: readonly ConfigFile[],
  target?: ConfigTarget,
  options: ConfigOptions = {},
): ConfigImport {
  // A dbt model or an Airflow DAG configures a scheduled batch job: a scenario of its own.
  const batch = files.map((f) => ({ f, kind: batchFileKind(f) }));
  const batchFile = batch.find((b) => b.kind !== null);
  if (batchFile) {
    const stream = batch.find((b) => b.kind === null);
    if (stream)
      return {
        ok: false,
        errors: [
          `${batchFile.f.name} is ${batchFile.kind === 'Airflow DAG' ? 'an' : 'a'} ${batchFile.kind}, a batch job's, and ${stream.f.name} a stream pipeline's configuration (Kafka clients, a Flink job, a Spark query, a sink statement): the lab runs them as two scenarios — import the batch files or the stream files, not both`,
        ],
      };
    return importBatchConfig(files, target, options);
  }
  const raw: RawKey[] = [];
  const errors: string[] = [];
  const sql: (SqlSetting & { file: string })[] = [];
  for (const f of files) {
    // The sink's INSERT … ON CONFLICT or MERGE, as the pipeline's code runs it.
    if (isSinkSqlFile(f.name, f.text)) {
      const read = readSinkSql(f.text);
      if (!read.ok) errors.push(`${f.name}:${read.line}: ${read.message}`);
      else if (sql.length > 0)
        errors.push(
          `${f.name}:1: a second sink statement (${sql[0]!.file} gave one): the workload has one table sink`,
        );
      else sql.push(...read.settings.map((x) => ({ ...x, file: f.name })));
      continue;
    }
    const keys = keysOf(f);
    const nothing = typeof keys === 'string' ? keys : setsNothing(f, keys);
    if (nothing !== null) errors.push(nothing);
    else if (typeof keys !== 'string')
      raw.push(...keys.map((k) => ({ ...k, key: ALIASES[k.key] ?? k.key })));
  }
  if (errors.length > 0) return { ok: false, errors };
  const kinds = new Set(raw.map((k) => kindOfKey(k.key)).filter((k) => k && k !== 'consumer'));
  if (kinds.size > 1)
    return {
      ok: false,
      errors: [
        'the files configure both a Flink job and a Spark query: import one processor at a time',
      ],
    };
  const filesKind: ConfigKind = kinds.has('flink')
    ? 'flink'
    : kinds.has('spark')
      ? 'spark'
      : 'consumer';
  // The workload chosen (`--on`): its own processor, which the files' keys must be for.
  const chosen = options.on === undefined ? undefined : findPreset(options.on);
  if (options.on !== undefined && !chosen)
    return { ok: false, errors: [`--on "${options.on}": no library workload of that name`] };
  if (chosen?.variant.scenario.batch !== undefined)
    return {
      ok: false,
      errors: [
        `--on "${options.on}": a scheduled batch job, which no client, Flink or Spark file configures: give a stream workload (delivery-lab --list)`,
      ],
    };
  const onto = target?.scenario ?? chosen?.variant.scenario;
  const ontoName = target?.name ?? (chosen ? `--on ${options.on}` : '');
  const kind = onto ? processorKind(onto) : filesKind;
  // A Flink job's or a Spark query's keys do not make the chosen pipeline one; a producer's or
  // a broker's keys fit any.
  const first = raw.find((k) => kindOfKey(k.key) === filesKind);
  if (filesKind !== kind && first)
    return {
      ok: false,
      errors: [
        `${first.file}:${first.line}: ${first.key}: a ${KIND_WORDS[filesKind]}'s key, and ${ontoName} runs a ${KIND_WORDS[kind]}: give its own processor's configuration`,
      ],
    };
  const baseRef = chosen ? `${chosen.preset.id}/${chosen.variant.id}` : BASES[kind];
  const base = target ? target.scenario : findPreset(baseRef)!.variant.scenario;
  const scenario: ScenarioInput = structuredClone(base);
  if (!target) {
    delete (scenario as { expect?: unknown }).expect;
    scenario.name = `${files.map((f) => f.name.split(/[\\/]/).pop()).join(' + ')} on "${findPreset(baseRef)!.preset.title}"`;
  }
  // The claim the verdict checks: the caller's, else the workload's (the files claim none).
  if (options.claim !== undefined) scenario.claim = options.claim;
  const keys: KeyReport[] = [];
  const byPath = new Map<string, KeyReport>();
  // The knobs set, by path, in the order of their last setting.
  const knobs = new KnobRecorder(scenario);
  const readers = readerFiles(raw, knobs.scenario);
  for (const k of raw) {
    const reader = readers.get(k.file);
    if (reader !== undefined) {
      // A downstream reader's own consumer: its group names it, its isolation.level is its own.
      const name = knobs.scenario.readers![reader]!.name;
      if (k.key === 'group.id') {
        keys.push({
          ...k,
          status: 'applied',
          path: `readers.${reader}`,
          why: `names reader ${name}: this file is its consumer's configuration`,
        });
        continue;
      }
      if (k.key !== 'isolation.level') {
        keys.push({
          ...k,
          status: 'ignored',
          why: `reader ${name}'s file (group.id=${name}): a downstream reader models isolation.level alone — it reads its topic from its start and commits no offsets`,
        });
        continue;
      }
    }
    const rule =
      reader === undefined
        ? RECOGNISED[k.key]
        : { ...RECOGNISED[k.key]!, path: `readers.${reader}.isolation.level`, kind: undefined };
    if (
      rule &&
      (rule.kind === undefined ||
        rule.kind === kind ||
        (rule.kind === 'consumer' && kind === 'consumer'))
    ) {
      const converted = rule.convert(k.value);
      if ('error' in converted) {
        errors.push(`${k.file}:${k.line}: ${k.key}: ${converted.error}`);
        continue;
      }
      knobs.set(rule.path, converted.value);
      // java.util.Properties#load keeps a key's last value (each line is a put into the table:
      // https://docs.oracle.com/en/java/javase/17/docs/api/java.base/java/util/Properties.html#load(java.io.Reader)),
      // and files given later are read over earlier ones: the value set before sets nothing.
      const before = byPath.get(rule.path);
      if (before) {
        before.status = 'overridden';
        before.why = `set again at ${k.file}:${k.line} (${k.key}=${k.value}): the last value counts`;
      }
      const report: KeyReport = { ...k, status: 'applied', path: rule.path };
      keys.push(report);
      byPath.set(rule.path, report);
      continue;
    }
    const why = rule
      ? `a ${KIND_WORDS[rule.kind!]}'s key: this configuration runs a ${KIND_WORDS[kind]}`
      : notModelledWhy(k.key);
    keys.push({ ...k, status: why ? 'ignored' : 'unknown', why: why ?? unknownKeyWhy(k.key) });
  }
  if (sql.length > 0) {
    // A Flink job with a statement writes to PostgreSQL through Flink's JDBC sink
    // (JdbcSink.sink: at-least-once, the statements since the last checkpoint run again after a
    // restore, docs/semantics/flink.md#sink-flush-timing) in place of the workload's KafkaSink —
    // and of its reader of that topic. Unless the files configure the KafkaSink: then which one?
    const kafkaKey = keys.find((k) => k.status === 'applied' && k.path?.startsWith('sink.'));
    if (kind === 'flink' && knobs.scenario.sink?.type === 'kafka' && !target) {
      if (kafkaKey)
        errors.push(
          `${sql[0]!.file}:${sql[0]!.line}: a sink statement makes the Flink job write to PostgreSQL (its JDBC sink), and ${kafkaKey.file}:${kafkaKey.line} (${kafkaKey.key}) configures its KafkaSink: give one of the two`,
        );
      else if ([...knobs.paths()].some((p) => p.startsWith('readers.'))) {
        const readerKey = keys.find(
          (k) => k.status === 'applied' && k.path?.startsWith('readers.'),
        )!;
        errors.push(
          `${sql[0]!.file}:${sql[0]!.line}: a sink statement makes the Flink job write to PostgreSQL (its JDBC sink), and ${readerKey.file}:${readerKey.line} (${readerKey.key}=${readerKey.value}) configures a reader of its KafkaSink's topic: give one of the two`,
        );
      } else knobs.scenario = { ...knobs.scenario, sink: { type: 'table' }, readers: [] };
    }
    const sink = (knobs.scenario.sink ?? { type: 'table' }) as { type: string };
    if (errors.length > 0) {
      // Refused above.
    } else if (sink.type !== 'table')
      errors.push(
        `${sql[0]!.file}:${sql[0]!.line}: a sink statement sets a table sink (PostgreSQL); ${target ? `${target.name}'s ${KIND_WORDS[kind]}` : `this ${KIND_WORDS[kind]}'s workload (${baseRef})`} writes to a ${sink.type} sink${kind === 'spark' ? ': a query writes to a database from foreachBatch (format=foreachBatch)' : ''}`,
      );
    else
      for (const x of sql) {
        knobs.set(x.path, x.value);
        const report: KeyReport = {
          file: x.file,
          line: x.line,
          key: x.clause,
          value: typeof x.value === 'string' ? x.value : JSON.stringify(x.value),
          status: 'applied',
          path: x.path,
          sql: true,
          ...(x.why ? { why: x.why } : {}),
        };
        keys.push(report);
        // A value the scenario refuses (a column name no identifier) names this line.
        byPath.set(x.path, report);
      }
  }
  if (errors.length > 0) return { ok: false, errors };
  // What the story itself sets on a key this processor reads, where no file said otherwise.
  const kept: KeptKnob[] = [];
  for (const [key, rule] of Object.entries(RECOGNISED)) {
    if (rule.kind !== undefined && rule.kind !== kind) continue;
    if (byPath.has(rule.path)) continue;
    // The KafkaSink's keys, once a statement replaced it with the JDBC sink: nothing to keep.
    if (sql.length > 0 && rule.path.startsWith('sink.')) continue;
    const value = getKnob(base, rule.path);
    if (value === undefined || (typeof value === 'object' && value !== null)) continue;
    kept.push({ key, path: rule.path, value });
  }
  // The sink the story writes to, where no statement file gave the pipeline's: said, as a kept
  // key is, so that its duplicates are not taken for the files' (docs/cli.md).
  const sinkNow = knobs.scenario.sink as
    { type?: string; statement?: string; name?: string } | undefined;
  const sinkKept =
    kind === 'consumer' && sql.length === 0 && sinkNow?.type === 'table'
      ? `${SINK_WORDS[sinkNow.statement ?? 'insert'] ?? sinkNow.statement} into table ${sinkNow.name ?? 'sink'} — give your INSERT … ON CONFLICT or MERGE as a .sql file to run with yours`
      : null;
  // A target's workload is its own: its times stay (Compare's lanes share one workload).
  const fit = target ? null : fitFlinkWorkloadToInterval(knobs.scenario);
  if (fit) knobs.scenario = fit.scenario;
  // Values Kafka or Flink would refuse, in the words the lab's validation already uses.
  const parsed = parseScenario(knobs.scenario);
  if (!parsed.ok) markRefused(parsed.issues, byPath, keys);
  return {
    ok: true,
    kind,
    base: target?.name ?? baseRef,
    scenario: knobs.scenario,
    keys,
    settings: knobs.settings(),
    runnable: parsed.ok,
    fitted: fit?.note ?? null,
    kept,
    sinkKept,
    claim: {
      value: claimOf(knobs.scenario),
      from: options.claim === undefined ? 'workload' : 'chosen',
    },
    cannotFire: parsed.ok
      ? parsed.scenario.faults.flatMap((fault, index) => {
          const why = whyNeverFires(parsed.scenario, fault);
          return why === null ? [] : [{ fault, index, why }];
        })
      : [],
  };
}
