/**
 * The browser's session history as the page uses it: each scenario opened as a page of its own
 * (a preset chosen, a link or a file opened) is an entry, whose `history.state` holds the scenario
 * and the preset it was opened from — kept up to date while it is edited — so that Back and
 * Forward bring it back (src/ui/io/historySync.ts). Without it, choosing presets replaced the
 * address and Back left the app.
 *
 * The state is written with `pushState` / `replaceState` (HTML, "The History interface":
 * https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-history-interface); the
 * address is left as it is — `?preset=` and `#s=` are written by their own modules
 * (src/platform/presetUrl.ts, src/platform/share.ts), which keep the state when they do.
 */
import type { ScenarioInput } from '../engine';
import type { KeptPageState } from '../views/io/keptPageState';

/**
 * What a history entry of the page holds: the scenario, its preset, and the fault atlas's choice
 * and Compare's lanes beside it (`atlas`, `compare`: the share link's `a=` and `c=` values, read
 * back by src/views/io/keptPageState.ts, which refuses a bad one naming its field).
 */
export interface HistoryEntry extends KeptPageState {
  /** The scenario as written (the workspace's, defaults not applied). */
  scenario: ScenarioInput;
  /** `preset-id/variant-id` it was opened from, or null. */
  presetRef: string | null;
}

/** The key of the page's entry in `history.state` (other keys are kept). */
export const HISTORY_KEY = 'deliveryLab';

/** The parts of the browser a history sync uses (the page's by default; tests pass fakes). */
export interface HistoryEnv {
  history: Pick<History, 'pushState' | 'replaceState' | 'state'>;
  location: Pick<Location, 'href' | 'search' | 'hash'>;
  /** Call `onPop` with the new entry's state on each `popstate`; returns the unsubscribe. */
  listen(onPop: (state: unknown) => void): () => void;
}

/** The page's own browser. */
export function browserHistoryEnv(): HistoryEnv {
  return {
    history,
    location,
    listen(onPop) {
      const listener = (e: PopStateEvent) => onPop(e.state);
      window.addEventListener('popstate', listener);
      return () => window.removeEventListener('popstate', listener);
    },
  };
}

/** The page's entry in a `history.state`, or null (none: an entry the page did not write). */
export function entryOf(state: unknown): HistoryEntry | null {
  if (typeof state !== 'object' || state === null) return null;
  const e = (state as Record<string, unknown>)[HISTORY_KEY];
  if (typeof e !== 'object' || e === null) return null;
  const { scenario, presetRef, atlas, compare } = e as Record<string, unknown>;
  if (typeof scenario !== 'object' || scenario === null || Array.isArray(scenario)) return null;
  if (presetRef !== null && typeof presetRef !== 'string') return null;
  // The page state beside it as found: checked when read back, so that a bad one is named.
  return {
    scenario: scenario as ScenarioInput,
    presetRef,
    ...(atlas !== undefined ? { atlas: atlas as string } : {}),
    ...(compare !== undefined ? { compare: compare as string } : {}),
  };
}

function stateWith(base: unknown, entry: HistoryEntry | null): Record<string, unknown> {
  const rest = typeof base === 'object' && base !== null ? { ...base } : {};
  return { ...rest, [HISTORY_KEY]: entry };
}

/**
 * Write `entry` into a state, or — when the browser refuses it (a browser may cap the size of a
 * state, Firefox does, and a scenario may hold two million characters) — an entry-less state:
 * Back to it then opens what its address names, if anything.
 */
function write(
  env: HistoryEnv,
  how: 'pushState' | 'replaceState',
  base: unknown,
  entry: HistoryEntry,
): void {
  try {
    env.history[how](stateWith(base, entry), '', env.location.href);
  } catch {
    env.history[how](stateWith(base, null), '', env.location.href);
  }
}

/** A new entry after the current one (the address stays; its writers update it next). */
export function pushEntry(env: HistoryEnv, entry: HistoryEntry): void {
  write(env, 'pushState', null, entry);
}

/** The current entry now holds `entry` (an edit, an undo: Back and Forward return to it). */
export function recordEntry(env: HistoryEnv, entry: HistoryEntry): void {
  write(env, 'replaceState', env.history.state, entry);
}
