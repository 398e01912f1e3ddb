/**
 * The choice a notice offers for a saved workspace the lab could not restore (issue 30): Export
 * downloads its stored bytes as they were; Discard deletes it — only while it is still the same
 * text — after which autosave writes the workspace key again and the edits kept aside move back.
 */
import { downloadText } from '../../platform/download';
import { discardKept, type KeptWorkspace, type StorageLike } from '../../platform/storage';
import type { NoticeAction } from './notices';

/** The exported file's name. */
export const KEPT_FILE_NAME = 'delivery-lab-saved-workspace.json';

/**
 * The notice's two buttons.
 * @param resume - save the workspace now (autosave's `saveNow`), once the kept one is gone.
 */
export function keptWorkspaceActions(
  kept: KeptWorkspace,
  resume: () => void,
  storage?: () => StorageLike,
): NoticeAction[] {
  return [
    {
      label: 'Export',
      name: 'Export the saved workspace as a file',
      run: () => {
        downloadText(kept.raw, KEPT_FILE_NAME, 'application/json');
        // Still there until Discard: a download the browser did not complete loses nothing.
        return false;
      },
    },
    {
      label: 'Discard',
      name: 'Discard the saved workspace',
      run: () => {
        if (!discardKept(kept, storage)) return false;
        resume();
        return true;
      },
    },
  ];
}
