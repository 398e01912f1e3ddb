/**
 * A column name of the user's table, as PostgreSQL reads an identifier
 * (https://www.postgresql.org/docs/current/sql-syntax-lexical.html#SQL-SYNTAX-IDENTIFIERS): "SQL
 * identifiers and key words must begin with a letter (a-z, but also letters with diacritical marks
 * and non-Latin letters) or an underscore (_). Subsequent characters in an identifier or key word
 * can be letters, underscores, digits (0-9), or dollar signs ($)"; "the maximum identifier length
 * is 63 bytes" (longer names are truncated: refused here, as the lab would run another name).
 * Apart from the SQL script's modules: the sink's card and the explanations name columns too.
 */

/** NAMEDATALEN − 1, PostgreSQL's default. */
const MAX_BYTES = 63;

const IDENTIFIER = /^[\p{L}_][\p{L}0-9_$]*$/u;

/**
 * PostgreSQL's reserved key words (the "reserved" ones of
 * https://www.postgresql.org/docs/current/sql-keywords-appendix.html): a column so named is
 * written quoted.
 */
const RESERVED = new Set(
  (
    'all analyse analyze and any array as asc asymmetric authorization binary both case cast check ' +
    'collate collation column concurrently constraint create cross current_catalog current_date ' +
    'current_role current_schema current_time current_timestamp current_user default deferrable ' +
    'desc distinct do else end except false fetch for foreign freeze from full grant group having ' +
    'ilike in initially inner intersect into is isnull join lateral leading left like limit ' +
    'localtime localtimestamp natural not notnull null offset on only or order outer overlaps ' +
    'placing primary references returning right select session_user similar some symmetric ' +
    'system_user table tablesample then to trailing true union unique user using variadic verbose ' +
    'when where window with'
  ).split(' '),
);

/** UTF-8 length of `s` (the engine has no TextEncoder). */
function utf8Bytes(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/** Why `name` is no SQL identifier, or null when it is one. */
export function sqlIdentifierIssue(name: string): string | null {
  if (!IDENTIFIER.test(name))
    return 'is no SQL identifier: a letter or _ first, then letters, digits, _ or $ (PostgreSQL: https://www.postgresql.org/docs/current/sql-syntax-lexical.html#SQL-SYNTAX-IDENTIFIERS)';
  if (utf8Bytes(name) > MAX_BYTES)
    return `is ${utf8Bytes(name)} bytes long: PostgreSQL keeps ${MAX_BYTES} bytes of an identifier and truncates the rest`;
  return null;
}

/**
 * An identifier as a statement writes it: bare when PostgreSQL reads it back as it is (lower case,
 * no reserved word), else quoted (a quoted name keeps its case: "PaymentId").
 */
export function identifierSql(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) && !RESERVED.has(name)
    ? name
    : `"${name.replace(/"/g, '""')}"`;
}
