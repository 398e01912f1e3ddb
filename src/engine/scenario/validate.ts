/**
 * Turning untrusted input (a file, a URL, storage, a CLI argument) into a {@link Scenario}.
 * Every problem comes back as `{ path, message }`, the path naming the field (`faults.2.target`),
 * so the UI and the CLI can say exactly what is wrong. Nothing here throws on bad input.
 */
import type { z } from 'zod';
import { ScenarioSchema, type CrashPoint, type Scenario } from './schema';
import { migrate } from './migrate';
import { LIMITS } from './limits';
import { eventIds } from './workload';
import { clipEcho, numberWords } from './echo';
import { groupDigits } from '../groupDigits';

/** A broker's default group.min.session.timeout.ms and group.max.session.timeout.ms (ms). */
const GROUP_MIN_SESSION_TIMEOUT_MS = 6_000;
const GROUP_MAX_SESSION_TIMEOUT_MS = 1_800_000;

/** One validation problem. `path` is dotted (`producer.acks`, `faults.0.match.event`); '' is the root. */
export interface Issue {
  path: string;
  message: string;
}

/** The result of {@link parseScenario}. */
export type ParseResult = { ok: true; scenario: Scenario } | { ok: false; issues: Issue[] };

/** Largest JSON text accepted (bytes of UTF-16 code units): a scenario is a small description. */
export const MAX_JSON_CHARS = 2_000_000;

/** A dotted path; a key from the input (a record's, an unknown one) is clipped as echoes are. */
function pathOf(path: readonly PropertyKey[]): string {
  return path.map((p) => clipEcho(String(p))).join('.');
}

/**
 * An unknown key as its message names it: quoted, or — when the path before the message already
 * shows it clipped — by its length, so the line echoes the input once.
 */
function keyEcho(key: string): string {
  return clipEcho(key) === key ? `"${key}"` : `(${groupDigits(key.length)} characters)`;
}

/**
 * A `JSON.parse` error's message, saying where in `text` the problem is: V8 reports `at position
 * N`, and only newer versions add `(line L column C)`; add it (both counted from 1) when missing,
 * so every runtime — the page in any browser, the CLI in Node — names the same place.
 */
function jsonSyntaxMessage(text: string, rawMessage: string): string {
  // V8 may quote the text, line breaks included: keep the issue on one line.
  const message = clipEcho(rawMessage.replace(/\r?\n/g, '\\n'));
  if (/\bline \d+ column \d+/.test(message)) return message;
  const at = /at position (\d+)/.exec(message);
  if (!at) return message;
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${message} (line ${line} column ${column})`;
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
};

/**
 * Parse JSON text (a file, a paste) into a scenario. A leading byte-order mark is ignored; empty
 * text and JSON syntax errors (with their line and column) are reported at path ''.
 * @returns the scenario, or issues.
 */
export function parseScenarioJson(text: string): ParseResult {
  const read = readJsonText(text);
  return read.ok ? parseScenario(read.raw) : read;
}

/**
 * JSON text (a file, a paste) as a value, before any schema: refused when too large, empty, nested
 * too deep or not JSON, each problem at path '' — shared by every file format of the lab.
 * @param what - what the text should be, for the "empty" message ("a scenario", "a lesson").
 */
export function readJsonText(
  text: string,
  what = 'a scenario',
): { ok: true; raw: unknown } | { ok: false; issues: Issue[] } {
  if (text.length > MAX_JSON_CHARS) {
    return {
      ok: false,
      issues: [
        {
          path: '',
          message: `file too large: ${text.length} characters (limit ${MAX_JSON_CHARS})`,
        },
      ],
    };
  }
  const json = text.replace(/^\uFEFF/, '');
  if (json.trim() === '')
    return { ok: false, issues: [{ path: '', message: `empty: expected ${what} (JSON)` }] };
  const deep = tooDeepText(json);
  if (deep) return { ok: false, issues: [deep] };
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    return {
      ok: false,
      issues: [
        { path: '', message: `not valid JSON: ${jsonSyntaxMessage(json, (e as Error).message)}` },
      ],
    };
  }
  return { ok: true, raw };
}

/**
 * Whether the scenario as written (before defaults) sets `key` in its `section`: a default that
 * depends on other fields applies only where the user left the field out.
 */
function setByUser(raw: unknown, section: 'producer' | 'processor', key: string): boolean {
  const part = (raw as Record<string, unknown> | null)?.[section];
  return typeof part === 'object' && part !== null && Object.hasOwn(part, key);
}

/** Segments of a too deep value's path that its issue names: the field, and a few levels in. */
const DEEP_PATH_SHOWN = 8;

/** The issue of a value nested deeper than {@link LIMITS}.nesting at `path`. */
function tooDeepIssue(path: readonly PropertyKey[]): Issue {
  return {
    path: `${pathOf(path.slice(0, DEEP_PATH_SHOWN))}…`,
    message: `nested more than ${LIMITS.nesting} levels deep (no field of a scenario is more than a few levels down)`,
  };
}

/**
 * {@link tooDeep} on JSON text, before JSON.parse: V8 takes seconds to parse a million nested
 * brackets (a 2 MB file), so they are counted first, in one pass that skips strings and keeps
 * the path (each open object's current key, each array's index).
 */
/** A key as JSON text writes it (between its quotes), decoded as JSON.parse would. */
function jsonKey(raw: string): string {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

function tooDeepText(text: string): Issue | null {
  const path: (string | number)[] = [];
  const inArray: boolean[] = [];
  let keyStart = 0;
  let keyEnd = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 0x22)
        j += text.charCodeAt(j) === 0x5c /* \ */ ? 2 : 1;
      [keyStart, keyEnd] = [i + 1, j];
      i = j;
    } else if (c === 0x3a /* : */) path[path.length - 1] = jsonKey(text.slice(keyStart, keyEnd));
    else if (c === 0x2c /* , */) {
      if (inArray[inArray.length - 1]) (path[path.length - 1] as number)++;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (path.length >= LIMITS.nesting) return tooDeepIssue(path);
      inArray.push(c === 0x5b);
      path.push(c === 0x5b ? 0 : '');
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      inArray.pop();
      path.pop();
    }
  }
  return null;
}

/**
 * The first array or object nested deeper than {@link LIMITS}.nesting, as an issue naming where it
 * starts (its path's first segments), or null. Walked with a stack of its own, not recursion: a
 * 2 MB file can nest a million levels.
 */
function tooDeep(root: unknown): Issue | null {
  // Each node points at its parent: the path is spelt out only for the one refused.
  interface Node {
    value: unknown;
    depth: number;
    key: string;
    parent: Node | null;
  }
  const stack: Node[] = [{ value: root, depth: 0, key: '', parent: null }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { value, depth } = node;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= LIMITS.nesting) {
      const path: string[] = [];
      for (let n: Node | null = node; n?.parent; n = n.parent) path.unshift(n.key);
      return tooDeepIssue(path);
    }
    for (const key of Object.keys(value))
      stack.push({
        value: (value as Record<string, unknown>)[key],
        depth: depth + 1,
        key,
        parent: node,
      });
  }
  return null;
}

/**
 * Validate any value as a scenario: migrate older versions, apply the schema (types, ranges,
 * limits, defaults), then check what the schema alone cannot (references between fields, the
 * combinations the real systems refuse).
 */
/**
 * A batch scenario may leave `workload` out: its business events are then the rows of its source
 * table (id and amount), so every view that lists the workload lists them.
 */
function withBatchWorkload(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || 'workload' in v || !('batch' in v)) return v;
  const source = (v as { batch?: { source?: unknown } }).batch?.source;
  if (!Array.isArray(source) || source.length === 0) return v;
  const events = source.map((r: { id?: unknown; amount?: unknown }) => ({
    id: r?.id,
    amount: r?.amount ?? 10,
    at: 0,
  }));
  return { ...v, workload: { events } };
}

export function parseScenario(raw: unknown): ParseResult {
  const migrated = migrate(raw);
  if (!migrated.ok) return migrated;
  const deep = tooDeep(migrated.value);
  if (deep) return { ok: false, issues: [deep] };
  const parsed = ScenarioSchema.safeParse(withBatchWorkload(migrated.value));
  if (!parsed.success) return { ok: false, issues: schemaIssues(parsed.error.issues) };
  const scenario = parsed.data;
  // delivery.timeout.ms left unset is raised to linger.ms + request.timeout.ms (the producer logs
  // a warning); only a value the user set is refused below. KafkaProducer.configureDeliveryTimeout,
  // https://kafka.apache.org/documentation/#producerconfigs_delivery.timeout.ms
  const p = scenario.producer;
  if (!setByUser(migrated.value, 'producer', 'delivery.timeout.ms'))
    p['delivery.timeout.ms'] = Math.max(
      p['delivery.timeout.ms'],
      p['linger.ms'] + p['request.timeout.ms'],
    );
  // enable.auto.commit left unset with commit with-transaction is false: sendOffsetsToTransaction
  // expects a consumer that does not commit by itself — "the consumer should have
  // enable.auto.commit=false and should also not commit offsets manually" (KafkaProducer javadoc,
  // https://kafka.apache.org/40/javadoc/org/apache/kafka/clients/producer/KafkaProducer.html#sendOffsetsToTransaction(java.util.Map,org.apache.kafka.clients.consumer.ConsumerGroupMetadata)).
  // Only a value the user set is refused below.
  const proc = scenario.processor;
  if (
    proc.type === 'consumer' &&
    proc.commit === 'with-transaction' &&
    !setByUser(migrated.value, 'processor', 'enable.auto.commit')
  )
    proc['enable.auto.commit'] = false;
  const issues = semanticIssues(scenario);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, scenario };
}

/**
 * A zod schema's issues in the lab's words, each naming its field's path — the one wording of
 * scenario files, and of every format validated the same way (lesson files: src/scenarios/lessons).
 */
export function schemaIssues(zodIssues: readonly SchemaIssue[]): Issue[] {
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
                : `unknown key ${keyEcho(k)}: not a field here (misspelt, or a field of another kind)`,
          }))
        : [{ path: pathOf(i.path), message: plainMessage(i) }],
    );
  return issues;
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
 * whole input (path '') is labelled `root` — what the input was: `(file)`, `(pasted text)`, or
 * `(root)` for a preset (a share link's issues name the link themselves: `shareIssueLines`).
 */
export function issueLines(issues: readonly Issue[], root = '(root)'): string[] {
  return issues.map((i) => `${i.path || root}: ${i.message}`);
}

/** {@link issueLines} joined with newlines, as the CLI prints them. */
export function formatIssues(issues: readonly Issue[], root = '(root)'): string {
  return issueLines(issues, root).join('\n');
}

/**
 * Whether the producer ends up idempotent. Kafka's rule (ProducerConfig, `enable.idempotence`):
 * on by default "if no conflicting configurations are set"; a conflicting `acks` or `retries=0`
 * turns it off silently unless it was set explicitly; a `transactional.id` implies it.
 * https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence
 */
export function effectiveIdempotence(cfg: Scenario['producer']): boolean {
  if (cfg['transactional.id'] !== undefined) return true;
  if (cfg['enable.idempotence'] !== undefined) return cfg['enable.idempotence'];
  return normalizeAcks(cfg.acks) === 'all' && cfg.retries > 0;
}

/** The normalized `acks`: "0", "1" or "all". */
export function normalizeAcks(acks: Scenario['producer']['acks']): '0' | '1' | 'all' {
  if (acks === 'all' || acks === '-1' || acks === -1) return 'all';
  if (acks === '0' || acks === 0) return '0';
  return '1';
}

/**
 * Names of the components a fault can target in this scenario: the actors the engine creates
 * under these names (`broker-1`…, `consumer-0`…, `reader-0`…).
 */
export function targetsOf(s: Scenario): string[] {
  const t = ['producer'];
  // Only a table, Delta or file sink is an actor of its own; a Kafka or effect sink is not.
  if (s.sink.type === 'table' || s.sink.type === 'delta' || s.sink.type === 'file') t.push('sink');
  for (let b = 1; b <= s.broker.brokers; b++) t.push(`broker-${b}`);
  const p = s.processor;
  if (p.type === 'consumer') for (let i = 0; i < p.instances; i++) t.push(`consumer-${i}`);
  else t.push(p.type);
  s.readers.forEach((_, i) => t.push(`reader-${i}`));
  return t;
}

/** Targets that count the records they process: only these draw per-record faults. */
function processesRecords(target: string): boolean {
  return /^(consumer-\d+|reader-\d+|flink|spark)$/.test(target);
}

/** Whose step each crash point is, for the message when a target never reaches it. */
const POINT_OWNER = {
  now: 'any component',
  'after-poll': 'a consumer loop (consumer-N, reader-N)',
  'mid-batch': 'a consumer loop or a Flink job (consumer-N, reader-N, flink)',
  'before-commit': 'a consumer loop (consumer-N, reader-N)',
  'after-commit': "the processor's consumer loop (consumer-N)",
  'before-barrier': 'a Flink checkpoint (flink)',
  'after-precommit': 'a Flink checkpoint (flink)',
  'after-checkpoint': 'a Flink checkpoint (flink)',
  'during-commit': 'a Flink checkpoint (flink)',
  'before-sink-write': 'a Spark micro-batch (spark)',
  'after-sink-write': 'a Spark micro-batch (spark)',
  'before-commit-transaction':
    'a transaction commit (producer with producer.transactional.id, consumer-N with sink.transactional.id)',
  'after-commit-decision':
    'a transaction commit (producer with producer.transactional.id, consumer-N with sink.transactional.id)',
} satisfies Record<CrashPoint, string>;

const CHECKPOINT_POINTS: readonly CrashPoint[] = [
  'before-barrier',
  'after-precommit',
  'after-checkpoint',
  'during-commit',
];

/**
 * The crash points `target` passes through in this scenario, as the engine asks
 * `Faults.crashPoint` for them; a crash waiting for any other point never fires.
 */
function crashPointsOf(s: Scenario, target: string): CrashPoint[] {
  const points: CrashPoint[] = ['now'];
  const p = s.processor;
  if (/^consumer-\d+$/.test(target)) {
    points.push('after-poll', 'mid-batch', 'before-commit', 'after-commit');
    // Its output producer's commitTransaction (KafkaOutput.commit).
    if (s.sink.type === 'kafka' && s.sink['transactional.id'] !== undefined)
      points.push('before-commit-transaction', 'after-commit-decision');
  } else if (/^reader-\d+$/.test(target)) {
    // A reader's loop commits after processing, never before: no 'after-commit'.
    points.push('after-poll', 'mid-batch', 'before-commit');
  } else if (target === 'flink') {
    points.push('mid-batch');
    // The JobManager sends no barrier without a checkpoint interval.
    if (p.type === 'flink' && p['execution.checkpointing.interval'] !== null)
      points.push(...CHECKPOINT_POINTS);
  } else if (target === 'spark') points.push('before-sink-write', 'after-sink-write');
  else if (target === 'producer' && s.producer['transactional.id'] !== undefined)
    points.push('before-commit-transaction', 'after-commit-decision');
  return points;
}

/** Why `target` never reaches `point` (which {@link crashPointsOf} left out). */
function unreachedPointMessage(s: Scenario, target: string, point: CrashPoint): string {
  const p = s.processor;
  if (target === 'flink' && CHECKPOINT_POINTS.includes(point) && p.type === 'flink')
    return `crash point "${point}" comes with a checkpoint, and processor.execution.checkpointing.interval is null (no checkpoints)`;
  return `"${target}" never reaches crash point "${point}", a step of ${POINT_OWNER[point]}; the points of ${target}: ${crashPointsOf(s, target).join(', ')}`;
}

function semanticIssues(s: Scenario): Issue[] {
  const issues: Issue[] = [];
  const add = (path: string, message: string) => issues.push({ path, message });
  const p = s.producer;

  // Kafka refuses an explicitly idempotent producer with conflicting settings; left unset,
  // idempotence is switched off by them — and a transactional.id then has no idempotence to stand
  // on. Kafka's own messages: ProducerConfig.postProcessAndValidateIdempotenceConfigs,
  // https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence
  const acks = normalizeAcks(p.acks);
  if (p['enable.idempotence'] === true) {
    if (acks !== 'all')
      add(
        'producer.acks',
        'ConfigException: Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.',
      );
    if (p.retries === 0)
      add(
        'producer.retries',
        'ConfigException: Must set retries to non-zero when using the idempotent producer.',
      );
  } else if (p['transactional.id'] !== undefined) {
    const noTxn =
      'ConfigException: Cannot set a transactional.id without also enabling idempotence.';
    if (p['enable.idempotence'] === false) add('producer.enable.idempotence', noTxn);
    else if (acks !== 'all')
      add('producer.acks', `${noTxn} (acks=${acks} switches the default idempotence off)`);
    else if (p.retries === 0)
      add('producer.retries', `${noTxn} (retries=0 switches the default idempotence off)`);
  }
  // Kafka 4.x checks this whenever idempotence is not explicitly false — even where acks or
  // retries then switch it off (3.x only logged a warning and switched it off; 4.0 made it an
  // error): ProducerConfig.postProcessAndValidateIdempotenceConfigs,
  // https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/ProducerConfig.java
  if (p['enable.idempotence'] !== false && p['max.in.flight.requests.per.connection'] > 5)
    add(
      'producer.max.in.flight.requests.per.connection',
      `ConfigException: To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is ${p['max.in.flight.requests.per.connection']}. (Set enable.idempotence=false to allow more.)`,
    );
  // Kafka refuses a delivery timeout shorter than one linger plus one request when it was set
  // (parseScenario has raised an unset one already).
  // https://kafka.apache.org/documentation/#producerconfigs_delivery.timeout.ms
  if (p['delivery.timeout.ms'] < p['linger.ms'] + p['request.timeout.ms'])
    add(
      'producer.delivery.timeout.ms',
      `ConfigException: delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms (here ${p['linger.ms']} + ${p['request.timeout.ms']} = ${p['linger.ms'] + p['request.timeout.ms']})`,
    );
  if (p.app.mode === 'sync' && p.app['get.timeout.ms'] === undefined)
    add(
      'producer.app.get.timeout.ms',
      'sync mode needs how long the application waits on send().get()',
    );

  const b = s.broker;
  if (b['min.insync.replicas'] > b['replication.factor'])
    add('broker.min.insync.replicas', 'cannot exceed replication.factor');

  // Topics a reader may read.
  const topics = new Set([s.workload.topic]);
  if (s.sink.type === 'kafka') {
    if (s.sink.topic === s.workload.topic)
      add('sink.topic', 'the output topic must differ from the input topic');
    topics.add(s.sink.topic);
  }
  s.readers.forEach((r, i) => {
    if (!topics.has(r.topic))
      add(`readers.${i}.topic`, `no topic named "${r.topic}" (topics: ${[...topics].join(', ')})`);
  });
  const readerNames = new Set<string>();
  s.readers.forEach((r, i) => {
    if (readerNames.has(r.name)) add(`readers.${i}.name`, `duplicate reader name "${r.name}"`);
    readerNames.add(r.name);
  });

  // Sink and processor must fit together.
  const proc = s.processor;
  const sink = s.sink;
  if ((sink.type === 'table' || sink.type === 'delta') && sink.clean) {
    if (sink.clean.name === sink.name)
      add('sink.clean.name', 'the clean table must have another name than the raw table');
    if (sink.type === 'table' && sink.initialRows.length > 0)
      add('sink.clean', 'a clean layer over a raw table with initial rows is not modelled');
  }
  if ((sink.type === 'delta' || sink.type === 'file') && proc.type !== 'spark')
    add('sink.type', `a ${sink.type} sink is written by a Spark query (processor.type "spark")`);
  // The Flink job has no path that calls an effect sink: it would run, call nothing, and count
  // every event lost. Its external calls are made from an operator (processor.sideEffect).
  if (sink.type === 'effect' && proc.type === 'flink')
    add(
      'sink.type',
      'an effect sink is called by a consumer loop or a Spark query; a Flink job calls a service from an operator (processor.sideEffect) and writes to a table or Kafka',
    );
  if (sink.type === 'table') {
    const onConflict =
      sink.statement === 'on-conflict-do-nothing' || sink.statement === 'on-conflict-do-update';
    if (onConflict && sink.uniqueKey === false)
      add(
        'sink.uniqueKey',
        'ON CONFLICT needs a unique index or constraint on the key as its arbiter',
      );
    if (sink.xa) {
      if (proc.type !== 'flink')
        add(
          'sink.xa',
          'XA transactions per checkpoint are Flink\'s JDBC exactly-once sink (processor.type "flink")',
        );
      else if (proc['execution.checkpointing.interval'] === null)
        add(
          'processor.execution.checkpointing.interval',
          'the JDBC exactly-once (XA) sink commits on checkpoints: it requires checkpointing',
        );
      // JdbcXaSinkFunction's constructor: "JDBC XA sink requires maxRetries equal to 0, otherwise it could cause duplicates".
      if (sink.retries !== 0)
        add(
          'sink.retries',
          'the JDBC exactly-once (XA) sink requires maxRetries equal to 0 (a retry could write twice, FLINK-22311): set retries to 0',
        );
    }
  }
  if (proc.type !== 'consumer') {
    // A job or a query processes its records one after another, perRecordMs each: the consumer
    // loop's other processing settings would be ignored — refuse them rather than say nothing.
    const who = proc.type === 'flink' ? 'a Flink job' : 'a Spark query';
    if (proc.processing.mode !== 'sync')
      add(
        'processor.processing.mode',
        `${who} processes records in order; handoff and parallel are consumer-loop modes`,
      );
    if (proc.processing.durationsMs !== undefined)
      add(
        'processor.processing.durationsMs',
        `a list of processing times is a consumer-loop setting; ${who} takes perRecordMs`,
      );
  }
  if (proc.type === 'consumer') {
    // A broker refuses a JoinGroup whose session timeout is outside its group.min/max.session.
    // timeout.ms (6 s and 30 min by default) with INVALID_SESSION_TIMEOUT: the member never joins.
    // https://kafka.apache.org/documentation/#brokerconfigs_group.min.session.timeout.ms
    const session = proc['session.timeout.ms'];
    if (session < GROUP_MIN_SESSION_TIMEOUT_MS || session > GROUP_MAX_SESSION_TIMEOUT_MS)
      add(
        'processor.session.timeout.ms',
        `the broker accepts ${GROUP_MIN_SESSION_TIMEOUT_MS}–${GROUP_MAX_SESSION_TIMEOUT_MS} ms (group.min.session.timeout.ms, group.max.session.timeout.ms): it would refuse the JoinGroup with INVALID_SESSION_TIMEOUT`,
      );
    // Set explicitly (parseScenario makes an unset one false): auto-commit would also commit the
    // polled positions outside the transaction, ahead of outputs that may still abort. The
    // KafkaProducer javadoc of sendOffsetsToTransaction: "the consumer should have
    // enable.auto.commit=false" (see parseScenario).
    if (proc['enable.auto.commit'] && proc.commit === 'with-transaction')
      add(
        'processor.enable.auto.commit',
        'commit with-transaction (sendOffsetsToTransaction) needs enable.auto.commit=false: "the consumer should have enable.auto.commit=false" (KafkaProducer javadoc) — auto-commit would also commit polled offsets outside the transaction. Set it to false, or leave it out',
      );
    if (!proc['enable.auto.commit'] && proc.commit === 'with-transaction') {
      if (sink.type !== 'kafka' || sink['transactional.id'] === undefined)
        add(
          'processor.commit',
          'sendOffsetsToTransaction needs a Kafka sink with a transactional.id',
        );
    }
    if (proc['enable.auto.commit'] && proc.processing.mode === 'parallel')
      add(
        'processor.processing.mode',
        'parallel processing commits the finished prefix itself: set enable.auto.commit=false',
      );
    // Manual commits a loop other than sync cannot make as asked:
    // - parallel commits the contiguous prefix of finished offsets, after the work (a commit
    //   before processing was ignored there, giving at-least-once);
    // - sendOffsetsToTransaction commits one polled batch's offsets inside the transaction that
    //   wrote its output: the loop processes the batch between beginTransaction and the commit.
    const mode = proc.processing.mode;
    if (!proc['enable.auto.commit'] && mode !== 'sync') {
      if (proc.commit === 'with-transaction')
        add(
          'processor.processing.mode',
          `commit with-transaction (sendOffsetsToTransaction) wraps each polled batch in one transaction: it needs mode sync, not ${mode}`,
        );
      else if (proc.commit === 'before-processing' && mode === 'parallel')
        add(
          'processor.processing.mode',
          'parallel processing commits the finished prefix after the work; commit before processing needs mode sync',
        );
    }
    if (sink.type === 'kafka' && sink.deliveryGuarantee !== 'NONE')
      add(
        'sink.deliveryGuarantee',
        'deliveryGuarantee is a Flink KafkaSink setting; a consumer loop uses transactional.id',
      );
  }
  if (proc.type === 'spark' && sink.type === 'kafka') {
    // Spark's Kafka sink has no transactions: "Yes (at-least-once)".
    if (sink.deliveryGuarantee !== 'NONE')
      add(
        'sink.deliveryGuarantee',
        "deliveryGuarantee is a Flink KafkaSink setting; Spark's Kafka sink is at-least-once, without transactions",
      );
    if (sink.transactionalIdPrefix !== undefined)
      add(
        'sink.transactionalIdPrefix',
        "transactionalIdPrefix is a Flink KafkaSink setting; Spark's Kafka sink writes without transactions",
      );
    if (sink['transactional.id'] !== undefined)
      add(
        'sink.transactional.id',
        "Spark's Kafka sink writes without transactions (at-least-once): transactional.id is a consumer loop's setting",
      );
  }
  if (proc.type === 'flink' && sink.type === 'kafka') {
    if (sink.deliveryGuarantee !== 'NONE' && proc['execution.checkpointing.interval'] === null)
      add(
        'processor.execution.checkpointing.interval',
        `KafkaSink ${sink.deliveryGuarantee} requires checkpointing`,
      );
    if (sink.deliveryGuarantee === 'EXACTLY_ONCE' && sink.transactionalIdPrefix === undefined)
      add('sink.transactionalIdPrefix', 'KafkaSink EXACTLY_ONCE requires a transactionalIdPrefix');
    if (sink['transactional.id'] !== undefined)
      add(
        'sink.transactional.id',
        'Flink KafkaSink uses transactionalIdPrefix, not transactional.id',
      );
  }

  // Faults must name things that exist.
  const targets = new Set(targetsOf(s));
  const ids = eventIds(s.workload);
  // Ids label faults on the timeline and in explanations: two alike would be told apart by nothing.
  const faultIds = new Map<string, number>();
  s.faults.forEach((f, i) => {
    if (f.id !== undefined) {
      const first = faultIds.get(f.id);
      if (first === undefined) faultIds.set(f.id, i);
      else add(`faults.${i}.id`, `duplicate fault id "${f.id}": faults.${first} has it already`);
    }
    if ('target' in f && !targets.has(f.target))
      add(`faults.${i}.target`, `no component "${f.target}" (targets: ${[...targets].join(', ')})`);
    if ('event' in f && !ids.has(f.event))
      add(`faults.${i}.event`, `no event with id "${f.event}"`);
    if ('match' in f && f.match.event !== undefined && !ids.has(f.match.event))
      add(`faults.${i}.match.event`, `no event with id "${f.match.event}"`);
    // A random fault is checked as the scheduled fault it fires.
    const what = f.kind === 'random' ? f.what : f.kind;
    if (
      (f.kind === 'leader-failover' || (f.kind === 'random' && f.what === 'leader-failover')) &&
      f.partition !== undefined &&
      f.partition >= b.partitions &&
      (f.topic ?? s.workload.topic) === s.workload.topic
    )
      add(`faults.${i}.partition`, `the topic has ${b.partitions} partition(s)`);
    if (
      (f.kind === 'leader-failover' || (f.kind === 'random' && f.what === 'leader-failover')) &&
      f.topic !== undefined &&
      !topics.has(f.topic)
    )
      add(`faults.${i}.topic`, `no topic named "${f.topic}"`);
    // A window that ends before it starts would never fire, silently.
    if (f.kind === 'random' && f.untilMs !== undefined && f.untilMs < f.at)
      add(
        `faults.${i}.untilMs`,
        `the window ends (${f.untilMs} ms) before it starts (at ${f.at} ms)`,
      );
    // A crash armed by records processed (random, periodic) counts only a processor's or a
    // reader's records: on any other target it never comes due.
    const perRecord =
      f.kind === 'periodic-crash'
        ? 'a periodic crash counts records processed'
        : f.kind === 'random' && f.what === 'crash'
          ? 'a random crash is drawn per record processed'
          : null;
    // (Its point is checked only once its target is right.)
    const targetCounts = perRecord === null || !('target' in f) || processesRecords(f.target);
    if (perRecord !== null && 'target' in f && targets.has(f.target) && !targetCounts)
      add(
        `faults.${i}.target`,
        `${perRecord}: "${f.target}" processes none (targets: ${[...targets].filter(processesRecords).join(', ')})`,
      );
    // Only the processor's group members move partitions or stall into a replacement (readers
    // are groups of their own; simulate() looks the target up among the processor's instances).
    if (
      (what === 'rebalance' || f.kind === 'zombie') &&
      'target' in f &&
      proc.type === 'consumer' &&
      targets.has(f.target) &&
      !/^consumer-\d+$/.test(f.target)
    )
      add(
        `faults.${i}.target`,
        `"${f.target}" is not a member of the consumer group (targets: ${[...targets].filter((t) => /^consumer-\d+$/.test(t)).join(', ')})`,
      );
    // A crash at a point other than 'now' waits for its target to reach that point.
    if (
      (f.kind === 'crash' ||
        f.kind === 'periodic-crash' ||
        (f.kind === 'random' && f.what === 'crash')) &&
      targets.has(f.target) &&
      targetCounts &&
      !crashPointsOf(s, f.target).includes(f.point)
    )
      add(`faults.${i}.point`, unreachedPointMessage(s, f.target, f.point));
    // A loop asks for 'mid-batch' after each record it processed, counting from 1: after 0 it
    // never asks, and the crash would wait for a moment that never comes.
    if (f.kind === 'crash' && f.point === 'mid-batch' && f.afterRecords === 0)
      add(
        `faults.${i}.afterRecords`,
        f.target === 'flink'
          ? 'a mid-batch crash comes after a record: afterRecords counts from 1 (the crash after the first record since the last barrier)'
          : 'a mid-batch crash comes after a record: afterRecords counts from 1 (the crash after the first record of the batch); for a crash before any, use point "after-poll"',
      );
    // Only a checkpointing Flink job sends barriers, acknowledgements and notifications.
    if ('link' in f && f.link === 'checkpoint') {
      if (proc.type !== 'flink')
        add(
          `faults.${i}.link`,
          'no checkpoint messages: only a Flink job checkpoints (processor.type "flink")',
        );
      else if (proc['execution.checkpointing.interval'] === null)
        add(
          `faults.${i}.link`,
          'no checkpoint messages: processor.execution.checkpointing.interval is null (no checkpoints)',
        );
    }
    if (
      (f.kind === 'abort-transaction' || f.kind === 'hang-transaction') &&
      p['transactional.id'] === undefined
    )
      add(`faults.${i}.kind`, 'the producer is not transactional (set producer.transactional.id)');
    if (f.kind === 'checkpoint-reset' && proc.type !== 'spark')
      add(`faults.${i}.kind`, 'only a Spark query has a checkpoint location to reset');
    if (f.kind === 'checkpoint-reset' && f.txnAppId !== undefined && s.sink.type !== 'delta')
      add(`faults.${i}.txnAppId`, 'txnAppId is a Delta write option: the sink must be "delta"');
    if (what === 'rebalance' && proc.type !== 'consumer')
      add(`faults.${i}.kind`, 'a rebalance needs a consumer group (processor.type "consumer")');
    if (f.kind === 'zombie' && proc.type !== 'consumer')
      add(`faults.${i}.kind`, 'a zombie is a consumer group member (processor.type "consumer")');
  });
  if (s.stopAtMs !== undefined && s.stopAtMs > LIMITS.timeMs)
    add('stopAtMs', 'beyond the time limit');
  return issues;
}
