/**
 * `delivery-lab <command…>`: routes to a command. `check` and `from-config` are commands of their
 * own; anything else is the scenario runner (src/cli/main.ts), with the same arguments, outputs and
 * exit codes as `npm run sim`. Returns the exit code.
 */
import packageJson from '../../package.json' with { type: 'json' };
import { checkCommand } from './check';
import { fromConfigCommand } from './fromConfig';
import { main } from './main';

const CLI_VERSION: string = packageJson.version;

const HELP = `delivery-lab ${CLI_VERSION}: run delivery scenarios, pin them in CI, import your configuration

usage:
  delivery-lab <scenario.json | preset-id[/variant] | share link> [--seed N]
               [--format json|text|mermaid|markdown] [--diagram D] [--heading-level N]
               [--check] [--compare L]…
  delivery-lab <scenario> --explore [--depth 1|2] [--kinds K,…] [--format json|text] [--check]
  delivery-lab check <files | directories | globs…> [--reporter text|junit] [--output FILE]
  delivery-lab from-config <producer.properties | consumer.properties | config.yaml | spark.properties…>
               [--format text|json] [--scenario-out FILE]
  delivery-lab --list | --version | --help

examples:
  delivery-lab --list                                   every preset id
  delivery-lab lost-ack-retry/acks-1 --format json      run a preset, one JSON object
  delivery-lab docs/scenarios/lesson.json --check       exit 3 if the run differs from its "expect"
  delivery-lab check docs                               pin every scenario and page embed in docs/
  delivery-lab from-config producer.properties consumer.properties
  delivery-lab at-least-once --compare exactly-once     the same faults under another guarantee
  delivery-lab effectively-once --explore --check       exit 3 if any single fault breaks the claim

exit codes: 0 ran (and matched) · 1 internal error · 2 invalid input or arguments · 3 mismatch
docs: docs/cli.md`;

export function dispatch(
  argv: string[],
  write: (s: string) => void,
  err: (s: string) => void,
): number {
  // The runner writes its reports as they are (a JSON report comes in chunks); the commands here
  // write lines.
  const out = (s: string) => write(`${s}\n`);
  const [command, ...rest] = argv;
  if (command === 'check') return checkCommand(rest, out, err);
  if (command === 'from-config') return fromConfigCommand(rest, out, err);
  if (argv.length === 1 && (command === '--version' || command === '-v')) {
    out(CLI_VERSION);
    return 0;
  }
  if (argv.length === 1 && (command === '--help' || command === '-h')) {
    out(HELP);
    return 0;
  }
  return main(argv, write, err);
}
