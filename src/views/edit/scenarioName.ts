/**
 * A scenario's name as the format takes it (`name` in docs/format.md): not empty — spaces alone
 * count as empty — and at most the format's string limit.
 */
import { LIMITS } from '../../engine/scenario/limits';

export type NameParse = { ok: true; value: string } | { ok: false; problem: string };

/** The name typed (trimmed), or why the format would refuse it. */
export function judgeScenarioName(text: string): NameParse {
  const name = text.trim();
  if (name === '') return { ok: false, problem: 'a scenario needs a name' };
  if (name.length > LIMITS.stringLength)
    return { ok: false, problem: `${name.length} characters, over ${LIMITS.stringLength}` };
  return { ok: true, value: name };
}
