import { act, cleanup, render, screen } from '@testing-library/react';
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
      data-first={rows.getVirtualItems()[0]?.index}
    />
  );
}

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

  it('a long list, its scroller not measured yet, shows its first rows at its whole height', () => {
    render(
      <Rows plain={false} count={200} size={24} scroll={createRef<HTMLDivElement>()}>
        {(rows) => <Probe rows={rows} />}
      </Rows>,
    );
    // No scroll container (nothing to measure): 16 rows, the box 200 rows tall.
    const probe = screen.getByTestId('probe');
    expect(probe.dataset.rendered).toBe('16');
    expect(probe.dataset.total).toBe(String(200 * 24));
  });

  it('a long list renders the rows in its view and 6 more each side, and follows a scroll to a row', () => {
    const scroll = createRef<HTMLDivElement>();
    let layout: RowLayout | null = null;
    /** The scroller, inside the rows' render as the tables have it, 240 px tall (jsdom lays nothing out). */
    const scroller = (el: HTMLDivElement | null) => {
      if (el) Object.defineProperty(el, 'clientHeight', { value: 240, configurable: true });
      scroll.current = el;
    };
    render(
      <Rows plain={false} count={200} size={24} scroll={scroll}>
        {(rows) => {
          layout = rows;
          return (
            <div ref={scroller}>
              <Probe rows={rows} />
            </div>
          );
        }}
      </Rows>,
    );
    const probe = screen.getByTestId('probe');
    // At the top: rows 0..9 in view (240 / 24), 6 below: 0..15.
    expect(probe.dataset.rendered).toBe('16');
    expect(probe.dataset.first).toBe('0');
    // Row 100 centred: the view's top at 100·24 + 12 − 120 = 2292, on a row's edge 2304 (row 96),
    // so rows 96..105 in view and 6 more each side: 90..111, at once (no scroll event in jsdom).
    act(() => layout!.scrollToIndex(100, { align: 'center' }));
    expect(scroll.current!.scrollTop).toBe(2304);
    expect(probe.dataset.first).toBe('90');
    expect(probe.dataset.rendered).toBe('22');
    expect(probe.dataset.total).toBe(String(200 * 24));
    // A scroll by the reader: read on the scroll event. Row 190 at the top: 184..199.
    act(() => {
      scroll.current!.scrollTop = 190 * 24;
      scroll.current!.dispatchEvent(new Event('scroll'));
    });
    expect(probe.dataset.first).toBe('184');
    expect(probe.dataset.rendered).toBe('16');
  });
});
