import { useEffect, useState } from 'react';

/**
 * False until the browser has painted the first render, then true — when `enabled`; always true
 * otherwise. The lab's page mounts what lies below its first screen (the ledger and its tabs, the
 * diagrams, the atlas) only then, so the first frame, the one that shows the verdict, holds the
 * counters, the story and the pipeline alone (issue 24: first verdict ≤ 500 ms — the first
 * render's script, style and layout were ~90 ms, the ledger's table most of the elements). Once
 * painted it stays painted: a remount of the same component does not hide them again.
 */
export function useAfterFirstPaint(enabled: boolean): boolean {
  const [painted, setPainted] = useState(!enabled);
  useEffect(() => {
    if (painted) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The frame that paints the first render, then a task after it (not before the paint, as a
    // microtask or a second effect would be).
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [painted]);
  return painted;
}
