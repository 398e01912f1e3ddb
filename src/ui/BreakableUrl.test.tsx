import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BreakableUrl } from './BreakableUrl';

afterEach(cleanup);

describe('BreakableUrl', () => {
  it('may break after each slash but the first of "//", nowhere else; the text unchanged', () => {
    const url = 'http://127.0.0.1:39235/?join=43H8Q9';
    const { container } = render(
      <strong>
        <BreakableUrl url={url} />
      </strong>,
    );
    expect(container.textContent).toBe(url);
    expect(container.innerHTML).toBe(
      '<strong><span class="url-part">http://</span><wbr><span class="url-part">127.0.0.1:39235/</span><wbr><span class="url-part">?join=43H8Q9</span></strong>',
    );
  });

  it('marks every path segment of a longer address', () => {
    const { container } = render(
      <p>
        <BreakableUrl url="https://lab.example.edu:8443/room/?join=AB12CD" />
      </p>,
    );
    expect(container.querySelectorAll('wbr')).toHaveLength(3);
    expect([...container.querySelectorAll('.url-part')].map((e) => e.textContent)).toEqual([
      'https://',
      'lab.example.edu:8443/',
      'room/',
      '?join=AB12CD',
    ]);
  });
});
