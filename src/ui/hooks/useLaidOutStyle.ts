import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * A value read from the computed style of `ref`'s element, `initial` until it is read.
 *
 * At mount it is read once the browser has laid the element out, in a ResizeObserver's first
 * callback: that runs after the frame's own style and layout, so the read costs nothing more. Read
 * at mount in a layout effect instead, `getComputedStyle` forced the document's first full style
 * recalculation inside the first render's task, before the frame that shows the verdict (issue 24:
 * first verdict ≤ 500 ms; docs/benchmarks.md). The first frame is drawn with `initial`, the next
 * with the value read. When `deps` change later (the text size,
 * projector mode) it is read at once, so the next frame already uses the new value. Where there
 * is no ResizeObserver (jsdom), it is read at once at mount too.
 * @param read - the value from the element's computed style (called with the current one).
 * @param same - whether two values are the same (no re-render then).
 */
export function useLaidOutStyle<T>(
  ref: RefObject<HTMLElement | null>,
  read: (style: CSSStyleDeclaration) => T,
  same: (a: T, b: T) => boolean,
  initial: T,
  deps: readonly unknown[],
): T {
  const [value, setValue] = useState(initial);
  const laidOut = useRef(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      const next = read(getComputedStyle(el));
      setValue((v) => (same(v, next) ? v : next));
    };
    if (laidOut.current || typeof ResizeObserver !== 'function') {
      laidOut.current = true;
      update();
      return;
    }
    const observer = new ResizeObserver(() => {
      observer.disconnect();
      laidOut.current = true;
      update();
    });
    observer.observe(el);
    return () => observer.disconnect();
    // `read` and `same` are the caller's pure functions of the style; `deps` say when to read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ref, ...deps]);
  return value;
}
