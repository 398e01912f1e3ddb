/**
 * Which text is configuration the lab reads, by a file's name or by its content: the one test
 * the page's Import (a file, a paste, a folder) and `from-config`'s folders share.
 */
import { kindOfKey, RECOGNISED } from './catalogue';
import { isSinkSqlFile } from './sinkSql';
import { importsAirflow } from './airflowDag';

/**
 * A file named as a configuration file: `.properties`, `.yaml`/`.yml` (Flink's config.yaml,
 * flink-conf.yaml, a dbt properties file, dbt_project.yml), `.sql` (the sink's INSERT … ON
 * CONFLICT or MERGE, a dbt model), `.py` (an Airflow DAG).
 */
export function isConfigFileName(name: string | undefined): boolean {
  return name !== undefined && /\.(properties|ya?ml|sql|py)$/i.test(name);
}

/**
 * The name a pasted batch file is read under, or null: an Airflow DAG (it imports Airflow) or a
 * dbt model (its `{{ config(…) }}`) — the importer tells them by these, as by a file's name.
 */
export function pastedBatchName(text: string): string | null {
  if (importsAirflow(text)) return 'pasted dag.py';
  if (/\{\{-?\s*config\s*\(/.test(text)) return 'pasted model.sql';
  return null;
}

/** Flink's legacy name for `restart-strategy.type` (importConfig aliases it too). */
const LEGACY_KEYS = new Set(['restart-strategy']);

/**
 * Content sniffing for text with no telling name (a paste, a `.txt` or `.conf` file): not JSON, and
 * at least one `key=value` / `key: value` line whose key the importer recognises — so a stray
 * paste or note is not taken for a configuration.
 */
export function looksLikeConfigText(text: string): boolean {
  const t = text.replace(/^\uFEFF/, '').trim();
  if (t === '' || t.startsWith('{') || t.startsWith('[')) return false;
  if (pastedBatchName(t) !== null) return true;
  // A sink statement pasted: INSERT INTO … / MERGE INTO … (comments before it allowed).
  if (isSinkSqlFile('', t)) return true;
  const known = Object.keys(RECOGNISED);
  return t.split(/\r\n|\r|\n/).some((line) => {
    // A YAML map opening a known key's prefix (`execution:` over `  checkpointing:`).
    const opener = /^([A-Za-z][\w.-]*):\s*$/.exec(line)?.[1];
    if (opener !== undefined && known.some((k) => k.startsWith(`${opener}.`))) return true;
    const key = /^\s*([A-Za-z][\w.-]*)\s*[=:\s]/.exec(line)?.[1];
    return (
      key !== undefined &&
      (key in RECOGNISED || kindOfKey(key) !== undefined || LEGACY_KEYS.has(key))
    );
  });
}
