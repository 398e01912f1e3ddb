/**
 * `delivery-lab <command…>`: routes to a command. `check` and `from-config` are commands of their
 * own; anything else is the scenario runner (src/cli/main.ts), with the same arguments, outputs and
 * exit codes as `npm run sim`. Returns the exit code.
 *
 * Each command is imported when it is asked for (issue 28: start-up ≤ 300 ms): a preset run does
 * not evaluate `check`'s or `from-config`'s modules (YAML, the configuration catalogue), and
 * `--version`, `--help` and `--list` evaluate none of the engine.
 */
import packageJson from '../../package.json' with { type: 'json' };
import type { StatusLine } from './progress';

const CLI_VERSION: string = packageJson.version;

const HELP = `delivery-lab ${CLI_VERSION}: run delivery scenarios, pin them in CI, import your configuration

usage:
  delivery-lab <scenario.json | preset-id[/variant] | share link> [--seed N]
               [--format json|text|mermaid|markdown] [--diagram D] [--heading-level N]
               [--set K=V]… [--check] [--compare L]…
  delivery-lab <scenario> [--set K=V]… --explore [--depth 1|2] [--kinds K,…] [--format json|text] [--check]
  delivery-lab check <files | directories | globs…> [--reporter text|junit] [--output FILE]
  delivery-lab from-config <producer.properties | consumer.properties | config.yaml | spark.properties…
                           | a dbt model.sql, schema.yml, dbt_project.yml, an Airflow dag.py…>
               [--on PRESET] [--format text|json] [--scenario-out FILE] [--skip-atlas] [--check]
  delivery-lab --list | --version | --help

examples:
  delivery-lab --list                                   every preset id
  delivery-lab lost-ack-retry/acks-1 --format json      run a preset, one JSON object
  delivery-lab docs/scenarios/lesson.json --check       exit 3 if the run differs from its "expect"
  delivery-lab check docs                               pin every scenario and page embed in docs/
  delivery-lab from-config producer.properties consumer.properties
  delivery-lab at-least-once --compare exactly-once     the same faults under another guarantee
  delivery-lab effectively-once --explore --check       exit 3 if any single fault breaks the claim
  delivery-lab lost-ack-retry/acks-1 --set acks=all --explore   the atlas with a knob set
  delivery-lab from-config producer.properties sink.sql --check   CI: exit 3 if the run or a single fault breaks the claim

exit codes: 0 ran (and matched) · 1 internal error · 2 invalid input or arguments · 3 mismatch
docs: docs/cli.md`;

/**
 * `--list`'s output, computed when the CLI bundle is built (vite.cli.config.ts defines it from
 * the same `presetIds()`), so listing the presets builds neither the presets nor the zod schemas
 * their recipes read. Undefined when run from source (`npm run sim`, tests): then main.ts lists.
 */
declare const __DELIVERY_LAB_PRESET_LIST__: string | undefined;

export async function dispatch(
  argv: string[],
  write: (s: string) => void,
  err: (s: string) => void,
  /** A terminal's progress line for long runs (src/cli/progress.ts); none when piped. */
  status?: StatusLine,
): Promise<number> {
  // The runner writes its reports as they are (a JSON report comes in chunks); the commands here
  // write lines.
  const out = (s: string) => write(`${s}\n`);
  const [command, ...rest] = argv;
  if (command === 'check') return (await import('./check')).checkCommand(rest, out, err);
  if (command === 'from-config')
    return (await import('./fromConfig')).fromConfigCommand(rest, out, err);
  if (argv.length === 1 && (command === '--version' || command === '-v')) {
    out(CLI_VERSION);
    return 0;
  }
  if (argv.length === 1 && (command === '--help' || command === '-h')) {
    out(HELP);
    return 0;
  }
  if (
    argv.length === 1 &&
    command === '--list' &&
    typeof __DELIVERY_LAB_PRESET_LIST__ === 'string'
  ) {
    write(__DELIVERY_LAB_PRESET_LIST__);
    return 0;
  }
  return (await import('./main')).runCli(argv, write, err, status);
}
