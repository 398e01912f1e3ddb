/**
 * The runner's arguments (src/cli/main.ts): its usage, its options, and what each option needs
 * imported before the run (issue 28: a preset run imports none of the optional parts).
 */
import { parseArgs } from 'node:util';
import { clipEcho } from '../engine';
import { parseSeed } from '../views/io/seed';
import type { OptionalPart } from './optionalParts';
import { didYouMeanOption } from './commandArgs';

export const USAGE = `usage: npm run --silent sim -- <scenario.json | preset-id[/variant] | share or preset link> [--seed N] [--set K=V]… [--format json|text|mermaid|markdown|sql] [--against URL] [--diagram D] [--heading-level N] [--check] [--list] [--compare L]…
       npm run --silent sim -- <scenario> [--set K=V]… --explore [--depth 1|2] [--kinds K,…] [--format json|text] [--check]

  a share link is the page's address (or its '#s=…' part), quoted for the shell; a page or
  embed link with '?preset=…' runs that preset

  --seed N      run with this seed instead of the scenario's
  --set K=V     run the scenario with this knob set (given again: more knobs), as a --compare
                lane of knobs sets it: 'acks=all', 'producer.enable.idempotence=true'
  --format F    json (one object, the contract), text (default), mermaid (a diagram's text) or
                markdown (a short report with the diagram in a mermaid block) or sql (a table
                sink's statements as a PostgreSQL script: psql -f it on a fresh database, docs/sql.md)
  --against URL run the table sink's SQL on your PostgreSQL (a postgres:// URL, through psql)
                in a fresh schema it creates and drops, and print how it compares with the engine
  --diagram D   with mermaid (the format it implies) or markdown: sequence (the whole run,
                mermaid's default), flow (the topology) or event:<business id> (one event's
                causal chain); markdown's default is the first anomaly from its cause (the whole
                run when nothing is lost or duplicated)
  --heading-level N  with markdown: the title's level, 1 to 4 (default 2, to sit under a docs
                page's title); its sections are one level below
  --check       compare with the scenario's "expect" block; exit 3 and print the differences on mismatch
  --list        print every preset id (preset/variant), the batch jobs last, and exit
  --explore     the fault atlas: run the scenario once per placement of one added fault (every
                message on every link lost or delayed, every crash point, a leader failover at
                every append, a rebalance and a zombie at every poll, a re-send and a source
                duplicate of every event); print the counts per outcome and per kind and the
                minimal counterexample as a scenario fault. With --check: exit 3 if any breaks
                the claim
  --depth D     with --explore: 1 (each placement alone, default) or 2 (every pair: at most
                20,000 runs, scenarios of at most 50 events)
  --kinds K     with --explore: only these kinds (drop-request, drop-response, delay-response,
                crash, leader-failover, rebalance, zombie, app-resend, source-duplicate; a
                batch job's: crash, clear, late-row)
  --compare L   run a lane beside the scenario and print both verdicts and the per-event diff
                (given twice: three lanes). L is a guarantee and/or knobs, space-separated
                ('exactly-once', 'enable.idempotence=true acks=1'), or another scenario
                (a file, a preset id, a share link); with text, json or markdown

exit codes: 0 ran · 1 internal error · 2 invalid scenario or arguments · 3 --check mismatch`;

const OPTIONS = {
  seed: { type: 'string' },
  format: { type: 'string' },
  diagram: { type: 'string' },
  'heading-level': { type: 'string' },
  check: { type: 'boolean', default: false },
  list: { type: 'boolean', default: false },
  explore: { type: 'boolean', default: false },
  depth: { type: 'string' },
  kinds: { type: 'string' },
  compare: { type: 'string', multiple: true },
  set: { type: 'string', multiple: true },
  against: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/**
 * The line after an argument problem: where the usage is — the packed bin's, which is all a
 * project that installed the tarball has, and this repository's (docs/cli.md).
 */
const SEE_USAGE =
  'see the usage: delivery-lab --help (in this repository: npm run --silent sim -- --help)';

/** A --seed value, or why it is not one: the page's seed rule (the schema's range, digits only). */
export function parseSeedOption(text: string): number | string {
  const r = parseSeed(text);
  return r.ok
    ? r.value
    : `--seed: expected an integer from 0 to 4294967295, got "${clipEcho(text)}"`;
}

/** The arguments, each option with a value of its type. */
export interface Arguments {
  target: string | undefined;
  seed: string | undefined;
  format: string;
  diagram: string | undefined;
  /** `--heading-level`: the Markdown report's title level, as given. */
  headingLevel: string | undefined;
  check: boolean;
  list: boolean;
  explore: boolean;
  depth: string | undefined;
  kinds: string | undefined;
  help: boolean;
  /** `--compare` values, one per lane beside the scenario. */
  compare: string[];
  /** `--set` values: knobs set on the scenario before it runs (or is explored). */
  set: string[];
  /** `--against`: a PostgreSQL URL to replay the sink's SQL on. */
  against: string | undefined;
}

/**
 * Parse the arguments, or say what is wrong with them. Node's strict mode would throw its own
 * wording (ERR_PARSE_ARGS_UNKNOWN_OPTION, ERR_PARSE_ARGS_INVALID_OPTION_VALUE — which also refuses
 * `--seed -1` as "ambiguous" — and ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL); the same checks are made
 * here on the tokens so each problem is one line naming the option.
 */
export function parseArguments(argv: string[]): Arguments | { problem: string } {
  const { values, positionals, tokens } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const seen = new Set<string>();
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    // Given twice, which one counts would be a guess: `--seed 5 --seed 6` is refused (but
    // --compare, one per lane, and --set, one per knob).
    if (seen.has(t.name) && t.name !== 'compare' && t.name !== 'set')
      return { problem: `${clipEcho(t.rawName)}: given more than once\n${SEE_USAGE}` };
    seen.add(t.name);
    const option = Object.hasOwn(OPTIONS, t.name) ? OPTIONS[t.name as keyof typeof OPTIONS] : null;
    if (!option)
      return {
        problem: `unknown option ${clipEcho(t.rawName)}${didYouMeanOption(t.rawName, Object.keys(OPTIONS))}\n${SEE_USAGE}`,
      };
    if (option.type === 'boolean' && t.value !== undefined)
      return { problem: `${t.rawName}: takes no value, got "${clipEcho(t.value)}"\n${SEE_USAGE}` };
    if (option.type === 'string' && t.value === undefined)
      return { problem: `${t.rawName}: expected a value\n${SEE_USAGE}` };
  }
  if (positionals.length > 1) {
    // A knob right after a `--compare` lane is that lane's second knob, split off by the shell:
    // a lane's knobs are one argument (docs/cli.md), so the quoting is what to change.
    const second = tokens.filter((t) => t.kind === 'positional')[1]!;
    const before = tokens[tokens.indexOf(second) - 1];
    if (before?.kind === 'option' && before.name === 'set' && /^[\w.-]+=/.test(positionals[1]!))
      return {
        problem: `unexpected argument "${clipEcho(positionals[1]!)}": one --set per knob: --set ${clipEcho(before.value ?? '')} --set ${clipEcho(positionals[1]!)}\n${SEE_USAGE}`,
      };
    if (before?.kind === 'option' && before.name === 'compare' && /^[\w.-]+=/.test(positionals[1]!))
      return {
        problem: `unexpected argument "${clipEcho(positionals[1]!)}": a lane's knobs go in one argument, quoted: --compare '${clipEcho(`${before.value} ${positionals[1]!}`)}'\n${SEE_USAGE}`,
      };
    return {
      problem: `unexpected argument "${clipEcho(positionals[1]!)}": give one scenario file or preset id\n${SEE_USAGE}`,
    };
  }
  // Every option now has a value of its type (string options a string, booleans a boolean).
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    target: positionals[0],
    seed: text(values.seed),
    // --diagram alone asks for a diagram: mermaid, unless a format is named.
    format: text(values.format) ?? (values.diagram !== undefined ? 'mermaid' : 'text'),
    diagram: text(values.diagram),
    headingLevel: text(values['heading-level']),
    check: values.check === true,
    list: values.list === true,
    explore: values.explore === true,
    depth: text(values.depth),
    kinds: text(values.kinds),
    help: values.help === true,
    against: text(values.against),
    compare: Array.isArray(values.compare)
      ? values.compare.filter((v) => typeof v === 'string')
      : [],
    set: Array.isArray(values.set) ? values.set.filter((v) => typeof v === 'string') : [],
  };
}

/** A share link (the page's address, its '#s=…' part, or 's=…' without the '#'). */
export function isShareLink(target: string): boolean {
  return /#s=/.test(target) || /^s=\d+\./.test(target);
}

/**
 * The optional parts a run with these arguments may reach (src/cli/optionalParts.ts), imported
 * before it starts: `--compare`, `--explore` (a batch job's atlas too), `--format sql` or
 * `--against`, a diagram (`--format mermaid|markdown`, `--diagram`, `--heading-level`: their checks
 * read it too) and a share link's decoder.
 */
export function optionalPartsFor(values: Arguments): OptionalPart[] {
  const parts: OptionalPart[] = [];
  // --set reads knobs as a --compare lane does (./compare.ts `setKnobs`).
  if (values.compare.length > 0 || values.set.length > 0) parts.push('compare');
  if (values.explore) parts.push('explore', 'exploreBatch');
  if (values.check) parts.push('atlasPin');
  if (values.format === 'sql' || values.against !== undefined) parts.push('sql');
  if (
    values.format === 'mermaid' ||
    values.format === 'markdown' ||
    values.diagram !== undefined ||
    values.headingLevel !== undefined
  )
    parts.push('diagrams');
  if (values.target !== undefined && isShareLink(values.target)) parts.push('share');
  return parts;
}
