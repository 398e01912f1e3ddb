import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The embed's page in the build `dist`, as the Embed dialog and public/embed.js address it:
 * `embed.html` (src/embedEntry.ts, which asks for the player with the HTML). A build from before
 * it (an A/B's base) has only index.html, whose `?embed` loads the same player a round later:
 * the page to measure there. Append `?embed&…` to the result.
 */
export function embedPage(dist: string): string {
  return existsSync(join(dist, 'embed.html')) ? 'embed.html' : '';
}
