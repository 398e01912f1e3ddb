import { describe, expect, it } from 'vitest';
import { formatCountOf } from './format';

describe('formatCountOf', () => {
  it('puts the noun in the number the count needs', () => {
    expect(formatCountOf(0, 'record')).toBe('0 records');
    expect(formatCountOf(1, 'record')).toBe('1 record');
    expect(formatCountOf(2, 'record')).toBe('2 records');
    expect(formatCountOf(1234, 'row')).toBe('1,234 rows');
    expect(formatCountOf(1, 'batch', 'batches')).toBe('1 batch');
    expect(formatCountOf(3, 'batch', 'batches')).toBe('3 batches');
  });
});
