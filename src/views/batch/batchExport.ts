/**
 * Export of a batch job's run (Export on a batch scenario): its own trace as JSON, its target
 * table as CSV (partition column, rows under the wrong partition marked), its ledger as CSV, and
 * the SQL its writes would run. Everything is rendered from the batch engine's run: the trace
 * entries, the table's rows and the statements it recorded as data (src/engine/batch/table.ts:
 * "so that the page, the explanations and a SQL export can each render them their own way") —
 * one source, so the SQL says what the engine did, statement by statement.
 *
 * SQL dialect per statement kind (docs/semantics/batch.md#writes):
 * - `insert`, `insert-overwrite` … `PARTITION`: Spark SQL INSERT
 *   (https://spark.apache.org/docs/latest/sql-ref-syntax-dml-insert-table.html);
 * - `replace-where`: Delta's `INSERT INTO … REPLACE WHERE`
 *   (https://docs.databricks.com/aws/en/sql/language-manual/sql-ref-syntax-dml-insert-into);
 * - `delete-partition`, `delete-keys`, `merge`: DELETE and MERGE as PostgreSQL and Delta both
 *   accept them (https://www.postgresql.org/docs/current/sql-merge.html); statements the engine
 *   committed together (an atomic DELETE+INSERT) are one transaction.
 */
import {
  attemptWords,
  batchTimeLabel,
  CONTENT_COLUMN_SQL,
  periodLabel,
  runBatch,
  type BatchEntry,
  type BatchResult,
  type BatchRun,
  type DedupeKey,
  type Scenario,
  type SourceRow,
  type Statement,
} from '../../engine';
import { csvRow } from '../io/csv';
import { claimIsSql, claimLines, claimsHeader } from './batchClaimsSql';
import type { ArtifactKind, ArtifactOptions, ArtifactResult } from '../io/exportArtifact';
import { batchCompareMarkdown } from './batchCompare';
import { batchMarkdownReport } from './batchMarkdown';
import { atlasMarkdown } from '../atlas/atlasMarkdown';
import { withSections } from '../io/markdown';

/** The `format` tag of a batch trace file. */
const BATCH_TRACE_FORMAT = 'delivery-lab-batch-trace';

/**
 * The batch trace file: the scenario's name, the batch trace hash (as the Markdown report and
 * the CLI print it), the calendar, and every batch trace entry in order, one line each, with its
 * position as `id` and the labels of the periods it names.
 */
export function batchTraceJson(scenario: Scenario, r: BatchResult = runBatch(scenario)): string {
  const run = r.run;
  const label = (p: number) => periodLabel(run.calendar, p);
  const head = {
    format: BATCH_TRACE_FORMAT,
    version: 1,
    scenario: scenario.name,
    traceHash: run.hash,
    schedule: run.config.schedule,
    startDate: run.config.startDate,
    endTimeMs: run.endTime,
  };
  const lines = run.trace.map((e, id) =>
    JSON.stringify({
      id,
      ...e,
      ...(e.window !== undefined ? { windowLabel: label(e.window) } : {}),
      ...(e.partitions !== undefined ? { partitionLabels: e.partitions.map(label) } : {}),
    }),
  );
  const body = lines.length > 0 ? `\n    ${lines.join(',\n    ')}\n  ` : '';
  return `${JSON.stringify(head, null, 2).slice(0, -2)},\n  "entries": [${body}]\n}\n`;
}

/** Header of {@link batchTableCsv}. */
const TABLE_HEADER = [
  'row',
  'event_id',
  'partition',
  'event_date_partition',
  'wrong_partition',
  'dedupe_key',
  'amount',
  'logical_date',
  'try_number',
] as const;

/**
 * The target table at the end of the run as CSV, one record per row in the table's order:
 * its partition, the partition its event's own date names, whether it sits under the wrong one,
 * its dedupe key, amount, and the attempt that wrote it (logical date, try number).
 */
export function batchTableCsv(scenario: Scenario, r: BatchResult = runBatch(scenario)): string {
  const run = r.run;
  const label = (p: number) => periodLabel(run.calendar, p);
  const own = new Map(r.verdict.events.map((e) => [e.id, e.partition]));
  let out = csvRow(TABLE_HEADER);
  run.table.rows.forEach((row, i) => {
    const a = run.attempts[row.attempt]!;
    const mine = own.get(row.eventId);
    out += csvRow([
      i + 1,
      row.eventId,
      label(row.partition),
      mine === undefined ? '' : label(mine),
      mine !== undefined && mine !== row.partition,
      row.key,
      row.amount,
      label(run.runs[a.run]!.logicalDate),
      a.tryNumber,
    ]);
  });
  return out;
}

/**
 * The per-event ledger as CSV, in source order: the event's own partition, its fate (the batch
 * checker's: once, duplicated, lost, false-merge, wrong-partition), its rows there and elsewhere,
 * the event a dedupe mechanism merged it into, and the explanation's sentence.
 */
export function batchLedgerCsv(scenario: Scenario, r: BatchResult = runBatch(scenario)): string {
  const label = (p: number) => periodLabel(r.run.calendar, p);
  const told = new Map<string, string>();
  for (const x of r.explanations)
    for (const id of x.events) told.set(id, x.template.replaceAll('{id}', id));
  let out = csvRow([
    'event_id',
    'partition',
    'amount',
    'fate',
    'own_rows',
    'wrong_rows',
    'merged_into',
    'explanation',
  ]);
  const amount = new Map(r.run.config.source.map((s) => [s.id, s.amount]));
  for (const e of r.verdict.events)
    out += csvRow([
      e.id,
      label(e.partition),
      amount.get(e.id),
      e.fate,
      e.ownRows,
      [...e.wrongRows.values()].reduce((a, b) => a + b, 0),
      e.mergedInto ?? '',
      told.get(e.id) ?? '',
    ]);
  return out;
}

// ─────────────────────────────────────────────────────────────────────────── SQL

const TABLE = 'target';
/** The partition column (Airflow's `ds`). */
const PART = 'ds';
/** A source row's content column in the target, by the dedupe key's column name. */
const COLUMN = CONTENT_COLUMN_SQL;

const literal = (v: string) => `'${v.replace(/'/g, "''")}'`;

/** The target's columns: the event id, its content columns, then the partition column. */
function columnsOf(hourly: boolean, key: DedupeKey): (keyof typeof COLUMN)[] {
  const content: (keyof typeof COLUMN)[] = ['date', ...(hourly ? (['hour'] as const) : [])];
  if (key !== 'event-id') for (const c of key) if (!content.includes(c)) content.push(c);
  if (!content.includes('amount')) content.push('amount');
  return content;
}

/**
 * The SQL the job's writes ran, statement by statement in commit order, each with a comment
 * naming the attempt and its virtual time; statements of one attempt committed at the same
 * instant (an atomic DELETE+INSERT) are wrapped in one transaction. A dedupe store's claims
 * stand beside them in the order they ran (src/views/batch/batchClaimsSql.ts).
 */
export function batchSql(scenario: Scenario, r: BatchResult = runBatch(scenario)): string {
  const run = r.run;
  const cal = run.calendar;
  const label = (p: number) => periodLabel(cal, p);
  const byId = new Map(run.config.source.map((s) => [s.id, s]));
  const cols = columnsOf(cal.hourly, run.config.dedupeKey);
  const names = ['event_id', ...cols.map((c) => COLUMN[c])];
  const valueOf = (s: SourceRow, c: keyof typeof COLUMN): string =>
    c === 'hour' || c === 'amount' ? String(s[c]) : literal(s[c] ?? '');
  /** A row's values: its content, then (unless the partition is static) its partition. */
  const tuple = (id: string, st: Statement, withPart: boolean) => {
    const s = byId.get(id)!;
    const part = st.partitions.length === 1 ? st.partitions[0]! : ownPeriod(s);
    const vals = [literal(id), ...cols.map((c) => valueOf(s, c))];
    return `(${[...vals, ...(withPart ? [literal(label(part))] : [])].join(', ')})`;
  };
  const ownPeriod = (s: SourceRow) => r.verdict.events.find((e) => e.id === s.id)?.partition ?? 0;
  const values = (st: Statement, withPart: boolean) =>
    `VALUES\n  ${st.rows.map((id) => tuple(id, st, withPart)).join(',\n  ')}`;
  const where = (st: Statement) =>
    st.partitions.length === 1
      ? `${PART} = ${literal(label(st.partitions[0]!))}`
      : `${PART} IN (${st.partitions.map((p) => literal(label(p))).join(', ')})`;
  const keyCols =
    run.config.dedupeKey === 'event-id' ? ['event_id'] : run.config.dedupeKey.map((c) => COLUMN[c]);
  const all = [...names, PART];
  const noRows = `SELECT ${all.join(', ')} FROM source WHERE false -- its window read no rows`;

  const sqlOf = (st: Statement): string => {
    const empty = st.rows.length === 0;
    switch (st.kind) {
      case 'insert':
        return empty
          ? `-- INSERT INTO ${TABLE}: no rows read`
          : `INSERT INTO ${TABLE} (${all.join(', ')})\n${values(st, true)};`;
      case 'insert-overwrite': {
        const fixed = st.partitions.length === 1;
        const spec = fixed ? `PARTITION (${where(st)})` : `PARTITION (${PART})`;
        const cs = fixed ? names : all;
        return `INSERT OVERWRITE TABLE ${TABLE} ${spec} (${cs.join(', ')})\n${
          empty
            ? `SELECT ${cs.join(', ')} FROM source WHERE false -- its window read no rows`
            : values(st, !fixed)
        };`;
      }
      case 'replace-where':
        return `INSERT INTO ${TABLE} REPLACE WHERE ${where(st)}\n${empty ? noRows : values(st, true)};`;
      case 'delete-partition':
        return `DELETE FROM ${TABLE} WHERE ${where(st)};`;
      case 'delete-keys': {
        const key = keyCols.length === 1 ? keyCols[0]! : `(${keyCols.join(', ')})`;
        const keys = st.rows.map((id) => {
          const s = byId.get(id)!;
          const v =
            run.config.dedupeKey === 'event-id'
              ? [literal(id)]
              : run.config.dedupeKey.map((c) => valueOf(s, c));
          return v.length === 1 ? v[0]! : `(${v.join(', ')})`;
        });
        return empty
          ? `-- DELETE FROM ${TABLE}: no keys`
          : `DELETE FROM ${TABLE} WHERE ${key} IN (${keys.join(', ')});`;
      }
      case 'merge':
        return empty
          ? `-- MERGE INTO ${TABLE}: no rows read`
          : [
              `MERGE INTO ${TABLE} AS t`,
              `USING (${values(st, true)}) AS s (${all.join(', ')})`,
              `ON ${keyCols.map((k) => `t.${k} = s.${k}`).join(' AND ')}`,
              `WHEN MATCHED THEN UPDATE SET ${all.map((c) => `${c} = s.${c}`).join(', ')}`,
              `WHEN NOT MATCHED THEN INSERT (${all.join(', ')}) VALUES (${all.map((c) => `s.${c}`).join(', ')});`,
            ].join('\n');
    }
  };

  const out = [
    `-- ${scenario.name.replace(/[\r\n]+/g, ' ')}: the SQL the batch job's writes ran, in commit order.`,
    `-- Table ${TABLE} (${all.join(', ')}), partitioned by ${PART}; batch trace ${run.hash}.`,
    ...claimsHeader(run),
    '',
  ];
  const sts = run.statements;
  const steps = writeSteps(run);
  const oneTransaction = run.config.dedupe?.order === 'one-transaction';
  const claimsAfter = run.config.dedupe?.order === 'write-then-claim';
  for (let i = 0; i < steps.length;) {
    let j = i + 1;
    const { attempt, at } = steps[i]!.entry;
    while (j < steps.length && steps[j]!.entry.attempt === attempt && steps[j]!.entry.at === at)
      j++;
    const group = steps.slice(i, j);
    const written = group.flatMap((s) => (s.statement ? [s.statement] : []));
    const skips = group.filter((s) => s.entry.kind === 'claim-skipped').map((s) => s.entry);
    const claims = group.filter((s) => s.entry.kind === 'claim').map((s) => s.entry);
    const claimText = (es: BatchEntry[]) => es.flatMap((e) => claimLines(run, e));
    // In one transaction the claim rows commit with the data; otherwise each is its own step,
    // before the write (claim then write) or after it (write then claim).
    const inTxn = oneTransaction ? claims : [];
    const txn = [...claimText(inTxn), ...written.map(sqlOf)];
    const txnSql = (oneTransaction && claimIsSql(run) ? inTxn.length : 0) + written.length;
    out.push(
      `-- ${attemptWords(run, attempt)}, ${written.length > 0 ? 'committed' : 'at'} ${batchTimeLabel(run, at)} (${at} ms)`,
      ...claimText(skips),
      ...(oneTransaction || claimsAfter ? [] : claimText(claims)),
    );
    if (txnSql > 1) out.push('BEGIN;');
    out.push(...txn);
    if (txnSql > 1) out.push('COMMIT;');
    if (claimsAfter) out.push(...claimText(claims));
    out.push('');
    i = j;
  }
  if (sts.length === 0) out.push('-- no write committed', '');
  return out.join('\n');
}

/** A statement, claim or skipped claim of the trace, with the statement it recorded. */
interface WriteStep {
  entry: BatchEntry;
  statement?: Statement;
}

/** The trace's writes and claims in order; the n-th `statement` entry is the n-th statement. */
function writeSteps(run: BatchRun): WriteStep[] {
  const out: WriteStep[] = [];
  let n = 0;
  for (const entry of run.trace) {
    if (entry.kind === 'statement') out.push({ entry, statement: run.statements[n++]! });
    else if (entry.kind === 'claim' || entry.kind === 'claim-skipped') out.push({ entry });
  }
  return out;
}

/**
 * One export of a batch scenario (src/views/io/exportArtifact.ts asks here for a batch job):
 * the batch run's trace, table, ledger, SQL and Markdown report (with Compare's lanes when
 * given). A batch job has no message sequence: the diagrams are refused, saying why.
 */
export function batchArtifact(
  scenario: Scenario,
  kind: ArtifactKind,
  opts: ArtifactOptions = {},
): ArtifactResult {
  const r = runBatch(scenario);
  const text = (t: string): ArtifactResult => ({ ok: true, artifact: { text: t } });
  switch (kind) {
    case 'trace-json':
      return text(batchTraceJson(scenario, r));
    case 'table-csv':
      return text(batchTableCsv(scenario, r));
    case 'ledger-csv':
      return text(batchLedgerCsv(scenario, r));
    case 'sink-sql':
      return text(batchSql(scenario, r));
    case 'markdown': {
      const report = batchMarkdownReport(scenario, opts.preset ? { preset: opts.preset } : {});
      const atlas = opts.atlas ? atlasMarkdown(opts.atlas, true, undefined, opts.atlasFound) : null;
      if (!opts.compare && atlas === null) return text(report);
      return text(
        withSections(
          report,
          opts.compare && batchCompareMarkdown(opts.compare.base, opts.compare.spec),
          atlas,
        ),
      );
    }
    default:
      return {
        ok: false,
        missing: true,
        error: 'a batch job has no message sequence to draw: see its scheduler and table',
      };
  }
}
