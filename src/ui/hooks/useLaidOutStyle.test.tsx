import { act, render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useElementFont } from './textWidth';

/** ResizeObservers run by hand: `laidOut()` delivers each live one's first observation. */
let observers: { callback: ResizeObserverCallback; live: boolean }[] = [];
const laidOut = () => {
  for (const o of observers.filter((o) => o.live)) o.callback([], {} as ResizeObserver);
};

/** The timeline's scale in the font the test's style gives it, and the font it reads. */
function Scale({ fontScale, seen }: { fontScale: number; seen: (css: string | null) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const font = useElementFont(ref, [fontScale]);
  seen(font?.css ?? null);
  return <div ref={ref} style={{ font: `${12 * fontScale}px serif` }} />;
}

// A generous timeout: the file's first render pays jsdom's and React's warm-up.
describe('useElementFont (useLaidOutStyle)', { timeout: 30_000 }, () => {
  beforeEach(() => {
    observers = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        private o: (typeof observers)[number];
        constructor(callback: ResizeObserverCallback) {
          this.o = { callback, live: true };
          observers.push(this.o);
        }
        observe() {}
        disconnect() {
          this.o.live = false;
        }
      },
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('reads no style at mount: the font comes once the element is laid out', () => {
    const style = vi.spyOn(window, 'getComputedStyle');
    const seen: (string | null)[] = [];
    render(<Scale fontScale={1} seen={(css) => seen.push(css)} />);
    // The first render's task forces no style recalculation (issue 24): the estimate meanwhile.
    expect(style).not.toHaveBeenCalled();
    expect(seen.at(-1)).toBeNull();
    act(laidOut);
    expect(style).toHaveBeenCalledTimes(1);
    expect(seen.at(-1)).toBe('12px serif');
    // Read once: the observer is done.
    expect(observers.filter((o) => o.live)).toHaveLength(0);
  });

  it('reads at once when the text size changes after the first layout', () => {
    const seen: (string | null)[] = [];
    const { rerender } = render(<Scale fontScale={1} seen={(css) => seen.push(css)} />);
    act(laidOut);
    const style = vi.spyOn(window, 'getComputedStyle');
    rerender(<Scale fontScale={1.5} seen={(css) => seen.push(css)} />);
    expect(style).toHaveBeenCalledTimes(1);
    expect(seen.at(-1)).toBe('18px serif');
  });

  it('reads at mount where there is no ResizeObserver', () => {
    vi.stubGlobal('ResizeObserver', undefined);
    const seen: (string | null)[] = [];
    render(<Scale fontScale={1} seen={(css) => seen.push(css)} />);
    expect(seen.at(-1)).toBe('12px serif');
  });
});
