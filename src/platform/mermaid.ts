/**
 * The one module that owns mermaid. Everything else gets diagram *text* from `views/mermaid`
 * and hands it here to become SVG.
 *
 * - Loaded lazily with a dynamic `import('mermaid')`, so the library is a separate chunk, fetched
 *   the first time a diagram is shown (it is not in the entry bundle).
 * - Configured once: `startOnLoad: false` (we render on demand), `securityLevel: 'strict'` (labels
 *   are sanitised, click handlers and scripts are refused), `deterministicIds: true` (the same text
 *   gives the same SVG, which the tests and the downloads rely on). Mermaid ≥ 11.15 is required:
 *   older versions are affected by an injection advisory.
 *   https://mermaid.js.org/config/usage.html and https://mermaid.js.org/config/schema-docs/config.html
 * - `parse()` before `render()`, so a bad diagram gives a message instead of mermaid's error SVG.
 * - Renders are serialised across the whole page (mermaid keeps global state while it renders),
 *   each gets a fresh element id, and a result that a newer request of the same view has
 *   superseded is dropped (`status: 'stale'`) — the approach of mermaid-live-editor's
 *   `src/lib/util/mermaid.ts` and `View.svelte`.
 *
 * Plus the export helpers: the SVG as a standalone file and a PNG sized for slides (canvas); the
 * download itself is ./download.ts.
 */
import type { MermaidConfig } from 'mermaid';
import { HIGHLIGHT, HIGHLIGHT_EDGE } from '../views/diagrams/anomalyHighlight';

/** The parts of mermaid's API this module uses (a fake in tests). */
export interface MermaidApi {
  initialize(config: MermaidConfig): void;
  parse(text: string): Promise<unknown>;
  render(id: string, text: string): Promise<{ svg: string }>;
}

/**
 * Our mermaid configuration. Labels keep mermaid's default HTML labels: its strict mode sanitises
 * them, and our text carries no markup but `<br/>` (scenario strings arrive entity-encoded from
 * `views/mermaidText`). `maxTextSize` admits a capped whole-run diagram with room to spare.
 */
export const MERMAID_CONFIG: MermaidConfig = {
  startOnLoad: false,
  securityLevel: 'strict',
  deterministicIds: true,
  deterministicIDSeed: 'delivery-lab',
  maxTextSize: 200_000,
  theme: 'default',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  sequence: { useMaxWidth: true, wrap: false },
  flowchart: { useMaxWidth: true },
};

/**
 * The page's configuration in its dark colour scheme: mermaid's `dark` theme on the panel's
 * colour (mermaid bakes its theme into the SVG, so the stylesheet cannot restyle it). The diagram
 * text is the same in both schemes; its one colour of its own, the topology's pale fault nodes
 * (`classDef fault`), keeps its fill and gets dark words, readable on it.
 */
const MERMAID_DARK_CONFIG: MermaidConfig = {
  ...MERMAID_CONFIG,
  theme: 'dark',
  themeVariables: { darkMode: true, background: '#1a1d21' },
  themeCSS: '.fault .nodeLabel, .fault .nodeLabel * { color: #1b1b1b !important; }',
};

/** The page's mermaid configuration for its colour scheme. */
export function pageMermaidConfig(dark: boolean): MermaidConfig {
  return dark ? MERMAID_DARK_CONFIG : MERMAID_CONFIG;
}

/** The downloads' fonts, named (see {@link MERMAID_EXPORT_CONFIG}). */
export const EXPORT_FONTS = 'Arial, "Liberation Sans", "DejaVu Sans", Helvetica, sans-serif';

/**
 * The configuration of the *downloaded* pictures: named fonts and natural size (no
 * `useMaxWidth`), and always the light theme, whatever the page's scheme — a download goes on a
 * slide or in a document, and the PNG is drawn on white. Labels stay HTML (mermaid's SVG-text labels show entity codes such as `&#34;`
 * literally and break words); {@link standaloneSvg} keeps them from being clipped.
 */
export const MERMAID_EXPORT_CONFIG: MermaidConfig = {
  ...MERMAID_CONFIG,
  // Named fonts: `system-ui` may resolve to another face once the SVG stands alone.
  fontFamily: EXPORT_FONTS,
  flowchart: { useMaxWidth: false },
  sequence: { useMaxWidth: false, wrap: false },
};

/** The slide's label size (px): read from the back of a room once projected (issue 24). */
const SLIDE_FONT_PX = 28;

/**
 * The configuration of the *slide* (the anomaly's diagram, "Download PNG (slide)", issue 24): the
 * export's, with labels of {@link SLIDE_FONT_PX} and room made for them, since a 1920 × 1080 frame
 * scales the whole picture to fit and a label is only as large as the layout around it leaves it.
 * - `fontSize` at the top level: mermaid's sequence renderer copies it over its message, note and
 *   actor sizes when it draws (its `setConf`), so `sequence.messageFontSize` alone changes nothing.
 *   (The title is drawn by the slide's canvas: ./slidePng.ts.)
 * - Margins in pixels (mermaid's defaults are sized for 16 px text) cut to what 28 px text needs;
 *   no mirrored row of actors at the foot (`mirrorActors`), narrow actor boxes (`width`: the
 *   labels set the gaps).
 * - `themeCSS`: a note's text is centred (mermaid offsets it by `noteMargin / 2 + 1em`, which puts
 *   28 px text at the box's foot), and the highlighted rows get an edge in the page's --dup and
 *   --lost colours (a pale fill alone, a few pixels round a note, vanishes on a projector).
 * https://mermaid.js.org/config/schema-docs/config-defs-sequence-diagram-config.html
 */
export const MERMAID_SLIDE_CONFIG: MermaidConfig = {
  ...MERMAID_EXPORT_CONFIG,
  fontSize: SLIDE_FONT_PX,
  themeCSS: [
    '.noteText{transform:translateY(-9px)}',
    ...Object.entries(HIGHLIGHT).map(
      ([fate, fill]) =>
        `rect.rect[fill="${fill}"]{stroke:${HIGHLIGHT_EDGE[fate as keyof typeof HIGHLIGHT]};stroke-width:3px}`,
    ),
  ].join(''),
  sequence: {
    ...MERMAID_EXPORT_CONFIG.sequence,
    mirrorActors: false,
    diagramMarginX: 8,
    diagramMarginY: 8,
    actorMargin: 24,
    width: 100,
    height: 44,
    boxMargin: 4,
    noteMargin: 6,
    wrapPadding: 8,
  },
};

let loading: Promise<MermaidApi> | null = null;

/**
 * Load and configure mermaid (once; later calls share the first promise).
 * @param importer - how to import it; the default is the dynamic `import('mermaid')` that makes
 *   Vite put it in its own chunk.
 * @throws the import's error (network, chunk missing); the next call tries again.
 */
export function loadMermaid(
  importer: () => Promise<{ default: MermaidApi }> = () => import('mermaid'),
): Promise<MermaidApi> {
  if (!loading) {
    loading = importer().then(
      (m) => {
        m.default.initialize(MERMAID_CONFIG);
        return m.default;
      },
      (e: unknown) => {
        loading = null;
        throw e;
      },
    );
  }
  return loading;
}

/** The outcome of one {@link MermaidRenderer.render} call. */
type RenderOutcome =
  | { status: 'ok'; svg: string; id: string }
  | { status: 'error'; message: string }
  | { status: 'stale' };

/** A view's renderer: only its latest request produces a result. */
export interface MermaidRenderer {
  /**
   * Parse then render `text`. Never rejects: a syntax or render error is `status: 'error'`, and a
   * request overtaken by a newer one from this renderer is `status: 'stale'`.
   */
  render(text: string): Promise<RenderOutcome>;
}

/** Every render on the page waits for the previous one (mermaid is not re-entrant). */
let pageQueue: Promise<unknown> = Promise.resolve();
let nextId = 0;

/** Longest error message passed on (mermaid's parse errors quote the source). */
const MAX_ERROR = 600;

function messageOf(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.length > MAX_ERROR ? `${text.slice(0, MAX_ERROR - 1)}…` : text;
}

/** Remove what a failed render may leave in the document (mermaid's scratch elements). */
function cleanup(id: string): void {
  if (typeof document === 'undefined') return;
  document.getElementById(id)?.remove();
  document.getElementById(`d${id}`)?.remove();
  document.getElementById(`i${id}`)?.remove();
}

/** The configuration mermaid was last initialised with ({@link loadMermaid} sets the default). */
let configured: MermaidConfig = MERMAID_CONFIG;

/**
 * A renderer for one view (a diagram panel, an export dialog).
 * @param load - where mermaid comes from (default {@link loadMermaid}).
 * @param idPrefix - prefix of the SVG element ids (each render gets `${idPrefix}-${n}`).
 * @param config - the configuration of this renderer's pictures (default {@link MERMAID_CONFIG};
 *   {@link MERMAID_EXPORT_CONFIG} for downloads). Renders are serialised, so each can set its own.
 */
export function createMermaidRenderer(
  load: () => Promise<MermaidApi> = loadMermaid,
  idPrefix = 'dl-mermaid',
  config: MermaidConfig = MERMAID_CONFIG,
): MermaidRenderer {
  let latest = 0;
  return {
    render(text: string): Promise<RenderOutcome> {
      const ticket = ++latest;
      const stale = (): boolean => ticket !== latest;
      const job = pageQueue.then(async (): Promise<RenderOutcome> => {
        if (stale()) return { status: 'stale' };
        let mermaid: MermaidApi;
        try {
          mermaid = await load();
        } catch (e) {
          return { status: 'error', message: `could not load mermaid: ${messageOf(e)}` };
        }
        if (stale()) return { status: 'stale' };
        if (configured !== config) {
          mermaid.initialize(config);
          configured = config;
        }
        try {
          await mermaid.parse(text);
        } catch (e) {
          return stale() ? { status: 'stale' } : { status: 'error', message: messageOf(e) };
        }
        if (stale()) return { status: 'stale' };
        const id = `${idPrefix}-${++nextId}`;
        try {
          const { svg } = await mermaid.render(id, text);
          return stale() ? { status: 'stale' } : { status: 'ok', svg, id };
        } catch (e) {
          cleanup(id);
          return stale() ? { status: 'stale' } : { status: 'error', message: messageOf(e) };
        }
      });
      pageQueue = job.catch(() => undefined);
      return job;
    },
  };
}

// ─────────────────────────────────────────────────────────────────────────── export helpers

/** A slide (16:9, 1920 × 1080 px): the default PNG canvas. */
export const SLIDE = { width: 1920, height: 1080 } as const;

/** Width and height of an SVG from its `viewBox` (else its width/height attributes), in px. */
export function svgSize(svg: string): { width: number; height: number } {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? '';
  const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(root)?.[1];
  const box = attr('viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (box && box.length === 4 && box[2]! > 0 && box[3]! > 0)
    return { width: box[2]!, height: box[3]! };
  const w = Number.parseFloat(attr('width') ?? '');
  const h = Number.parseFloat(attr('height') ?? '');
  return { width: w > 0 ? w : 800, height: h > 0 ? h : 600 };
}

/**
 * Where a picture of `size` goes inside a canvas of `box`: scaled to fit inside the padding,
 * keeping its aspect ratio, centred.
 * @returns the drawn rectangle (px).
 */
export function fitInto(
  size: { width: number; height: number },
  box: { width: number; height: number },
  padding = 48,
): { x: number; y: number; width: number; height: number } {
  const w = Math.max(1, box.width - 2 * padding);
  const h = Math.max(1, box.height - 2 * padding);
  const scale = Math.min(w / size.width, h / size.height);
  const width = Math.round(size.width * scale);
  const height = Math.round(size.height * scale);
  return {
    x: Math.round((box.width - width) / 2),
    y: Math.round((box.height - height) / 2),
    width,
    height,
  };
}

/** Tallest PNG canvas {@link slideCanvas} makes (px): a long sequence diagram stops here. */
export const TALL_MAX = 12_000;

/**
 * The canvas for a diagram's PNG: a 1920 × 1080 slide when the diagram fits one legibly (drawn at
 * 3/4 of its natural size or more); otherwise a slide's *width* and as tall as the diagram needs
 * (at most {@link TALL_MAX}) — a 200-step sequence diagram squeezed into 1080 px is unreadable, and
 * a tall image of slide width can still be cropped or scrolled on a slide.
 */
export function slideCanvas(
  size: { width: number; height: number },
  padding = 48,
): { width: number; height: number } {
  const fit = fitInto(size, SLIDE, padding);
  if (fit.width >= size.width * 0.75) return { ...SLIDE };
  const scale = Math.min(2, (SLIDE.width - 2 * padding) / size.width);
  const height = Math.min(TALL_MAX, Math.round(size.height * scale) + 2 * padding);
  return { width: SLIDE.width, height: Math.max(SLIDE.height, height) };
}

/**
 * The SVG as a standalone file: well-formed XML with the SVG namespace and explicit pixel size
 * (mermaid's output says `width="100%"`, which an image viewer cannot size).
 * @param size - the pixel size to declare (default: the viewBox size).
 */
export function standaloneSvg(svg: string, size = svgSize(svg)): string {
  const doc = new DOMParser().parseFromString(svg, 'text/html');
  const root = doc.querySelector<SVGSVGElement>('svg');
  if (!root) throw new Error('not an SVG');
  root.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  root.setAttribute('width', String(size.width));
  root.setAttribute('height', String(size.height));
  root.style.removeProperty('max-width');
  // HTML labels were measured in the page; standing alone (an image viewer, the PNG's canvas)
  // their text is drawn with other metrics and came out clipped at the label's box. Draw them at
  // 90 % (as the page shows them) and let a stray pixel overflow rather than cut a word.
  const fit = doc.createElementNS('http://www.w3.org/2000/svg', 'style');
  fit.textContent = 'foreignObject{overflow:visible}foreignObject>div{font-size:90%}';
  root.append(fit);
  const xml = new XMLSerializer().serializeToString(root);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${xml}\n`;
}

/** The SVG as a downloadable Blob (`image/svg+xml`). */
export function svgBlob(svg: string): Blob {
  return new Blob([standaloneSvg(svg)], { type: 'image/svg+xml;charset=utf-8' });
}

/** Options of {@link svgToPng}. */
export interface PngOptions {
  /** Canvas width (px); default 1920. */
  width?: number;
  /** Canvas height (px); default 1080. */
  height?: number;
  /** Space kept free around the diagram (px); default 48. */
  padding?: number;
  /** Canvas background (a CSS colour); default white. */
  background?: string;
}

/**
 * Draw the SVG on a canvas sized for slides (1920 × 1080 unless told otherwise), scaled to fit and
 * centred on a white background, and encode it as PNG. The SVG is loaded as a `data:` URL image
 * (allowed by the page's CSP `img-src`); images drawn that way do not taint the canvas.
 * @throws when the browser cannot decode the SVG or encode the PNG.
 */
export async function svgToPng(svg: string, opts: PngOptions = {}): Promise<Blob> {
  const box = { width: opts.width ?? SLIDE.width, height: opts.height ?? SLIDE.height };
  return rasterise(svg, box, fitInto(svgSize(svg), box, opts.padding ?? 48), opts.background);
}

/**
 * Draw the SVG into `rect` of a `box`-sized canvas filled with `background` (white by default),
 * then `paint` on top (what the canvas adds: a title), and encode it as PNG.
 * @throws when the browser cannot decode the SVG or encode the PNG.
 */
export async function rasterise(
  svg: string,
  box: { width: number; height: number },
  rect: { x: number; y: number; width: number; height: number },
  background = '#ffffff',
  paint?: (ctx: CanvasRenderingContext2D) => void,
): Promise<Blob> {
  const file = standaloneSvg(svg, { width: rect.width, height: rect.height });
  const image = new Image(rect.width, rect.height);
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(file)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = box.width;
  canvas.height = box.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas in this browser');
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, box.width, box.height);
  ctx.drawImage(image, rect.x, rect.y, rect.width, rect.height);
  paint?.(ctx);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('the PNG could not be encoded'))),
      'image/png',
    ),
  );
}
