/**
 * Export on a batch scenario gives the batch run's own files (docs/semantics/batch.md): its trace,
 * its table with the partition column and the wrong-partition rows marked, its ledger, and the
 * SQL its writes ran — never a stream run of a derived workload. Contents derived by hand.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, type BatchInput, type Scenario } from '../../engine';
import { findPreset } from '../../scenarios';
import { computeArtifact } from '../io/exportArtifact';
import { batchLedgerCsv, batchSql, batchTableCsv, batchTraceJson } from './batchExport';

const scenarioOf = (input: unknown): Scenario => {
  const p = parseScenario(input);
  if (!p.ok) throw new Error(JSON.stringify(p.issues));
  return p.scenario;
};

/**
 * Two events dated 2024-03-10, retries=1, try 1 crashes after its write committed: the run of
 * 2024-03-10 starts at 24 h (86,400,000 ms), reads 60 s, writes 1 row per second, so an atomic
 * write of 2 rows commits at 86,462,000; the retry starts 300 s later (86,762,000) and commits at
 * 86,824,000 (docs/semantics/batch.md#the-scheduler).
 */
const job = (write: BatchInput['write']) =>
  scenarioOf({
    version: 1,
    name: 'retry',
    claim: 'exactly-once',
    batch: {
      task: { retries: 1 },
      write,
      source: [
        { id: 'e1', date: '2024-03-10', amount: 10 },
        { id: 'e2', date: '2024-03-10', amount: 20 },
      ],
      faults: [{ logicalDate: 0, tryNumber: 1, point: 'after-write' }],
    },
  });

const VALUES = `VALUES
  ('e1', '2024-03-10', 10, '2024-03-10'),
  ('e2', '2024-03-10', 20, '2024-03-10')`;
const TRY1 =
  '-- try 1 of 2024-03-10 (the scheduled run, started 2024-03-11 00:00), committed 2024-03-11 00:01 (86462000 ms)';
const TRY2 =
  '-- try 2 of 2024-03-10 (a retry, started 2024-03-11 00:06), committed 2024-03-11 00:07 (86824000 ms)';

describe('batch export', { timeout: 30_000 }, () => {
  it('a dbt MERGE the database refuses is said where it ran: nothing applied, the try failed', () => {
    // e1, e2 share (amount) 10: try 1 inserts both (the target lacks the key); try 2's MERGE
    // matches each of their rows with both new rows: cardinality_violation (docs/semantics/batch.md).
    const s = scenarioOf({
      version: 1,
      name: 'dbt merge',
      claim: 'exactly-once',
      batch: {
        task: { retries: 1 },
        write: { mode: 'dbt-incremental', uniqueKey: true, strategy: 'merge' },
        dedupeKey: ['amount'],
        source: [
          { id: 'e1', date: '2024-03-10', amount: 10 },
          { id: 'e2', date: '2024-03-10', amount: 10 },
        ],
        faults: [{ logicalDate: 0, tryNumber: 1, point: 'after-write' }],
      },
    });
    // The refused MERGE as it ran (it was a comment alone), then its error.
    expect(batchSql(s).split('\n').slice(-10)).toEqual([
      '-- try 2 of 2024-03-10 (a retry, started 2024-03-11 00:06), at 2024-03-11 00:07 (86824000 ms)',
      'MERGE INTO target AS t',
      'USING (VALUES',
      "  ('e1', '2024-03-10', 10, '2024-03-10'),",
      "  ('e2', '2024-03-10', 10, '2024-03-10')) AS s (event_id, event_date, amount, ds)",
      'ON t.amount = s.amount',
      'WHEN MATCHED THEN UPDATE SET event_id = s.event_id, event_date = s.event_date, amount = s.amount, ds = s.ds',
      'WHEN NOT MATCHED THEN INSERT (event_id, event_date, amount, ds) VALUES (s.event_id, s.event_date, s.amount, s.ds);',
      '-- ERROR: its MERGE matched one target row with 2 new rows (key amount=10): cardinality_violation (21000): nothing applied, the try failed',
      '',
    ]);
  });
  it('SQL: an append retried after its commit runs the same INSERT twice (Airflow: "an INSERT statement might lead to duplicate rows")', () => {
    const sql = batchSql(job({ mode: 'append' }));
    const insert = `INSERT INTO target (event_id, event_date, amount, ds)\n${VALUES};`;
    expect(sql.split('\n').slice(3).join('\n')).toBe(`${TRY1}\n${insert}\n\n${TRY2}\n${insert}\n`);
  });

  it('SQL: each write mode in its own statement words', () => {
    // INSERT OVERWRITE … PARTITION (static): the partition column leaves the value list (Spark SQL INSERT).
    expect(batchSql(job({ mode: 'overwrite-partition' }))).toContain(
      `INSERT OVERWRITE TABLE target PARTITION (ds = '2024-03-10') (event_id, event_date, amount)\nVALUES\n  ('e1', '2024-03-10', 10),\n  ('e2', '2024-03-10', 20);`,
    );
    // Delta replaceWhere.
    expect(batchSql(job({ mode: 'overwrite-partition', as: 'replace-where' }))).toContain(
      `INSERT INTO target REPLACE WHERE ds = '2024-03-10'\n${VALUES};`,
    );
    // DELETE+INSERT committed together (atomic): one transaction per attempt, 2 attempts.
    const di = batchSql(job({ mode: 'overwrite-partition', as: 'delete-insert' }));
    expect(
      di.match(/^BEGIN;\nDELETE FROM target WHERE ds = '2024-03-10';\nINSERT INTO/gm),
    ).toHaveLength(2);
    expect(di.match(/^COMMIT;$/gm)).toHaveLength(2);
    // Not atomic: the DELETE and each row commit on their own — 2 attempts × (1 + 2) statements, no BEGIN.
    const split = batchSql(
      job({ mode: 'overwrite-partition', as: 'delete-insert', atomic: false }),
    );
    expect(split).not.toContain('BEGIN;');
    expect(split.match(/^(DELETE|INSERT)/gm)).toHaveLength(6);
    // MERGE on the event id.
    expect(batchSql(job({ mode: 'merge' }))).toContain(
      `MERGE INTO target AS t\nUSING (${VALUES}) AS s (event_id, event_date, amount, ds)\nON t.event_id = s.event_id\n`,
    );
    // dbt delete+insert with unique_key: the keys' rows go first, in the same commit.
    expect(
      batchSql(job({ mode: 'dbt-incremental', uniqueKey: true, strategy: 'delete+insert' })),
    ).toContain(`BEGIN;\nDELETE FROM target WHERE event_id IN ('e1', 'e2');\nINSERT INTO`);
  });

  it('table CSV: the clock window re-run leaves f1, f2 under 2024-03-10, marked', () => {
    // clear-rerun-window/clock-overwrite: date 2024-03-12's run writes f1, f2 under their own
    // date; the re-run of 2024-03-10 on 2024-03-13 reads current_date() - 1 = 2024-03-12 and
    // overwrites partition 2024-03-10 with f1, f2 (e1..e3 gone): 4 rows, the last 2 misplaced.
    const s = scenarioOf(findPreset('clear-rerun-window/clock-overwrite')!.variant.scenario);
    expect(batchTableCsv(s)).toBe(
      [
        'row,event_id,partition,event_date_partition,wrong_partition,dedupe_key,amount,logical_date,try_number',
        '1,f1,2024-03-12,2024-03-12,false,id=f1,100,2024-03-12,1',
        '2,f2,2024-03-12,2024-03-12,false,id=f2,200,2024-03-12,1',
        '3,f1,2024-03-10,2024-03-12,true,id=f1,100,2024-03-10,2',
        '4,f2,2024-03-10,2024-03-12,true,id=f2,200,2024-03-10,2',
        '',
      ].join('\r\n'),
    );
    const ledger = batchLedgerCsv(s).split('\r\n');
    // 1 header + 5 events (e1..e3 lost, f1, f2 duplicated: 1 own row + 1 misplaced) + ''.
    expect(ledger).toHaveLength(7);
    expect(ledger[1]).toMatch(/^e1,2024-03-10,10,lost,0,0,,"e1 was written by try 1/);
    expect(ledger[4]).toMatch(/^f1,2024-03-12,100,duplicated,1,1,,/);
  });

  it('trace JSON: the batch trace, entry by entry, with its hash', () => {
    const s = job({ mode: 'append' });
    const file = JSON.parse(batchTraceJson(s)) as {
      format: string;
      traceHash: string;
      entries: { id: number; kind: string; windowLabel?: string }[];
    };
    expect(file.format).toBe('delivery-lab-batch-trace');
    // try 1: start, read, statement, crash, retry-scheduled; try 2: start, read, statement, success.
    expect(file.entries.map((e) => e.kind)).toEqual([
      'attempt-start',
      'read',
      'statement',
      'crash',
      'retry-scheduled',
      'attempt-start',
      'read',
      'statement',
      'success',
    ]);
    expect(file.entries[1]!.windowLabel).toBe('2024-03-10');
  });

  /**
   * The same two events behind a dedupe store, per-row writes, try 1 crashing after 1 row (between
   * the two steps of e2); write at 86,460,000 (start + 60 s read), one row per second: e1 at
   * 86,461,000, e2 at 86,462,000; the retry starts 300 s after the crash (86,762,000), writes from
   * 86,822,000: e1 at 86,823,000, e2 at 86,824,000 (docs/semantics/batch.md#dedupe-stores).
   * Redis answers SET … NX with OK when it set the key, (nil) when it existed
   * (https://redis.io/docs/latest/commands/set/).
   */
  const claimJob = (
    store: 'redis' | 'table',
    order: 'claim-then-write' | 'write-then-claim' | 'one-transaction',
    ttlMs = 86_400_000,
  ) =>
    scenarioOf({
      version: 1,
      name: 'claims',
      batch: {
        task: { retries: 1 },
        write: { mode: 'append' },
        dedupe: { store, order, ttlMs },
        source: [
          { id: 'e1', date: '2024-03-10', amount: 10 },
          { id: 'e2', date: '2024-03-10', amount: 20 },
        ],
        faults: [{ logicalDate: 0, point: 'mid-write', afterRows: 1 }],
      },
    });
  const row = (id: string, amount: number) =>
    `INSERT INTO target (event_id, event_date, amount, ds)\nVALUES\n  ('${id}', '2024-03-10', ${amount}, '2024-03-10');`;
  const at = (t: 1 | 2, ms: number, committed: boolean) =>
    `-- try ${t} of 2024-03-10 (${t === 1 ? 'the scheduled run, started 2024-03-11 00:00' : 'a retry, started 2024-03-11 00:06'}), ${committed ? 'committed' : 'at'} 2024-03-11 00:0${t === 1 ? 1 : 7} (${ms} ms)`;

  it('SQL: Redis claims stand beside the rows — claim then write leaves e2 claimed with no row, and the retry skips it', () => {
    const sql = batchSql(claimJob('redis', 'claim-then-write'));
    const set = (id: string, answer: string) =>
      `-- redis> SET dedupe:id=${id} 1 NX EX 86400  → ${answer}`;
    expect(sql.split('\n').slice(2).join('\n')).toBe(
      [
        '-- Dedupe store: Redis, SET dedupe:{key} 1 NX EX 86400 (order claim-then-write); its commands are shown as comments (redis>).',
        '',
        at(1, 86_461_000, true),
        set('e1', 'OK, e1 claimed'),
        row('e1', 10),
        '',
        at(1, 86_462_000, false),
        set('e2', 'OK, e2 claimed'),
        '',
        at(2, 86_823_000, false),
        set('e1', '(nil), already claimed by e1: e1 is skipped'),
        '',
        at(2, 86_824_000, false),
        set('e2', '(nil), already claimed by e2: e2 is skipped'),
        '',
      ].join('\n'),
    );
  });

  it('SQL: write then claim checks (EXISTS) before, claims after the row; a TTL of 900.5 s is PX 900500', () => {
    const sql = batchSql(claimJob('redis', 'write-then-claim', 900_500));
    // e2 was written by try 1 but never claimed: try 2 finds no key and writes it again.
    expect(sql).toContain(
      [
        at(2, 86_823_000, false),
        '-- redis> EXISTS dedupe:id=e1  → (integer) 1, already claimed by e1: e1 is skipped',
        '',
        at(2, 86_824_000, true),
        row('e2', 20),
        '-- redis> SET dedupe:id=e2 1 NX PX 900500  → OK, e2 claimed',
      ].join('\n'),
    );
    expect(sql.match(/^-- redis> SET /gm)).toHaveLength(2);
  });

  it('SQL: a dedupe table in one transaction with the row — the claim is SQL inside BEGIN … COMMIT', () => {
    const sql = batchSql(claimJob('table', 'one-transaction'));
    const claim = (id: string, ms: number, rows: string) =>
      `INSERT INTO dedupe_claims (dedupe_key, event_id, claimed_at_ms) VALUES ('id=${id}', '${id}', ${ms})\nON CONFLICT (dedupe_key) DO NOTHING; -- ${rows}`;
    expect(sql.split('\n').slice(3).join('\n')).toBe(
      [
        '',
        at(1, 86_461_000, true),
        'BEGIN;',
        claim('e1', 86_461_000, '1 row, e1 claimed'),
        row('e1', 10),
        'COMMIT;',
        '',
        at(2, 86_823_000, false),
        claim('e1', 86_823_000, '0 rows, already claimed by e1: e1 is skipped'),
        '',
        at(2, 86_824_000, true),
        'BEGIN;',
        claim('e2', 86_824_000, '1 row, e2 claimed'),
        row('e2', 20),
        'COMMIT;',
        '',
      ].join('\n'),
    );
  });

  it('SQL: one transaction with one write for the try holds every claim of the try, the one that finds its key taken too', () => {
    // e2 shares e1's amount, the dedupe key: its claim found e1's pending claim row in the same
    // transaction. It was printed before BEGIN, as a statement of its own, where it would have
    // claimed the key for e2 before e1's transaction began.
    const job = (faults: { logicalDate: number; point: 'mid-write'; afterRows: number }[]) =>
      scenarioOf({
        version: 1,
        name: 'claims',
        batch: {
          task: { retries: 1 },
          write: { mode: 'append' },
          dedupeKey: ['amount'],
          dedupe: { store: 'table', order: 'one-transaction', ttlMs: 86_400_000, write: 'batch' },
          source: [
            { id: 'e1', date: '2024-03-10', amount: 10 },
            { id: 'e2', date: '2024-03-10', amount: 10 },
            { id: 'e3', date: '2024-03-10', amount: 30 },
          ],
          faults,
        },
      });
    const claim = (key: string, id: string, ms: number, rows: string) =>
      `INSERT INTO dedupe_claims (dedupe_key, event_id, claimed_at_ms) VALUES ('amount=${key}', '${id}', ${ms})\nON CONFLICT (dedupe_key) DO NOTHING; -- ${rows}`;
    const skipped = '0 rows, already claimed by e1: e2 is skipped';
    // Checks one row a second from 86,461,000 (start + 60 s read), the write after the third.
    expect(batchSql(job([])).split('\n').slice(4).join('\n')).toBe(
      [
        at(1, 86_463_000, true),
        'BEGIN;',
        claim('10', 'e1', 86_463_000, '1 row, e1 claimed'),
        claim('10', 'e2', 86_462_000, skipped),
        claim('30', 'e3', 86_463_000, '1 row, e3 claimed'),
        `INSERT INTO target (event_id, event_date, amount, ds)\nVALUES\n  ('e1', '2024-03-10', 10, '2024-03-10'),\n  ('e3', '2024-03-10', 30, '2024-03-10');`,
        'COMMIT;',
        '',
      ].join('\n'),
    );
    // A crash after two checks: the try's transaction ends without its write.
    const crashed = batchSql(job([{ logicalDate: 0, point: 'mid-write', afterRows: 2 }]));
    expect(crashed).toContain(
      [
        at(1, 86_462_000, false),
        'BEGIN;',
        claim('10', 'e2', 86_462_000, skipped),
        'ROLLBACK; -- the try ended before its write',
      ].join('\n'),
    );
  });

  it('the export client answers a batch scenario from the batch run, and refuses its diagrams', () => {
    const input = findPreset('airflow-retry-append')!.variant.scenario;
    const table = computeArtifact(input, 'table-csv');
    // S21 append: 20 rows (e1..e10 twice) + header + final CRLF.
    expect(table.ok && table.artifact.text.split('\r\n')).toHaveLength(22);
    expect(table.ok && table.artifact.text.startsWith('row,event_id,partition,')).toBe(true);
    const trace = computeArtifact(input, 'trace-json');
    expect(trace.ok && trace.artifact.text).toContain('"format": "delivery-lab-batch-trace"');
    const sql = computeArtifact(input, 'sink-sql');
    expect(sql.ok && sql.artifact.text.match(/^INSERT INTO target/gm)).toHaveLength(2);
    const seq = computeArtifact(input, 'sequence');
    expect(seq.ok).toBe(false);
    expect(!seq.ok && seq.error).toMatch(/no message sequence/);
  });
});
