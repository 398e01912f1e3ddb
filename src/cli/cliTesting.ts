import { PRESET_VARIANT_IDS } from '../scenarios/parsed';
import { loadPresetScenarios } from '../scenarios/presetScenarios';
import { loadOptionalParts, OPTIONAL_PARTS } from './optionalParts';
import { checkCommand } from './check';

// The runner's optional parts, which the executable imports per option (src/cli/optionalParts.ts),
// and every preset's parsed variants, which it imports per preset: all imported once here, since
// the tests call the synchronous `main` with any option and any preset.
await loadOptionalParts(OPTIONAL_PARTS);
await Promise.all(Object.keys(PRESET_VARIANT_IDS).map(loadPresetScenarios));

/**
 * A CLI command run in-process, as the tests call it (`main`, `fromConfigCommand`…): its exit
 * code and what it printed on each stream.
 */
export function captured(
  command: (argv: string[], out: (s: string) => void, err: (s: string) => void) => number,
  argv: string[],
  opts: {
    /** How the pieces written to stdout join: `''` keeps them as written (`main`'s report writes whole lines). */
    join?: string;
    /** Drop the one line break that ends the report. */
    trimEnd?: boolean;
  } = {},
): { code: number; out: string; err: string } {
  const out: string[] = [];
  const err: string[] = [];
  const code = command(
    argv,
    (s) => out.push(s),
    (s) => err.push(s),
  );
  const text = out.join(opts.join ?? '\n');
  return { code, out: opts.trimEnd ? text.replace(/\n$/, '') : text, err: err.join('\n') };
}

/**
 * `delivery-lab check` run in-process, outside CI (`env` stands for the process's: without
 * `GITHUB_ACTIONS`, no annotations): its exit code, its stdout as lines and as one text, its stderr.
 */
export function checkRun(argv: string[], env: Record<string, string> = {}) {
  const lines: string[] = [];
  const err: string[] = [];
  const code = checkCommand(
    argv,
    (s) => lines.push(s),
    (s) => err.push(s),
    env,
  );
  return { code, lines, out: lines.join('\n'), err: err.join('\n') };
}
