/**
 * The embedded player's options, in the page's query string (`?embed&autoplay=1&t=40000…`), and
 * the iframe snippet the Embed dialog writes. Pure: tested without a browser.
 *
 * | parameter | meaning | default |
 * |---|---|---|
 * | `embed` | the compact player instead of the full lab | — |
 * | `autoplay=1` | start playing once the run is ready (with a prediction asked: once it is locked in or skipped) | off |
 * | `t=<ms>` | start at this virtual time | 0 |
 * | `speed=<x>` | virtual ms per real ms (0.001 … 1000) | the lab's |
 * | `panels=a,b` | which panels show: pipeline, transport, counters, verdict, why | pipeline,transport,counters,verdict |
 * | `caption=<text>` | a caption above the player (text, never markup) | none |
 * | `lock=1` | knobs locked: no guarantee switch, no faults by clicking | unlocked |
 * | `predict=1` | ask for a prediction first; locking it in plays; the answer and verdict at the run's end | off |
 * | `q=`, `a=` | the question and its answer (else the preset's on the variant it is about, else a generic one with choices: embedQuestion.ts) | — |
 * | `id=<text>` | echoed in every message to the host page, to tell frames apart | none |
 *
 * The scenario itself travels as everywhere else: `#s=` (a share link, exact) or `?preset=`.
 * Any other query parameter is ignored and named in a notice ({@link unknownEmbedNotice}).
 */

import type { PageNotice } from '../io/notices';

/** Panels the embed can show. */
export const EMBED_PANELS = ['pipeline', 'transport', 'counters', 'verdict', 'why'] as const;
/** One panel of {@link EMBED_PANELS}. */
export type EmbedPanel = (typeof EMBED_PANELS)[number];
/** Shown when `panels` is not given. */
export const DEFAULT_PANELS: readonly EmbedPanel[] = [
  'pipeline',
  'transport',
  'counters',
  'verdict',
];

/** Longest caption kept (characters). */
export const CAPTION_MAX = 200;
/** Longest question or answer kept (characters). */
export const PREDICT_MAX = 600;

/** The options of an embedded player. */
export interface EmbedOptions {
  autoplay: boolean;
  /** Start time (virtual ms). */
  start: number;
  /** Playback speed, or null for the lab's default. */
  speed: number | null;
  panels: EmbedPanel[];
  caption: string;
  lock: boolean;
  predict: boolean;
  question: string;
  answer: string;
  /** Echoed in the messages to the host page. */
  frameId: string;
}

/** The defaults (what a bare `?embed` gets). */
export const DEFAULT_EMBED: EmbedOptions = {
  autoplay: false,
  start: 0,
  speed: null,
  panels: [...DEFAULT_PANELS],
  caption: '',
  lock: false,
  predict: false,
  question: '',
  answer: '',
  frameId: '',
};

const flag = (v: string | null) => v !== null && v !== '0' && v !== 'false' && v !== 'no';
// Text from a URL is data: cut to size and strip control characters (a caption is one line).
const text = (v: string | null, max: number) =>
  (v ?? '')
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim()
    .slice(0, max);

/** Whether the query string asks for the embedded player. */
export function isEmbed(search: string): boolean {
  return new URLSearchParams(search).has('embed');
}

/**
 * The `panels` option: the names it lists that are panels (case and spaces ignored, unknown names
 * left out), in display order. A value naming no panel at all — absent, empty, `xyz` — is
 * malformed and falls back to the default set: a player showing nothing is never what was meant.
 */
export function parsePanels(value: string | null): EmbedPanel[] {
  const asked = new Set((value ?? '').split(',').map((s) => s.trim().toLowerCase()));
  const panels = EMBED_PANELS.filter((x) => asked.has(x));
  return panels.length > 0 ? panels : [...DEFAULT_PANELS];
}

/**
 * Every query parameter the embedded page reads, in the order docs/embed.md lists them: `embed`
 * and `preset` (which scenario), then the options of the table above. The scenario's `#s=` is in
 * the hash, not the query.
 */
export const EMBED_PARAMS = [
  'embed',
  // PRESET_PARAM of src/platform/presetUrl.ts (spelled out: this module stays free of the library).
  'preset',
  'autoplay',
  't',
  'speed',
  'panels',
  'caption',
  'lock',
  'predict',
  'q',
  'a',
  'id',
] as const;

/** Longest unknown parameter name quoted back in the notice (a hostile URL may be huge). */
const UNKNOWN_SHOWN_MAX = 40;

/** Levenshtein distance of two short strings (parameter names). */
function distance(x: string, y: string): number {
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++)
      row.push(
        Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1)),
      );
    prev = row;
  }
  return prev[y.length]!;
}

/**
 * The known parameter an unknown name is probably a misspelling of, or null: the same name in
 * another case (`Autoplay`), else one edit away from a name of 4+ letters or two from one of 6+
 * (`autoply`, `pannels`, `captoin`). The one-letter names (`t`, `q`, `a`) match by case only: any
 * other letter is one edit from them.
 */
export function likelyEmbedParam(name: string): string | null {
  const lower = name.toLowerCase();
  const same = EMBED_PARAMS.find((k) => k === lower);
  if (same) return same;
  let best: string | null = null;
  let bestD = Infinity;
  for (const k of EMBED_PARAMS) {
    const allowed = k.length >= 6 ? 2 : k.length >= 4 ? 1 : 0;
    const d = distance(lower, k);
    if (d <= allowed && d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return best;
}

/**
 * The query parameters of an embed's address that the embed does not read (a misspelling, an
 * option from another tool), each once, in the order they come. Empty names (`?embed&&`) are not
 * parameters. The embed ignores them — {@link unknownEmbedNotice} tells the author.
 */
export function unknownEmbedParams(search: string): string[] {
  const known = new Set<string>(EMBED_PARAMS);
  const out: string[] = [];
  for (const name of new URLSearchParams(search).keys())
    if (name !== '' && !known.has(name) && !out.includes(name)) out.push(name);
  return out;
}

/**
 * The notice an embed shows when its address has options it does not know (none: null), so the
 * author of a snippet with `autoply=1` sees why it does not autoplay instead of nothing at all.
 * One line per unknown name, with the likely intended one; the text lists the known ones. The
 * reader may dismiss it; the embed plays as it would without those parameters.
 */
export function unknownEmbedNotice(search: string): Omit<PageNotice, 'id'> | null {
  const unknown = unknownEmbedParams(search);
  if (unknown.length === 0) return null;
  const known = EMBED_PARAMS.join(', ');
  return {
    tone: 'warn',
    text:
      unknown.length === 1
        ? `This embed ignores an option it does not know. Its options: ${known}.`
        : `This embed ignores ${unknown.length} options it does not know. Its options: ${known}.`,
    lines: unknown.map((name) => {
      const shown = name.length > UNKNOWN_SHOWN_MAX ? `${name.slice(0, UNKNOWN_SHOWN_MAX)}…` : name;
      const meant = likelyEmbedParam(name);
      return meant ? `“${shown}” — did you mean “${meant}”?` : `“${shown}”`;
    }),
  };
}

/** Read the options from a query string (anything malformed falls back to its default). */
export function parseEmbedOptions(search: string): EmbedOptions {
  const p = new URLSearchParams(search);
  const start = Number(p.get('t'));
  const speed = Number(p.get('speed'));
  return {
    autoplay: flag(p.get('autoplay')),
    start: Number.isFinite(start) && start > 0 ? Math.floor(start) : 0,
    speed:
      p.has('speed') && Number.isFinite(speed) && speed >= 0.001 && speed <= 1000 ? speed : null,
    panels: parsePanels(p.get('panels')),
    caption: text(p.get('caption'), CAPTION_MAX),
    lock: flag(p.get('lock')),
    predict: flag(p.get('predict')),
    question: text(p.get('q'), PREDICT_MAX),
    answer: text(p.get('a'), PREDICT_MAX),
    frameId: text(p.get('id'), 80),
  };
}

/**
 * The query string of an embed (`?embed&…`): only the options that differ from the defaults,
 * and `preset` when given (a share link goes in the hash instead).
 */
export function embedQuery(o: EmbedOptions, preset?: string | null): string {
  const parts = ['embed'];
  const p = new URLSearchParams();
  if (preset) p.set('preset', preset);
  if (o.autoplay) p.set('autoplay', '1');
  if (o.start > 0) p.set('t', String(Math.floor(o.start)));
  if (o.speed !== null) p.set('speed', String(o.speed));
  const same =
    o.panels.length === DEFAULT_PANELS.length && DEFAULT_PANELS.every((x) => o.panels.includes(x));
  if (!same) p.set('panels', EMBED_PANELS.filter((x) => o.panels.includes(x)).join(','));
  if (o.caption) p.set('caption', o.caption);
  if (o.lock) p.set('lock', '1');
  if (o.predict) {
    p.set('predict', '1');
    if (o.question) p.set('q', o.question);
    if (o.answer) p.set('a', o.answer);
  }
  if (o.frameId) p.set('id', o.frameId);
  const rest = p.toString();
  if (rest) parts.push(rest);
  return `?${parts.join('&')}`;
}

// ─────────────────────────────────────────────────────────────────────────── host messages

/** The `type` of the height message. */
export const HEIGHT_MESSAGE = 'delivery-lab:height';

/**
 * What the embedded page posts to its parent whenever its height changes (and once at start):
 * `{ type: 'delivery-lab:height', height: <CSS px, an integer>, id: <the id option or ''> }`.
 * It carries nothing private, so it is posted to any origin (`'*'`): the host checks
 * `event.origin` and `event.source` itself.
 */
export interface HeightMessage {
  type: typeof HEIGHT_MESSAGE;
  height: number;
  id: string;
}

/** Escape text for an HTML attribute value in double quotes. */
export function attr(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * The snippet for a host page: the iframe, and a listener that sizes it from the height
 * messages. The listener accepts messages only from this iframe's window and the lab's origin.
 * @param url - the embed URL (absolute).
 * @param height - the frame's height before the first message (px).
 */
export function embedSnippet(
  url: string,
  opts: { title: string; height?: number; frameId?: string },
): string {
  const origin = new URL(url).origin;
  const id = opts.frameId || 'delivery-lab';
  const h = Math.round(opts.height ?? 520);
  return `<iframe id="${attr(id)}" src="${attr(url)}" title="${attr(opts.title)}"
  style="width: 100%; height: ${h}px; border: 0" loading="lazy"></iframe>
<script>
  // Delivery Lab reports its height: { type: 'delivery-lab:height', height, id }.
  window.addEventListener('message', (event) => {
    const frame = document.getElementById(${JSON.stringify(id).replace(/</g, '\\u003c')});
    if (!frame || event.source !== frame.contentWindow) return;
    if (event.origin !== ${JSON.stringify(origin)}) return;
    const m = event.data;
    if (m && m.type === 'delivery-lab:height' && Number.isFinite(m.height))
      frame.style.height = Math.ceil(m.height) + 'px';
  });
</script>
`;
}
