/**
 * The workspace, autosaved to `localStorage` and restored on reload — versioned, with stepwise
 * migrations, and safe against whatever is in storage: a corrupt, incompatible or invalid saved
 * state is set aside (kept under another key, so nothing is lost) with a notice, and the app
 * starts from its defaults. Never a blank page. A saved state that cannot be copied aside (no room)
 * or that a newer build wrote stays where it was, and nothing writes over it until the user has
 * exported or discarded it: the edits meanwhile go under {@link PENDING_KEY}.
 *
 * Two ways to use it:
 * - store-agnostic: {@link loadWorkspace} at start-up, {@link saveWorkspace} on change;
 * - with zustand's `persist` middleware: {@link workspacePersistOptions} returns the options
 *   (`name`, `version`, `migrate`, `storage`, `partialize`, `merge`) for the store to plug in.
 *   https://zustand.docs.pmnd.rs/middlewares/persist (§ "versioning and migrations": without
 *   `migrate`, a version bump silently drops stored state).
 *
 * Storage format (the same as zustand's JSON storage, so both paths share a key):
 * `localStorage["delivery-lab:workspace"] = JSON.stringify({ state: Workspace, version })`.
 * A state set aside goes to `"delivery-lab:workspace:set-aside"` as
 * `{ reason, version, savedAt, raw }` (raw = the stored text, unchanged).
 */
import type { Guarantee, Issue, ScenarioInput } from '../engine';
import { CLAIMS } from '../scenarios/claim';
import type { KeptPageState } from '../views/io/keptPageState';
import { parseInHand } from '../views/run/validationOnDemand';
import { PENDING_KEY, WORKSPACE_KEY } from './workspaceKey';

export { workspacePersistOptions } from './workspacePersist';

/** Where the workspace lives (./workspaceKey.ts). */
export { WORKSPACE_KEY };
/** Where a saved workspace that could not be restored is kept. */
export const SET_ASIDE_KEY = 'delivery-lab:workspace:set-aside';
/**
 * Where the edits go while the workspace key holds a saved workspace this build cannot read and
 * must not write over (see {@link writeWorkspace}); restored on reload, moved back once it is gone.
 */
export { PENDING_KEY };
/** The workspace format this build writes. */
export const WORKSPACE_VERSION = 1;
/** Preference entries kept at most (a workspace is small). */
const MAX_PREFS = 64;

/** Display preferences: small, flat, primitive values (playback speed, panels, font size…). */
export type WorkspacePrefs = Record<string, string | number | boolean>;

/**
 * The saved workspace, version 1. `atlas` and `compare` (optional, so a workspace saved before
 * them reads as before) are the fault atlas's choice and Compare's lanes as the share link writes
 * them (`a=`, `c=`: src/views/io/keptPageState.ts), read back at start-up.
 */
export interface Workspace extends KeptPageState {
  /** The scenario as written (defaults not applied), with every fault added by clicks. */
  scenario: ScenarioInput;
  /** `preset-id/variant-id` it was loaded from, or null. */
  presetRef: string | null;
  prefs: WorkspacePrefs;
  /**
   * An edit the lab refused, on top of `scenario` (then the last valid scenario): restored as it
   * was left — the refused edit on screen with its reasons, Undo back to `scenario`.
   */
  refused?: unknown;
  /**
   * The scenario is a link or a file opened (`LabState.replay`) whose end was not seen yet: it
   * reopens at its start, its outcome folded until its end, as it opened (docs/page.md, "the
   * outcome in its time"). Absent: it reopens where it was.
   */
  replay?: true;
  /**
   * Imported configuration files' question still unanswered — which guarantee the pipeline
   * promises, the verdict checking the workload's claim meanwhile (src/ui/io/claimNotice.ts):
   * asked again on reload, as it was on screen.
   */
  claimAsked?: ClaimAsked;
}

/** The claim the verdict checks, the workload's, and the workload it came with (its preset). */
export interface ClaimAsked {
  value: Guarantee;
  workload: string;
}

/** A stored `claimAsked` as read back: a claim and a short workload name, or nothing. */
function claimAskedOf(v: unknown): { claimAsked?: ClaimAsked } {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return {};
  const { value, workload } = v as Record<string, unknown>;
  if (!(CLAIMS as readonly unknown[]).includes(value)) return {};
  if (typeof workload !== 'string' || workload.length === 0 || workload.length > 200) return {};
  return { claimAsked: { value: value as Guarantee, workload } };
}

/** Takes a saved state of version n to version n + 1. Throws when it cannot. */
export type WorkspaceMigration = (state: Record<string, unknown>) => Record<string, unknown>;

/**
 * Migrations by the version they start from. Version 1 is the first the app saved, so there are
 * none yet; the next format change adds `1: (v1) => v2` here, with a test.
 */
export const WORKSPACE_MIGRATIONS: Readonly<Record<number, WorkspaceMigration>> = {};

/** The version table (tests pass one with synthetic old versions). */
export interface WorkspaceCodec {
  version: number;
  migrations: Readonly<Record<number, WorkspaceMigration>>;
}

export const CODEC: WorkspaceCodec = {
  version: WORKSPACE_VERSION,
  migrations: WORKSPACE_MIGRATIONS,
};

/** What the user should be told about storage. */
export interface StorageNotice {
  /**
   * `set-aside`: the saved workspace could not be restored and was kept under
   * {@link SET_ASIDE_KEY}; `kept`: it could not be restored and stays where it was, not written
   * over (the edits go under {@link PENDING_KEY}); `unavailable`: storage cannot be used (private
   * mode, disabled); `full`: the workspace could not be saved (quota).
   */
  kind: 'set-aside' | 'kept' | 'unavailable' | 'full';
  message: string;
}

/** A saved workspace that could not be restored, kept for the user to export or discard. */
export interface KeptWorkspace {
  /** Where it is: {@link WORKSPACE_KEY} (left where it was) or a set-aside key. */
  key: string;
  /** The text under `key` (discarded only while it is still that text). */
  stored: string;
  /** The saved bytes as they were: what an export downloads. */
  raw: string;
  reason: string;
  /** Left under {@link WORKSPACE_KEY}: autosave writes the edits under {@link PENDING_KEY}. */
  inPlace: boolean;
}

/** What {@link loadWorkspace} found. */
export interface LoadedWorkspace {
  /** The workspace to open, or null: start from the defaults. */
  workspace: Workspace | null;
  notice: StorageNotice | null;
  /** A saved workspace that could not be restored, when there is one. */
  kept?: KeptWorkspace;
}

/** The subset of the Web Storage API used here. */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export class WorkspaceError extends Error {}

// ─────────────────────────────────────────────────────────────────────────── pure parts

/**
 * Migrate a saved state from `fromVersion` to the codec's version, step by step.
 * @throws when the version is newer than this build, or a step is missing or fails.
 */
export function migrateWorkspace(
  state: unknown,
  fromVersion: number,
  codec: WorkspaceCodec = CODEC,
): unknown {
  if (!Number.isInteger(fromVersion) || fromVersion < 0)
    throw new WorkspaceError(`unreadable version ${String(fromVersion)}`);
  if (fromVersion > codec.version)
    throw new WorkspaceError(
      `it was saved by a newer Delivery Lab (format ${fromVersion}, this one reads up to ${codec.version})`,
    );
  let s = state;
  for (let v = fromVersion; v < codec.version; v++) {
    const step = codec.migrations[v];
    if (!step) throw new WorkspaceError(`no migration from format ${v}`);
    if (s === null || typeof s !== 'object' || Array.isArray(s))
      throw new WorkspaceError(`format ${v}: not an object`);
    try {
      s = step(s as Record<string, unknown>);
    } catch (e) {
      throw new WorkspaceError(`migration from format ${v} failed: ${(e as Error).message}`);
    }
  }
  return s;
}

/** Check a (current-version) state: its shape, its preferences, and its scenario (validated). */
export function checkWorkspace(
  state: unknown,
):
  | { ok: true; workspace: Workspace }
  | { ok: false; reason: string; issues?: Issue[]; unchecked?: true } {
  if (state === null || typeof state !== 'object' || Array.isArray(state))
    return { ok: false, reason: 'the saved state is not an object' };
  const s = state as Record<string, unknown>;
  const presetRef = s.presetRef ?? null;
  if (presetRef !== null && (typeof presetRef !== 'string' || presetRef.length > 200))
    return { ok: false, reason: 'presetRef is not a preset id' };
  const prefs = s.prefs ?? {};
  if (prefs === null || typeof prefs !== 'object' || Array.isArray(prefs))
    return { ok: false, reason: 'prefs is not an object' };
  const entries = Object.entries(prefs);
  if (entries.length > MAX_PREFS) return { ok: false, reason: 'too many preferences' };
  for (const [k, v] of entries)
    if (
      !['string', 'number', 'boolean'].includes(typeof v) ||
      (typeof v === 'string' && v.length > 200)
    )
      return { ok: false, reason: `preference "${k.slice(0, 40)}" is not a small value` };
  // Validated by zod, which the lab's page loads before it reads storage when storage holds a
  // workspace (src/ui/io/firstPresets.ts): not on a first visit's load (issue 24).
  const parsed = parseInHand(s.scenario);
  if (parsed === undefined)
    return {
      ok: false,
      reason: "the page's validation did not load, so it could not be checked",
      unchecked: true,
    };
  if (!parsed.ok)
    return {
      ok: false,
      reason: `the saved scenario is invalid (${parsed.issues
        .slice(0, 3)
        .map((i) => `${i.path || '(scenario)'}: ${i.message}`)
        .join('; ')}${parsed.issues.length > 3 ? '; …' : ''})`,
      issues: parsed.issues,
    };
  // A refused edit is kept as written (it is refused again when restored, with its reasons);
  // only its shape is checked here: a JSON object.
  const refused =
    s.refused !== null && typeof s.refused === 'object' && !Array.isArray(s.refused)
      ? { refused: s.refused }
      : {};
  // The atlas's choice and Compare's lanes as stored: read back at start-up against the scenario
  // (src/ui/io/workspace.ts restorePageState), where a bad one is refused naming its field and
  // the workspace opens without it — not set aside with the work.
  const page = {
    ...(s.atlas !== undefined ? { atlas: s.atlas as string } : {}),
    ...(s.compare !== undefined ? { compare: s.compare as string } : {}),
  };
  return {
    ok: true,
    workspace: {
      scenario: s.scenario as ScenarioInput,
      presetRef: presetRef as string | null,
      prefs: prefs as WorkspacePrefs,
      ...refused,
      ...page,
      ...(s.replay === true ? { replay: true as const } : {}),
      // A question that cannot be read back is left out: the workspace opens, without it.
      ...claimAskedOf(s.claimAsked),
    },
  };
}

/** The result of {@link restoreWorkspace}. */
export type RestoreResult =
  | { status: 'empty' }
  | { status: 'restored'; workspace: Workspace; fromVersion: number }
  | {
      status: 'unusable';
      reason: string;
      version: number | null;
      /** Not checked (the validation did not load): nothing says it is wrong. */
      unchecked?: true;
    };

/**
 * Read a stored text (pure): parse the envelope, migrate, check.
 * @param raw - what storage holds under {@link WORKSPACE_KEY}, or null.
 */
export function restoreWorkspace(raw: string | null, codec: WorkspaceCodec = CODEC): RestoreResult {
  if (raw === null) return { status: 'empty' };
  let envelope: unknown;
  try {
    envelope = JSON.parse(raw);
  } catch {
    return { status: 'unusable', reason: 'it is not valid JSON', version: null };
  }
  if (envelope === null || typeof envelope !== 'object' || Array.isArray(envelope))
    return { status: 'unusable', reason: 'it is not a saved workspace', version: null };
  const { state, version } = envelope as { state?: unknown; version?: unknown };
  // A newer build's format is said so, whatever its shape ("{"version":999}").
  if (typeof version === 'number' && Number.isInteger(version) && version > codec.version)
    return {
      status: 'unusable',
      reason: `it was saved by a newer Delivery Lab (format ${version}, this one reads up to ${codec.version})`,
      version,
    };
  if (typeof version !== 'number' || state === undefined)
    return { status: 'unusable', reason: 'it is not a saved workspace', version: null };
  let migrated: unknown;
  try {
    migrated = migrateWorkspace(state, version, codec);
  } catch (e) {
    return { status: 'unusable', reason: (e as Error).message, version };
  }
  const checked = checkWorkspace(migrated);
  if (!checked.ok)
    return {
      status: 'unusable',
      reason: checked.reason,
      version,
      ...(checked.unchecked ? { unchecked: true as const } : {}),
    };
  return { status: 'restored', workspace: checked.workspace, fromVersion: version };
}

/** What the user is told about a saved workspace that could not be restored. */
function keptNotice(
  kept: KeptWorkspace,
  why: 'newer' | 'unchecked' | 'no-room',
  editsRestored: boolean,
): StorageNotice {
  const lead = `Your saved workspace could not be restored: ${kept.reason}.`;
  if (!kept.inPlace)
    return {
      kind: 'set-aside',
      message: `${lead} It was kept under "${kept.key}" in this browser's storage, and the lab started from its default scenario. Export downloads it as a file; Discard deletes it.`,
    };
  const where =
    why === 'newer'
      ? 'It stays where it was, untouched, so that the newer version opens it'
      : why === 'unchecked'
        ? 'It stays where it was, untouched: reload the page to try again'
        : "There is no room in this browser's storage to copy it aside, so it stays where it was, untouched";
  return {
    kind: 'kept',
    message: `${lead} ${where}: autosave will not write over it. Until you choose, your edits are saved separately and come back when you reload. Export downloads it as a file; Discard deletes it, and autosave carries on as usual. ${editsRestored ? 'Your edits made since were restored.' : 'The lab started from its default scenario.'}`,
  };
}

/** Copies set aside at most: the first under {@link SET_ASIDE_KEY}, the next ones with `:2`…`:5`. */
const SET_ASIDE_SLOTS = 5;

// ─────────────────────────────────────────────────────────────────────────── storage

/**
 * Keep an unusable stored text under {@link SET_ASIDE_KEY} — or, when an earlier copy is there,
 * the first free of `:2`…`:5`, so a second failure does not erase the first — and clear the
 * main key.
 * @returns where it was kept and the text written there, or null when there was no room (quota,
 *   or every slot taken): the original then stays where it was.
 */
function setAside(
  storage: StorageLike,
  raw: string,
  reason: string,
  version: number | null,
): { key: string; stored: string } | null {
  const stored = JSON.stringify({ reason, version, savedAt: new Date().toISOString(), raw });
  try {
    let key = SET_ASIDE_KEY;
    for (let n = 2; storage.getItem(key) !== null; n++) {
      if (n > SET_ASIDE_SLOTS) return null;
      key = `${SET_ASIDE_KEY}:${n}`;
    }
    storage.setItem(key, stored);
    storage.removeItem(WORKSPACE_KEY);
    return { key, stored };
  } catch {
    return null;
  }
}

/**
 * Read what storage holds (shared by {@link loadWorkspace} and the persist options): the
 * workspace, or else the edits saved under {@link PENDING_KEY} while a saved workspace was kept;
 * an unusable saved state is set aside, or kept where it was when it cannot be copied or a newer
 * build wrote it (that build opens it as it is).
 */
export function readStored(
  s: StorageLike,
  raw: string | null,
  codec: WorkspaceCodec,
): LoadedWorkspace {
  const r = restoreWorkspace(raw, codec);
  if (r.status === 'restored') return { workspace: r.workspace, notice: null };
  let pending: RestoreResult;
  try {
    pending = restoreWorkspace(s.getItem(PENDING_KEY), codec);
  } catch {
    pending = { status: 'empty' };
  }
  const workspace = pending.status === 'restored' ? pending.workspace : null;
  if (r.status === 'empty') return { workspace, notice: null };
  const newer = r.version !== null && r.version > codec.version;
  // A newer build's workspace, or one this load could not check, stays where it was: the next
  // build or load opens it as it is.
  const aside = newer || r.unchecked ? null : setAside(s, raw!, r.reason, r.version);
  const kept: KeptWorkspace = aside
    ? { ...aside, raw: raw!, reason: r.reason, inPlace: false }
    : { key: WORKSPACE_KEY, stored: raw!, raw: raw!, reason: r.reason, inPlace: true };
  const why = newer ? 'newer' : r.unchecked ? 'unchecked' : 'no-room';
  return { workspace, notice: keptNotice(kept, why, workspace !== null), kept };
}

/**
 * Delete a kept workspace (the user's "Discard") — only while its key still holds the text that
 * was kept: what another tab wrote there since is not touched. Never throws.
 * @returns false when storage refused.
 */
export function discardKept(
  kept: KeptWorkspace,
  storage: () => StorageLike = defaultStorage,
): boolean {
  try {
    const s = storage();
    if (s.getItem(kept.key) === kept.stored) s.removeItem(kept.key);
    return true;
  } catch {
    return false;
  }
}

export function defaultStorage(): StorageLike {
  return localStorage;
}

/**
 * Load the workspace at start-up (store-agnostic). Never throws.
 * @returns the workspace (or null: start from the defaults), a notice for the user, if any, and
 *   the saved workspace that could not be restored, if any.
 */
export function loadWorkspace(
  storage: () => StorageLike = defaultStorage,
  codec: WorkspaceCodec = CODEC,
): LoadedWorkspace {
  let s: StorageLike;
  let raw: string | null;
  try {
    s = storage();
    raw = s.getItem(WORKSPACE_KEY);
  } catch {
    return {
      workspace: null,
      notice: {
        kind: 'unavailable',
        message: "This browser's storage is not available: the workspace will not be saved.",
      },
    };
  }
  return readStored(s, raw, codec);
}

/** The stored text of a workspace. */
export function workspaceText(workspace: Workspace, version = WORKSPACE_VERSION): string {
  return JSON.stringify({ state: workspace, version });
}

/** The result of {@link writeWorkspace}. */
export type WriteResult =
  { ok: true; key: string; unreadable?: string } | { ok: false; notice: StorageNotice };

/**
 * Write a workspace's stored text — to {@link WORKSPACE_KEY}, unless that holds a saved
 * workspace this build cannot read (kept where it was, or written since by another tab, a newer
 * build): nothing writes over that until the user has exported or discarded it, so the text goes
 * under {@link PENDING_KEY} (`unreadable` says why). A write to the workspace key clears the
 * pending copy. Never throws.
 * @param lastWritten - the text this writer last wrote there (known readable: not read again).
 */
export function writeWorkspace(
  text: string,
  storage: () => StorageLike = defaultStorage,
  lastWritten: string | null = null,
  codec: WorkspaceCodec = CODEC,
): WriteResult {
  try {
    const s = storage();
    const there = s.getItem(WORKSPACE_KEY);
    const r = there === null || there === lastWritten ? null : restoreWorkspace(there, codec);
    if (r?.status === 'unusable') {
      s.setItem(PENDING_KEY, text);
      return { ok: true, key: PENDING_KEY, unreadable: r.reason };
    }
    s.setItem(WORKSPACE_KEY, text);
    if (s.getItem(PENDING_KEY) !== null) s.removeItem(PENDING_KEY);
    return { ok: true, key: WORKSPACE_KEY };
  } catch (e) {
    return { ok: false, notice: fullNotice(e) };
  }
}

/**
 * Save the workspace (store-agnostic; see {@link writeWorkspace}). Never throws.
 * @returns a notice when it could not be saved (storage full or unavailable), else null.
 */
export function saveWorkspace(
  workspace: Workspace,
  storage: () => StorageLike = defaultStorage,
): StorageNotice | null {
  const r = writeWorkspace(workspaceText(workspace), storage);
  return r.ok ? null : r.notice;
}

export function fullNotice(e: unknown): StorageNotice {
  // Not `instanceof Error`: a DOMException is not one in every environment.
  const x = (e ?? {}) as { name?: unknown; message?: unknown };
  const quota = /quota/i.test(`${String(x.name)} ${String(x.message)}`);
  return quota
    ? {
        kind: 'full',
        message:
          "The workspace could not be saved: this browser's storage is full. Export the scenario to keep it.",
      }
    : {
        kind: 'unavailable',
        message: "This browser's storage is not available: the workspace will not be saved.",
      };
}
