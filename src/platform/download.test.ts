import { describe, expect, it } from 'vitest';
import { fileStem } from './download';

describe('fileStem: an exported file’s name from the scenario’s', () => {
  it('is the name’s words in lower case, dashed', () => {
    expect(fileStem('A lost acknowledgement, retried — idempotence off')).toBe(
      'a-lost-acknowledgement-retried-idempotence-off',
    );
  });

  it('cuts a long name at the last word boundary within 60 characters, not mid-word', () => {
    // Dashed, "…-when-the" ends at the 53rd character and "-consumer" at the 62nd.
    const name = 'Exactly-once: a transactional producer fenced when the consumer restarts';
    const stem = fileStem(name);
    expect(stem).toBe('exactly-once-a-transactional-producer-fenced-when-the');
    expect(stem.length).toBeLessThanOrEqual(60);
    // Cut at 60 before: "…-when-the-consum", "consumer" cut in two.
    expect(
      name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .slice(0, 60),
    ).toMatch(/-the-consum$/);
  });

  it('keeps a word that ends at the 60th character whole; cuts a single word longer than that', () => {
    const sixty = `${'a'.repeat(29)} ${'b'.repeat(30)}`;
    expect(fileStem(`${sixty} cccc`)).toBe(sixty.replace(' ', '-'));
    expect(fileStem('x'.repeat(100))).toBe('x'.repeat(60));
  });

  it('is a valid file name everywhere: no separators or reserved characters, no Windows device name', () => {
    expect(fileStem('../../etc/passwd <script>:*?"|')).toBe('etc-passwd-script');
    expect(fileStem('CON')).toBe('delivery-lab-con');
    expect(fileStem('lpt1', 'lesson')).toBe('lesson-lpt1');
    expect(fileStem('console')).toBe('console');
    expect(fileStem('')).toBe('delivery-lab');
    expect(fileStem('—!?')).toBe('delivery-lab');
    expect(fileStem(undefined, 'lesson')).toBe('lesson');
  });

  it('drops accents, keeping their letters', () => {
    expect(fileStem('Crème brûlée à la carte')).toBe('creme-brulee-a-la-carte');
  });
});
