/**
 * The executable's own module (src/cli/bin.ts, or dist-cli/delivery-lab.mjs once bundled), which
 * the fault atlas's worker threads load (./atlasThreads.ts): set by the executable as it starts.
 * Unset — in tests and in anything that imports the runner as a library — every atlas runs on the
 * calling thread. Its own module, so that the executable's start loads none of the engine.
 */
let entry: { url: string; threads: number } | null = null;

/** The executable's module URL and the threads an atlas may use from now on. */
export function setThreadEntry(url: string, threads: number): void {
  entry = threads > 1 ? { url, threads } : null;
}

/** The module a worker thread loads and how many, or null: no threads. */
export function threadEntry(): { url: string; threads: number } | null {
  return entry;
}

/** More threads than this gain nothing on an atlas's chunks (and cost memory each). */
const MAX_THREADS = 4;

/**
 * How many worker threads an atlas uses: `DELIVERY_LAB_THREADS` (a whole number from 1; 1 runs
 * every atlas on the calling thread), or one per core up to {@link MAX_THREADS}.
 */
export function threadCount(
  value: string | undefined,
  cores: number,
): number | { problem: string } {
  if (value === undefined || value === '') return Math.max(1, Math.min(cores, MAX_THREADS));
  if (/^[1-9]\d{0,2}$/.test(value)) return Number(value);
  return {
    problem: `DELIVERY_LAB_THREADS: a whole number of worker threads from 1 to 999 (1: none), got "${value.slice(0, 40)}"`,
  };
}
