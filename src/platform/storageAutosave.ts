/**
 * Autosave: write the workspace to storage a moment after it changes (edits come in bursts — a
 * dragged fault marker, a slider), and at once when the page is hidden or closed. Store-agnostic:
 * the caller says how to read the workspace and how to hear about changes. Never over a saved
 * workspace this build cannot read: the edits then go aside (see `writeWorkspace`).
 */
import {
  WORKSPACE_KEY,
  workspaceText,
  writeWorkspace,
  type StorageLike,
  type StorageNotice,
  type Workspace,
} from './storage';

/** Options of {@link createAutosave}. */
export interface AutosaveOptions {
  /** The workspace now. */
  read: () => Workspace;
  /** Subscribe to changes (returns the unsubscribe function). */
  subscribe: (listener: () => void) => () => void;
  /**
   * Told when saving fails (storage full or unavailable), and when the edits first go aside
   * because another tab saved a workspace this build cannot read — each once until a save to the
   * workspace key succeeds again.
   */
  onNotice?: (notice: StorageNotice) => void;
  storage?: () => StorageLike;
  /** Quiet time before a save (ms); default 300. */
  delayMs?: number;
  /**
   * The load kept an unreadable saved workspace where it was, and its notice already says that
   * the edits are saved separately: not told again.
   */
  keptAtLoad?: boolean;
}

/** A running autosave. */
export interface Autosave {
  /** Save now if anything changed. */
  flush(): void;
  /** Save now, changed or not (after the user discarded a kept workspace: the edits move back). */
  saveNow(): void;
  /** Stop listening (after a last flush). */
  dispose(): void;
}

/** Start autosaving. The current workspace is taken as saved (it was just restored or chosen). */
export function createAutosave(opts: AutosaveOptions): Autosave {
  const delay = opts.delayMs ?? 300;
  let last = workspaceText(opts.read());
  /** What this autosave last wrote under the workspace key (known readable). */
  let lastWritten: string | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let reportedFull = false;
  let reportedAside = opts.keptAtLoad ?? false;
  const save = (force: boolean) => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const text = workspaceText(opts.read());
    // Unchanged (a playback-only update, an undo back to the saved state): nothing to write.
    if (text === last && !force) return;
    const r = writeWorkspace(text, opts.storage, lastWritten);
    if (!r.ok) {
      if (!reportedFull) opts.onNotice?.(r.notice);
      reportedFull = true;
      return;
    }
    last = text;
    reportedFull = false;
    if (r.key === WORKSPACE_KEY) {
      lastWritten = text;
      reportedAside = false;
    } else if (!reportedAside) {
      reportedAside = true;
      opts.onNotice?.({
        kind: 'kept',
        message: `Another tab saved a workspace this one cannot read (${r.unreadable}). Autosave will not write over it: your edits here are saved separately, and come back when you reload, which offers to export or discard it.`,
      });
    }
  };
  const flush = () => save(false);
  const unsubscribe = opts.subscribe(() => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(flush, delay);
  });
  const onHide = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', onHide);
  return {
    flush,
    saveNow: () => save(true),
    dispose() {
      flush();
      unsubscribe();
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onHide);
    },
  };
}
