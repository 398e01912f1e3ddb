/**
 * The simulation's chunk (src/views/run/runScenario.ts), loaded once for the run client's inline runs.
 * Its download starts when this module evaluates — main.tsx and embedMain.tsx import it first, so before the rest
 * of the entry evaluates — rather than once the whole entry has run: the first run, which main.tsx
 * waits for before the first render, does not wait for the download too.
 */
import { PRESET_FAMILY_OF } from '../scenarios/parsed/catalogParts';
import { shareParam } from '../views/io/shareParam';
import type * as RunScenario from '../views/run/runScenario';
import { presetParamOf, presetValueRef } from './presetUrl';

let chunk: Promise<typeof RunScenario> | null = null;

/** The simulation's chunk; a failed load is tried again by the next call. */
export function loadSimulation(): Promise<typeof RunScenario> {
  chunk ??= import('../views/run/runScenario').catch((e: unknown) => {
    chunk = null;
    throw e;
  });
  return chunk;
}

/**
 * Whether the page at `loc` is the embed of a batch job's preset (`?embed&preset=<a batch
 * preset>`, no share link): it never runs the stream simulation — a batch job's run is the batch
 * engine's, derived where it is shown (src/store/labStore.ts) — so its download is not started
 * (~45 kB gzip, issue 31: the batch embed ≤ 150 KB). Should it ever be needed, it loads then.
 */
function batchJobEmbed(loc: Pick<Location, 'search' | 'hash'>): boolean {
  const value = presetParamOf(loc.search);
  if (!new URLSearchParams(loc.search).has('embed') || value === null) return false;
  if (shareParam(loc.hash) !== null) return false;
  return PRESET_FAMILY_OF[presetValueRef(value).split('/')[0]!] === 'batch';
}

// A failed download is the run client's to report (its first run loads again). Outside a page
// (the unit tests' Node environment) there is no address: loaded as before.
const here = typeof location === 'undefined' ? null : location;
if (here === null || !batchJobEmbed(here)) loadSimulation().catch(() => {});
