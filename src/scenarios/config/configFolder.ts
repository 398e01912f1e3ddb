/**
 * A folder of configuration (the page's Import, picked or dropped; `delivery-lab from-config
 * <folder>`): which of its files are configuration the lab reads, and which go in together. A dbt project is a folder — a model's settings come
 * from its `config()`, the properties files beside it and `dbt_project.yml` by its folders
 * (https://docs.getdbt.com/reference/resource-configs/resource-path) — and so is an Airflow
 * `dags/` folder or a service's `config/`: a folder is how engineers hold their configuration,
 * and the file picker cannot choose files from two folders at once.
 *
 * One run is one pipeline: a folder of several dbt models or several DAGs asks which one (the
 * page's dialog; the CLI names the files to give); a
 * folder of Kafka, Flink or Spark files and a sink's statement opens them together, as
 * `delivery-lab from-config` does. Each file is then read as a file given alone is.
 */
import { importsAirflow, isAirflowDag } from './airflowDag';
import { isDbtModelSql, isDbtYaml } from './dbtModel';
import { isSinkSqlFile } from './sinkSql';
import type { ConfigFile } from './importConfig';
import { SCENARIO_JSON_LIMIT } from '../../views/io/export';
import { isConfigFileName, looksLikeConfigText } from './configText';
import { passesOver } from './passedOverFolders';

/** A file of a folder: its path below the folder's parent (`jaffle_shop/models/orders.sql`). */
export interface FolderFile<Text = Promise<string>> {
  path: string;
  size: number;
  text(): Text;
}

/** One pipeline a folder holds: a label to choose it by, and its files (paths as names). */
export interface FolderOption {
  label: string;
  files: ConfigFile[];
}

export type FolderPick =
  | { kind: 'open'; folder: string; option: FolderOption; passedOver: string[] }
  | { kind: 'choose'; folder: string; what: string; options: FolderOption[]; passedOver: string[] }
  | { kind: 'none'; folder: string; lines: string[] };

/** How many files of a folder are read at most: a repository's root is no configuration folder. */
export const FOLDER_FILE_LIMIT = 400;

const segments = (path: string) => path.split(/[\\/]/).filter((s) => s !== '');

/** The first of a path's folders (not its root, the folder given) that {@link passesOver}. */
const passedOverFolder = (path: string): string | null => {
  const parts = segments(path).slice(1, -1);
  const at = parts.findIndex(passesOver);
  return at < 0 ? null : `${parts.slice(0, at + 1).join('/')}/`;
};

/** Within the folder: the path without the folder's own name. */
const within = (path: string) => segments(path).slice(1).join('/');

/**
 * What to import from a folder's files (the page's, read asynchronously). Reads only
 * configuration-named files (`.properties`, `.yaml`, `.sql`, `.py`) outside the folders it
 * {@link passesOver}, each as Import reads one.
 * @param folder - the folder's name; `files`' paths start with it.
 * @param walkedPast - folders a drop's walk did not enter (src/platform/folderFiles.ts).
 */
export async function pickFromFolder(
  folder: string,
  files: readonly FolderFile[],
  walkedPast: readonly string[] = [],
): Promise<FolderPick> {
  const c = candidatesOf(folder, files, walkedPast);
  if ('kind' in c) return c;
  const read: ConfigFile[] = [];
  for (const f of c.files) read.push({ name: within(f.path), text: bare(await f.text()) });
  return pickAmong(folder, read, c.passedOver, c.tooLarge);
}

/** {@link pickFromFolder} of files read synchronously (`from-config <folder>`). */
export function pickFromFolderSync(
  folder: string,
  files: readonly FolderFile<string>[],
  walkedPast: readonly string[] = [],
): FolderPick {
  const c = candidatesOf(folder, files, walkedPast);
  if ('kind' in c) return c;
  const read = c.files.map((f) => ({ name: within(f.path), text: bare(f.text()) }));
  return pickAmong(folder, read, c.passedOver, c.tooLarge);
}

const bare = (text: string) => text.replace(/^\uFEFF/, '');

/** The files to read, in path order, or why none is. */
function candidatesOf<F extends FolderFile<unknown>>(
  folder: string,
  files: readonly F[],
  walkedPast: readonly string[],
): { files: F[]; passedOver: string[]; tooLarge: string[] } | FolderPick {
  const passed = new Set<string>(walkedPast);
  const candidates: F[] = [];
  for (const f of files) {
    const over = passedOverFolder(f.path);
    if (over !== null) passed.add(over);
    else if (isConfigFileName(f.path)) candidates.push(f);
  }
  // In path order: a browser (or a file system) lists a folder's files in no order it promises.
  candidates.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (candidates.length > FOLDER_FILE_LIMIT)
    return {
      kind: 'none',
      folder,
      lines: [
        `${folder}: ${candidates.length} configuration-named files, more than the ${FOLDER_FILE_LIMIT} a folder is read for: choose the folder of one pipeline (a dbt project, a dags/ folder, a service's config/)`,
      ],
    };
  const large = (f: F) => f.size > SCENARIO_JSON_LIMIT * 4;
  return {
    files: candidates.filter((f) => !large(f)),
    passedOver: [...passed].sort(),
    tooLarge: candidates.filter(large).map((f) => within(f.path)),
  };
}

/** One pipeline's files among the folder's, the choice among several, or why none. */
function pickAmong(
  folder: string,
  read: readonly ConfigFile[],
  passedOver: string[],
  tooLarge: readonly string[],
): FolderPick {
  const dbtProject = read.find((f) => /(^|\/)dbt_project\.ya?ml$/i.test(f.name));
  const models = read.filter((f) => f.name.endsWith('.sql') && isDbtModelSql(f.text));
  const dbtYaml = read.filter((f) => isDbtYaml(f.name, f.text));
  const dags = read.filter((f) => isAirflowDag(f.name, f.text) && importsAirflow(f.text));
  // A model's own options: the model, then the project's files dbt reads for it.
  const modelOptions = models.map((m) => ({ label: m.name, files: [m, ...dbtYaml] }));
  const dagOptions = dags.map((d) => ({ label: d.name, files: [d] }));
  if (models.length > 0 || dags.length > 0 || dbtProject !== undefined) {
    // One model and one DAG: the DAG that runs the model, read together as from-config reads them.
    if (models.length <= 1 && dags.length <= 1 && models.length + dags.length > 0)
      return {
        kind: 'open',
        folder,
        option: {
          label: [...models, ...dags].map((f) => f.name).join(' + '),
          files: [...(modelOptions[0]?.files ?? dbtYaml), ...dags],
        },
        passedOver,
      };
    if (models.length + dags.length === 0)
      return {
        kind: 'none',
        folder,
        lines: [
          `${folder}: a dbt project with no model whose settings the lab reads — a model's .sql with its {{ config(materialized='incremental', …) }} (docs/cli.md, "Your configuration in")`,
        ],
      };
    const what =
      dags.length === 0
        ? `${models.length} dbt models`
        : models.length === 0
          ? `${dags.length} Airflow DAGs`
          : `${models.length} dbt models and ${dags.length} Airflow DAGs`;
    return { kind: 'choose', folder, what, options: [...modelOptions, ...dagOptions], passedOver };
  }
  // A stream pipeline's files: Kafka clients' .properties, Flink's or Spark's settings, the sink's
  // statement — each only if it holds what the lab reads (a docker-compose.yml does not).
  const stream = read.filter(
    (f) =>
      // A statement, not any .sql (a schema's CREATE TABLE, a migration): INSERT or MERGE first.
      (f.name.endsWith('.sql') && isSinkSqlFile('', f.text)) ||
      (!f.name.endsWith('.sql') && !f.name.endsWith('.py') && looksLikeConfigText(f.text)),
  );
  if (stream.length > 0)
    return {
      kind: 'open',
      folder,
      option: { label: stream.map((f) => f.name).join(' + '), files: stream },
      passedOver,
    };
  return {
    kind: 'none',
    folder,
    lines: [
      `${folder}: no configuration the lab reads — looked for Kafka client .properties, a Flink config.yaml, a Spark query's options, a sink's INSERT or MERGE (.sql), a dbt model or an Airflow DAG${
        read.length > 0 ? ` among ${read.length} files` : ''
      }${passedOver.length > 0 ? `; passed over ${passedOver.join(', ')}` : ''}${
        tooLarge.length > 0 ? `; too large to read: ${tooLarge.join(', ')}` : ''
      }`,
    ],
  };
}
