/**
 * A dbt model's configuration, read where dbt reads it
 * (https://docs.getdbt.com/reference/resource-configs/unique_key): the `{{ config(…) }}` block of
 * the model's `.sql`, a properties file's `models:` list (`- name: … config: …`), or
 * `dbt_project.yml`'s `models:` tree (`+unique_key: id` under the project and its folders). Each
 * setting comes back with its file and line, its value as a plain value, or `null` with the text
 * when it is computed (a Jinja variable, a call): never guessed.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import { callArguments, lineOf, type PyValue } from './callArguments';

/** A plain value as dbt would receive it. */
export type DbtValue = string | number | boolean | null | DbtValue[] | { [k: string]: DbtValue };

export interface DbtSetting {
  file: string;
  line: number;
  /** dbt's config name (`unique_key`), without dbt_project.yml's `+`. */
  key: string;
  /** As written, for the report. */
  text: string;
  /** The value, or undefined when it is no literal (computed when dbt renders the model). */
  value?: DbtValue;
  /**
   * How specific the setting is: "the most specific config always takes precedence" — a model's
   * config() over a properties file over dbt_project.yml, and in the project file a folder over the
   * project (https://docs.getdbt.com/reference/define-configs#config-inheritance).
   */
  rank: number;
  /** Why a dbt_project.yml setting is not the given model's (another folder's, a package's). */
  elsewhere?: string;
}

/** Where a model is: its name, and its folders under `models/` where its file's path says them. */
export interface ModelPlace {
  name: string;
  folders: readonly string[] | null;
}

/** A model file's place: the folders after its path's last `models/` (dbt's default model-paths). */
export function modelPlace(fileName: string): ModelPlace {
  const parts = fileName.split(/[\\/]/);
  const name = parts.pop()!.replace(/\.sql$/i, '');
  const root = parts.lastIndexOf('models');
  return { name, folders: root < 0 ? null : parts.slice(root + 1) };
}

/**
 * Why a setting at `path` of dbt_project.yml's `models:` tree is not `model`'s, or null: its first
 * key is the project's name (another's is a package's), the next its folders, then a model by name
 * (https://docs.getdbt.com/reference/resource-configs/resource-path). Where the model's folders are
 * unknown (a file named without them), any folder's setting is taken as its own.
 */
function notTheModels(
  path: readonly string[],
  project: string | null,
  model?: ModelPlace,
): string | null {
  if (path.length === 0) return null;
  if (project !== null && path[0] !== project)
    return `it configures package ${path[0]}'s models, not project ${project}'s`;
  const under = path.slice(1);
  if (!model?.folders || under.length === 0) return null;
  const place = [...model.folders, model.name];
  if (under.every((k, i) => place[i] === k)) return null;
  return `it configures ${under.join('/')}, and ${model.name} is models/${[...model.folders, `${model.name}.sql`].join('/')}`;
}

/** The `{{ config(` of a model's SQL (`{{-` trims whitespace: the same call). */
const CONFIG_CALL = /\{\{-?\s*config\s*\(/;

/** A model's SQL: a `.sql` file with a `{{ config(…) }}` block. */
export function isDbtModelSql(text: string): boolean {
  return CONFIG_CALL.test(text);
}

/** A dbt YAML file: `models:` at its top, or named `dbt_project.yml`. */
export function isDbtYaml(name: string, text: string): boolean {
  const base = name.split(/[\\/]/).pop() ?? name;
  return (
    /\.ya?ml$/i.test(name) && (/^dbt_project\.ya?ml$/i.test(base) || /^models\s*:/m.test(text))
  );
}

function plain(v: PyValue): DbtValue | undefined {
  switch (v.kind) {
    case 'str':
    case 'num':
    case 'bool':
      return v.value;
    case 'none':
      return null;
    case 'list': {
      const items = v.items.map(plain);
      return items.every((i) => i !== undefined) ? (items as DbtValue[]) : undefined;
    }
    case 'dict': {
      const out: Record<string, DbtValue> = {};
      for (const e of v.entries) {
        const value = plain(e.value);
        if (e.key.kind !== 'str' || value === undefined) return undefined;
        out[e.key.value] = value;
      }
      return out;
    }
    default:
      return undefined;
  }
}

export type DbtRead = { ok: true; settings: DbtSetting[] } | { ok: false; error: string };

/** The settings of a model's `{{ config(…) }}` block. */
export function readDbtModelSql(file: string, text: string): DbtRead {
  const m = CONFIG_CALL.exec(text);
  if (!m) return { ok: false, error: `${file}:1: no {{ config(…) }} block` };
  const open = m.index + m[0].length - 1;
  const args = callArguments(text, open);
  if (args === null)
    return {
      ok: false,
      error: `${file}:${lineOf(text, m.index)}: its config( … ) does not close: a bracket or a quote is missing`,
    };
  const settings: DbtSetting[] = [];
  for (const a of args) {
    if (a.name === undefined) continue;
    const value = plain(a.value);
    settings.push({
      file,
      line: a.line,
      key: a.name,
      text: a.text.replace(/^[A-Za-z_]\w*\s*=\s*/, ''),
      ...(value !== undefined ? { value } : {}),
      rank: 2,
    });
  }
  return { ok: true, settings };
}

/**
 * The settings of a properties file's `models:` list or of dbt_project.yml's `models:` tree.
 * @param modelNames - the names of the model files given (`events` for events.sql): a properties
 *   file's entries for them only, when it has any; else every entry's.
 */
export function readDbtYaml(
  file: string,
  text: string,
  modelNames: readonly string[] = [],
  model?: ModelPlace,
): DbtRead {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const at = e.linePos?.[0];
    const message = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return { ok: false, error: `${file}:${at ? `${at.line}:${at.col}` : 1}: ${message}` };
  }
  const lineAt = (n: YamlNode | null | undefined) => lineCounter.linePos(n?.range?.[0] ?? 0).line;
  const settings: DbtSetting[] = [];
  const push = (
    key: string,
    keyNode: YamlNode,
    v: YamlNode | null,
    rank: number,
    elsewhere: string | null = null,
  ) => {
    const json: unknown = v === null ? null : v.toJSON();
    settings.push({
      file,
      line: lineAt(keyNode),
      key,
      text: v === null ? '' : isScalar(v) ? String(v.value) : JSON.stringify(json),
      value: json as DbtValue,
      rank,
      ...(elsewhere === null ? {} : { elsewhere }),
    });
  };
  const root = doc.contents;
  const models = isMap(root)
    ? root.items.find((p) => isScalar(p.key) && p.key.value === 'models')
    : undefined;
  if (!models) return { ok: true, settings };
  const v = models.value as YamlNode | null;
  if (isSeq(v)) {
    // A properties file: `- name: my_model` with its `config:`.
    const nameOf = (m: unknown) => (isMap(m) ? String(m.get('name') ?? '') : '');
    const named = v.items.filter((m) => modelNames.includes(nameOf(m)));
    for (const model of named.length > 0 ? named : v.items) {
      if (!isMap(model)) continue;
      const config = model.items.find((p) => isScalar(p.key) && p.key.value === 'config');
      if (!config || !isMap(config.value)) continue;
      for (const p of config.value.items)
        if (isScalar(p.key)) push(String(p.key.value), p.key, p.value as YamlNode | null, 1);
    }
  } else if (isMap(v)) {
    // dbt_project.yml: nested resource paths, a config marked `+` (or a config's own name with a
    // scalar value, as dbt allows).
    const name = isMap(root) ? root.get('name') : undefined;
    const project = typeof name === 'string' ? name : null;
    const walk = (node: YamlNode, path: string[]) => {
      if (!isMap(node)) return;
      for (const p of node.items) {
        if (!isScalar(p.key)) continue;
        const k = String(p.key.value);
        const value = p.value as YamlNode | null;
        const rank = Math.min(path.length, 99) / 100;
        const elsewhere = notTheModels(path, project, model);
        if (k.startsWith('+')) push(k.slice(1), p.key, value, rank, elsewhere);
        else if (isMap(value)) walk(value, [...path, k]);
        else push(k, p.key, value, rank, elsewhere);
      }
    };
    walk(v, []);
  }
  return { ok: true, settings };
}
