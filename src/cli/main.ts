/**
 * The headless runner.
 *
 *   npm run --silent sim -- <scenario.json | preset-id[/variant]> [--seed N]
 *                           [--format json|text|mermaid|markdown] [--diagram D]
 *                           [--heading-level N] [--check] [--list]
 *                           [--compare <lane>]…
 *
 * Exit codes (a contract): 0 it ran (and, with --check, matched); 1 internal error; 2 invalid
 * scenario or arguments (one line per problem on stderr, naming the field or option); 3 --check
 * found a mismatch or the scenario has no "expect" block.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  buildEvents,
  parseScenario,
  parseScenarioJson,
  simulate,
  traceBytePartsOf,
  type Trace,
  compareExpect,
  formatIssues,
  type ParseResult,
  type Scenario,
  type SimulateOptions,
  clipEcho,
} from '../engine';
import { MAX_LANES } from '../views/compare/lanes';
import { compareJson, compareLanes, compareMarkdownDoc, compareText } from './compare';
import { findPreset, presetIds, presets } from '../scenarios';
import { findBatchPreset } from '../scenarios/library/batch';
import { runBatchCli } from './batchReport';
import { runBatchExplore } from './exploreBatch';
import { decodeShare, shareIssueLines } from '../views/io/shareLink';
import { parseSeed } from '../views/io/seed';
import { diagramKind, jsonReportChunks, markdownDoc, mermaidReport, textReport } from './report';
import { visibleControls } from './visibleControls';
import { DEFAULT_HEADING_LEVEL, parseHeadingLevel, type HeadingLevel } from '../views/io/markdown';
import type { DiagramKind } from '../views/diagrams/mermaid';
import { claimBroken, exploreReport, exploreText, parseExploreArgs } from './explore';
import { runSql } from './sqlCommand';
import { isChoice } from './commandArgs';

/**
 * The engine's trace hash computed with Node's native SHA-256 over the same bytes
 * ({@link traceBytePartsOf}): the same hex string as `traceHash`, without the pure-JavaScript
 * digest's seconds on a million-event trace, and fed piece by piece, without a copy of the trace.
 */
export function nodeTraceHash(t: Trace): string {
  const hash = createHash('sha256');
  for (const part of traceBytePartsOf(t)) hash.update(part);
  return hash.digest('hex');
}

const USAGE = `usage: npm run --silent sim -- <scenario.json | preset-id[/variant] | share or preset link> [--seed N] [--format json|text|mermaid|markdown|sql] [--against URL] [--diagram D] [--heading-level N] [--check] [--list] [--compare L]…
       npm run --silent sim -- <scenario> --explore [--depth 1|2] [--kinds K,…] [--format json|text] [--check]

  a share link is the page's address (or its '#s=…' part), quoted for the shell; a page or
  embed link with '?preset=…' runs that preset

  --seed N      run with this seed instead of the scenario's
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
  --list        print every preset id (preset/variant) and exit
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
  against: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The line after an argument problem: where the usage is. */
const SEE_USAGE = 'see the usage: npm run --silent sim -- --help';

/** A --seed value, or why it is not one: the page's seed rule (the schema's range, digits only). */
function parseSeedOption(text: string): number | string {
  const r = parseSeed(text);
  return r.ok
    ? r.value
    : `--seed: expected an integer from 0 to 4294967295, got "${clipEcho(text)}"`;
}

/** The arguments, each option with a value of its type. */
interface Arguments {
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
  /** `--against`: a PostgreSQL URL to replay the sink's SQL on. */
  against: string | undefined;
}

/**
 * Parse the arguments, or say what is wrong with them. Node's strict mode would throw its own
 * wording (ERR_PARSE_ARGS_UNKNOWN_OPTION, ERR_PARSE_ARGS_INVALID_OPTION_VALUE — which also refuses
 * `--seed -1` as "ambiguous" — and ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL); the same checks are made
 * here on the tokens so each problem is one line naming the option.
 */
function parseArguments(argv: string[]): Arguments | { problem: string } {
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
    // --compare, one per lane).
    if (seen.has(t.name) && t.name !== 'compare')
      return { problem: `${clipEcho(t.rawName)}: given more than once\n${SEE_USAGE}` };
    seen.add(t.name);
    const option = Object.hasOwn(OPTIONS, t.name) ? OPTIONS[t.name as keyof typeof OPTIONS] : null;
    if (!option) return { problem: `unknown option ${clipEcho(t.rawName)}\n${SEE_USAGE}` };
    if (option.type === 'boolean' && t.value !== undefined)
      return { problem: `${t.rawName}: takes no value, got "${clipEcho(t.value)}"\n${SEE_USAGE}` };
    if (option.type === 'string' && t.value === undefined)
      return { problem: `${t.rawName}: expected a value\n${SEE_USAGE}` };
  }
  if (positionals.length > 1)
    return {
      problem: `unexpected argument "${clipEcho(positionals[1]!)}": give one scenario file or preset id\n${SEE_USAGE}`,
    };
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
  };
}

/**
 * Run the CLI with `argv` (without node and script); returns the exit code. `out` writes its text
 * as it is (the report, in chunks for a large JSON one, then a line break); `errRaw` writes one
 * line per call. `limits` lowers the engine's trace limit (for tests that must stay quick).
 */
export function main(
  argv: string[],
  out: (s: string) => void,
  errRaw: (s: string) => void,
  limits: Pick<SimulateOptions, 'maxTraceEntries'> = {},
): number {
  // Messages quote ids and names from the scenario: never a raw control character.
  const err = (s: string) => errRaw(visibleControls(s));
  const values = parseArguments(argv);
  if ('problem' in values) {
    err(values.problem);
    return 2;
  }
  if (values.help) {
    out(`${USAGE}\n`);
    return 0;
  }
  if (values.list) {
    if (values.target !== undefined) {
      err(`--list: takes no scenario, got "${clipEcho(values.target)}"`);
      return 2;
    }
    out(`${presetIds().join('\n')}\n`);
    return 0;
  }
  const seed = values.seed === undefined ? undefined : parseSeedOption(values.seed);
  if (typeof seed === 'string') {
    err(seed);
    return 2;
  }
  const format = values.format;
  if (!values.explore && (values.depth !== undefined || values.kinds !== undefined)) {
    err(`${values.depth !== undefined ? '--depth' : '--kinds'}: applies to --explore`);
    return 2;
  }
  // --kinds is read once the scenario says whether it is a batch job (its kinds are its own).
  const atlasArgs = values.explore ? parseExploreArgs(values.depth, undefined) : null;
  if (atlasArgs && 'problem' in atlasArgs) {
    err(atlasArgs.problem);
    return 2;
  }
  if (values.explore && values.against !== undefined) {
    err('--against: applies to one run, not with --explore');
    return 2;
  }
  if (
    values.explore &&
    (values.diagram !== undefined || (format !== 'json' && format !== 'text'))
  ) {
    err(
      `--explore: prints json or text, got --format ${values.diagram !== undefined ? 'with --diagram' : format}`,
    );
    return 2;
  }
  if (!isChoice('--format', format, ['json', 'text', 'mermaid', 'markdown', 'sql'], err)) return 2;
  const diagram = diagramKind(values.diagram);
  if (diagram === null) {
    err(
      `--diagram: expected sequence, flow or event:<business id>, got "${clipEcho(values.diagram ?? '')}"`,
    );
    return 2;
  }
  if (values.diagram !== undefined && format !== 'mermaid' && format !== 'markdown') {
    err('--diagram: applies to --format mermaid or markdown');
    return 2;
  }
  const headingLevel =
    values.headingLevel === undefined
      ? DEFAULT_HEADING_LEVEL
      : parseHeadingLevel(values.headingLevel);
  if (headingLevel === null) {
    err(`--heading-level: expected 1, 2, 3 or 4, got "${clipEcho(values.headingLevel ?? '')}"`);
    return 2;
  }
  if (values.headingLevel !== undefined && format !== 'markdown') {
    err('--heading-level: applies to --format markdown');
    return 2;
  }
  // Markdown's diagram is the first anomaly's unless --diagram names one.
  const markdownDiagram = values.diagram === undefined ? 'anomaly' : diagram;
  const target = values.target;
  if (target === undefined) {
    err(USAGE);
    return 2;
  }
  let parsed: ParseResult;
  let presetRef: string | undefined;
  // A page link without a scenario in its hash may name a preset (`?preset=…`, as the page and
  // its embeds write it): that preset.
  let ref = target;
  if ((/^https?:\/\//i.test(target) || target.startsWith('?')) && !/#s=/.test(target)) {
    let named: string | null = null;
    try {
      named = target.startsWith('?')
        ? new URLSearchParams(target).get('preset')
        : new URL(target).searchParams.get('preset');
    } catch {
      named = null;
    }
    if (named === null) {
      err(
        `${clipEcho(target)}: a page link carries a scenario ('#s=…') or a preset ('?preset=…'); this one has neither`,
      );
      return 2;
    }
    if (!findPreset(named)) {
      err(
        `the link's preset "${clipEcho(named)}" is not a preset${nearPresets(named)} (see --list)`,
      );
      return 2;
    }
    ref = named;
  }
  const preset = findPreset(ref);
  const batchPreset = preset || ref.endsWith('.json') ? null : findBatchPreset(ref);
  let root = '(file)';
  if (preset && !ref.endsWith('.json')) {
    presetRef = `${preset.preset.id}/${preset.variant.id}`;
    parsed = parseScenario(preset.variant.scenario);
    root = '(root)';
  } else if (batchPreset) {
    presetRef = `${batchPreset.preset.id}/${batchPreset.variant.id}`;
    parsed = parseScenario(batchPreset.variant.scenario);
    root = '(root)';
  } else if (/#s=/.test(target) || /^s=\d+\./.test(target)) {
    // A share link (the page's address, its '#s=…' part, or 's=…' without the '#'): the
    // scenario it carries, exactly.
    const shared = decodeShare(target.includes('#') ? target.slice(target.indexOf('#')) : target);
    if (!shared.ok) {
      // As the page says it: "share link: …" for the link, "path: …" for a field.
      err(shareIssueLines(shared.issues).join('\n'));
      return 2;
    }
    parsed = { ok: true, scenario: shared.scenario };
  } else {
    let text: string;
    try {
      text = readFileSync(target, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      err(
        code === 'ENOENT'
          ? `no scenario file or preset named "${clipEcho(target)}"${nearPresets(target)} (see --list)`
          : clipEcho(`cannot read ${target}: ${(e as Error).message}`),
      );
      return 2;
    }
    parsed = parseScenarioJson(text);
  }
  if (!parsed.ok) {
    // A file's own problems are labelled as the page labels them: `(file): …`.
    err(formatIssues(parsed.issues, root));
    return 2;
  }
  const scenario = seed === undefined ? parsed.scenario : { ...parsed.scenario, seed };
  if (diagram.startsWith('event:')) {
    const id = diagram.slice('event:'.length);
    if (buildEvents(scenario.workload, scenario.seed).identityOf(id) < 0) {
      err(`--diagram: no business event "${clipEcho(id)}" in the workload`);
      return 2;
    }
  }
  if (atlasArgs && scenario.batch)
    return runBatchExplore(
      scenario,
      presetRef,
      atlasArgs.depth,
      values.kinds,
      format,
      values.check,
      out,
      err,
    );
  const streamAtlasArgs = atlasArgs && parseExploreArgs(values.depth, values.kinds);
  if (streamAtlasArgs && 'problem' in streamAtlasArgs) {
    err(streamAtlasArgs.problem);
    return 2;
  }
  if (streamAtlasArgs) {
    let atlas;
    try {
      atlas = exploreReport(scenario, streamAtlasArgs, presetRef).report;
    } catch (e) {
      // Pairs past their bound are refused with the reason; anything else is a bug.
      const msg = (e as Error).message;
      if (msg.startsWith('pairs are') || msg.includes('more than the bound')) {
        err(`--depth 2: ${msg}`);
        return 2;
      }
      err(`internal error: ${(e as Error).stack ?? String(e)}`);
      return 1;
    }
    out(`${format === 'json' ? JSON.stringify(atlas, null, 2) : exploreText(atlas)}\n`);
    if (values.check && claimBroken(atlas)) {
      err('check: a placement breaks the claim (see the minimal counterexample)');
      return 3;
    }
    if (values.check) err('check: no placement breaks the claim');
    return 0;
  }
  const sqlAsked = format === 'sql' || values.against !== undefined;
  if (sqlAsked) {
    const what = format === 'sql' ? '--format sql' : '--against';
    if (values.compare.length > 0 || values.check) {
      err(`${what}: applies to one run, not with ${values.check ? '--check' : '--compare'}`);
      return 2;
    }
    if (scenario.sink.type !== 'table') {
      err(
        `${what}: the scenario's sink is "${scenario.sink.type}", not a SQL table (sink.type "table")`,
      );
      return 2;
    }
    if (values.against !== undefined && !/^postgres(ql)?:\/\//.test(values.against)) {
      err(`--against: expected a postgres:// URL, got "${clipEcho(values.against)}"`);
      return 2;
    }
    return runSql(scenario, limits, values.against, out, err);
  }
  if (values.compare.length > 0)
    return runCompare(scenario, presetRef, values.compare, format, values.check, out, err, {
      diagram: markdownDiagram,
      headingLevel,
    });
  // A batch scenario is judged by the batch engine (src/cli/batchReport.ts).
  if (scenario.batch)
    return runBatchCli(scenario, presetRef ?? null, format, values.check, out, err);
  let run;
  try {
    run = simulate(scenario, limits);
    // The JSON report is written in chunks: 2,000,000 events make more than one string holds.
    const report =
      format === 'json'
        ? jsonReportChunks(run, presetRef, nodeTraceHash)
        : format === 'mermaid'
          ? [mermaidReport(run, diagram)]
          : format === 'markdown'
            ? [markdownDoc(run, presetRef, markdownDiagram, nodeTraceHash, headingLevel)]
            : [textReport(run, presetRef, nodeTraceHash)];
    for (const chunk of report) out(chunk);
    out('\n');
  } catch (e) {
    err(`internal error: ${(e as Error).stack ?? String(e)}`);
    return 1;
  }
  if (values.check) {
    if (!scenario.expect) {
      err('--check: the scenario has no "expect" block');
      return 3;
    }
    const diff = compareExpect(run, scenario.expect);
    if (diff.length > 0) {
      for (const d of diff)
        err(`expect mismatch: ${d.path}: expected ${d.expected}, got ${d.actual}`);
      return 3;
    }
    // On stderr, so the report on stdout stays machine-readable.
    err('check: the run matches the "expect" block');
  }
  return 0;
}

/** `--compare`: the lanes, their verdicts and the per-event diff (src/cli/compare.ts). */
function runCompare(
  scenario: Scenario,
  presetRef: string | undefined,
  lanes: string[],
  format: string,
  check: boolean,
  out: (s: string) => void,
  err: (s: string) => void,
  markdown: { diagram: DiagramKind; headingLevel: HeadingLevel },
): number {
  if (lanes.length > MAX_LANES - 1) {
    err(`--compare: at most ${MAX_LANES - 1} lanes beside the scenario, got ${lanes.length}`);
    return 2;
  }
  if (check || format === 'mermaid') {
    err(`${check ? '--check' : '--format mermaid'}: applies to one run, not with --compare`);
    return 2;
  }
  const c = compareLanes(scenario, presetRef ?? scenario.name, lanes);
  if ('problem' in c) {
    err(c.problem);
    return 2;
  }
  try {
    // `out` writes as given: each report ends its own line.
    const line = (text: string) => out(`${text}\n`);
    if (format === 'json') line(JSON.stringify(compareJson(c, presetRef, nodeTraceHash), null, 2));
    else if (format === 'markdown') {
      const first = c.lanes[0]!;
      if (!first.ok) throw new Error(first.reason);
      const { diagram, headingLevel } = markdown;
      line(
        compareMarkdownDoc(
          c,
          markdownDoc(first.run, presetRef, diagram, nodeTraceHash, headingLevel),
          nodeTraceHash,
          headingLevel,
        ),
      );
    } else line(compareText(c, presetRef, nodeTraceHash));
  } catch (e) {
    err(`internal error: ${(e as Error).stack ?? String(e)}`);
    return 1;
  }
  return 0;
}

// Run when executed directly (not when imported by tests).
if (process.argv[1] && /main\.[cm]?[tj]s$/.test(process.argv[1])) {
  // A reader that stops early (`| head`, `2>&1 | head`) closes the pipe: that is not an error of
  // ours. The exit code is still the run's (0 ran, 3 mismatch…), set below before any late write.
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  let code: number;
  try {
    code = main(
      process.argv.slice(2),
      (s) => process.stdout.write(s),
      (s) => process.stderr.write(`${s}\n`),
    );
  } catch (e) {
    process.stderr.write(`internal error: ${(e as Error).stack ?? String(e)}\n`);
    code = 1;
  }
  process.exitCode = code;
}

/**
 * What a mistyped preset id was likely meant to be: the variants of a preset named by its id
 * ("; its variants: idempotence-off, …"), else the ids that contain it ("; did you mean …").
 * Empty when nothing is close, or the target looks like a file.
 */
export function nearPresets(target: string): string {
  if (/\.json$|[\\]/.test(target) || target.startsWith('.')) return '';
  const [pid, vid] = target.toLowerCase().split('/', 2);
  const preset = presets.find((p) => p.id === pid);
  if (preset && vid !== undefined)
    return `; the preset "${preset.id}" has variants ${preset.variants.map((v) => v.id).join(', ')}`;
  const near = presetIds().filter((id) => id.includes(target.toLowerCase()));
  if (near.length === 0) return '';
  const shown = near.slice(0, 5).join(', ');
  return `; did you mean ${shown}${near.length > 5 ? ` (and ${near.length - 5} more)` : ''}`;
}
