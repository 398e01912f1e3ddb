/**
 * The scenarios the conformance suite replays on a real PostgreSQL (src/cli/sqlConformance*.test.ts):
 * every library preset variant and example scenario with a table sink, and every sink statement ×
 * key × per-record/per-batch combination on a small workload whose faults make the writer retry
 * and replay, and whose source repeats a business id inside one batch (MERGE's and DO UPDATE's
 * "cannot affect row a second time").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseScenario, type Scenario } from '../engine';
import { presets } from '../scenarios';

export interface ConformanceCase {
  name: string;
  scenario: Scenario;
}

function tableCase(name: string, raw: unknown): ConformanceCase | null {
  const parsed = parseScenario(raw);
  if (!parsed.ok) return null;
  return parsed.scenario.sink.type === 'table' ? { name, scenario: parsed.scenario } : null;
}

/** Every preset variant and example (public/scenarios) with a table sink, named preset/variant. */
export function presetCases(): ConformanceCase[] {
  const out: ConformanceCase[] = [];
  for (const p of presets)
    for (const v of p.variants) {
      const c = tableCase(`${p.id}/${v.id}`, v.scenario);
      if (c) out.push(c);
    }
  const dir = join(import.meta.dirname, '../../public/scenarios');
  for (const f of readdirSync(dir).sort()) {
    const c = tableCase(`example ${f}`, JSON.parse(readFileSync(join(dir, f), 'utf8')));
    if (c) out.push(c);
  }
  return out;
}

/** The statement forms the schema allows (with their sub-options). */
const STATEMENTS: { name: string; sink: Record<string, unknown> }[] = [
  { name: 'insert', sink: { statement: 'insert' } },
  { name: 'insert unique', sink: { statement: 'insert', uniqueKey: true } },
  { name: 'insert dedupe', sink: { statement: 'insert', dedupe: { retentionMs: 60_000 } } },
  { name: 'do-nothing', sink: { statement: 'on-conflict-do-nothing' } },
  { name: 'do-update excluded', sink: { statement: 'on-conflict-do-update', set: 'excluded' } },
  { name: 'do-update add', sink: { statement: 'on-conflict-do-update', set: 'add-excluded' } },
  { name: 'merge update', sink: { statement: 'merge' } },
  { name: 'merge update unique', sink: { statement: 'merge', uniqueKey: true } },
  { name: 'merge do-nothing', sink: { statement: 'merge', merge: { whenMatched: 'do-nothing' } } },
  { name: 'merge none', sink: { statement: 'merge', merge: { whenMatched: 'none' } } },
  {
    name: 'merge dedupe-source',
    sink: { statement: 'merge', merge: { whenMatched: 'update', dedupeSource: true } },
  },
];

/**
 * Four records, the second business id twice (e2, then e2 again with a new amount), polled two
 * at a time; a row for e1 and one for an id no event has exist before the run; the first answer
 * of the sink is lost (a retry), and the consumer crashes before its second commit (a replay).
 */
function combination(sink: Record<string, unknown>): unknown {
  return {
    version: 1,
    name: 'conformance',
    workload: {
      topic: 'payments',
      events: [
        { id: 'e1', amount: 10, at: 0 },
        { id: 'e2', amount: 20, at: 10 },
        { id: 'e2', amount: 25, at: 20 },
        { id: 'e3', amount: 30, at: 30 },
      ],
    },
    producer: { 'linger.ms': 0 },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'max.poll.records': 2,
      'auto.offset.reset': 'earliest',
      startAtMs: 1000,
    },
    sink: {
      type: 'table',
      name: 'payments',
      'statement.timeout.ms': 500,
      retries: 2,
      initialRows: [
        { id: 'e1', amount: 1 },
        { id: 'x9', amount: 7 },
      ],
      ...sink,
    },
    faults: [
      { kind: 'drop-response', link: 'sink', match: { nth: 1 } },
      { kind: 'crash', target: 'consumer-0', point: 'before-commit', nth: 2 },
    ],
    stopAtMs: 120_000,
  };
}

/** Every statement × key × statementPer the schema accepts, named by them. */
export function combinationCases(): ConformanceCase[] {
  const out: ConformanceCase[] = [];
  for (const st of STATEMENTS)
    for (const key of ['business-id', 'uuid-per-attempt', 'source-offset'])
      for (const per of ['record', 'batch']) {
        const c = tableCase(
          `${st.name} · ${key} · per ${per}`,
          combination({ ...st.sink, key, statementPer: per }),
        );
        if (c) out.push(c);
      }
  return out;
}

/**
 * The table's columns under a user's names (`sink.columns`, docs/sql.md#your-names): every lab
 * column renamed, one to a name PostgreSQL reads only quoted (upper case) and one to a reserved
 * word ("order"), which the script must quote to run.
 */
export const RENAMED_COLUMNS = {
  id: 'payment_id',
  amount: 'Amount_EUR',
  src: 'order',
  uuid: 'row_uuid',
} as const;

/** Every statement × key per record with {@link RENAMED_COLUMNS}: the combinations' run, renamed. */
export function renamedCases(): ConformanceCase[] {
  const out: ConformanceCase[] = [];
  for (const st of STATEMENTS)
    for (const key of ['business-id', 'uuid-per-attempt', 'source-offset']) {
      const c = tableCase(
        `renamed · ${st.name} · ${key}`,
        combination({ ...st.sink, key, statementPer: 'record', columns: RENAMED_COLUMNS }),
      );
      if (c) out.push(c);
    }
  return out;
}
