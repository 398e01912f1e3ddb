import { cleanup, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RowLayout } from '../hooks/useAllRows';
import { Rows } from './Rows';

/** What a list renders from its layout: its height and how many rows it renders. */
function Probe({ rows }: { rows: RowLayout }) {
  return (
    <div
      data-testid="probe"
      data-total={rows.getTotalSize()}
      data-rendered={rows.getVirtualItems().length}
    />
  );
}

// Own module registry: the second test renders a long list before the virtualizer's lazy chunk
// is in (React.lazy keeps it once loaded, for the page's life); after any file that rendered one,
// the chunk is in and the first render is the virtualized list's.
afterEach(cleanup);

describe('Rows', () => {
  it('renders every row of a short list, in the first render', () => {
    render(
      <Rows plain count={40} size={24} scroll={createRef<HTMLDivElement>()} paddingStart={24}>
        {(rows) => <Probe rows={rows} />}
      </Rows>,
    );
    const probe = screen.getByTestId('probe');
    expect(probe.dataset.rendered).toBe('40');
    expect(probe.dataset.total).toBe(String(24 + 40 * 24));
  });

  it('while the virtualizer loads, a long list shows its first rows at its whole height', () => {
    render(
      <Rows plain={false} count={200} size={24} scroll={createRef<HTMLDivElement>()}>
        {(rows) => <Probe rows={rows} />}
      </Rows>,
    );
    // The first render, before the lazy chunk: 16 rows, the box 200 rows tall.
    const probe = screen.getByTestId('probe');
    expect(probe.dataset.rendered).toBe('16');
    expect(probe.dataset.total).toBe(String(200 * 24));
  });
});
