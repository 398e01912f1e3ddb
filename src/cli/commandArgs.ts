/**
 * The argument handling the commands share (`check`, `from-config`, the runner's `--format`):
 * node:util's parseArgs with `--help`, files required, and an option's value among its choices —
 * each problem one message naming the option, exit 2.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { clipEcho, notOneOf } from '../engine';
import { misspellingBound, nearest } from '../engine/core/editDistance';

type Options = NonNullable<ParseArgsConfig['options']>;

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * ` — did you mean --check?` for an option that is a misspelling of one of `known` (long names,
 * without their dashes), else ''. The embed's rule for its parameters (src/views/io/embedParams.ts):
 * the same name in another case, else one edit from a name of 4+ letters or two from one of 6+.
 */
export function didYouMeanOption(raw: string, known: readonly string[]): string {
  const name = raw.replace(/^-+/, '').replace(/=.*$/s, '').toLowerCase();
  const best = nearest(name, known, misspellingBound);
  return best === null ? '' : ` — did you mean --${best}?`;
}

/**
 * A command's options and positionals, or the exit code once said: 0 after `--help` (the usage
 * on `out`), 2 after an unknown option, a missing value or no positional at all (the problem and
 * the usage on `err`).
 * @param needs - what the positionals are, said when none is given (`check: give …`).
 * @param elsewhere - options this command does not take that a reader may bring from another
 *   (the runner's `--explore`), each with what to do instead: said after `unknown option --x:`.
 */
export function commandArgs<const O extends Options>(
  argv: string[],
  options: O,
  usage: string,
  needs: string,
  out: (s: string) => void,
  err: (s: string) => void,
  elsewhere: Readonly<Record<string, string>> = {},
) {
  type Config = { args: string[]; allowPositionals: true; options: O & typeof HELP };
  let parsed;
  try {
    parsed = parseArgs<Config>({
      args: argv,
      allowPositionals: true,
      options: { ...options, ...HELP },
    });
  } catch (e) {
    // Node words an unknown option for a script's author ("To specify a positional argument
    // starting with a '-' …"); the reader gets the option and, if misspelt, the one it meant.
    const unknown =
      (e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? /'([^']+)'/.exec((e as Error).message)?.[1]
        : undefined;
    const instead = unknown === undefined ? undefined : elsewhere[unknown.replace(/^-+/, '')];
    err(
      `${unknown === undefined ? (e as Error).message : `unknown option ${clipEcho(unknown)}${instead !== undefined ? `: ${instead}` : didYouMeanOption(unknown, Object.keys({ ...options, ...HELP }))}`}\n${usage}`,
    );
    return 2;
  }
  if ((parsed.values as { help?: boolean }).help) {
    out(usage);
    return 0;
  }
  if (parsed.positionals.length === 0) {
    err(`${needs}\n${usage}`);
    return 2;
  }
  return parsed;
}

/**
 * Whether an option's value is one of its choices; if not, says so naming the option
 * (`--format: expected text or json, got "yaml"`).
 */
export function isChoice<const C extends string>(
  option: string,
  value: string,
  choices: readonly C[],
  err: (s: string) => void,
): value is C {
  if ((choices as readonly string[]).includes(value)) return true;
  err(`${option}: ${notOneOf(choices, `"${clipEcho(value)}"`)}`);
  return false;
}
