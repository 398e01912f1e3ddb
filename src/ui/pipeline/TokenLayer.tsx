import { useEffect, useRef, type RefObject } from 'react';
import { prefersReducedMotion, watchColorScheme, watchReducedMotion } from '../../platform/media';
import { isResponse, tokensAt, type Token } from '../../views/run/at';
import { messageLabel } from '../../views/edit/faultActions';
import { eventIdOf, type RunView } from '../../views/run/runView';
import { txnApi } from '../../views/run/txnApi';
import { useLabInstance } from '../../store/LabContext';
import { testIds } from '../testIds';
import { separateLabels } from './separateLabels';

/** At most this many tokens are drawn (the rest are still counted by the engine). */
const MAX_TOKENS = 1500;
/** Above this many tokens in flight, the canvas draws them as dots without labels. */
const LABEL_LIMIT = 150;
/** While playing, component positions are re-measured at most this often (real ms). */
const MEASURE_EVERY_MS = 250;

interface Anchor {
  left: number;
  right: number;
  /** Where tokens leave and arrive (vertically). */
  cy: number;
  /** Tokens never go above this line: the component's title (and the stage heading over it). */
  top: number;
}

/** A token placed on screen (container coordinates, CSS px). */
interface Placed {
  tok: Token;
  x: number;
  y: number;
  w: number;
  label: string;
  kind: 'data' | 'ack' | 'other';
  identity: number;
}

const DATA_TYPES = new Set(['produce', 'fetch-response', 'sink-write', 'effect-call', 'replicate']);

function kindOf(tok: Token): Placed['kind'] {
  return DATA_TYPES.has(tok.type) ? 'data' : isResponse(tok.type) ? 'ack' : 'other';
}

function tokenText(v: RunView, tok: Token): string {
  const id = tok.event >= 0 ? eventIdOf(v.events, v.events.identity[tok.event]!) : '';
  let text: string;
  if (tok.type === 'produce-response') text = id ? `ack ${id}` : 'ack';
  else if (DATA_TYPES.has(tok.type))
    text = id ? (tok.count > 1 ? `${id} +${tok.count - 1}` : id) : `${tok.count} rec`;
  else if (tok.type === 'txn-request' || tok.type === 'txn-response')
    // By its API: an idempotent producer's InitProducerId is no transaction ("txn" said so).
    text = tok.type === 'txn-request' ? txnApi(tok.count) : 'ok';
  else if (isResponse(tok.type)) text = id ? `ok ${id}` : 'ok';
  else if (tok.type === 'checkpoint-notify') text = 'notify';
  else text = tok.type.split('-')[0]!; // commit, fetch, txn, barrier
  return tok.lost ? `✕ ${text}` : text;
}

function ariaLabel(v: RunView, tok: Token, identity: number): string {
  const what = messageLabel(tok.type, tok.count);
  const id = identity >= 0 ? ` of ${eventIdOf(v.events, identity)}` : '';
  const route = `from ${v.actors[tok.from]} to ${v.actors[tok.to]}`;
  return tok.lost
    ? `${what}${id} ${route}: lost`
    : `${what}${id} ${route}, in flight: press to drop it`;
}

/**
 * Messages in flight as tokens moving between the components, drawn imperatively: the layer
 * subscribes to the cursor store, so a frame costs no React render (zustand "transient updates").
 *
 * Two renderings of the same placement:
 * - while playing, one <canvas> — hundreds of moving DOM elements cost a software-rendered
 *   frame 200 ms; a canvas draws them in a few; a click on the pipeline is hit-tested against
 *   the tokens drawn (and drops the message under the pointer);
 * - when paused, real buttons (focusable, labelled, clickable) — nothing moves, so DOM costs
 *   nothing per frame and keyboard and screen-reader users can reach every message.
 * With reduced motion, tokens sit still half-way.
 */
export function TokenLayer({ container }: { container: RefObject<HTMLElement | null> }) {
  const lab = useLabInstance();
  const layer = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const root = container.current;
    const el = layer.current;
    const canvas = canvasRef.current;
    if (!root || !el || !canvas) return;
    const ctx = canvas.getContext('2d');
    const pool: HTMLButtonElement[] = [];
    const poolText: string[] = [];
    const scratch: Token[] = [];
    let placed: Placed[] = [];
    let anchors = new Map<string, Anchor>();
    let anchorsIdx = -1;
    let measuredAt = -Infinity;
    let canvasShown = false;
    let colors = {
      data: '#1a56b0',
      ack: '#1d6b35',
      other: '#6b5b95',
      lost: '#a3201a',
      lostBg: '#fbe3e1',
      bg: '#fff',
      select: '#7b2cbf',
    };
    let fontPx = 10;
    const widths = new Map<string, number>();

    const measure = () => {
      const base = root.getBoundingClientRect();
      anchors = new Map();
      root.querySelectorAll<HTMLElement>('[data-anchor]').forEach((a) => {
        const r = a.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) return;
        // A box with a body: tokens fly beside the body, below the title. A chip (all title):
        // beside its middle.
        const head = a
          .querySelector<HTMLElement>(':scope > .component-head')
          ?.getBoundingClientRect();
        const top = head && head.height < r.height * 0.8 ? head.bottom : r.top;
        anchors.set(a.dataset.anchor!, {
          left: r.left - base.left,
          right: r.right - base.left,
          cy: top - base.top + Math.min((r.bottom - top) / 2, 14),
          top: top - base.top,
        });
      });
      const cs = getComputedStyle(el);
      const v = (name: string, fallback: string) => cs.getPropertyValue(name).trim() || fallback;
      colors = {
        data: v('--token-record', colors.data),
        ack: v('--token-ack', colors.ack),
        other: v('--token-other', colors.other),
        lost: v('--lost', colors.lost),
        lostBg: v('--lost-bg', colors.lostBg),
        bg: v('--panel', colors.bg),
        select: v('--select', colors.select),
      };
      const size = parseFloat(cs.fontSize) || 14;
      if (Math.abs(size * 0.75 - fontPx) > 0.01) widths.clear();
      fontPx = size * 0.75;
      const dpr = window.devicePixelRatio || 1;
      const w = Math.round(root.clientWidth * dpr);
      const h = Math.round(root.clientHeight * dpr);
      if (canvas.width !== w || canvas.height !== h) {
        canvas.width = w;
        canvas.height = h;
      }
    };
    const anchorOf = (v: RunView, actor: number): Anchor | undefined => {
      const name = v.actors[actor];
      if (name === undefined) return undefined;
      return anchors.get(name) ?? anchors.get(name.replace(/-replacement$/, ''));
    };
    const textWidth = (label: string): number => {
      let w = widths.get(label);
      if (w === undefined) {
        w = ctx ? ctx.measureText(label).width + fontPx * 1.2 : label.length * fontPx * 0.6;
        widths.set(label, w);
      }
      return w;
    };

    /** Where every token in flight is, for both renderings and for hit-testing. */
    const place = (v: RunView, t: number, idx: number): Placed[] => {
      if (ctx) ctx.font = `bold ${fontPx}px system-ui, sans-serif`;
      const out: Placed[] = [];
      // Read as the tokens are placed, not kept from the last 'change' event: that event comes
      // at a later rendering step, and a paint before it drew a token moving that should sit still.
      const reduced = prefersReducedMotion();
      for (const tok of tokensAt(v, t, idx, scratch, MAX_TOKENS)) {
        const from = anchorOf(v, tok.from);
        const to = anchorOf(v, tok.to);
        if (!from || !to) continue;
        const rightward = to.left >= from.right - 1;
        const x0 = rightward ? from.right : from.left;
        const x1 = rightward ? to.left : to.right;
        let p = reduced ? 0.5 : Math.min(1, Math.max(0, tok.progress));
        if (tok.lost) p = Math.min(p, 0.5);
        // Spread simultaneous tokens vertically so they do not sit on top of each other — but
        // never above the boxes' titles (a label must not hide a heading).
        const lane = ((tok.entry * 7) % 5) - 2;
        const label = tokenText(v, tok);
        const w = textWidth(label);
        const top = from.top + (to.top - from.top) * p;
        out.push({
          tok,
          x: x0 + (x1 - x0) * p - w / 2,
          y: Math.max(top, from.cy + (to.cy - from.cy) * p + lane * 9 - fontPx * 0.8),
          w,
          label,
          kind: kindOf(tok),
          identity: tok.event >= 0 ? v.events.identity[tok.event]! : -1,
        });
      }
      // Labels never overlap (stacked in lanes; a button is 4 px taller than its text, borders
      // included); above LABEL_LIMIT the canvas draws dots instead of labels.
      return out.length <= LABEL_LIMIT ? separateLabels(out, fontPx * 1.6 + 4, 2) : out;
    };

    const drawCanvas = (selected: number) => {
      if (!ctx) return;
      const dpr = window.devicePixelRatio || 1;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, canvas.width / dpr, canvas.height / dpr);
      ctx.font = `bold ${fontPx}px system-ui, sans-serif`;
      ctx.textBaseline = 'middle';
      const h = fontPx * 1.6;
      if (placed.length > LABEL_LIMIT) {
        // Level of detail: hundreds of labels are unreadable anyway; dots per kind are cheap.
        const r = fontPx * 0.45;
        for (const kind of ['data', 'ack', 'other'] as const) {
          ctx.beginPath();
          for (const p of placed) {
            if (p.kind !== kind || p.tok.lost) continue;
            const cx = p.x + p.w / 2;
            ctx.moveTo(cx + r, p.y + h / 2);
            ctx.arc(cx, p.y + h / 2, r, 0, Math.PI * 2);
          }
          ctx.fillStyle = colors[kind];
          ctx.fill();
        }
        ctx.beginPath();
        for (const p of placed) {
          if (!p.tok.lost) continue;
          const cx = p.x + p.w / 2;
          ctx.moveTo(cx + fontPx * 0.6, p.y + h / 2);
          ctx.arc(cx, p.y + h / 2, fontPx * 0.6, 0, Math.PI * 2);
        }
        ctx.fillStyle = colors.lost;
        ctx.fill();
        canvasShown = true;
        return;
      }
      for (const p of placed) {
        const color = p.tok.lost ? colors.lost : colors[p.kind];
        ctx.beginPath();
        ctx.roundRect(p.x, p.y, p.w, h, h / 2);
        ctx.fillStyle = p.tok.lost ? colors.lostBg : colors.bg;
        ctx.fill();
        ctx.lineWidth = p.identity >= 0 && p.identity === selected ? 3 : 2;
        ctx.strokeStyle = p.identity >= 0 && p.identity === selected ? colors.select : color;
        ctx.setLineDash(p.kind === 'ack' ? [3, 2] : []);
        ctx.stroke();
        ctx.fillStyle = color;
        ctx.fillText(p.label, p.x + fontPx * 0.6, p.y + h / 2);
      }
      ctx.setLineDash([]);
      canvasShown = placed.length > 0;
    };
    const clearCanvas = () => {
      if (!ctx || !canvasShown) return;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      canvasShown = false;
    };

    const onButton = (e: MouseEvent) => {
      const b = e.currentTarget as HTMLButtonElement;
      if (b.dataset.lost === 'true') {
        const ident = Number(b.dataset.identity);
        if (ident >= 0) lab.actions.select(ident);
        return;
      }
      lab.actions.dropMessage(Number(b.dataset.entry));
    };
    const button = (k: number): HTMLButtonElement => {
      let b = pool[k];
      if (!b) {
        b = document.createElement('button');
        b.type = 'button';
        b.setAttribute('data-testid', testIds.token);
        b.addEventListener('click', onButton);
        el.appendChild(b);
        pool[k] = b;
        poolText[k] = '';
      }
      return b;
    };
    const drawButtons = (v: RunView, selected: number) => {
      let k = 0;
      for (const p of placed) {
        const b = button(k);
        b.style.display = '';
        b.style.transform = `translate(${p.x.toFixed(1)}px, ${p.y.toFixed(1)}px)`;
        const cls = `token${p.kind === 'ack' ? ' ack' : p.kind === 'other' ? ' other' : ''}${p.tok.lost ? ' lost' : ''}${p.identity >= 0 && p.identity === selected ? ' selected' : ''}`;
        if (b.className !== cls) b.className = cls;
        if (poolText[k] !== p.label) {
          poolText[k] = p.label;
          b.textContent = p.label;
        }
        b.setAttribute('aria-label', ariaLabel(v, p.tok, p.identity));
        b.dataset.entry = String(p.tok.entry);
        b.dataset.type = p.tok.type;
        b.dataset.lost = String(p.tok.lost);
        b.dataset.identity = String(p.identity);
        k++;
      }
      hideButtons(k);
    };
    const hideButtons = (from = 0) => {
      for (let q = from; q < pool.length; q++)
        if (pool[q]!.style.display !== 'none') pool[q]!.style.display = 'none';
    };

    const paint = () => {
      const s = lab.app.getState();
      const v = s.view;
      const { t, idx } = lab.cursor.getState();
      if (!v) {
        placed = [];
        hideButtons();
        clearCanvas();
        return;
      }
      // Boxes grow as rows arrive: re-measure when an engine event is crossed — while playing at
      // most every MEASURE_EVERY_MS, since reading layout right after React wrote the DOM forces a
      // synchronous layout.
      const now = performance.now();
      if (
        anchorsIdx < 0 ||
        (idx !== anchorsIdx && (!s.playing || now - measuredAt > MEASURE_EVERY_MS))
      ) {
        measure();
        anchorsIdx = idx;
        measuredAt = now;
      }
      placed = place(v, t, idx);
      if (s.playing) {
        hideButtons();
        drawCanvas(s.selected);
      } else {
        clearCanvas();
        drawButtons(v, s.selected);
      }
    };

    /** While playing, a click on the pipeline that lands on a drawn token drops that message. */
    const onPipelineClick = (e: MouseEvent) => {
      if (!lab.app.getState().playing || placed.length === 0) return;
      const base = root.getBoundingClientRect();
      const x = e.clientX - base.left;
      const y = e.clientY - base.top;
      const h = fontPx * 1.6;
      for (let k = placed.length - 1; k >= 0; k--) {
        const p = placed[k]!;
        if (x < p.x || x > p.x + p.w || y < p.y || y > p.y + h) continue;
        e.preventDefault();
        e.stopPropagation();
        if (p.tok.lost) {
          if (p.identity >= 0) lab.actions.select(p.identity);
        } else lab.actions.dropMessage(p.tok.entry);
        return;
      }
    };

    paint();
    root.addEventListener('click', onPipelineClick, true);
    const unsubCursor = lab.cursor.subscribe(paint);
    const unsubApp = lab.app.subscribe((s, prev) => {
      if (s.view !== prev.view || s.fontStep !== prev.fontStep) anchorsIdx = -1;
      if (
        s.view !== prev.view ||
        s.selected !== prev.selected ||
        s.playing !== prev.playing ||
        s.fontStep !== prev.fontStep
      )
        paint();
    });
    const ro =
      typeof ResizeObserver === 'function'
        ? new ResizeObserver(() => {
            anchorsIdx = -1;
            paint();
          })
        : null;
    ro?.observe(root);
    const unwatch = watchReducedMotion(paint);
    const unwatchScheme = watchColorScheme(() => {
      anchorsIdx = -1;
      paint();
    });
    return () => {
      root.removeEventListener('click', onPipelineClick, true);
      unsubCursor();
      unsubApp();
      ro?.disconnect();
      unwatch();
      unwatchScheme();
      for (const b of pool) {
        b.removeEventListener('click', onButton);
        b.remove();
      }
    };
  }, [lab, container]);
  return (
    <>
      <canvas ref={canvasRef} className="token-canvas" aria-hidden="true" />
      <div ref={layer} className="tokens" aria-label="Messages in flight" role="group" />
    </>
  );
}
