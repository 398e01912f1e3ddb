/**
 * The slide's PNG ("Download PNG (slide)" of the anomaly, issue 24): one 1920 × 1080 frame, the
 * diagram's title drawn by the canvas in a band at the top, the picture (drawn with
 * `MERMAID_SLIDE_CONFIG`) scaled to fill the rest. Mermaid puts a sequence diagram's title at
 * half the diagram's width from its left edge, whatever notes stick out on the left, so at the
 * slide's sizes it came out off-centre and clipped at the right; drawn here, it is centred and
 * shrunk to the frame's width when it is longer.
 */
import { EXPORT_FONTS, fitInto, rasterise, SLIDE, svgSize } from './mermaid';

/** Space kept free round the frame's content (px). */
const PADDING = 24;
/** The title's size (px) and its band: the line and the gap under it. */
const TITLE_PX = 40;
const TITLE_BAND = 64;
/** Space kept above the actors once the title is gone, and beside what is drawn (mermaid's `diagramMarginY` and `diagramMarginX` of the slide). */
const TOP_MARGIN = 8;

/**
 * Mermaid's SVG without its title — the `<text>` it draws at the root, above the actors — and
 * with its viewBox starting just above the actors (the title's room goes).
 * @returns the SVG (serialised) and the title's words, or the SVG as given and null when it has none.
 */
export function withoutTitle(svg: string): { svg: string; title: string | null } {
  const doc = new DOMParser().parseFromString(svg, 'text/html');
  const root = doc.querySelector('svg');
  const title = root?.querySelector(':scope > text:not([class])');
  if (!root || !title) return { svg, title: null };
  const words = title.textContent?.trim() ?? '';
  title.remove();
  const box = root
    .getAttribute('viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  const tops = [...root.querySelectorAll('rect.actor')].map((r) => Number(r.getAttribute('y')));
  if (box?.length === 4 && tops.length > 0) {
    const top = Math.max(box[1]!, Math.min(...tops) - TOP_MARGIN);
    root.setAttribute('viewBox', [box[0], top, box[2], box[3]! - (top - box[1]!)].join(' '));
  }
  return { svg: new XMLSerializer().serializeToString(root), title: words || null };
}

/** Room kept between a note's text and its box's sides (px: mermaid's `noteMargin` of the slide). */
const NOTE_SIDE = 6;

/**
 * The SVG with every note's box as wide as its text, and the viewBox wide enough for everything
 * drawn. Mermaid sizes a note over several participants to the distance between them, not to its
 * text (its `buildNoteModel`), so at the slide's sizes a long one overflowed its box and was cut
 * at the picture's edge. The text is centred on the box, so the box grows on both sides.
 * Measured in the page (a hidden copy of the SVG): text widths need layout.
 */
export function fitNotes(svg: string): string {
  const parsed = new DOMParser().parseFromString(svg, 'text/html').querySelector('svg');
  if (!parsed) return svg;
  const host = document.createElement('div');
  host.style.cssText = 'position:absolute;left:-100000px;top:0;visibility:hidden';
  const root = document.importNode(parsed, true);
  host.append(root);
  document.body.append(host);
  try {
    for (const note of root.querySelectorAll('g[data-et="note"]')) {
      const box = note.querySelector<SVGRectElement>('rect.note');
      const texts = [...note.querySelectorAll<SVGTextElement>('text.noteText')];
      if (!box || texts.length === 0) continue;
      const need = Math.max(...texts.map((t) => t.getBBox().width)) + 2 * NOTE_SIDE;
      const width = Number(box.getAttribute('width'));
      if (!(need > width)) continue;
      box.setAttribute('x', String(Number(box.getAttribute('x')) - (need - width) / 2));
      box.setAttribute('width', String(need));
    }
    const view = root
      .getAttribute('viewBox')
      ?.trim()
      .split(/[\s,]+/)
      .map(Number);
    if (view?.length === 4) {
      const drawn = root.getBBox();
      const left = Math.min(view[0]!, drawn.x - TOP_MARGIN);
      const right = Math.max(view[0]! + view[2]!, drawn.x + drawn.width + TOP_MARGIN);
      root.setAttribute('viewBox', [left, view[1], right - left, view[3]].join(' '));
    }
    return new XMLSerializer().serializeToString(root);
  } finally {
    host.remove();
  }
}

/** Where the picture goes: under the title's band (or the whole frame), top-aligned, centred across. */
export function slideRect(
  size: { width: number; height: number },
  titled: boolean,
): { x: number; y: number; width: number; height: number } {
  const band = titled ? TITLE_BAND : 0;
  const fit = fitInto(size, { width: SLIDE.width, height: SLIDE.height - band }, PADDING);
  return { ...fit, y: PADDING + band };
}

/** The slide of mermaid's SVG (rendered with `MERMAID_SLIDE_CONFIG`), as a PNG. */
export function slidePng(svg: string): Promise<Blob> {
  const { svg: untitled, title } = withoutTitle(svg);
  const picture = fitNotes(untitled);
  const rect = slideRect(svgSize(picture), title !== null);
  return rasterise(picture, SLIDE, rect, '#ffffff', (ctx) => {
    if (title === null) return;
    const room = SLIDE.width - 2 * PADDING;
    ctx.font = `bold ${TITLE_PX}px ${EXPORT_FONTS}`;
    const width = ctx.measureText(title).width;
    if (width > room) ctx.font = `bold ${Math.floor((TITLE_PX * room) / width)}px ${EXPORT_FONTS}`;
    ctx.fillStyle = '#1b1b1b';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(title, SLIDE.width / 2, PADDING + TITLE_PX / 2);
  });
}
