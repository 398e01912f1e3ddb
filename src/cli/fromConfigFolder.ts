/**
 * `delivery-lab from-config <folder>`: a dbt project, an Airflow `dags/` folder or a service's
 * `config/` given whole, its files picked as the page's Import picks them
 * (src/scenarios/config/configFolder.ts). Several models or DAGs are not guessed between: the
 * command names the files to give for each.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import {
  pickFromFolderSync,
  type FolderFile,
  type FolderPick,
} from '../scenarios/config/configFolder';
import type { ConfigFile } from '../scenarios/config/importConfig';
import { passesOver } from '../scenarios/config/passedOverFolders';

/** How many entries (files and folders) the walk visits at most, as a drop on the page. */
const ENTRY_LIMIT = 5_000;

/** Whether `arg` names a folder (an unreadable path is left to the file reader's error). */
export function isFolder(arg: string): boolean {
  try {
    return statSync(arg).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The folder's files to import, named by their paths from the working directory (so a report's
 * `shop/models/marts/orders.sql:3` opens in an editor), with a note for stderr — or the lines
 * that say why not.
 */
export function filesOfFolder(
  dir: string,
): { ok: true; files: ConfigFile[]; note: string } | { ok: false; lines: string[] } {
  const name = basename(relative('.', dir) || dir) || dir;
  const files: FolderFile<string>[] = [];
  const walkedPast: string[] = [];
  let visited = 0;
  const walk = (at: string) => {
    for (const e of readdirSync(at, { withFileTypes: true })) {
      if (++visited > ENTRY_LIMIT) return;
      const path = join(at, e.name);
      const inside = relative(dir, path).split(sep).join('/');
      if (e.isDirectory()) {
        if (passesOver(e.name)) walkedPast.push(`${inside}/`);
        else walk(path);
      } else if (e.isFile())
        files.push({
          path: `${name}/${inside}`,
          size: statSync(path).size,
          text: () => readFileSync(path, 'utf8'),
        });
    }
  };
  walk(dir);
  if (visited > ENTRY_LIMIT)
    return {
      ok: false,
      lines: [
        `${dir}: more than ${ENTRY_LIMIT} files and folders — give the folder of one pipeline (a dbt project, a dags/ folder, a service's config/)`,
      ],
    };
  const pick: FolderPick = pickFromFolderSync(name, files, walkedPast);
  const at = (f: ConfigFile) => join(dir, f.name);
  if (pick.kind === 'none') return { ok: false, lines: pick.lines };
  if (pick.kind === 'choose')
    return {
      ok: false,
      lines: [
        `${dir}: ${pick.what} — one run is one pipeline; give the files of the one to run:`,
        ...pick.options.map((o) => `  delivery-lab from-config ${o.files.map(at).join(' ')}`),
      ],
    };
  const read = pick.option.files.map((f) => ({ ...f, name: at(f) }));
  const passed = pick.passedOver.length > 0 ? `; passed over ${pick.passedOver.join(', ')}` : '';
  return {
    ok: true,
    files: read,
    note: `from-config: folder ${dir}: read ${read.map((f) => f.name).join(', ')}${passed}`,
  };
}
