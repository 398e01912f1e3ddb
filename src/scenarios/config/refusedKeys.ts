/**
 * What the lab's validation refuses in a scenario built from configuration files, said on the
 * key that set it: the report's key whose path is the refused field, holds it or lies under it
 * (the longest such path), else a key of its own. Values Kafka, Flink, dbt or Airflow would refuse,
 * in the words the validation already uses; the stream import and the batch import alike.
 */
import type { Issue } from '../../engine';
import type { KeyReport } from './importConfig';

export function markRefused(
  issues: readonly Issue[],
  byPath: ReadonlyMap<string, KeyReport>,
  keys: KeyReport[],
): void {
  for (const issue of issues) {
    const target = [...byPath.entries()]
      .filter(
        ([p]) => issue.path === p || issue.path.startsWith(`${p}.`) || p.startsWith(issue.path),
      )
      .sort((a, b) => b[0].length - a[0].length)[0]?.[1];
    if (target) {
      target.status = 'refused';
      target.why = target.why ? `${target.why}; ${issue.message}` : issue.message;
    } else
      keys.push({
        file: '(scenario)',
        line: 0,
        key: issue.path,
        value: '',
        status: 'refused',
        why: issue.message,
      });
  }
}

/**
 * A refused key as Import and a Compare lane list it, at its file and line: a sink statement's
 * clause with the knob it set, as the applied ones read (`ON CONFLICT ("payment id") DO NOTHING →
 * sink.columns = {"id":"payment id"}`), else `key=value`.
 */
export function refusedLine(k: KeyReport): string {
  const where = k.line > 0 ? `${k.file}:${k.line}` : k.file;
  const what = k.sql ? `${k.key} → ${k.path} = ${k.value}` : `${k.key}=${k.value}`;
  return `${where}: ${what} refused — ${k.why ?? ''}`;
}
