/**
 * The workspace through zustand's `persist` middleware: the options (`name`, `version`,
 * `migrate`, `storage`, `partialize`, `merge`) that plug storage.ts's checks, set-aside and
 * notices into a store. https://zustand.docs.pmnd.rs/middlewares/persist (§ "versioning and
 * migrations": without `migrate`, a version bump silently drops stored state).
 */
import type { PersistOptions, PersistStorage, StorageValue } from 'zustand/middleware';
import {
  CODEC,
  checkWorkspace,
  defaultStorage,
  fullNotice,
  migrateWorkspace,
  readStored,
  restoreWorkspace,
  WORKSPACE_KEY,
  WorkspaceError,
  writeWorkspace,
  type StorageLike,
  type StorageNotice,
  type Workspace,
  type WorkspaceCodec,
} from './storage';

/** Options of {@link workspacePersistOptions}. */
export interface WorkspacePersistConfig<S> {
  /** The workspace part of the store's state. */
  partialize: (state: S) => Workspace;
  /** Apply a restored workspace to the store's initial state. */
  apply: (workspace: Workspace, current: S) => S;
  /** Called with a notice to show (set aside, storage full or unavailable). */
  onNotice?: (notice: StorageNotice) => void;
  /** Where to store (default `localStorage`). */
  storage?: () => StorageLike;
  /** The version table (tests pass synthetic old versions). */
  codec?: WorkspaceCodec;
}

/**
 * Options for zustand's `persist` middleware that keep the workspace in `localStorage`:
 *
 * ```ts
 * createStore(persist(config, workspacePersistOptions({ partialize, apply, onNotice })))
 * ```
 *
 * `getItem` checks the stored text before zustand sees it: an unusable state (corrupt JSON, a
 * newer or unmigratable version, an invalid scenario) is set aside with a notice and the store
 * keeps its defaults; a usable one of an older version reaches zustand's `migrate`, which runs
 * the stepwise {@link WORKSPACE_MIGRATIONS}. `setItem` skips writes of an unchanged workspace and
 * reports a full or unavailable storage once.
 */
export function workspacePersistOptions<S>(
  config: WorkspacePersistConfig<S>,
): PersistOptions<S, Workspace> {
  const codec = config.codec ?? CODEC;
  const storage = config.storage ?? defaultStorage;
  let lastWritten: string | null = null;
  let reported = false;
  const notify = (n: StorageNotice) => config.onNotice?.(n);
  const persistStorage: PersistStorage<Workspace> = {
    getItem(name): StorageValue<Workspace> | null {
      let s: StorageLike;
      let raw: string | null;
      try {
        s = storage();
        raw = s.getItem(name);
      } catch (e) {
        notify(fullNotice(e));
        return null;
      }
      const r = restoreWorkspace(raw, codec);
      if (r.status !== 'restored') {
        const loaded = readStored(s, raw, codec);
        if (loaded.notice) notify(loaded.notice);
        return loaded.workspace && { state: loaded.workspace, version: codec.version };
      }
      lastWritten = raw;
      // Current version: the checked workspace. Older: the stored state as it is, so that
      // zustand calls `migrate` (which runs the steps again and checks the result).
      if (r.fromVersion === codec.version) return { state: r.workspace, version: r.fromVersion };
      return JSON.parse(raw!) as StorageValue<Workspace>;
    },
    setItem(_name, value) {
      const text = JSON.stringify(value);
      if (text === lastWritten) return;
      // `name` is WORKSPACE_KEY (the options below).
      const r = writeWorkspace(text, storage, lastWritten, codec);
      if (r.ok && r.key === WORKSPACE_KEY) lastWritten = text;
      if (r.ok) reported = false;
      else if (!reported) {
        notify(r.notice);
        reported = true;
      }
    },
    removeItem(name) {
      try {
        storage().removeItem(name);
        lastWritten = null;
      } catch {
        // Nothing to remove from an unavailable storage.
      }
    },
  };
  return {
    name: WORKSPACE_KEY,
    version: codec.version,
    storage: persistStorage,
    partialize: config.partialize,
    migrate: (state, version) => {
      const checked = checkWorkspace(migrateWorkspace(state, version, codec));
      if (!checked.ok) throw new WorkspaceError(checked.reason);
      return checked.workspace;
    },
    merge: (persisted, current) =>
      persisted === undefined || persisted === null
        ? current
        : config.apply(persisted as Workspace, current),
  };
}
