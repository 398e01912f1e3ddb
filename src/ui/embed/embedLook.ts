/**
 * How an embedded player looks in its host page: `layout=` (compact or full, else by the frame's
 * width), `theme=` (light, dark, the reader's system, or the host page's), and `height=` (a fixed
 * height in CSS px). Pure: read from the query string, tested without a browser.
 */

/** `layout=`: auto picks compact in a frame at most {@link COMPACT_MAX_WIDTH} px wide. */
const EMBED_LAYOUTS = ['auto', 'compact', 'full'] as const;
export type EmbedLayout = (typeof EMBED_LAYOUTS)[number];

/** Widest frame (CSS px) that gets the compact layout with `layout=auto`: a docs column. */
const COMPACT_MAX_WIDTH = 760;

/**
 * `theme=`: light or dark as said, auto follows the reader's system (`prefers-color-scheme`),
 * host follows what the host page posts ({@link ThemeMessage}), the system's until it does.
 */
const EMBED_THEMES = ['auto', 'light', 'dark', 'host'] as const;
export type EmbedTheme = (typeof EMBED_THEMES)[number];

/** Smallest and largest `height=` kept (CSS px): a player below 200 px shows nothing useful. */
const HEIGHT_MIN = 200;
const HEIGHT_MAX = 4000;

/** One option read: the value used and, when the value as written could not be, why. */
export interface Read<T> {
  value: T;
  issue?: string;
}

/** Longest value quoted back in a notice (a hostile URL may be huge). */
const SHOWN_MAX = 40;
const said = (name: string, raw: string) =>
  `“${name}=${raw.length > SHOWN_MAX ? `${raw.slice(0, SHOWN_MAX)}…` : raw}” — `;

/** One of a fixed list of words (any case); anything else: `auto`, said in the notice. */
function readChoice<T extends string>(
  name: string,
  raw: string | null,
  choices: readonly T[],
): Read<T> {
  const fallback = choices[0]!;
  if (raw === null) return { value: fallback };
  const v = raw.trim().toLowerCase();
  const hit = choices.find((c) => c === v);
  if (hit) return { value: hit };
  return {
    value: fallback,
    issue: `${said(name, raw)}not a choice: used ${fallback} (${name}: ${choices.join(', ')})`,
  };
}

export const readLayout = (raw: string | null) => readChoice('layout', raw, EMBED_LAYOUTS);
export const readTheme = (raw: string | null) => readChoice('theme', raw, EMBED_THEMES);

/** `height=<px>`: a whole number of CSS px, taken into range; null (sized to the run) when absent. */
export function readHeight(raw: string | null): Read<number | null> {
  if (raw === null) return { value: null };
  const takes = `(height: CSS px, ${HEIGHT_MIN} to ${HEIGHT_MAX})`;
  const x = raw.trim() === '' ? NaN : Number(raw.trim().replace(/px$/i, ''));
  if (!Number.isFinite(x))
    return { value: null, issue: `${said('height', raw)}not a number: sized to the run ${takes}` };
  const h = Math.round(Math.min(HEIGHT_MAX, Math.max(HEIGHT_MIN, x)));
  if (h !== Math.round(x))
    return { value: h, issue: `${said('height', raw)}out of range: ${h} px ${takes}` };
  return { value: h };
}

/** Whether the player is compact, for an option and the frame's width (CSS px). */
export function isCompact(layout: EmbedLayout, width: number): boolean {
  if (layout !== 'auto') return layout === 'compact';
  return width <= COMPACT_MAX_WIDTH;
}

// ───────────────────────────────────────────────────────────── the host's theme message

/** The `type` of the message a host page posts to say its theme. */
const THEME_MESSAGE = 'delivery-lab:theme';

/**
 * What a host page posts to an embed with `theme=host` (the loader, public/embed.js, does it for
 * MkDocs Material and Docusaurus): `{ type: 'delivery-lab:theme', theme: 'light' | 'dark' }`.
 */
interface ThemeMessage {
  type: typeof THEME_MESSAGE;
  theme: 'light' | 'dark';
}

/**
 * What a `theme=host` player posts to its parent once it listens for the theme:
 * `{ type: 'delivery-lab:hello' }`; the host answers with a {@link ThemeMessage}.
 */
export const HELLO_MESSAGE = 'delivery-lab:hello';

/** The theme a message from the host says, or null when it is no theme message. */
export function themeFromMessage(data: unknown): 'light' | 'dark' | null {
  if (data === null || typeof data !== 'object') return null;
  const m = data as Partial<ThemeMessage>;
  if (m.type !== THEME_MESSAGE) return null;
  return m.theme === 'light' || m.theme === 'dark' ? m.theme : null;
}
