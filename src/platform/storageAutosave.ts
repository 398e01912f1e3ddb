/**
 * Autosave: write the workspace to storage a moment after it changes (edits come in bursts — a
 * dragged fault marker, a slider), and at once when the page is hidden or closed. Store-agnostic:
 * the caller says how to read the workspace and how to hear about changes.
 */
import { saveWorkspace, type StorageLike, type StorageNotice, type Workspace } from './storage';

/** Options of {@link createAutosave}. */
export interface AutosaveOptions {
  /** The workspace now. */
  read: () => Workspace;
  /** Subscribe to changes (returns the unsubscribe function). */
  subscribe: (listener: () => void) => () => void;
  /** Told when saving fails (storage full or unavailable) — once until a save succeeds again. */
  onNotice?: (notice: StorageNotice) => void;
  storage?: () => StorageLike;
  /** Quiet time before a save (ms); default 300. */
  delayMs?: number;
}

/** A running autosave. */
export interface Autosave {
  /** Save now if anything changed. */
  flush(): void;
  /** Stop listening (after a last flush). */
  dispose(): void;
}

/** Start autosaving. The current workspace is taken as saved (it was just restored or chosen). */
export function createAutosave(opts: AutosaveOptions): Autosave {
  const delay = opts.delayMs ?? 300;
  let last = JSON.stringify(opts.read());
  let timer: ReturnType<typeof setTimeout> | null = null;
  let reported = false;
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const ws = opts.read();
    const text = JSON.stringify(ws);
    // Unchanged (a playback-only update, an undo back to the saved state): nothing to write.
    if (text === last) return;
    const notice = saveWorkspace(ws, opts.storage);
    if (notice) {
      if (!reported) opts.onNotice?.(notice);
      reported = true;
      return;
    }
    last = text;
    reported = false;
  };
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
    dispose() {
      flush();
      unsubscribe();
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onHide);
    },
  };
}
