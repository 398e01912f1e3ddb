import { describe, expect, it } from 'vitest';
import { batchTotalsWords } from './observedWords';

describe('a batch run’s totals in words', () => {
  it('words a count of one in the singular ("1 duplicate", "1 row"), others in the plural', () => {
    const totals = (rows: number, duplicates: number) => ({
      observed: 'at-least-once' as const,
      totals: { rows, duplicates, lost: 0, wrongPartitionRows: 0 },
    });
    expect(batchTotalsWords(totals(1, 1) as never)).toBe(
      '1 row · 1 duplicate · 0 lost · 0 under the wrong partition · observed at-least-once',
    );
    expect(batchTotalsWords(totals(11, 2) as never)).toMatch(/^11 rows · 2 duplicates · /);
  });
});
