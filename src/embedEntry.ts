/**
 * The entry of the embed's own page (embed.html): the player, whatever the address says. Its
 * page asks for the player's first load with the HTML (vite.config.ts `embedPagePreloads`), so
 * the `import()` below finds it in flight or in (issue 31: first paint ≤ 500 ms); index.html's
 * entry (src/entry.ts) asked for it only once it had run, a round of requests later.
 */
// As src/entry.ts: the simulation's download starts by its own rule with the entry.
import './platform/simulationChunk';
import { startEmbed } from './startEmbed';

startEmbed(window.location.search);
