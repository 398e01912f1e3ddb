/**
 * Import of a folder in the page (src/scenarios/config/configFolder.ts picks its files): one
 * pipeline's files opened as Import opens files, the folder named in the notice — or the
 * dialog's choice among several models or DAGs.
 */
import {
  pickFromFolder,
  type FolderFile,
  type FolderOption,
  type FolderPick,
} from '../../scenarios/config/configFolder';
import { importConfigTexts } from './importConfigFiles';
import type { ImportOutcome } from './importScenario';

/** A folder's pipelines to choose from: more than one dbt model or DAG. */
export type FolderChoice = Extract<FolderPick, { kind: 'choose' }>;

/** Import a folder: its one pipeline opened, the choice among several, or why nothing opens. */
export async function importFolder(
  folder: string,
  files: readonly FolderFile[],
  walkedPast: readonly string[] = [],
): Promise<ImportOutcome | FolderChoice> {
  const pick = await pickFromFolder(folder, files, walkedPast);
  if (pick.kind === 'choose') return pick;
  if (pick.kind === 'none')
    return {
      ok: false,
      from: `the folder “${folder}”`,
      heading: `Not imported: the folder “${folder}” holds no configuration the lab reads.`,
      lines: pick.lines,
    };
  return importFolderOption(folder, pick.option, pick.passedOver);
}

/** Import one pipeline of a folder: its files as Import reads them, the folder named. */
export async function importFolderOption(
  folder: string,
  option: FolderOption,
  passedOver: readonly string[],
): Promise<ImportOutcome> {
  const r = await importConfigTexts(option.files);
  const from = `${r.from} from the folder “${folder}”`;
  if (!r.ok) return { ...r, from };
  // The paths: the summary names the files alone, and which models/ folder a model is in is
  // what dbt_project.yml's settings are matched by.
  const read = `Folder “${folder}”: read ${option.files.map((f) => f.name).join(', ')}`;
  const passed = passedOver.length > 0 ? `; passed over ${passedOver.join(', ')}` : '';
  return { ...r, from, config: { ...r.config, lines: [...r.config.lines, read + passed] } };
}
