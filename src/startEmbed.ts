/**
 * The embed's start, from either page's entry: index.html's (src/entry.ts, an address with
 * `?embed`) or the embed's own page's (src/embedEntry.ts, embed.html).
 */
import { startPresetDownloads } from './ui/embed/earlyPresets';

/** Start the embed whose address's query is `search`: its preset's downloads, then its player. */
export function startEmbed(search: string): void {
  // The preset the address opens asked for beside the player's graph, not once that graph has
  // arrived and evaluated. Not ./ui/io/firstPresets: the embed has its own copy of it
  // (./ui/embed/earlyPresets.ts says why). No explanations: an embed explains its run once it
  // shows a "why" (src/ui/io/bootLab.ts).
  startPresetDownloads(search);
  void import('./embedMain');
}
