/**
 * Whether the query string asks for the embedded player. A file of its own, importing nothing:
 * the page's entry (src/entry.ts) decides with it which page to load before loading either.
 */
export function isEmbed(search: string): boolean {
  return new URLSearchParams(search).has('embed');
}
