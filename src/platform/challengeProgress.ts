/**
 * A student's progress on each challenge, kept in `localStorage` under
 * `delivery-lab:challenge:<id>` as `{ version: 1, attempts, solved, solutionShown }`: a reload, or
 * coming back to the challenge later, finds the attempts counted and the hints unlocked. Read
 * by a check of that exact shape (no zod: the page's first screen loads none, issues #24/#31):
 * anything else stored there (hand-edited, another version) reads as a fresh start rather than
 * breaking the page.
 */
import { CHALLENGE_LINK_PARAM } from '../views/io/shareParam';
import { replaceHash } from './replaceHash';

/** The storage key of a challenge's progress. */
export function progressKey(id: string): string {
  return `delivery-lab:challenge:${id}`;
}

/** A challenge's progress. */
export interface Progress {
  /** Runs that ended with the attempt changed from the start (a whole number, 0..1,000,000). */
  attempts: number;
  /** Reached the goal at least once. */
  solved: boolean;
  /** The reference solution was opened. */
  solutionShown: boolean;
}

const STORED_KEYS = ['attempts', 'solutionShown', 'solved', 'version'];

/** `value` as stored progress (`{ version: 1, …Progress }`, no other key), or null. */
function storedProgress(value: unknown): Progress | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (Object.keys(v).sort().join() !== STORED_KEYS.join() || v.version !== 1) return null;
  const { attempts, solved, solutionShown } = v;
  if (typeof attempts !== 'number' || !Number.isInteger(attempts)) return null;
  if (attempts < 0 || attempts > 1_000_000) return null;
  if (typeof solved !== 'boolean' || typeof solutionShown !== 'boolean') return null;
  return { attempts, solved, solutionShown };
}

/** No attempt yet. */
export const FRESH_PROGRESS: Progress = { attempts: 0, solved: false, solutionShown: false };

/** The progress stored for `id`, or a fresh one when there is none or it cannot be read. */
export function readProgress(id: string, storage: Pick<Storage, 'getItem'> | null): Progress {
  try {
    const raw = storage?.getItem(progressKey(id));
    if (!raw) return FRESH_PROGRESS;
    return storedProgress(JSON.parse(raw)) ?? FRESH_PROGRESS;
  } catch {
    return FRESH_PROGRESS;
  }
}

/** Store `id`'s progress (nothing when storage cannot be used: private mode, quota). */
export function writeProgress(
  id: string,
  progress: Progress,
  storage: Pick<Storage, 'setItem'> | null,
): void {
  try {
    storage?.setItem(progressKey(id), JSON.stringify({ version: 1, ...progress }));
  } catch {
    // Storage full or refused: the page keeps the progress in memory.
  }
}

/** The page's storage, or null where it cannot be used. */
export function pageStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The query parameter naming the open challenge. */
const CHALLENGE_PARAM = 'challenge';

/** The `?challenge=` value of a query string, or null. */
export function challengeParamOf(search: string): string | null {
  const v = new URLSearchParams(search).get(CHALLENGE_PARAM)?.trim().toLowerCase();
  return v ? v : null;
}

/** Put the open challenge in the page's URL, or take it out (null), without a navigation. */
export function writeChallengeToLocation(id: string | null): void {
  const url = new URL(location.href);
  if (id === null) url.searchParams.delete(CHALLENGE_PARAM);
  else url.searchParams.set(CHALLENGE_PARAM, id);
  if (url.href !== location.href) history.replaceState(history.state, '', url.href);
}

/**
 * Open the page on `?challenge=<id>`: a navigation, so that the page boots on the challenge's
 * start (src/ui/io/firstChallenge.ts). The address's other options stay (`present=1`); its
 * story (`preset=`) and its hash (the share link of what was open) go.
 */
export function openChallengeAddress(id: string): void {
  const url = new URL(location.href);
  url.searchParams.delete('preset');
  url.searchParams.set(CHALLENGE_PARAM, id);
  url.hash = '';
  location.assign(url.href);
}

/**
 * Open the page on `?preset=<ref>` without the challenge (a navigation): a link that named both
 * opened the challenge, and its notice offers the story instead (src/ui/io/startup.ts). The
 * address's other options stay (`present=1`); its hash (the challenge's attempt) goes.
 */
export function openPresetAddress(ref: string): void {
  const url = new URL(location.href);
  url.searchParams.delete(CHALLENGE_PARAM);
  url.searchParams.set('preset', ref);
  url.hash = '';
  rememberOpenChallenge(null);
  location.assign(url.href);
}

/**
 * Take a challenge opened from a file (`#ch=…`, src/views/challenge/challengeLink.ts) out of the
 * page's hash (other hash parameters kept), or put one in (`ch`: its encoded value), without a
 * navigation.
 */
export function writeChallengeLinkToLocation(ch: string | null): void {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  if (ch === null) {
    if (!params.has(CHALLENGE_LINK_PARAM)) return;
    params.delete(CHALLENGE_LINK_PARAM);
  } else params.set(CHALLENGE_LINK_PARAM, ch);
  replaceHash(params.toString());
}

/** The sessionStorage key of the challenge this tab has open. */
const OPEN_KEY = 'delivery-lab:challenge-open';

/**
 * Remember which challenge this tab has open (null: none), in sessionStorage: per tab, kept
 * across a reload and gone with the tab
 * (https://developer.mozilla.org/en-US/docs/Web/API/Window/sessionStorage). A reload on
 * `?challenge=` keeps the student's attempt only when this tab had that challenge open; a link
 * opened in a new tab (a friend's) starts the challenge afresh.
 */
export function rememberOpenChallenge(id: string | null): void {
  try {
    if (id === null) sessionStorage.removeItem(OPEN_KEY);
    else sessionStorage.setItem(OPEN_KEY, id);
  } catch {
    // No storage: a reload opens the challenge's start.
  }
}

/** The challenge this tab had open before the page (re)loaded, or null. */
export function openChallengeBefore(): string | null {
  try {
    return sessionStorage.getItem(OPEN_KEY);
  } catch {
    return null;
  }
}
