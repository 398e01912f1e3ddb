/**
 * Validation problems in the lab's words: the `{ path, message }` shape, a zod schema's issues
 * reworded ("required (a string)", "at most 7 days (604,800,000 ms)", unknown keys named by their
 * own path), and issues as the lines the CLI and the page print.
 */
import { misspellingBound, nearest } from '../core/editDistance';
import type { z } from 'zod';
import { LIMITS } from './limits';
import { clipEcho, echoValue, notOneOf, numberWords, orList } from './echo';
import { groupDigits } from '../groupDigits';
import { jsonPathLines, lineOfPath } from './pathLines';

/** One validation problem. `path` is dotted (`producer.acks`, `faults.0.match.event`); '' is the root. */
export interface Issue {
  path: string;
  message: string;
}

/** A dotted path; a key from the input (a record's, an unknown one) is clipped as echoes are. */
export function pathOf(path: readonly PropertyKey[]): string {
  return path.map((p) => clipEcho(String(p))).join('.');
}

/**
 * An unknown key as its message names it: quoted, or — when the path before the message already
 * shows it clipped — by its length, so the line echoes the input once.
 */
function keyEcho(key: string): string {
  return clipEcho(key) === key ? `"${key}"` : `(${groupDigits(key.length)} characters)`;
}

/** Field names that hold a time (in virtual milliseconds). */
const TIME_KEY = /(\.ms|Ms|interval|timeout|delay)$/;

const NOT_MODELLED = 'a real setting this lab does not model (it changes no delivery outcome here)';

/**
 * Real config names an engineer may copy from a working setup that the scenario format leaves
 * out on purpose: refused like any unknown key (nothing is silently ignored), but not called
 * "misspelt".
 */
const UNMODELLED: Record<string, string> = {
  ...Object.fromEntries(
    [
      // Kafka clients
      'bootstrap.servers',
      'client.id',
      'key.serializer',
      'value.serializer',
      'key.deserializer',
      'value.deserializer',
      'compression.type',
      'buffer.memory',
      'max.block.ms',
      'max.request.size',
      'partitioner.class',
      'interceptor.classes',
      'metadata.max.age.ms',
      'send.buffer.bytes',
      'receive.buffer.bytes',
      'security.protocol',
      'heartbeat.interval.ms',
      'fetch.min.bytes',
      'fetch.max.bytes',
      'fetch.max.wait.ms',
      'max.partition.fetch.bytes',
      'partition.assignment.strategy',
      // Flink
      'state.backend',
      'state.backend.type',
      'state.checkpoints.dir',
      'execution.checkpointing.min-pause',
      'execution.checkpointing.max-concurrent-checkpoints',
      'parallelism.default',
    ].map((k) => [k, NOT_MODELLED]),
  ),
  'group.instance.id':
    'not a field: every member is static here, and its group.instance.id is the instance name (consumer-0, consumer-1, …)',
  // Airflow's DAG arguments a batch job does not model (docs/semantics/batch.md).
  max_active_runs:
    'not modelled: runs that are due start at once (docs/semantics/batch.md, "What is not modelled")',
  depends_on_past:
    'not modelled: one task per run, no dependency between runs (docs/semantics/batch.md, "What is not modelled")',
  retry_exponential_backoff:
    'not modelled: every retry waits batch.task.retryDelayMs (docs/semantics/batch.md, "The scheduler")',
  max_retry_delay:
    'not modelled: every retry waits batch.task.retryDelayMs (docs/semantics/batch.md, "The scheduler")',
  execution_timeout:
    'not modelled: an attempt reads for batch.task.readMs, then writes a row every batch.task.rowMs',
  end_date: 'not a field: the last logical date is startDate + periods − 1 (batch.periods)',
};

/**
 * A batch job's fields by the object that holds them (docs/format.md#batch-jobs), under the lab's
 * names and their real systems' (a DAG's default_args put `retries` beside `schedule`; a dbt
 * config `partition_by` beside `unique_key`): written in another object of the job, the key is
 * named with its path here.
 */
const BATCH_HOMES: Record<string, { path: string; more?: string }> = {
  retries: { path: 'task.retries' },
  retrydelayms: { path: 'task.retryDelayMs', more: ', in milliseconds' },
  retry_delay: {
    path: 'task.retryDelayMs',
    more: ', in milliseconds (timedelta(minutes=5): 300000)',
  },
  readms: { path: 'task.readMs' },
  rowms: { path: 'task.rowMs' },
  mode: { path: 'write.mode' },
  uniquekey: { path: 'write.uniqueKey' },
  unique_key: { path: 'write.uniqueKey', more: ': true, its columns batch.dedupeKey' },
  strategy: { path: 'write.strategy' },
  incremental_strategy: { path: 'write.strategy' },
  partitionby: { path: 'write.partitionBy' },
  partition_by: { path: 'write.partitionBy', more: ': "logical-date", "clock" or "event-date"' },
  atomic: { path: 'write.atomic' },
  store: { path: 'dedupe.store' },
  ttlms: { path: 'dedupe.ttlMs' },
  ttl: { path: 'dedupe.ttlMs', more: ', in milliseconds (EX 86400: 86400000)' },
  order: { path: 'dedupe.order' },
};

const BATCH_OWNERS: Record<string, string> = {
  task: "a task's field",
  write: "the write's field",
  dedupe: "the dedupe store's field",
};

/** An unknown key of a batch job that is a field of another of its objects, with its path. */
function batchHome(key: string, path: readonly PropertyKey[]): string | null {
  if (path[0] !== 'batch' || path.length > 2) return null;
  const home = Object.hasOwn(BATCH_HOMES, key.toLowerCase())
    ? BATCH_HOMES[key.toLowerCase()]!
    : null;
  if (home === null) return null;
  const owner = home.path.split('.')[0]!;
  // In its own object the key is a misspelling or a real name, said by the words below.
  if (path[1] === owner) return null;
  return `unknown key "${key}": ${BATCH_OWNERS[owner]} — batch.${home.path} here${home.more ?? ''}`;
}

/**
 * A batch job's fields under their real systems' names — Airflow's task and DAG arguments, dbt's
 * model config, Redis SET's options — where the object has the field they name here
 * (docs/semantics/batch.md): `retry_delay` is `retryDelayMs`, in milliseconds.
 */
const REAL_NAMES: Record<string, { field: string; words: string }> = {
  retry_delay: {
    field: 'retryDelayMs',
    words:
      'Airflow\'s retry_delay is "retryDelayMs" here, in milliseconds (timedelta(minutes=5): 300000)',
  },
  start_date: {
    field: 'startDate',
    words: 'Airflow\'s start_date is "startDate" here (YYYY-MM-DD)',
  },
  schedule_interval: {
    field: 'schedule',
    words: 'Airflow\'s schedule is "schedule" here: "daily" or "hourly"',
  },
  incremental_strategy: {
    field: 'strategy',
    words: 'dbt\'s incremental_strategy is "strategy" here',
  },
  unique_key: {
    field: 'uniqueKey',
    words:
      'dbt\'s unique_key is "uniqueKey": true here, and its columns are batch.dedupeKey ("event-id" or content columns)',
  },
  ttl: {
    field: 'ttlMs',
    words: 'Redis SET\'s EX seconds is "ttlMs" here, in milliseconds (EX 86400: 86400000)',
  },
  ex: {
    field: 'ttlMs',
    words: 'Redis SET\'s EX seconds is "ttlMs" here, in milliseconds (EX 86400: 86400000)',
  },
  px: { field: 'ttlMs', words: 'Redis SET\'s PX milliseconds is "ttlMs" here' },
};

/**
 * The parse option every parse whose issues {@link schemaIssues} words passes: zod then keeps the
 * value an issue is about, so a refusal of a value not in a set says what came
 * (`producer.acks: expected "0", "1", "all" or "-1", got 2`).
 */
export const REPORT_INPUT = { reportInput: true } as const;

/**
 * A zod schema's issues in the lab's words, each naming its field's path — the one wording of
 * scenario files, and of every format validated the same way (lesson files: src/scenarios/lessons).
 */
export function schemaIssues(
  zodIssues: readonly SchemaIssue[],
  /**
   * The fields the object at a path allows (`keysAt`, ./schemaKeys.ts, which needs zod: this
   * module's words load without it): an unknown key's "did you mean".
   */
  fieldsAt?: (path: readonly PropertyKey[]) => readonly string[],
): Issue[] {
  // An unknown key is named by its own path ("producer.akcs: unknown key"), not by the object
  // that holds it, so a typo at the top level does not read as a problem of the whole file.
  const raw = zodIssues;
  // zod's int() carries its own bound (the largest safe integer); where the field's real limit
  // is reported too, one message about the number is enough — the field's.
  const safeBound = (i: (typeof raw)[number]) =>
    i.code === 'too_big' && Number(i.maximum) === Number.MAX_SAFE_INTEGER;
  const issues = raw
    .filter(
      (i) =>
        !safeBound(i) ||
        !raw.some((o) => o !== i && o.code === 'too_big' && pathOf(o.path) === pathOf(i.path)),
    )
    .flatMap((i) =>
      i.code === 'unrecognized_keys'
        ? i.keys.map((k) => ({
            path: pathOf([...i.path, k]),
            message:
              // Own keys only: `in` would find "constructor" or "toString" on Object.prototype.
              Object.hasOwn(UNMODELLED, k)
                ? `unknown key "${k}": ${UNMODELLED[k]}`
                : (batchHome(k, i.path) ??
                  realName(k, i.path, fieldsAt) ??
                  `unknown key ${keyEcho(k)}: not a field here (misspelt, or a field of another kind)${didYouMean(k, i.path, fieldsAt)}`),
          }))
        : [{ path: pathOf(i.path), message: plainMessage(i) }],
    );
  return issues;
}

/** An unknown key that is a real system's name of a field its object has, in those words. */
function realName(
  key: string,
  path: readonly PropertyKey[],
  fieldsAt: ((path: readonly PropertyKey[]) => readonly string[]) | undefined,
): string | null {
  const real = Object.hasOwn(REAL_NAMES, key.toLowerCase()) ? REAL_NAMES[key.toLowerCase()] : null;
  if (!real || !fieldsAt?.(path).includes(real.field)) return null;
  return `unknown key "${key}": ${real.words}`;
}

/** An object with at most this many fields lists them under an unknown key no field is near. */
const FIELDS_LISTED_MAX = 8;

/**
 * `; did you mean "acks"?` for an unknown key a field of its object is a misspelling away from;
 * else, for an object of few fields, the fields it has (`expect.guarantee`: `its fields: totals,
 * rows, observed, points` — the guarantee a run shows is `observed`), so the word meant is on
 * the line, not in the schema.
 */
function didYouMean(
  key: string,
  path: readonly PropertyKey[],
  fieldsAt: ((path: readonly PropertyKey[]) => readonly string[]) | undefined,
): string {
  if (!fieldsAt) return '';
  const fields = fieldsAt(path);
  const meant = nearest(key, fields, misspellingBound);
  if (meant) return `; did you mean "${meant}"?`;
  return fields.length > 0 && fields.length <= FIELDS_LISTED_MAX
    ? `; its fields: ${fields.join(', ')}`
    : '';
}

/**
 * A schema issue in plain words: "required (a string)", "at most 7 days (604,800,000 ms)",
 * "at most 200 characters", "expected a number, got a string" — zod's own wording otherwise.
 */
function plainMessage(i: SchemaIssue): string {
  const n = (x: number | bigint) => groupDigits(Number(x));
  switch (i.code) {
    case 'invalid_type': {
      const got = /received (-?\w+)$/.exec(i.message)?.[1];
      // zod's 'int' is a whole number: "expected an int, got a number" read as a type error.
      const want = i.expected === 'int' ? 'a whole number' : article(i.expected);
      if (got === 'undefined') return `required (${want})`;
      // A switch is a value of a set of two: what came, as any such refusal says it.
      if (i.expected === 'boolean' && 'input' in i)
        return notOneOf(['true', 'false'], echoValue(i.input));
      if (i.expected === 'int' && got === 'number') return 'must be a whole number';
      // "10s", as Flink and Kafka write durations: here a time is a number of milliseconds.
      const last = String(i.path[i.path.length - 1] ?? '');
      if (
        (i.expected === 'int' || i.expected === 'number') &&
        got === 'string' &&
        TIME_KEY.test(last)
      )
        return `expected ${want} of virtual milliseconds, got a string (write 10000 for 10 s)`;
      // JSON's 1e400 and -1e400 read as ±Infinity: said in words, not "a Infinity".
      if (got === 'Infinity' || got === '-Infinity')
        return `expected ${want}, got ${numberWords(Number(got))}`;
      return got ? `expected ${want}, got ${article(got)}` : i.message;
    }
    case 'too_big': {
      const max = Number(i.maximum);
      if (i.origin === 'string') return `at most ${n(max)} characters`;
      if (i.origin === 'array') return `at most ${n(max)} items`;
      if (i.origin !== 'number') return i.message;
      if (max === LIMITS.timeMs) return `at most ${LIMITS.timeMs / 86_400_000} days (${n(max)} ms)`;
      return i.inclusive === false ? `must be below ${n(max)}` : `at most ${n(max)}`;
    }
    case 'too_small': {
      const min = Number(i.minimum);
      if (i.origin === 'string')
        return min === 1 ? 'must not be empty' : `at least ${n(min)} characters`;
      if (i.origin === 'array') return `at least ${n(min)} item${min === 1 ? '' : 's'}`;
      if (i.origin !== 'number') return i.message;
      return i.inclusive === false ? `must be above ${n(min)}` : `at least ${n(min)}`;
    }
    case 'invalid_value': {
      // An enum or literal: 'expected "insert", "merge" or …, got "upsert"', not zod's
      // 'Invalid option: expected one of "insert"|"merge"'. The value came when the parse kept
      // it (`reportInput`, as every parse whose issues are shown does).
      const allowed = i.values.map((v) => JSON.stringify(v));
      // Left out: "required", as a missing field of a type says it.
      if (!('input' in i) || i.input === undefined)
        return 'input' in i ? `required (${orList(allowed)})` : `expected ${orList(allowed)}`;
      return notOneOf(allowed, echoValue(i.input));
    }
    case 'invalid_key':
      // A record's key (expect.rows, expect.points): zod says "Invalid key in record".
      return `invalid key: ${i.issues.map((k) => plainMessage(k as SchemaIssue)).join('; ')}`;
    default:
      return i.message;
  }
}

type SchemaIssue = z.core.$ZodIssue;

/** "a string", "an object", "an array", "null". */
function article(type: string): string {
  if (type === 'null' || type === 'undefined' || type === 'NaN') return type;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/**
 * Issues as lines, `path: message`, the one wording the CLI and the page share; an issue about the
 * whole input (path '') is labelled `root` — what the input was: a file's name, `(pasted text)`, or
 * `(root)` for a preset (a share link's issues name the link themselves: `shareIssueLines`). With
 * the JSON `text` the issues came from, each also names its line as `delivery-lab check` does
 * (`day-1.lesson.json:79: steps.1.question.anwser: …`; a syntax error its line and column).
 */
export function issueLines(issues: readonly Issue[], root = '(root)', text?: string): string[] {
  let lines: Map<string, number> | undefined;
  return issues.map((i) => {
    const syntax = text !== undefined ? jsonSyntaxLine(root, text, i) : null;
    if (syntax) return syntax;
    if (text === undefined || i.path === '') return `${i.path || root}: ${i.message}`;
    lines ??= jsonPathLines(text.replace(/^\uFEFF/, ''));
    if (lines.size === 0) return `${i.path}: ${i.message}`;
    return `${root}:${lineOfPath(text, i.path, lines)}: ${i.path}: ${i.message}`;
  });
}

/**
 * A JSON syntax issue (path '', "not valid JSON: …") of `text` as `label:line:column: not valid
 * JSON: …`, where editors and compilers put the place — one rule for the CLI (`label` the file's
 * path) and the page's Import (the file's name, `(pasted text)`); null for any other issue. The message
 * ends "(line N column M)" when V8 gave a position (validate.ts adds it where V8 says only "at
 * position N"); "Unexpected end of JSON input" is at the text's end.
 */
export function jsonSyntaxLine(label: string, text: string, issue: Issue): string | null {
  const at = jsonSyntaxAt(text, issue);
  if (!at) return null;
  return `${label}${at.line > 0 ? `:${at.line}:${at.column}` : ''}: ${at.message}`;
}

/**
 * Where a JSON syntax issue of `text` is (line and column from 1; 0 when V8 gave no place) and
 * its message without the place; null for any other issue (see {@link jsonSyntaxLine}).
 */
export function jsonSyntaxAt(
  text: string,
  issue: Issue,
): { line: number; column: number; message: string } | null {
  if (issue.path !== '' || !issue.message.startsWith('not valid JSON: ')) return null;
  const at = / \(line (\d+) column (\d+)\)$|\bline (\d+) column (\d+)/.exec(issue.message);
  const message = at?.[1] !== undefined ? issue.message.slice(0, at.index) : issue.message;
  if (at) return { line: Number(at[1] ?? at[3]), column: Number(at[2] ?? at[4]), message };
  if (/Unexpected end of JSON input/.test(issue.message)) {
    const lines = text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    return { line: lines.length, column: lines[lines.length - 1]!.length + 1, message };
  }
  return { line: 0, column: 0, message };
}

/** {@link issueLines} joined with newlines, as the CLI prints them. */
export function formatIssues(issues: readonly Issue[], root = '(root)'): string {
  return issueLines(issues, root).join('\n');
}
