import { useEffect, useMemo, useState, type ReactNode, type RefObject } from 'react';
import { createPortal, flushSync } from 'react-dom';
import { createStore } from 'zustand/vanilla';
import type { Lab } from '../../store/labStore';
import { LabProvider, useLabInstance, useView } from '../../store/LabContext';
import { EndSeen } from '../library/PredictionContext';
import { Measuring } from '../hooks/useMeasuring';

/**
 * The height the player will need over the whole run, known before it reports any (issue 31:
 * the host's frame went 439 → 774 → … → 878 px within seconds): its parts keep the room of their
 * fullest state from the first frame (src/ui/hooks/useReserveRoom.ts), so the run's END (every
 * row in the sink, every record in the log, the reader's final line, the final verdict) and its
 * start (the verdict folded, "… Reveal now": taller than the end's on a wide card) are the states
 * to lay out; no moment between is taller (scripts/embed-height-check.ts checks every preset at
 * three widths). The player takes the tallest (scrolling inside past it) and reports it only then,
 * so the frame in the host page is sized once and never grows while the run plays.
 *
 * A stream player is measured in place ({@link MeasureInPlace}): before it is first shown, the
 * live player itself is rendered at its run's end, then at its start, which is what it shows next.
 * A batch job's player (src/ui/batch/BatchEmbed.tsx) has no stream run to put a cursor on: a
 * hidden copy of it is rendered at each sample of its schedule ({@link MeasureCopy}).
 */

/**
 * The stream player, measured where it stands while it settles (hidden: settlingStyle). While
 * `active`, its parts are rendered at the run's END, the end seen (a lab whose cursor stands there
 * and shares everything else with the live one; `Measuring` tells the parts that draw nothing
 * that takes room — tokens in flight, scroll cues, a table kept scrolled — to skip it, and the
 * player's effects wait while `needsMeasure`), laid out twice (the virtualised tables fill in on
 * their second pass, a task later), then rendered at the start under the live lab and laid out
 * once more; `onMeasured` gets the tallest. The same elements are kept from the end's render to
 * the start's (one tree, only its lab changes): the start costs no render more than showing it
 * does. A hidden copy in a shadow root cost a second mount of the whole player and a copy of every
 * stylesheet: ~400 ms of the embed's first paint at 700 px (docs/benchmarks.md).
 */
export function MeasureInPlace({
  root,
  of,
  active,
  onMeasured,
  children,
}: {
  /** The player's root: its height is measured. */
  root: RefObject<HTMLElement | null>;
  /** What the height is measured for (the run, the layout): a new one measures again. */
  of: unknown;
  active: boolean;
  onMeasured: (height: number) => void;
  children: ReactNode;
}) {
  const lab = useLabInstance();
  const view = useView();
  // The `of` whose end has been laid out: its start is then rendered live.
  const [endDoneFor, setEndDoneFor] = useState<unknown>(null);
  const atEnd = active && endDoneFor !== of;
  const endLab = useMemo<Lab | null>(
    () =>
      view && {
        ...lab,
        cursor: createStore(() => ({ idx: view.n, t: view.endTime })),
        shown: createStore(() => ({ idx: view.n })),
      },
    [lab, view],
  );
  useEffect(() => {
    const el = root.current;
    if (!atEnd || !el) return;
    // Steps of the embed's first paint that `npm run bench` times (bench/embedSteps.ts).
    performance.mark('embed:measure-start');
    const height = () => Math.ceil(el.getBoundingClientRect().height);
    let tallest = height();
    // A task, not requestAnimationFrame: Chromium runs no animation frames in a cross-origin
    // frame off screen, so a frame below the fold would report its height only once scrolled
    // to — and grow under the reader then. Nor setTimeout, clamped once nested
    // (https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#timers).
    const next = new MessageChannel();
    let stopped = false;
    next.port1.onmessage = () => {
      if (stopped) return;
      tallest = Math.max(tallest, height());
      flushSync(() => setEndDoneFor(of));
      tallest = Math.max(tallest, height());
      performance.mark('embed:measure-end');
      onMeasured(tallest);
    };
    next.port2.postMessage(null);
    return () => {
      stopped = true;
      next.port1.close();
    };
  }, [atEnd, root, of, onMeasured]);
  // One tree whatever the phase (same element types), so React keeps its elements.
  return (
    <Measuring.Provider value={atEnd}>
      <LabProvider lab={atEnd && endLab ? endLab : lab}>
        <EndSeen seen={atEnd}>{children}</EndSeen>
      </LabProvider>
    </Measuring.Provider>
  );
}

/**
 * Where in a batch schedule the copy is measured (fractions of its steps): the end, and every
 * eighth before it, where an attempt's list may be longer than at the end.
 */
const BATCH_SAMPLES = [1, 0.875, 0.75, 0.625, 0.5, 0.375, 0.25, 0.125, 0];

/**
 * What changes before each pass of the batch copy after its first (at the end, its end seen), in
 * order: null measures again unchanged (the virtualised tables fill in on their second pass); at
 * each of BATCH_SAMPLES, laid out twice with its end not yet seen, then seen.
 */
function measurePasses(n: number): ({ idx: number; seen: boolean } | null)[] {
  const passes: ({ idx: number; seen: boolean } | null)[] = [null];
  for (const f of BATCH_SAMPLES.slice(1)) {
    const idx = Math.round(n * f);
    passes.push({ idx, seen: false }, null, { idx, seen: true });
  }
  return passes;
}

/**
 * A batch job's player measured on a hidden copy of it, laid out at each sample of its schedule
 * (`children(at)`, `steps` attempts): before the end, with the end not yet seen (playing) and seen
 * (scrubbed back after it). The copy lives in a closed shadow root with the page's stylesheets:
 * laid out as the live player is, but out of reach of queries on the document (no element, id
 * or text twice). It shares the scenario, the run and the prediction with the live one, and runs
 * none of its effects on the lab (it is given `measureAt`).
 */
export function MeasureCopy({
  children,
  onMeasured,
  steps,
}: {
  /** The copy at a step of the schedule. */
  children: (at: number) => ReactNode;
  onMeasured: (height: number) => void;
  /** The schedule's length in steps of the player's own (the lab's cursor does not move it). */
  steps: number;
}) {
  const [at, setAt] = useState(steps);
  const [seen, setSeen] = useState(true);
  const [host, setHost] = useState<HTMLDivElement | null>(null);
  const root = useShadowWithStyles(host);
  useEffect(() => {
    if (!root) return;
    // The end, and the schedule's sample points (measurePasses); the tallest is reserved.
    const passes = measurePasses(steps);
    let tallest = 0;
    let pass = 0;
    // Each pass a task of its own (a message to ourselves: see MeasureInPlace).
    const next = new MessageChannel();
    let stopped = false;
    const measure = () => {
      const el = root.shadow.querySelector('.embed');
      if (el) tallest = Math.max(tallest, Math.ceil(el.getBoundingClientRect().height));
      if (pass === passes.length) return onMeasured(tallest);
      const change = passes[pass++];
      if (change) {
        flushSync(() => setSeen(change.seen));
        flushSync(() => setAt(change.idx));
      }
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
  }, [root, onMeasured, steps]);
  return (
    <div
      ref={setHost}
      aria-hidden="true"
      // Out of sight and of the layout, at the live player's width (the frame's).
      style={{ position: 'absolute', top: 0, left: 0, right: 0, visibility: 'hidden' }}
    >
      {root &&
        createPortal(
          <Measuring.Provider value={true}>
            <EndSeen seen={seen}>{children(at)}</EndSeen>
          </Measuring.Provider>,
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
