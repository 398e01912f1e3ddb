import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { createPortal, flushSync } from 'react-dom';
import { createStore } from 'zustand/vanilla';
import type { Lab } from '../../store/labStore';
import { LabProvider, useLabInstance, useView } from '../../store/LabContext';
import { EndSeen } from '../library/PredictionContext';
import { MeasuringCopy } from '../hooks/useMeasuringCopy';
import { timeAtIndex } from '../../views/run/at';
import { processorPanelsIn, useProcessorPanels } from '../pipeline/stages/processorPanelsOnDemand';

/**
 * The height the player will need over the whole run, known before it reports any: the player
 * is rendered once more, hidden, at the END of the run (every row in the sink, every record in the
 * log, the reader's final line), measured, and removed: its parts keep the room of their fullest
 * state from the first frame (src/ui/hooks/useReserveRoom.ts), so no moment before the end is
 * taller. The copy
 * lives in a closed shadow root with the page's stylesheets: laid out as the live player is, but
 * out of reach of queries on the document (no element, id or text twice). The live player takes that height (scrolling inside past it) and reports it only then, so the
 * frame in the host page is sized once and never grows while the run plays (issue 31: 439 → 774 →
 * … → 878 px within seconds). The measuring copy has its own
 * cursor at the end; it shares the scenario, the run and the prediction with the live one, and
 * runs none of its effects on the lab (it is given `measuring`). At the end its outcome is the
 * end's ({@link EndSeen}): the final verdict, which the live player folds until then.
 * A batch job's player (src/ui/batch/BatchEmbed.tsx) has no stream run to put a cursor on: it
 * gives its number of `steps` (attempts) and renders the copy at each sample (`children(at)`):
 * before the end, with the end not yet seen (playing) and seen (scrubbed back after it).
 */
/**
 * Where in a batch schedule the copy is measured (fractions of its steps): the end, and every
 * eighth before it, where an attempt's list may be longer than at the end.
 */
const BATCH_SAMPLES = [1, 0.875, 0.75, 0.625, 0.5, 0.375, 0.25, 0.125, 0];

/**
 * What changes before each pass of the copy after its first (at the end, its end seen), in order:
 * null measures again unchanged (the virtualised tables fill in on their second pass).
 * A stream player is measured at its end and its start only: no part of it is taller between (its
 * counters reserve their longest captions from the first frame: Counters' `reserve`), and
 * scripts/embed-height-check.ts checks it over every preset (issue 31: 26 passes were ~200 ms
 * of the first paint). A batch schedule's copy is laid out at each of BATCH_SAMPLES too, twice
 * with its end not yet seen, then seen.
 */
function measurePasses(n: number, batch: boolean): ({ idx: number; seen: boolean } | null)[] {
  const passes: ({ idx: number; seen: boolean } | null)[] = [null];
  // And its start, the end not yet seen: the folded verdict ("Shown when the run reaches its
  // end. Reveal now", a button's line) is taller than the end's verdict where the card is wide
  // (merge-duplicate-source at 1280 px: 2 px). Nothing is in the tables there: one pass.
  if (!batch) return [...passes, { idx: 0, seen: false }];
  for (const f of BATCH_SAMPLES.slice(1)) {
    const idx = Math.round(n * f);
    passes.push({ idx, seen: false }, null, { idx, seen: true });
  }
  return passes;
}

export function MeasureAtEnd({
  children,
  onMeasured,
  steps,
}: {
  /** The copy; a function of the step to lay out when `steps` is given. */
  children: ReactNode | ((at: number) => ReactNode);
  onMeasured: (height: number) => void;
  /** The run's length in steps of the player's own, for a player the lab's cursor does not move. */
  steps?: number;
}) {
  const lab = useLabInstance();
  const view = useView();
  const n = steps ?? view?.n ?? null;
  const [at, setAt] = useState(n ?? 0);
  const [seen, setSeen] = useState(true);
  const [host, setHost] = useState<HTMLDivElement | null>(null);
  const root = useShadowWithStyles(host);
  // A Flink or Spark stage's panels come in a chunk of their own: measured once they are in.
  const kind = steps === undefined ? view?.scenario.processor.type : undefined;
  const panelsIn = processorPanelsIn(kind, useProcessorPanels(kind));
  const atEnd = useMemo<Lab>(() => {
    const n = view?.n ?? 0;
    const t = view?.endTime ?? 0;
    return {
      ...lab,
      cursor: createStore(() => ({ idx: n, t })),
      shown: createStore(() => ({ idx: n })),
    };
  }, [lab, view]);
  useEffect(() => {
    if (n === null || !root || !panelsIn) return;
    // The end, and a batch schedule's sample points (measurePasses); the tallest is reserved.
    const passes = measurePasses(n, steps !== undefined);
    let tallest = 0;
    let pass = 0;
    // Each pass a task of its own: a message to ourselves, not setTimeout, which a browser clamps
    // to ≥ 4 ms once nested 5 deep (https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#timers):
    // 18 passes waited ≥ 52 ms for nothing.
    const next = new MessageChannel();
    let stopped = false;
    // Steps of the embed's first paint that `npm run bench` times (bench/embedSteps.ts).
    performance.mark('embed:measure-start');
    const measure = () => {
      const el = root.shadow.querySelector('.embed');
      if (el) tallest = Math.max(tallest, Math.ceil(el.getBoundingClientRect().height));
      if (pass === passes.length) {
        performance.mark('embed:measure-end');
        return onMeasured(tallest);
      }
      const change = passes[pass++];
      if (change) {
        const { idx } = change;
        flushSync(() => setSeen(change.seen));
        if (typeof children === 'function') flushSync(() => setAt(idx));
        else if (view) {
          atEnd.cursor.setState({ idx, t: timeAtIndex(view, idx) });
          atEnd.shown.setState({ idx });
        }
      }
      // A task, not requestAnimationFrame: Chromium runs no animation frames in a cross-origin
      // frame off screen, so a frame below the fold would report its height only once scrolled
      // to — and grow under the reader then. Each pass lays out on its own (getBoundingClientRect).
      next.port2.postMessage(null);
    };
    next.port1.onmessage = () => {
      if (!stopped) measure();
    };
    measure();
    return () => {
      stopped = true;
      next.port1.close();
    };
    // `children` left out: a render function is fresh each render, and only its kind matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [atEnd, view, n, root, panelsIn, onMeasured, steps]);
  return (
    <div
      ref={setHost}
      aria-hidden="true"
      // Out of sight and of the layout, at the live player's width (the frame's).
      style={{ position: 'absolute', top: 0, left: 0, right: 0, visibility: 'hidden' }}
    >
      {root &&
        createPortal(
          <MeasuringCopy.Provider value={true}>
            <LabProvider lab={atEnd}>
              <EndSeen seen={seen}>
                {typeof children === 'function' ? children(at) : children}
              </EndSeen>
            </LabProvider>
          </MeasuringCopy.Provider>,
          root.mount,
        )}
    </div>
  );
}

const shadows = new WeakMap<HTMLElement, ShadowRoot>();

/**
 * A closed shadow root on `host` holding copies of the document's stylesheets, and the element
 * to render into. The copies are `<style>`s holding the loaded sheets' rules, so the copy is
 * styled from its first layout: cloned `<link>`s would load again (from the cache, but a task and
 * a fetch later: ~30 ms of the embed's first paint, scripts/embed-waterfall.ts). Ready
 * once the document's own sheets have loaded (measuring unstyled markup would reserve nonsense).
 */
function useShadowWithStyles(
  host: HTMLElement | null,
): { shadow: ShadowRoot; mount: HTMLElement } | null {
  const [ready, setReady] = useState<{ shadow: ShadowRoot; mount: HTMLElement } | null>(null);
  useEffect(() => {
    if (!host) return;
    // Closed: `host.shadowRoot` stays null, so the root is kept here (StrictMode runs this twice).
    const shadow = shadows.get(host) ?? host.attachShadow({ mode: 'closed' });
    shadows.set(host, shadow);
    let live = true;
    const links = [...document.querySelectorAll('link[rel="stylesheet"]')].filter(
      (el): el is HTMLLinkElement => el instanceof HTMLLinkElement && el.sheet === null,
    );
    const copy = () => {
      if (!live) return;
      const mount = document.createElement('div');
      shadow.replaceChildren(...[...document.styleSheets].map(copySheet), mount);
      setReady({ shadow, mount });
    };
    // The sheets still loading: copied once in (a failed one is copied as the nothing it holds).
    if (links.length === 0) copy();
    else
      void Promise.all(
        links.map(
          (el) =>
            new Promise<void>((done) => {
              el.addEventListener('load', () => done());
              el.addEventListener('error', () => done());
            }),
        ),
      ).then(copy);
    return () => {
      live = false;
    };
  }, [host]);
  return ready;
}

/** A `<style>` copy of a loaded sheet (same origin: its rules are readable), with its media. */
function copySheet(sheet: CSSStyleSheet): HTMLStyleElement {
  const style = document.createElement('style');
  if (sheet.media.mediaText) style.media = sheet.media.mediaText;
  style.textContent = [...sheet.cssRules].map((r) => r.cssText).join('\n');
  return style;
}

/**
 * The player's style once its height is known: `height=` (fixed) or the measured reserve — the
 * player's height, not a minimum, so a state the measure did not sample scrolls inside the player
 * rather than resizing the host's frame (issue 31). None while it is still being measured.
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
 * guess heights that only the measure (above) knows; hiding is exact and costs no bytes.
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
