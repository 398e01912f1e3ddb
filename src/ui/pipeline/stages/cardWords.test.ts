import { describe, expect, it } from 'vitest';
import { cardWords } from './cardWords';

describe('cardWords', () => {
  it('marks the listed words at their syllables, and identifiers after _ and (', () => {
    expect(cardWords('on (transactional)')).toBe('on (\u200btrans\u00adac\u00adtion\u00adal)');
    expect(cardWords('idempotence')).toBe('idem\u00adpo\u00adtence');
    expect(cardWords('uncommitted')).toBe('un\u00adcom\u00admit\u00adted');
    expect(cardWords('consumer-0-replacement')).toBe('consumer-0-re\u00adplace\u00adment');
    // Not inside an identifier: read_uncommitted is one word.
    expect(cardWords('read_uncommitted')).toBe('read_\u200buncommitted');
    expect(cardWords('(ROW_NUMBER() = 1')).toBe('(\u200bROW_\u200bNUMBER() = 1');
  });

  it('leaves other words whole, and reads the same once the marks are removed', () => {
    const text = 'a report reading sink table payments, SELECT count(*), sum(amount)';
    expect(cardWords(text).replace(/[\u00ad\u200b]/g, '')).toBe(text);
    expect(cardWords('app + Kafka producer')).toBe('app + Kafka producer');
  });
});
