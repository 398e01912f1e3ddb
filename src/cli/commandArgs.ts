/**
 * The argument handling the commands share (`check`, `from-config`, the runner's `--format`):
 * node:util's parseArgs with `--help`, files required, and an option's value among its choices —
 * each problem one message naming the option, exit 2.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { clipEcho } from '../engine';

type Options = NonNullable<ParseArgsConfig['options']>;

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * A command's options and positionals, or the exit code once said: 0 after `--help` (the usage
 * on `out`), 2 after an unknown option, a missing value or no positional at all (the problem and
 * the usage on `err`).
 * @param needs - what the positionals are, said when none is given (`check: give …`).
 */
export function commandArgs<const O extends Options>(
  argv: string[],
  options: O,
  usage: string,
  needs: string,
  out: (s: string) => void,
  err: (s: string) => void,
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
    err(`${(e as Error).message}\n${usage}`);
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

/** "a, b or c". */
const either = (choices: readonly string[]) =>
  choices.length === 1 ? choices[0]! : `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;

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
  err(`${option}: expected ${either(choices)}, got "${clipEcho(value)}"`);
  return false;
}
