import { describe, expect, it } from 'vitest';
import { identifierSql, sqlIdentifierIssue } from './sqlIdentifier';

describe('a column name as PostgreSQL reads an identifier', () => {
  it('takes a letter or _ first, then letters, digits, _ or $, at most 63 bytes', () => {
    for (const ok of ['payment_id', '_x', 'Amount_EUR', 'betrag$1', 'größe', 'a'.repeat(63)])
      expect(sqlIdentifierIssue(ok)).toBeNull();
    for (const bad of ['payment id', '1st', '', 'a-b', 'x"y'])
      expect(sqlIdentifierIssue(bad)).toMatch(/^is no SQL identifier: /);
    // 32 two-byte letters are 64 bytes: PostgreSQL would truncate the name, so it is refused.
    expect(sqlIdentifierIssue('ä'.repeat(32))).toBe(
      'is 64 bytes long: PostgreSQL keeps 63 bytes of an identifier and truncates the rest',
    );
    expect(sqlIdentifierIssue('a'.repeat(64))).toMatch(/^is 64 bytes long/);
  });

  it('is written bare when PostgreSQL reads it back as it is, else quoted', () => {
    expect(identifierSql('payment_id')).toBe('payment_id');
    // Upper case is folded unless quoted; a reserved word is no column name unquoted.
    expect(identifierSql('Amount_EUR')).toBe('"Amount_EUR"');
    expect(identifierSql('order')).toBe('"order"');
    expect(identifierSql('user')).toBe('"user"');
  });
});
