/**
 * A batch job's dedupe-store claims as the SQL export shows them, beside the job's statements
 * (src/views/batch/batchExport.ts), so the script tells the whole story of a claim and its row:
 * - Redis (`store: redis`): the command as redis-cli would run it, as a comment, since a SQL
 *   script cannot run it — `SET dedupe:{key} 1 NX EX <ttl>` answers `OK` when it set the key and
 *   `(nil)` when the key existed ("NX -- Only set the key if it does not already exist";
 *   `EX seconds`, `PX milliseconds`, https://redis.io/docs/latest/commands/set/). Write then
 *   claim checks first (`EXISTS`, https://redis.io/docs/latest/commands/exists/).
 * - A dedupe table (`store: table`): SQL in the sink's database, `INSERT … ON CONFLICT DO
 *   NOTHING` (0 rows: the key was claimed,
 *   https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT); with order
 *   `one-transaction` it commits with the row.
 * Why the order matters: docs/semantics/batch.md#dedupe-stores.
 */
import { text as sqlText } from '../../engine/sql/table';
import { dedupeKeyOf, storeKeyName, type BatchEntry, type BatchRun } from '../../engine';

/** The dedupe table of a `store: table` job. */
const CLAIMS_TABLE = 'dedupe_claims';

/** A Redis argument as redis-cli reads it: bare, or double-quoted when it holds a space or a quote. */
function redisArg(v: string): string {
  return /^[^\s"'\\]+$/.test(v) ? v : `"${v.replace(/(["\\])/g, '\\$1')}"`;
}

/** Redis's expiry option for the TTL: whole seconds as `EX`, otherwise `PX` milliseconds. */
function redisExpiry(ttlMs: number): string {
  return ttlMs % 1000 === 0 ? `EX ${ttlMs / 1000}` : `PX ${ttlMs}`;
}

/** The script's header line naming the store, or none without one. */
export function claimsHeader(run: BatchRun): string[] {
  const d = run.config.dedupe;
  if (d === undefined) return [];
  if (d.store === 'redis')
    return [
      `-- Dedupe store: Redis, SET dedupe:{key} 1 NX ${redisExpiry(d.ttlMs)} (order ${d.order}); its commands are shown as comments (redis>).`,
    ];
  return [
    `-- Dedupe table ${CLAIMS_TABLE} (dedupe_key PRIMARY KEY, event_id, claimed_at_ms), order ${d.order}; its retention job deletes claims older than ${d.ttlMs} ms.`,
  ];
}

/**
 * The lines of one claim entry (`claim` or `claim-skipped`): the Redis command and its answer, or
 * the dedupe table's statement.
 */
export function claimLines(run: BatchRun, e: BatchEntry): string[] {
  const d = run.config.dedupe!;
  const id = e.events![0]!;
  const row = run.config.source.find((s) => s.id === id)!;
  const key = dedupeKeyOf(row, run.config.dedupeKey);
  const skipped = e.kind === 'claim-skipped';
  const held = skipped ? `already claimed by ${e.heldBy}: ${id} is skipped` : '';
  // Write then claim looks the key up before writing; the claim itself comes after the row.
  const check = skipped && d.order === 'write-then-claim';
  if (d.store === 'redis') {
    const name = redisArg(storeKeyName(key));
    return check
      ? [`-- redis> EXISTS ${name}  → (integer) 1, ${held}`]
      : [
          `-- redis> SET ${name} 1 NX ${redisExpiry(d.ttlMs)}  → ${skipped ? `(nil), ${held}` : `OK, ${id} claimed`}`,
        ];
  }
  if (check)
    return [
      `SELECT event_id FROM ${CLAIMS_TABLE} WHERE dedupe_key = ${sqlText(key)}; -- 1 row, ${held}`,
    ];
  return [
    `INSERT INTO ${CLAIMS_TABLE} (dedupe_key, event_id, claimed_at_ms) VALUES (${sqlText(key)}, ${sqlText(id)}, ${e.at})`,
    `ON CONFLICT (dedupe_key) DO NOTHING; -- ${skipped ? `0 rows, ${held}` : `1 row, ${id} claimed`}`,
  ];
}

/** Whether a claim entry is SQL (a dedupe table), which a transaction of the export may hold. */
export function claimIsSql(run: BatchRun): boolean {
  return run.config.dedupe?.store === 'table';
}
