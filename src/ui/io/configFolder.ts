/**
 * A folder given to Import (picked, or dropped on the page): which of its files are configuration
 * the lab reads, and which go in together. A dbt project is a folder — a model's settings come
 * from its `config()`, the properties files beside it and `dbt_project.yml` by its folders
 * (https://docs.getdbt.com/reference/resource-configs/resource-path) — and so is an Airflow
 * `dags/` folder or a service's `config/`: a folder is how engineers hold their configuration,
 * and the file picker cannot choose files from two folders at once.
 *
 * One run is one pipeline: a folder of several dbt models or several DAGs asks which one; a
 * folder of Kafka, Flink or Spark files and a sink's statement opens them together, as
 * `delivery-lab from-config` does. What is read is what {@link importConfigTexts} reads.
 */
import { isAirflowDag } from '../../scenarios/config/airflowDag';
import { isDbtModelSql, isDbtYaml } from '../../scenarios/config/dbtModel';
import { isSinkSqlFile } from '../../scenarios/config/sinkSql';
import type { ConfigFile } from '../../scenarios/config/importConfig';
import { SCENARIO_JSON_LIMIT } from '../../views/io/export';
import { passesOver, type FolderFile } from '../../platform/folderFiles';
import { importConfigTexts, isConfigFileName, looksLikeConfigText } from './importConfigFiles';
import type { ImportOutcome } from './importScenario';

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

/** A DAG file: Python that imports Airflow (a folder's other `.py` files are helpers). */
const isDagText = (text: string) => /^\s*(from airflow\b|import airflow\b)/m.test(text);

/** Within the folder: the path without the folder's own name. */
const within = (path: string) => segments(path).slice(1).join('/');

/**
 * What to import from a folder's files. Reads only configuration-named files (`.properties`,
 * `.yaml`, `.sql`, `.py`) outside the folders it {@link passesOver}, each as Import reads one.
 * @param folder - the folder's name; `files`' paths start with it.
 * @param walkedPast - folders a drop's walk did not enter (src/platform/folderFiles.ts).
 */
export async function pickFromFolder(
  folder: string,
  files: readonly FolderFile[],
  walkedPast: readonly string[] = [],
): Promise<FolderPick> {
  const passed = new Set<string>(walkedPast);
  const candidates: FolderFile[] = [];
  for (const f of files) {
    const over = passedOverFolder(f.path);
    if (over !== null) passed.add(over);
    else if (isConfigFileName(f.path)) candidates.push(f);
  }
  const passedOver = [...passed].sort();
  // In path order: a browser lists a folder's files in no order it promises.
  candidates.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (candidates.length > FOLDER_FILE_LIMIT)
    return {
      kind: 'none',
      folder,
      lines: [
        `${folder}: ${candidates.length} configuration-named files, more than the ${FOLDER_FILE_LIMIT} a folder is read for: choose the folder of one pipeline (a dbt project, a dags/ folder, a service's config/)`,
      ],
    };
  const read: ConfigFile[] = [];
  const tooLarge: string[] = [];
  for (const f of candidates) {
    if (f.size > SCENARIO_JSON_LIMIT * 4) tooLarge.push(within(f.path));
    else read.push({ name: within(f.path), text: (await f.text()).replace(/^\uFEFF/, '') });
  }
  const dbtProject = read.find((f) => /(^|\/)dbt_project\.ya?ml$/i.test(f.name));
  const models = read.filter((f) => f.name.endsWith('.sql') && isDbtModelSql(f.text));
  const dbtYaml = read.filter((f) => isDbtYaml(f.name, f.text));
  const dags = read.filter((f) => isAirflowDag(f.name, f.text) && isDagText(f.text));
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
