/**
 * The files of a folder dropped on the page, read through the File and Directory Entries API
 * (`DataTransferItem.webkitGetAsEntry`, https://developer.mozilla.org/docs/Web/API/DataTransferItem/webkitGetAsEntry):
 * a drop carries a folder as an entry, not as its files. A folder picked with the file input's
 * `webkitdirectory` needs none of this: its files come with their `webkitRelativePath`.
 */
import type { FolderFile } from '../scenarios/config/configFolder';
import { passesOver } from '../scenarios/config/passedOverFolders';

export type DroppedFolder =
  | { ok: true; name: string; files: FolderFile[]; passedOver: string[] }
  | { ok: false; line: string };

/** How many entries (files and folders) a dropped folder's walk visits at most. */
export const FOLDER_ENTRY_LIMIT = 5_000;

/** The picked folder (`<input webkitdirectory>`): its name and files, paths from that name. */
export function folderOfPicked(files: readonly File[]): { name: string; files: FolderFile[] } {
  const all = files.map((f) => ({
    path: f.webkitRelativePath || f.name,
    size: f.size,
    text: () => f.text(),
  }));
  return { name: all[0]?.path.split('/')[0] ?? 'the folder', files: all };
}

/**
 * The dropped folder, or null when the drop holds no folder. Must be called during the drop
 * event: its entries are gone once the event returns. Folders it {@link passesOver} are listed,
 * not walked into.
 */
export function folderOfDrop(dt: DataTransfer): Promise<DroppedFolder> | null {
  const entries = [...dt.items]
    .filter((i) => i.kind === 'file')
    .map((i) => i.webkitGetAsEntry?.() ?? null);
  const folders = entries.filter((e): e is FileSystemDirectoryEntry => e?.isDirectory === true);
  if (folders.length === 0) return null;
  if (entries.length > 1)
    return Promise.resolve({
      ok: false,
      line: `${folders[0]!.name}: drop one folder on its own, or files without a folder`,
    });
  return walk(folders[0]!);
}

async function walk(root: FileSystemDirectoryEntry): Promise<DroppedFolder> {
  const files: FolderFile[] = [];
  const passedOver: string[] = [];
  const pending: FileSystemDirectoryEntry[] = [root];
  let visited = 0;
  while (pending.length > 0) {
    const dir = pending.shift()!;
    for (const e of await allEntries(dir)) {
      if (++visited > FOLDER_ENTRY_LIMIT)
        return {
          ok: false,
          line: `${root.name}: more than ${FOLDER_ENTRY_LIMIT} files and folders — drop the folder of one pipeline (a dbt project, a dags/ folder, a service's config/)`,
        };
      const path = e.fullPath.replace(/^\//, '');
      if (e.isDirectory) {
        if (passesOver(e.name)) passedOver.push(`${path.slice(root.name.length + 1)}/`);
        else pending.push(e as FileSystemDirectoryEntry);
      } else {
        const file = await fileOf(e as FileSystemFileEntry);
        files.push({ path, size: file.size, text: () => file.text() });
      }
    }
  }
  return { ok: true, name: root.name, files, passedOver: passedOver.sort() };
}

/** A folder's entries: `readEntries` hands them out in batches until it returns none. */
async function allEntries(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

const fileOf = (e: FileSystemFileEntry) =>
  new Promise<File>((resolve, reject) => e.file(resolve, reject));
