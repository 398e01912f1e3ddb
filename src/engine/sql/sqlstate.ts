/**
 * The SQLSTATE PostgreSQL reports for each database error the engine models
 * (https://www.postgresql.org/docs/current/errcodes-appendix.html).
 */
import type { ErrorCode } from '../trace';

const SQLSTATES: Partial<Record<ErrorCode, string>> = {
  // unique_violation: a plain INSERT (or MERGE's INSERT) of a key the unique index already holds.
  UNIQUE_VIOLATION: '23505',
  // cardinality_violation: ON CONFLICT DO UPDATE or MERGE "cannot affect row a second time".
  CARDINALITY_VIOLATION: '21000',
};

/** The SQLSTATE of a statement error the database raised, or null (NONE, or a client-side error). */
export function sqlstateOf(error: ErrorCode): string | null {
  return SQLSTATES[error] ?? null;
}
