import { useEffect, useRef, type RefObject } from 'react';
import { prefersReducedMotion, watchReducedMotion } from '../../platform/media';
import { isResponse, tokensAt, type Token } from '../../views/at';
import { messageLabel } from '../../views/faultActions';
import { eventIdOf, type RunView } from '../../views/runView';
import { useLabInstance } from '../../store/LabContext';
import { testIds } from '../testIds';

/** At most this many tokens are drawn (the rest are still counted by the engine). */
const MAX_TOKENS = 800;

interface Anchor {
  left: number;
  right: number;
  cy: number;
}

const DATA_TYPES = new Set(['produce', 'fetch-response', 'sink-write', 'effect-call', 'replicate']);

function tokenClass(tok: Token, selected: boolean): string {
  const base = DATA_TYPES.has(tok.type)
    ? 'token'
    : isResponse(tok.type)
      ? 'token ack'
      : 'token other';
  return `${base}${tok.lost ? ' lost' : ''}${selected ? ' selected' : ''}`;
}

function tokenText(v: RunView, tok: Token): string {
  const id = tok.event >= 0 ? eventIdOf(v.events, v.events.identity[tok.event]!) : '';
  let text: string;
  if (tok.type === 'produce-response') text = id ? `ack ${id}` : 'ack';
  else if (DATA_TYPES.has(tok.type))
    text = id ? (tok.count > 1 ? `${id} +${tok.count - 1}` : id) : `${tok.count} rec`;
  else if (tok.type === 'commit') text = 'commit';
  else if (tok.type === 'fetch') text = 'fetch';
  else text = isResponse(tok.type) ? '✓' : tok.type.split('-')[0]!;
  return tok.lost ? `✕ ${text}` : text;
}

/**
 * Messages in flight as tokens moving between the components. Drawn imperatively: the layer
 * subscribes to the cursor store and moves pooled elements with transforms each frame, so an
 * animation frame costs no React render (zustand "transient updates"). A token is a button:
 * clicking a record or an ack in flight drops it (a fault at its send time); with reduced motion
 * tokens sit still half-way.
 */
export function TokenLayer({ container }: { container: RefObject<HTMLElement | null> }) {
  const lab = useLabInstance();
  const layer = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = container.current;
    const el = layer.current;
    if (!root || !el) return;
    const pool: HTMLButtonElement[] = [];
    const text: string[] = [];
    const scratch: Token[] = [];
    let anchors = new Map<string, Anchor>();
    let anchorsIdx = -1;
    let reduced = prefersReducedMotion();

    const measure = () => {
      const base = root.getBoundingClientRect();
      anchors = new Map();
      root.querySelectorAll<HTMLElement>('[data-anchor]').forEach((a) => {
        const r = a.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) return;
        anchors.set(a.dataset.anchor!, {
          left: r.left - base.left,
          right: r.right - base.left,
          cy: r.top - base.top + Math.min(r.height / 2, 18),
        });
      });
    };
    const anchorOf = (v: RunView, actor: number): Anchor | undefined => {
      const name = v.actors[actor];
      if (name === undefined) return undefined;
      return anchors.get(name) ?? anchors.get(name.replace(/-replacement$/, ''));
    };
    const onClick = (e: MouseEvent) => {
      const b = e.currentTarget as HTMLButtonElement;
      const entry = Number(b.dataset.entry);
      if (b.dataset.lost === 'true') {
        const ident = Number(b.dataset.identity);
        if (ident >= 0) lab.actions.select(ident);
        return;
      }
      lab.actions.dropMessage(entry);
    };
    const element = (k: number): HTMLButtonElement => {
      let b = pool[k];
      if (!b) {
        b = document.createElement('button');
        b.type = 'button';
        b.dataset.testid = testIds.token;
        b.setAttribute('data-testid', testIds.token);
        b.addEventListener('click', onClick);
        el.appendChild(b);
        pool[k] = b;
        text[k] = '';
      }
      return b;
    };

    const paint = () => {
      const s = lab.app.getState();
      const v = s.view;
      const { t, idx } = lab.cursor.getState();
      if (!v) {
        for (const b of pool) b.style.display = 'none';
        return;
      }
      if (idx !== anchorsIdx) {
        // Boxes grow as rows arrive: re-measure when an engine event is crossed, not per frame.
        measure();
        anchorsIdx = idx;
      }
      const tokens = tokensAt(v, t, idx, scratch, MAX_TOKENS);
      let k = 0;
      for (const tok of tokens) {
        const from = anchorOf(v, tok.from);
        const to = anchorOf(v, tok.to);
        if (!from || !to) continue;
        const b = element(k);
        const rightward = to.left >= from.right - 1;
        const x0 = rightward ? from.right : from.left;
        const x1 = rightward ? to.left : to.right;
        let p = reduced ? 0.5 : Math.min(1, Math.max(0, tok.progress));
        if (tok.lost) p = Math.min(p, 0.5);
        // Spread simultaneous tokens vertically so they do not sit on top of each other.
        const lane = ((tok.entry * 7) % 5) - 2;
        const x = x0 + (x1 - x0) * p - 18;
        const y = from.cy + (to.cy - from.cy) * p + lane * 9 - 9;
        b.style.display = '';
        b.style.transform = `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)`;
        const ident = tok.event >= 0 ? v.events.identity[tok.event]! : -1;
        const cls = tokenClass(tok, ident >= 0 && ident === s.selected);
        if (b.className !== cls) b.className = cls;
        const label = tokenText(v, tok);
        if (text[k] !== label) {
          text[k] = label;
          b.textContent = label;
          const what = messageLabel(tok.type);
          const id = ident >= 0 ? ` of ${eventIdOf(v.events, ident)}` : '';
          b.setAttribute(
            'aria-label',
            tok.lost
              ? `${what}${id} from ${v.actors[tok.from]} to ${v.actors[tok.to]}: lost`
              : `${what}${id} from ${v.actors[tok.from]} to ${v.actors[tok.to]}, in flight: press to drop it`,
          );
        }
        b.dataset.entry = String(tok.entry);
        b.dataset.type = tok.type;
        b.dataset.lost = String(tok.lost);
        b.dataset.identity = String(ident);
        b.tabIndex = s.playing ? -1 : 0;
        k++;
      }
      for (let q = k; q < pool.length; q++)
        if (pool[q]!.style.display !== 'none') pool[q]!.style.display = 'none';
    };

    paint();
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
        ? new ResizeObserver(() => ((anchorsIdx = -1), paint()))
        : null;
    ro?.observe(root);
    const unwatch = watchReducedMotion(() => {
      reduced = prefersReducedMotion();
      paint();
    });
    return () => {
      unsubCursor();
      unsubApp();
      ro?.disconnect();
      unwatch();
      for (const b of pool) {
        b.removeEventListener('click', onClick);
        b.remove();
      }
    };
  }, [lab, container]);
  return <div ref={layer} className="tokens" aria-label="Messages in flight" role="group" />;
}
