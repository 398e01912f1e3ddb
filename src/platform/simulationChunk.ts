/**
 * The simulation's chunk (src/views/run/runScenario.ts), loaded once for the run client's inline runs.
 * Its download starts when this module evaluates — main.tsx and embedMain.tsx import it first, so before the rest
 * of the entry evaluates — rather than once the whole entry has run: the first run, which main.tsx
 * waits for before the first render, does not wait for the download too.
 */
import type * as RunScenario from '../views/run/runScenario';

let chunk: Promise<typeof RunScenario> | null = null;

/** The simulation's chunk; a failed load is tried again by the next call. */
export function loadSimulation(): Promise<typeof RunScenario> {
  chunk ??= import('../views/run/runScenario').catch((e: unknown) => {
    chunk = null;
    throw e;
  });
  return chunk;
}

// A failed download is the run client's to report (its first run loads again).
loadSimulation().catch(() => {});
