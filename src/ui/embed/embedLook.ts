/**
 * How an embedded player looks in its host page: `layout=` (compact or full, else by the frame's
 * width), `theme=` (light, dark, the reader's system, or the host page's), and `height=` (a fixed
 * height in CSS px). The values are read with the other options (src/views/io/embedValues.ts);
 * here, what they do in the frame. Pure, tested without a browser.
 */
import type { EmbedLayout } from '../../views/io/embedValues';

export type { EmbedLayout, EmbedTheme } from '../../views/io/embedValues';

/** Widest frame (CSS px) that gets the compact layout with `layout=auto`: a docs column. */
const COMPACT_MAX_WIDTH = 760;

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
