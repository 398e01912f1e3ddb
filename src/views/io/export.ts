/**
 * What leaves and enters the app as files: the scenario as JSON, the trace as JSON, the sink table
 * and the per-event ledger as CSV (the Markdown report is in `./markdown`); scenario import from
 * a file, a paste or a drop is ./scenarioImport.ts (zod, off the lab's first load: issue 24; the
 * Export menu is on it). Pure functions: the page hands the text to
 * `platform/download`'s `downloadText`, the CLI prints it.
 */
import {
  CHECKPOINT_STEPS,
  ERROR_CODES,
  MESSAGE_TYPES,
  MAX_JSON_CHARS,
  SEND_CAUSES,
  SKIP_REASONS,
  TXN_STATES,
  traceHash,
  type EntryKind,
  type Run,
  type Scenario,
  type ScenarioInput,
  type Trace,
} from '../../engine';
import { csvRow, type CsvValue } from './csv';
import { rowNumber } from '../run/format';

// The engine's wording of validation issues, for the page's message boxes (ui/ takes engine types only).
export { issueLines } from '../../engine';

// ─────────────────────────────────────────────────────────────────────────── scenario JSON

/**
 * The scenario as a file: pretty JSON (two-space indent, trailing newline), exactly the object
 * given — pass the scenario as written (`ScenarioInput`, defaults not applied) to keep it short.
 * It opens again through {@link importScenarioText}.
 */
export function scenarioJson(scenario: ScenarioInput | Scenario): string {
  return `${JSON.stringify(scenario, null, 2)}\n`;
}

// ─────────────────────────────────────────────────────────────────────────── trace JSON

/** The `format` tag of a trace file. */
export const TRACE_FORMAT = 'delivery-lab-trace';
/** Version of the trace file format (see docs/trace-format.md). */
export const TRACE_FORMAT_VERSION = 1;

/**
 * One decoded trace entry in a trace file. A field of the engine's entry that is -1 ("none") is
 * left out; `kind` is the entry kind's name and `auxName` names `aux` when it is a code (a message
 * type, an error code, a send cause, a skip reason, a transaction state, a checkpoint step).
 */
interface TraceFileEntry {
  id: number;
  /** Virtual time (ms). */
  time: number;
  kind: EntryKind;
  /** Index into {@link TraceFile.actors}. */
  actor: number;
  peer?: number;
  cause?: number;
  /** Index into {@link TraceFile.events}. */
  event?: number;
  /** Index into {@link TraceFile.topics}. */
  topic?: number;
  partition?: number;
  offset?: number;
  count?: number;
  txn?: number;
  ckpt?: number;
  aux?: number;
  auxName?: string;
  until?: number;
}

/**
 * A trace file (`format: "delivery-lab-trace"`, `version: 1`): a run's whole trace, decoded.
 *
 * - `actors`, `topics`: the name tables the entries' `actor`/`peer` and `topic` index.
 * - `events`: the workload's events in trace order (`event` in an entry indexes it): business id,
 *   record key, amount, and the virtual time the application hands it over.
 * - `entries`: every trace entry, in order (`id` = position); `cause` is the id of the entry that
 *   caused it. Field meanings per kind: `ENTRY_KINDS` in src/engine/trace.ts, summarised in
 *   docs/trace-format.md.
 * - `traceHash`: the engine's SHA-256 digest of the trace (the same string as the CLI's JSON
 *   report and share links replay to), so a file can be matched to a run.
 *
 * Times are virtual milliseconds. Fields and entry kinds are only ever added in a version (a
 * reader skips a kind it does not know); a change of meaning gets a new version.
 */
export interface TraceFile {
  format: typeof TRACE_FORMAT;
  version: typeof TRACE_FORMAT_VERSION;
  scenario: string;
  seed: number;
  traceHash: string;
  /** Virtual time at which the run ended (ms). */
  endTimeMs: number;
  /** True when the run stopped with work pending: at `stopAtMs`, at the trace limit, or stuck. */
  cutOff: boolean;
  /** Why (the engine's `Run.cutOffBy`); absent when not cut off. */
  cutOffBy?: 'stop' | 'trace-limit' | 'stuck';
  /** The components still waiting when the run ended (the engine's `Run.stuck`); absent when none. */
  stuck?: { component: string; what: string; sinceMs: number }[];
  actors: string[];
  topics: string[];
  events: { id: string; key: string; amount: number; at: number }[];
  entries: TraceFileEntry[];
}

const ERROR_AUX = new Set<EntryKind>([
  'app-send-failed',
  'batch-failed',
  'reject',
  'stmt-error',
  'commit-failed',
  'data-loss',
]);

/** The name of entry `i`'s `aux` code, or undefined when `aux` is a plain number. */
function auxName(t: Trace, i: number): string | undefined {
  const kind = t.kindOf(i);
  const aux = t.aux[i]!;
  if (aux < 0) return undefined;
  if (kind === 'msg' || kind === 'msg-lost') return MESSAGE_TYPES[aux];
  if (kind === 'app-send') return SEND_CAUSES[aux];
  if (ERROR_AUX.has(kind)) return ERROR_CODES[aux];
  if (kind === 'row-skip' || kind === 'effect-replayed') return SKIP_REASONS[aux];
  if (kind === 'txn') return TXN_STATES[aux];
  if (kind === 'checkpoint') return CHECKPOINT_STEPS[aux];
  if (kind === 'marker') return aux === 1 ? 'commit' : 'abort';
  return undefined;
}

/** Decode trace entry `i` for a trace file. */
function traceFileEntry(t: Trace, i: number): TraceFileEntry {
  const e: TraceFileEntry = { id: i, time: t.time[i]!, kind: t.kindOf(i), actor: t.actor[i]! };
  const opt = (k: keyof TraceFileEntry, v: number) => {
    if (v !== -1) (e as unknown as Record<string, number>)[k] = v;
  };
  opt('peer', t.peer[i]!);
  opt('cause', t.cause[i]!);
  opt('event', t.event[i]!);
  opt('topic', t.topic[i]!);
  opt('partition', t.partition[i]!);
  opt('offset', t.offset[i]!);
  opt('count', t.count[i]!);
  opt('txn', t.txn[i]!);
  opt('ckpt', t.ckpt[i]!);
  opt('aux', t.aux[i]!);
  const name = auxName(t, i);
  if (name !== undefined) e.auxName = name;
  opt('until', t.until[i]!);
  return e;
}

/** Entries per chunk of {@link traceJsonChunks}. */
const CHUNK_ENTRIES = 5000;

/**
 * The trace file as text, in chunks (one line per entry), so a run of millions of entries can
 * become a Blob (`new Blob([...traceJsonChunks(run)])`) without one giant string.
 * Concatenated, the chunks are one JSON document: a {@link TraceFile}.
 */
export function* traceJsonChunks(run: Run): Generator<string> {
  const t = run.trace;
  const ev = run.events;
  const head = {
    format: TRACE_FORMAT,
    version: TRACE_FORMAT_VERSION,
    scenario: run.scenario.name,
    seed: run.scenario.seed,
    traceHash: traceHash(t),
    endTimeMs: run.endTime,
    cutOff: run.cutOff,
    ...(run.cutOffBy ? { cutOffBy: run.cutOffBy } : {}),
    ...(run.stuck.length > 0
      ? {
          stuck: run.stuck.map((x) => ({
            component: x.component,
            what: x.what,
            sinceMs: x.since,
          })),
        }
      : {}),
    actors: t.actors,
    topics: t.topics,
  };
  let out = `${JSON.stringify(head, null, 2).slice(0, -2)},\n  "events": [`;
  for (let e = 0; e < ev.count; e++) {
    const item = {
      id: ev.id(e),
      key: ev.keys[ev.keyIndex[e]!] ?? '',
      amount: ev.amount[e]!,
      at: ev.at[e]!,
    };
    out += `${e === 0 ? '\n' : ',\n'}    ${JSON.stringify(item)}`;
    if (out.length > 1 << 20) {
      yield out;
      out = '';
    }
  }
  out += `${ev.count > 0 ? '\n  ' : ''}],\n  "entries": [`;
  for (let i = 0; i < t.length; i++) {
    out += `${i === 0 ? '\n' : ',\n'}    ${JSON.stringify(traceFileEntry(t, i))}`;
    if (i % CHUNK_ENTRIES === CHUNK_ENTRIES - 1) {
      yield out;
      out = '';
    }
  }
  out += `${t.length > 0 ? '\n  ' : ''}]\n}\n`;
  yield out;
}

/** The trace file as one string (see {@link TraceFile}; for large runs use {@link traceJsonChunks}). */
export function traceJson(run: Run): string {
  let out = '';
  for (const chunk of traceJsonChunks(run)) out += chunk;
  return out;
}

// ─────────────────────────────────────────────────────────────────────────── CSV tables

/** Header of {@link tableCsv}. */
const TABLE_CSV_HEADER = [
  'row',
  'business_id',
  'key',
  'amount',
  'copy',
  'live',
  'source_topic',
  'source_partition',
  'source_offset',
  'inserted_at_ms',
] as const;

/**
 * A table of the run as CSV: the sink table (`point` = `sink`, the default) or a downstream
 * reader's copy (`reader:<name>`). One record per row ever inserted, in insertion order:
 * `row` (the row's number, from 1, as the table's `#` column and the diagrams count it — the
 * engine's row id, and a trace file's `aux` of its `row-insert`, plus one), `business_id` (the event's id, or the label of an initial row), `key` (the
 * record key), `amount` (now), `copy` (1 = the first row of its business id, 2+ = a duplicate),
 * `live` (false once deleted), the source record's coordinates, and the virtual time of the insert
 * (empty for an initial row). Text cells are neutralised against formula injection.
 * @returns the CSV text, or null when the run has no such table (a Kafka or service sink).
 */
export function tableCsv(run: Run, point = 'sink'): string | null {
  const store =
    point === 'sink'
      ? run.state.sink?.rows
      : point.startsWith('reader:')
        ? run.state.readers.get(point.slice('reader:'.length))
        : undefined;
  if (!store) return null;
  const t = run.trace;
  const ev = run.events;
  const seen = new Int32Array(ev.identities);
  let out = csvRow(TABLE_CSV_HEADER);
  for (let r = 0; r < store.length; r++) {
    const e = store.event.get(r);
    const entry = store.entry.get(r);
    const topic = store.topic.get(r);
    let id: string;
    let key: CsvValue = '';
    let copy: CsvValue = '';
    if (e >= 0) {
      id = ev.id(e);
      key = ev.keys[ev.keyIndex[e]!] ?? '';
      copy = ++seen[ev.identity[e]!]!;
    } else id = store.labels.get(r) ?? '';
    out += csvRow([
      rowNumber(r),
      id,
      key,
      store.amount.get(r),
      copy,
      store.live.get(r) === 1,
      topic >= 0 ? (t.topics[topic] ?? '') : '',
      store.partition.get(r) >= 0 ? store.partition.get(r) : '',
      store.offset.get(r) >= 0 ? store.offset.get(r) : '',
      entry >= 0 ? t.time[entry]! : '',
    ]);
  }
  return out;
}

/**
 * The per-event ledger as CSV: one record per business id, in workload order, with its key and
 * amount, its fate at the end of the pipeline (`lost`, `once`, `duplicated`), the effect count at
 * every observation point (one column per point, named as the checker names them: `log:payments`,
 * `processed`, `sink`, `reader:rc`, `effects`…), `latency_ms` (virtual ms from its first send to
 * its first effect at the end of the pipeline; empty if it never took effect) and, for an
 * anomaly, the checker's explanation.
 */
export function ledgerCsv(run: Run): string {
  const v = run.verdict;
  const ev = run.events;
  const explained = new Map<string, string>();
  // An explanation's sentence is about its first event; the others share the same story.
  for (const x of v.explanations)
    for (const id of x.events)
      explained.set(id, id === x.events[0] ? x.sentence : `as for ${x.events[0]}: ${x.sentence}`);
  let out = csvRow([
    'business_id',
    'key',
    'amount',
    'fate',
    ...v.points.map((p) => p.name),
    'latency_ms',
    'explanation',
  ]);
  for (let j = 0; j < ev.identities; j++) {
    const id = ev.identityId(j);
    const first = ev.firstIndexOf(j);
    const fate = v.fate[j] === 0 ? 'lost' : v.fate[j] === 1 ? 'once' : 'duplicated';
    out += csvRow([
      id,
      ev.keys[ev.keyIndex[first]!] ?? '',
      ev.amount[first]!,
      fate,
      ...v.points.map((p) => Math.max(p.rows[j]!, p.effects[j]!)),
      v.latencyOf[j]! >= 0 ? v.latencyOf[j]! : '',
      explained.get(id) ?? '',
    ]);
  }
  return out;
}

// ─────────────────────────────────────────────────────────────────────────── import (./scenarioImport.ts)

/** Largest scenario JSON accepted (characters): the engine's limit, for readers of other sources. */
export const SCENARIO_JSON_LIMIT = MAX_JSON_CHARS;
