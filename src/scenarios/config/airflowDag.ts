/**
 * An Airflow DAG file's scheduling settings, read literally: the arguments of its `DAG(…)`
 * (`dag = DAG(…)`, `with DAG(…) as dag:`) or `@dag(…)`, and its `default_args` dict — written in
 * the call, or a module-level `default_args = {…}` the call names. Python is not parsed in full
 * (docs/cli.md#batch-files): a value is read only when it is a literal or one of the calls the
 * schedule is written with (`datetime(…)`, `pendulum.datetime(…)`, `timedelta(…)`); anything else
 * comes back as it is, for the caller to report "not read: not a literal" with its line.
 */
import { callArguments, lineOf, valueAt, type PyArg, type PyValue } from './callArguments';

export interface DagSetting {
  file: string;
  line: number;
  /** The argument's name; a default_args entry's is `default_args.<name>`, a task's `<task_id>.<name>`. */
  key: string;
  text: string;
  value: PyValue;
  /** A task's own argument: its task and how many tasks the file declares. */
  task?: { id: string; tasks: number };
}

export type DagRead = { ok: true; settings: DagSetting[] } | { ok: false; error: string };

/** Python that imports Airflow: a DAG file's first sign (a folder's other `.py` files are helpers). */
export const importsAirflow = (text: string) => /^\s*(from airflow\b|import airflow\b)/m.test(text);

/** A DAG file: Python, or text that imports Airflow or declares a DAG. */
export function isAirflowDag(name: string, text: string): boolean {
  return /\.py$/i.test(name) || importsAirflow(text) || /^\s*(with DAG\(|@dag\b)/m.test(text);
}

/** `DAG(`, `models.DAG(`, `@dag(`: the opening bracket of the first one. */
const DAG_CALL = /(?:^|[^\w.])(?:(?:airflow\.)?(?:models\.)?DAG|@dag)\s*\(/m;

/** The dict literal a module-level `name = {…}` assigns, if it is assigned once. */
function moduleDict(text: string, name: string): { value: PyValue; line: number } | null {
  const re = new RegExp(`^${name}\\s*=\\s*(?=\\{)`, 'gm');
  const found = [...text.matchAll(re)];
  if (found.length !== 1) return null;
  const start = found[0]!.index + found[0]![0].length;
  const value = valueAt(text, start);
  return value && value.kind === 'dict' ? { value, line: lineOf(text, start) } : null;
}

/** The first `DAG(` / `@dag(` that is not in a `#` comment. */
function dagCall(text: string): RegExpExecArray | null {
  const re = new RegExp(DAG_CALL.source, 'gm');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    if (!text.slice(lineStart, m.index + 1).includes('#')) return m;
  }
  return null;
}

/**
 * A task: an operator's call (`BashOperator(`, `SQLExecuteQueryOperator(`; not a `class
 * …Operator(` definition) or a TaskFlow `@task` / `@task.<kind>` decorator.
 */
const TASK = /(?:^|[^\w.])(class\s+)?(\w*Operator\s*\(|@task\b(?:\.\w+)?\s*(\()?)/gm;

/** A task's own arguments the lab models: they override default_args for that task. */
const TASK_KEYS = new Set(['retries', 'retry_delay']);
/**
 * A task's `sql` (SQLExecuteQueryOperator's, PostgresOperator's, …:
 * https://airflow.apache.org/docs/apache-airflow-providers-common-sql/stable/operators.html):
 * listed, not parsed, so that the report says the write is the workload's, not the statement's
 * (docs/cli.md#batch-files).
 */
const TASK_SQL = 'sql';

/** A long argument as one short line: blanks folded, cut at 60 characters. */
function oneLine(text: string): string {
  const folded = text.replace(/\s+/g, ' ').trim();
  return folded.length > 60 ? `${folded.slice(0, 59)}…` : folded;
}

/**
 * The tasks' own `retries` and `retry_delay` (https://airflow.apache.org/docs/apache-airflow/stable/core-concepts/dags.html#default-arguments:
 * an argument given to an operator wins over the DAG's default_args) and `sql`, each named by its
 * task.
 */
function taskSettings(file: string, text: string): DagSetting[] {
  const tasks: { id: string; args: PyArg[] }[] = [];
  for (const m of text.matchAll(TASK)) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    if (m[1] || text.slice(lineStart, m.index + 1).includes('#')) continue;
    const call = m[2]!.startsWith('@') ? m[3] !== undefined : true;
    const open = m.index + m[0].length - 1;
    const args = call ? (callArguments(text, open) ?? []) : [];
    const id = args.find((a) => a.name === 'task_id');
    const name = m[2]!.replace(/\s*\($/, '');
    tasks.push({ id: id?.value.kind === 'str' ? id.value.value : name, args });
  }
  return tasks.flatMap(({ id, args }) =>
    args
      .filter((a) => a.name !== undefined && (TASK_KEYS.has(a.name) || a.name === TASK_SQL))
      .map((a) => ({
        file,
        line: a.line,
        key: `${id}.${a.name}`,
        text: oneLine(a.text.replace(/^[A-Za-z_]\w*\s*=\s*/, '')),
        value: a.value,
        task: { id, tasks: tasks.length },
      })),
  );
}

export function readAirflowDag(file: string, text: string): DagRead {
  const m = dagCall(text);
  if (!m)
    return {
      ok: false,
      error: `${file}:1: no DAG(…), with DAG(…) or @dag(…) call: the lab reads a DAG's own arguments`,
    };
  const open = m.index + m[0].length - 1;
  const args = callArguments(text, open);
  if (args === null)
    return {
      ok: false,
      error: `${file}:${lineOf(text, open)}: its DAG( … ) does not close: a bracket or a quote is missing`,
    };
  const settings: DagSetting[] = [];
  for (const a of args) {
    // DAG's first positional argument is dag_id; nothing else is passed by position here.
    const key = a.name ?? (a === args[0] ? 'dag_id' : '(positional)');
    const written = a.text.replace(/^[A-Za-z_]\w*\s*=\s*/, '');
    let value = a.value;
    // `default_args=default_args`: the module's one `default_args = {…}` literal.
    if (key === 'default_args' && value.kind === 'name') {
      const dict = moduleDict(text, value.name);
      if (dict) value = dict.value;
    }
    if (key === 'default_args' && value.kind === 'dict') {
      for (const e of value.entries) {
        const k = e.key.kind === 'str' ? e.key.value : '(computed)';
        settings.push({
          file,
          line: e.line,
          key: `default_args.${k}`,
          // `**base`: what it holds is computed.
          text: e.text || (e.key.kind === 'expr' ? '**…' : ''),
          value: e.value,
        });
      }
      continue;
    }
    settings.push({ file, line: a.line, key, text: written, value });
  }
  return { ok: true, settings: [...settings, ...taskSettings(file, text)] };
}
