/**
 * Turning untrusted input (a file, a URL, storage, a CLI argument) into a {@link Scenario}.
 * Every problem comes back as `{ path, message }`, the path naming the field (`faults.2.target`),
 * so the UI and the CLI can say exactly what is wrong. Nothing here throws on bad input.
 */
import { ScenarioSchema, type Scenario } from './schema';
import { migrate } from './migrate';
import { LIMITS, MAX_JSON_CHARS } from './limits';
import { clipEcho } from './echo';
import { groupDigits } from '../groupDigits';
import { jsonErrorAt, walkJson } from './jsonErrorAt';
import { pathOf, REPORT_INPUT, schemaIssues, type Issue } from './issueWords';
import { keysAt } from './schemaKeys';
import { semanticIssues } from './semanticIssues';
import { faultIssuesBeside } from './independentIssues';

export { formatIssues, issueLines, REPORT_INPUT, schemaIssues, type Issue } from './issueWords';
export { effectiveIdempotence, normalizeAcks, targetsOf } from './semanticIssues';

/** The result of {@link parseScenario}. */
export type ParseResult = { ok: true; scenario: Scenario } | { ok: false; issues: Issue[] };

export { MAX_JSON_CHARS } from './limits';

/**
 * A `JSON.parse` error's message, saying where in `text` the problem is: V8 reports `at position
 * N` (not for "Unexpected token …": {@link jsonErrorAt} finds it), and only newer versions add
 * `(line L column C)`; add it (both counted from 1) when missing,
 * so every runtime — the page in any browser, the CLI in Node — names the same place.
 */
function jsonSyntaxMessage(text: string, rawMessage: string): string {
  // V8 may quote the text, line breaks included: keep the issue on one line.
  const message = clipEcho(rawMessage.replace(/\r?\n/g, '\\n'));
  // Chromium's V8 (and Node 22's) end the message with "(line L column C)" themselves: the
  // hints below still apply, placed before it as for every runtime.
  const placed = / \(line \d+ column \d+\)$/.exec(message);
  // Another engine's own wording of the place (Firefox: "at line 1 column 5 of the JSON data").
  if (!placed && /\bline \d+ column \d+/.test(message)) return message;
  const at = /at position (\d+)/.exec(message);
  // "Unexpected token 'x', … is not valid JSON" names no position: find it (jsonErrorAt.ts).
  const found = at || /Unexpected end of JSON input/.test(message) ? null : jsonErrorAt(text);
  if (!at && found === null) return message;
  const offset = at ? Number(at[1]) : found!;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  const words = placed ? message.slice(0, placed.index) : message;
  return `${words}${trailingComma(text, offset)}${typographicQuote(text, offset)} (line ${line} column ${column})`;
}

/**
 * Words for a typographic quote where JSON needs `"`: a file saved by a word processor (Word,
 * TextEdit, Notepad's autocorrect in a pasted draft) turns `"` into “ and ”, which V8 reports as
 * "Expected double-quoted property name" or "Unexpected token". '' when the error is another.
 */
function typographicQuote(text: string, offset: number): string {
  const c = text[offset];
  if (c === undefined || !'\u201C\u201D\u2018\u2019\u201E\u00AB\u00BB'.includes(c)) return '';
  return ` — ${c} is a typographic quote (a word processor's): JSON needs the straight quote " around each key and string`;
}

/**
 * Words for a trailing comma, the hand edit JSON refuses most often: V8 points at the `]` or `}`
 * after it (often a line below), so the comma's own line is named. '' when the error is another.
 */
function trailingComma(text: string, offset: number): string {
  if (text[offset] !== ']' && text[offset] !== '}') return '';
  const head = text.slice(0, offset).trimEnd();
  if (!head.endsWith(',')) return '';
  return ` — the comma before it, on line ${head.split('\n').length}, is one too many: JSON allows no trailing comma`;
}

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
          message: `file too large: ${groupDigits(text.length)} characters (limit ${groupDigits(MAX_JSON_CHARS)})`,
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
  const twice = duplicateKeys(json, raw);
  if (twice.length > 0) return { ok: false, issues: twice };
  return { ok: true, raw };
}

/** Object members in a parsed JSON value: its text has more when a key is set twice. */
function memberCount(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + memberCount(x), 0);
  if (typeof v !== 'object' || v === null) return 0;
  return Object.values(v).reduce((n: number, x) => n + 1 + memberCount(x), 0);
}

/** The colons outside strings of a JSON text: one per object member as written. */
function colonCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a) n++;
    else if (c === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++)
        if (text.charCodeAt(i) === 0x5c) i++;
    }
  }
  return n;
}

/**
 * A key set twice in one object, refused with its lines: JSON.parse keeps the last silently, so a
 * hand edit that adds `"enable.idempotence": true` above the old `false` would run under false.
 * The text is walked only when it holds more members than the value it parsed to.
 */
function duplicateKeys(text: string, raw: unknown): Issue[] {
  if (colonCount(text) === memberCount(raw)) return [];
  const found = new Map<string, { lines: number[]; value: string }>();
  walkJson(text, {
    field: () => {},
    duplicate: (path, line, firstLine, value) => {
      const seen = found.get(path);
      if (seen) seen.lines.push(line);
      else found.set(path, { lines: [firstLine, line], value });
      found.get(path)!.value = value;
    },
  });
  return [...found].map(([path, { lines, value }]) => ({
    path,
    message: `set ${lines.length === 2 ? 'twice' : `${lines.length} times`} in one object, at lines ${lines.slice(0, -1).join(', ')} and ${lines.at(-1)}: JSON keeps only the last (${clipEcho(value.replace(/\s+/g, ' '))}) — delete ${lines.length === 2 ? 'one' : 'all but one'}`,
  }));
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
 * A batch scenario may leave `workload` out: its business events are then the rows of its source
 * table (id and amount), so every view that lists the workload lists them — and a parse that
 * fills in defaults (the recipe check's) parses the file as {@link parseScenario} does.
 */
export function withBatchWorkload(v: unknown): unknown {
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

/**
 * Validate any value as a scenario: migrate older versions, apply the schema (types, ranges,
 * limits, defaults), then check what the schema alone cannot (references between fields, the
 * combinations the real systems refuse).
 */
export function parseScenario(raw: unknown): ParseResult {
  const migrated = migrate(raw);
  if (!migrated.ok) return migrated;
  const deep = tooDeep(migrated.value);
  if (deep) return { ok: false, issues: [deep] };
  const input = withBatchWorkload(migrated.value);
  const parsed = ScenarioSchema.safeParse(input, REPORT_INPUT);
  if (!parsed.success) {
    const issues = schemaIssues(parsed.error.issues, (path) => keysAt(ScenarioSchema, input, path));
    return { ok: false, issues: [...issues, ...faultIssuesBeside(input, issues)] };
  }
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
