/**
 * An embed's scenario file as the host page's loader sent it (src/ui/io/scenarioFile.ts), read
 * and validated as a share link's scenario is: its problems with their fields, the file named
 * where a problem is the whole file's; a file that could not be had, refused with why.
 */
import { MAX_JSON_CHARS, type ParseResult, type ScenarioInput } from '../../engine';
import type { ShareResult } from './shareLink';

/** The loader's answer: the file's text, or why it could not be had. */
export type FileAnswer = { text: string } | { error: string };

/**
 * The file's scenario, validated by `parse` (the validation chunk's `parseScenario`,
 * ../run/validationParts.ts — passed in: a dynamic import from the start-up would wait on the
 * page's own start-up, which waits on this).
 */
export function readScenarioFile(
  file: string,
  answer: FileAnswer,
  parse: (value: unknown) => ParseResult,
): ShareResult {
  const refused = (message: string): ShareResult => ({
    ok: false,
    issues: [{ path: '', message: `${file}: ${message}` }],
  });
  if ('error' in answer) return refused(answer.error);
  if (answer.text.length > MAX_JSON_CHARS)
    return refused(`too large: a scenario is at most ${MAX_JSON_CHARS} characters`);
  let value: unknown;
  try {
    value = JSON.parse(answer.text);
  } catch (e) {
    return refused(`not JSON: ${(e as Error).message}`);
  }
  const parsed = parse(value);
  if (!parsed.ok)
    return {
      ok: false,
      issues: parsed.issues.map((i) =>
        i.path === '' ? { path: '', message: `${file}: ${i.message}` } : i,
      ),
    };
  return { ok: true, scenario: parsed.scenario, input: value as ScenarioInput, version: 0 };
}
