/**
 * Export of a batch job's run (Export on a batch scenario): its own trace as JSON, its target
 * table as CSV (partition column, rows under the wrong partition marked), its ledger as CSV, and
 * the SQL its writes would run. Everything is rendered from the batch engine's run: the trace
 * entries, the table's rows and the statements it recorded as data (src/engine/batch/table.ts:
 * "so that the page, the explanations and a SQL export can each render them their own way") —
 * one source, so the SQL says what the engine did, statement by statement.
 *
 * The SQL in Spark's and Delta's dialect, as the job ran it: src/views/batch/batchStatementSql.ts.
 */
import {
  attemptWords,
  batchTimeLabel,
  periodLabel,
  runBatch,
  type BatchEntry,
  type BatchResult,
  type BatchRun,
  type Scenario,
  type Statement,
} from '../../engine';
import { csvRow } from '../io/csv';
import { claimIsSql, claimLines, claimsHeader } from './batchClaimsSql';
import { batchStatementSql, PART, TARGET } from './batchStatementSql';
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

/**
 * The SQL the job's writes ran, statement by statement in commit order, each with a comment
 * naming the attempt and its virtual time; statements of one attempt committed at the same
 * instant (an atomic DELETE+INSERT) are wrapped in one transaction. A dedupe store's claims
 * stand beside them in the order they ran (src/views/batch/batchClaimsSql.ts).
 */
export function batchSql(scenario: Scenario, r: BatchResult = runBatch(scenario)): string {
  const run = r.run;
  const writer = batchStatementSql(r);
  const sqlOf = (st: Statement) => writer.sql(st, 'spark').join('\n');
  const out = [
    `-- ${scenario.name.replace(/[\r\n]+/g, ' ')}: the SQL the batch job's writes ran, in commit order.`,
    `-- Table ${TARGET} (${writer.columns.join(', ')}), partitioned by ${PART}; batch trace ${run.hash}.`,
    ...claimsHeader(run),
    '',
  ];
  const sts = run.statements;
  const steps = writeSteps(run);
  const oneTransaction = run.config.dedupe?.order === 'one-transaction';
  const claimsAfter = run.config.dedupe?.order === 'write-then-claim';
  // One transaction with one write for the try: the try's claims, those that found their key
  // taken included, and its write are one transaction, from its first claim to its commit.
  const tryIsTransaction = oneTransaction && run.config.dedupe?.write === 'batch';
  for (let i = 0; i < steps.length;) {
    let j = i + 1;
    const { attempt } = steps[i]!.entry;
    const sameStep = (e: BatchEntry) =>
      e.attempt === attempt && (tryIsTransaction || e.at === steps[i]!.entry.at);
    while (j < steps.length && sameStep(steps[j]!.entry)) j++;
    const group = steps.slice(i, j);
    const at = group.at(-1)!.entry.at;
    const written = group.flatMap((s) =>
      s.statement && s.entry.kind === 'statement' ? [s.statement] : [],
    );
    const skips = group.filter((s) => s.entry.kind === 'claim-skipped').map((s) => s.entry);
    const claims = group.filter((s) => s.entry.kind === 'claim').map((s) => s.entry);
    const claimText = (es: BatchEntry[]) => es.flatMap((e) => claimLines(run, e));
    // In one transaction the claim rows commit with the data; otherwise each is its own step,
    // before the write (claim then write) or after it (write then claim). A try that is one
    // transaction claims its rows in the order it read them.
    const read = run.attempts[attempt]!.read;
    const inTxn = !oneTransaction
      ? []
      : tryIsTransaction
        ? [...claims, ...skips].sort(
            (a, b) => read.indexOf(a.events![0]!) - read.indexOf(b.events![0]!),
          )
        : claims;
    const txn = [...claimText(inTxn), ...written.map(sqlOf)];
    const txnSql = (oneTransaction && claimIsSql(run) ? inTxn.length : 0) + written.length;
    out.push(
      `-- ${attemptWords(run, attempt)}, ${written.length > 0 ? 'committed' : 'at'} ${batchTimeLabel(run, at)} (${at} ms)`,
      ...(tryIsTransaction ? [] : claimText(skips)),
      ...(oneTransaction || claimsAfter ? [] : claimText(claims)),
      // A statement the database refused (a dbt MERGE two new rows match one target row with),
      // as it ran, and its error: nothing applied, the try failed (docs/semantics/batch.md#writes).
      ...group.flatMap((s) =>
        s.entry.kind === 'statement-failed'
          ? [
              ...(s.statement ? [sqlOf(s.statement)] : []),
              `-- ERROR: ${run.attempts[s.entry.attempt]!.failure ?? 'its write failed'}: nothing applied, the try failed`,
            ]
          : [],
      ),
    );
    // A try that is one transaction and ended before its write (a crash) rolls its claims back.
    const rolledBack = tryIsTransaction && written.length === 0;
    if (txnSql > 1 || (rolledBack && txnSql > 0)) out.push('BEGIN;');
    out.push(...txn);
    if (rolledBack && txnSql > 0) out.push('ROLLBACK; -- the try ended before its write');
    else if (txnSql > 1) out.push('COMMIT;');
    if (claimsAfter) out.push(...claimText(claims));
    out.push('');
    i = j;
  }
  if (sts.length === 0) out.push('-- no write committed', '');
  return out.join('\n');
}

/** A statement (or a refused one), claim or skipped claim of the trace, with the statement it recorded. */
interface WriteStep {
  entry: BatchEntry;
  statement?: Statement;
}

/** The trace's writes and claims in order; the n-th `statement` entry is the n-th statement. */
function writeSteps(run: BatchRun): WriteStep[] {
  const out: WriteStep[] = [];
  let n = 0;
  let failed = 0;
  for (const entry of run.trace) {
    if (entry.kind === 'statement') out.push({ entry, statement: run.statements[n++]! });
    else if (entry.kind === 'statement-failed')
      out.push({ entry, statement: run.failedStatements[failed++]! });
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
