// @vitest-environment jsdom
/**
 * The badge of what a story shows: on a library card it is read "illustrates at-least-once"; in
 * the story's head, beside the switch's "Configuration claims: exactly-once", it says "shows" in
 * view, so the two are not read as one contradicting the other.
 */
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GuaranteeBadge } from './GuaranteeBadge';

afterEach(cleanup);

describe('GuaranteeBadge', () => {
  it('on a card: the symbol and the name, "illustrates" for screen readers only', () => {
    const { container } = render(<GuaranteeBadge g="at-least-once" />);
    expect(container.textContent).toBe('≥1illustrates at-least-once');
    expect(container.querySelector('.visually-hidden')?.textContent).toBe('illustrates ');
  });

  it('in the story head: "shows" in view before the badge, no hidden word', () => {
    const { container } = render(<GuaranteeBadge g="at-least-once" said />);
    expect(container.textContent).toBe('shows ≥1at-least-once');
    expect(container.querySelector('.visually-hidden')).toBeNull();
  });

  it('no guarantee: ≥0 (any number of times, none included), not "?"', () => {
    const { container } = render(<GuaranteeBadge g="none" />);
    expect(container.querySelector('.g-symbol')?.textContent).toBe('≥0');
    expect(container.textContent).toBe('≥0illustrates no guarantee');
    // The words a batch verdict says too (src/views/batch/observedWords.ts).
    expect(container.querySelector('.g-badge')?.getAttribute('title')).toBe(
      'Illustrates no guarantee: events lost and applied twice',
    );
  });
});
