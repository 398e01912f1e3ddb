/**
 * When the page redraws a running atlas's map so far (src/platform/atlasWorkers.ts `onChunk`):
 * each redraw takes the main thread, which on a machine of two cores the atlas's two workers
 * share with it — measured on flink-checkpoint-replay `2pc-read-committed`, a redraw per chunk
 * (15) doubled the page's own work during the atlas (~310 → ~690 ms of main-thread CPU). An atlas
 * done within {@link SO_FAR_PACE}.firstMs shows only its final map; a longer one its map so far
 * at most every `everyMs`. A chunk's news left out loses nothing: the next redraw (or the final
 * map) holds every finished chunk.
 */
export const SO_FAR_PACE = { firstMs: 750, everyMs: 500 } as const;

/**
 * Whether the map so far is redrawn at `now` (ms), the atlas started at `startedAt` and its map
 * last redrawn at `lastAt` (-Infinity before the first).
 */
export function soFarDue(now: number, startedAt: number, lastAt: number): boolean {
  return now - startedAt >= SO_FAR_PACE.firstMs && now - lastAt >= SO_FAR_PACE.everyMs;
}
