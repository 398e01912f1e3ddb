import { useLayoutEffect, useMemo, useState, type ReactNode, type RefObject } from 'react';
import { createStore } from 'zustand/vanilla';
import type { Lab } from '../../store/labStore';
import { LabProvider, useLabInstance, useView } from '../../store/LabContext';
import { EndSeen } from '../library/PredictionContext';

/**
 * The height the player will need over the whole run, known before its first paint without a
 * copy of it: the live player's first layout with its run in stands at the run's END
 * ({@link AtTheEnd}: every row in the sink, every record in the log, the final verdict and the
 * reader's last line — where the boxes that grow with the run are fullest), is read once, held as
 * the player's height, and only then does the player go to where it opens and get painted. The
 * states before the end that laid out taller than it (a counter's "… not yet in" caption, a
 * stage's in-flight facts) hold their largest size by layout rules instead (embed.css). So
 * the host page sizes its frame once and it never grows while the run plays (issue 31: 439 →
 * 774 → … → 878 px within seconds). Read again only when what it was read for changes (`of`:
 * another run, layout or legend), never while the run plays; `scripts/embed-height-check.ts`
 * checks every library preset's reserve against the tallest moment of its run.
 *
 * The read is in a layout effect, before the browser paints: the end's layout is never shown.
 */
export function useMeasuredOnce(
  ref: RefObject<HTMLElement | null>,
  of: unknown,
): { of: unknown; height: number } | null {
  const [measured, setMeasured] = useState<{ of: unknown; height: number } | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (of === null || !el || measured?.of === of) return;
    // Steps of the embed's first paint that `npm run bench` times (bench/embedSteps.ts).
    performance.mark('embed:measure-start');
    const height = Math.ceil(el.getBoundingClientRect().height);
    performance.mark('embed:measure-end');
    setMeasured({ of, height });
  }, [ref, of, measured]);
  return measured;
}

/**
 * `children` at the run's end while `on` (the layout {@link useMeasuredOnce} reads): a cursor of
 * their own at the last event, and the end seen, so the final verdict the player folds until then
 * is laid out too. It shares the scenario, the run and the prediction with the live player, and
 * moves nothing of the lab's: the run's end is not reached (no outcome revealed, issue 24). Off,
 * the lab's own cursor; the tree keeps its shape, so nothing remounts when it turns off.
 */
export function AtTheEnd({ on, children }: { on: boolean; children: ReactNode }) {
  const lab = useLabInstance();
  const view = useView();
  const atEnd = useMemo<Lab>(() => {
    const n = view?.n ?? 0;
    return {
      ...lab,
      cursor: createStore(() => ({ idx: n, t: view?.endTime ?? 0 })),
      shown: createStore(() => ({ idx: n })),
    };
  }, [lab, view]);
  return (
    <LabProvider lab={on ? atEnd : lab}>
      <EndSeen on={on}>{children}</EndSeen>
    </LabProvider>
  );
}

/**
 * The player's style once its height is known: `height=` (fixed) or the measured reserve — the
 * player's height, not a minimum, so a state whose layout outgrew its reserve would scroll inside
 * the player rather than resize the host's frame (issue 31). None while it is being measured.
 */
export function reservedHeightStyle(
  fixed: number | null,
  measured: { height: number } | null,
  needsMeasure: boolean,
): { height: number; overflowY: 'auto' } | undefined {
  if (fixed !== null) return { height: fixed, overflowY: 'auto' };
  return measured && !needsMeasure ? { height: measured.height, overflowY: 'auto' } : undefined;
}

/**
 * The player's style while it settles (its run, panels or height not yet in): laid out but not
 * painted, so nothing a reader has seen moves when the run's layout replaces the "no run yet"
 * one (Chromium counts no layout shift for unpainted boxes: https://wicg.github.io/layout-instability/
 * §"visual representation"). Issue 31: a Flink embed's pipeline moved 162 px down and grew
 * 312 px after 2–3 s (cumulative layout shift 0.61). A skeleton of the final layout would have to
 * guess heights that only the run knows; hiding is exact and costs no bytes.
 */
export function settlingStyle<S extends object>(
  style: S | undefined,
  settling: boolean,
): (S & { visibility?: 'hidden' }) | undefined {
  return settling ? { ...(style as S), visibility: 'hidden' } : style;
}

/** What the reader sees while the player settles: one line, out of the layout (nothing moves). */
export function SettlingLine() {
  return (
    <p className="embed-settling" role="status">
      Loading the run…
    </p>
  );
}
