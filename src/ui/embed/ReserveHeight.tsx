import {
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { createPortal, flushSync } from 'react-dom';
import { createStore } from 'zustand/vanilla';
import type { Lab } from '../../store/labStore';
import { LabProvider, useLabInstance, useView } from '../../store/LabContext';
import { EndSeen } from '../library/PredictionContext';
import { timeAtIndex } from '../../views/run/at';
import { processorPanelsIn, useProcessorPanels } from '../pipeline/stages/processorPanelsOnDemand';

/**
 * The height the streaming player will need over the whole run, known before its first paint
 * and without a copy of it: the live player itself, hidden while it settles, is laid out at the
 * run's END (every row in the sink, every record in the log, the final verdict and the reader's
 * last line) and at every eighth of the run before it ({@link RUN_PROBES}), a re-render and a
 * layout each, read in a layout effect; the tallest is held as its height and only then does
 * the player go to where it opens and get painted. Each probe comes a task after the one before
 * (a message to ourselves: no timer clamping, and it runs in a frame off screen): what a probe's
 * own effects set — a Default-lane update, a ResizeObserver's — lands first. Probed one after
 * the other in the same task, the end laid out before those landed: 26 px too tall on
 * rebalance-midflight/upsert at 700 px, 4 px on at-least-once/default at 1,280 px. The player takes that height (scrolling inside past it) and reports it only
 * then, so the frame in the host page is sized once and never grows while the run plays
 * (issue 31: 439 → 774 → … → 878 px within seconds). Layout-read styles inside it are read at
 * once (../hooks/readLayoutAtMount.ts), not a frame later, so what the probes measure is what is
 * painted. `scripts/embed-height-check.ts` checks every library preset's reserve against the
 * tallest moment of its run.
 */
/**
 * Where in the run the live player is laid out (fractions of its events): the end, where the
 * tables are fullest, and points before it, where a counter's longer caption ("… not yet in")
 * may wrap or a stage lists what is in flight (every eighth: with only 1, ¾, ½ and 0 a Flink run
 * grew 14 px past its reserve mid-run, 1,486 → 1,500 px: issue 31). The end twice: its first
 * layout is the one whose layout effects read the styles the rows are sized by (a log's text
 * size, NaN until then), so it is laid out but not counted.
 */
const RUN_PROBES = [1, 1, 0.875, 0.75, 0.625, 0.5, 0.375, 0.25, 0.125, 0];

/**
 * While `of` is given and not yet measured: which event of the run (`probeAt`, an index) the
 * player lays out now, its height read after each layout (`root`) until every probe is done;
 * then `measured`, the tallest, for that `of` (another run, layout or legend measures again).
 */
export function useRunProbes(
  root: RefObject<HTMLElement | null>,
  of: unknown,
  events: number,
): { probeAt: number | null; measured: { of: unknown; height: number } | null } {
  const [measured, setMeasured] = useState<{ of: unknown; height: number } | null>(null);
  const [probe, setProbe] = useState<{ of: unknown; k: number; tallest: number } | null>(null);
  const probing = of !== null && measured?.of !== of;
  const k = probing && probe !== null && probe.of === of ? probe.k : 0;
  useLayoutEffect(() => {
    const el = root.current;
    if (!probing || !el) return;
    // Steps of the embed's first paint that `npm run bench` times (bench/embedSteps.ts).
    if (k === 0) performance.mark('embed:measure-start');
    const height = k === 0 ? 0 : Math.ceil(el.getBoundingClientRect().height);
    const tallest = Math.max(height, probe !== null && probe.of === of ? probe.tallest : 0);
    if (k + 1 < RUN_PROBES.length) {
      // The next probe a task later: what this one's effects set (a Default-lane update) lands first.
      const next = new MessageChannel();
      next.port1.onmessage = () => setProbe({ of, k: k + 1, tallest });
      next.port2.postMessage(null);
      return () => next.port1.close();
    }
    performance.mark('embed:measure-end');
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setMeasured({ of, height: tallest });
    // `probe` is this effect's own output: read, not a reason to run again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [root, of, k, probing]);
  return { probeAt: probing ? Math.round(events * RUN_PROBES[k]!) : null, measured };
}

/**
 * `children` at event `at` of the run while it is given (the layout {@link useRunProbes}
 * reads): a cursor of their own there, and the end seen, so the final verdict the player folds
 * until then is laid out too. It shares the scenario, the run and the prediction with the live
 * player and moves nothing of the lab's: the run's end is not reached (no outcome revealed,
 * issue 24). Null: the lab's own cursor; the tree keeps its shape, so nothing remounts.
 */
export function AtProbe({ at, children }: { at: number | null; children: ReactNode }) {
  const lab = useLabInstance();
  const view = useView();
  const probed = useMemo<Lab>(() => {
    if (at === null || !view) return lab;
    return {
      ...lab,
      // The end at the run's end time, as the lab's cursor stands there (its last event may be
      // earlier: what is still in flight then is not what the end shows).
      cursor: createStore(() => ({
        idx: at,
        t: at >= view.n ? view.endTime : timeAtIndex(view, at),
      })),
      shown: createStore(() => ({ idx: at })),
    };
  }, [lab, view, at]);
  return (
    <LabProvider lab={probed}>
      <EndSeen on={at !== null}>{children}</EndSeen>
    </LabProvider>
  );
}

/** The batch copy's samples: {@link RUN_PROBES}, its end once. */
const SAMPLES = RUN_PROBES.slice(1);
/** Passes per sample: the virtualised tables fill in on their second pass. */
const SAMPLE_FRAMES = 2;

/**
 * The batch player's reserve (src/ui/batch/BatchEmbed.tsx), which has no stream run to put a
 * cursor on: a hidden copy of it, rendered at each sample of its attempts (`children(at)`) in a
 * closed shadow root with the page's stylesheets — laid out as the live player is, but out of
 * reach of queries on the document (no element, id or text twice) — measured and removed.
 */
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
    // Each sample point of the run for SAMPLE_FRAMES frames; the tallest of them all is reserved.
    const samples = SAMPLES.map((f) => Math.round(n * f));
    let tallest = 0;
    let frame = 0;
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
      frame++;
      const sample = Math.floor(frame / SAMPLE_FRAMES);
      if (sample >= samples.length) {
        performance.mark('embed:measure-end');
        return onMeasured(tallest);
      }
      if (frame % SAMPLE_FRAMES === 0) {
        const idx = samples[sample]!;
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
  }, [atEnd, view, n, root, panelsIn, onMeasured]);
  return (
    <div
      ref={setHost}
      aria-hidden="true"
      // Out of sight and of the layout, at the live player's width (the frame's).
      style={{ position: 'absolute', top: 0, left: 0, right: 0, visibility: 'hidden' }}
    >
      {root &&
        createPortal(
          <LabProvider lab={atEnd}>
            <EndSeen>{typeof children === 'function' ? children(at) : children}</EndSeen>
          </LabProvider>,
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
