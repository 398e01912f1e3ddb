/**
 * The folders a folder of configuration is not read in (the page's Import, picked or dropped;
 * `from-config <folder>`): small and on its own, as the page's drop walks a folder with it before
 * the importer has loaded.
 */

/**
 * Folders no one writes configuration in, never read: dbt's build output and installed
 * packages, logs, Python's and Node's caches, virtual environments — and every dot folder
 * (`.git`, `.venv`). Their names are listed, their files never read.
 */
const NOT_CONFIGURATION = new Set([
  'target',
  'dbt_packages',
  'dbt_modules',
  'logs',
  'node_modules',
  '__pycache__',
  'venv',
  'site-packages',
]);

/** Whether a folder of this name is passed over (see {@link NOT_CONFIGURATION}). */
export const passesOver = (folderName: string) =>
  folderName.startsWith('.') || NOT_CONFIGURATION.has(folderName);
