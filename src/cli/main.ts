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
import { readFileSync } from 'node:fs';
import {
  buildEvents,
  simulate,
  compareExpect,
  type ParseResult,
  type SimulateOptions,
  clipEcho,
  notOneOf,
} from '../engine';
import {
  loadedPresetScenario,
  loadPresetScenarios,
  presetRefOf,
  allPresetRefs,
} from '../scenarios/presetScenarios';
import { BATCH_NO_DIAGRAM, runBatchCli } from './batchReport';
import { pinOfRun, scenarioKind } from './scenarioEngine';
import { acceptNow, mismatchLine, pinJson, repinned } from './repin';
import { diagramKind, jsonReportChunks, textReport } from './report';
import { visibleControls } from './visibleControls';
import { atlasProgress, type StatusLine } from './progress';
import { isChoice } from './commandArgs';
import { nodeTraceHash } from './nodeTraceHash';
import { nearPresets } from './nearPresets';
import { fileIssuesText } from './jsonPathLines';
import { isShareLink, optionalPartsFor, parseArguments, parseSeedOption, USAGE } from './runArgs';
import { loadOptionalParts, optionalPart } from './optionalParts';

export { nodeTraceHash } from './nodeTraceHash';

/**
 * The runner as the executable runs it (src/cli/dispatch.ts): the optional parts its arguments
 * need imported first (src/cli/optionalParts.ts), then {@link main}.
 */
export async function runCli(
  argv: string[],
  out: (s: string) => void,
  errRaw: (s: string) => void,
  status?: StatusLine,
): Promise<number> {
  const values = parseArguments(argv);
  if (!('problem' in values)) {
    // One of our presets is read parsed, without zod; anything else is validated by it.
    const named = values.target === undefined ? undefined : targetPreset(values.target);
    await Promise.all([
      loadOptionalParts([
        ...optionalPartsFor(values),
        ...(named === undefined && values.target !== undefined && !isShareLink(values.target)
          ? (['validate'] as const)
          : []),
      ]),
      named === undefined ? undefined : loadPresetScenarios(named),
    ]);
  }
  return main(argv, out, errRaw, { status });
}

/** Whether a target is a page link (`https://…`, `?…`) that names no scenario of its own. */
function isPresetLink(target: string): boolean {
  return (/^https?:\/\//i.test(target) || target.startsWith('?')) && !/#s=/.test(target);
}

/** The `preset=` a page link names, or null. */
function linkedPreset(target: string): string | null {
  try {
    return target.startsWith('?')
      ? new URLSearchParams(target).get('preset')
      : new URL(target).searchParams.get('preset');
  } catch {
    return null;
  }
}

/** The preset (`preset-id/variant-id`) a target names, itself or by a page link; else undefined. */
function targetPreset(target: string): string | undefined {
  const ref = isPresetLink(target) ? linkedPreset(target) : target;
  return ref === null || ref.endsWith('.json') ? undefined : presetRefOf(ref);
}

/**
 * Run the CLI with `argv` (without node and script); returns the exit code. `out` writes its text
 * as it is (the report, in chunks for a large JSON one, then a line break); `errRaw` writes one
 * line per call. `limits` lowers the engine's trace limit (for tests that must stay quick).
 * The optional parts the arguments need must be imported ({@link runCli} does it).
 */
export function main(
  argv: string[],
  out: (s: string) => void,
  errRaw: (s: string) => void,
  limits: Pick<SimulateOptions, 'maxTraceEntries'> & {
    /** A terminal's progress line (./progress.ts): an atlas's runs as they go. */
    status?: StatusLine;
  } = {},
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
    // One id a line (a shell loop reads them), the streaming presets then the batch jobs.
    out(`${allPresetRefs().join('\n')}\n`);
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
  const atlasArgs = values.explore
    ? optionalPart('explore').parseExploreArgs(values.depth, undefined)
    : null;
  if (atlasArgs && 'problem' in atlasArgs) {
    err(atlasArgs.problem);
    return 2;
  }
  if (values.explore && values.compare.length > 0) {
    err(
      '--compare: not with --explore: the atlas explores the scenario given, one configuration; to explore a lane, give its configuration as the scenario (a file, a preset variant, a share link)',
    );
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
      `--diagram: ${notOneOf(['sequence', 'flow', 'event:<business id>'], `"${clipEcho(values.diagram ?? '')}"`)}`,
    );
    return 2;
  }
  if (values.diagram !== undefined && format !== 'mermaid' && format !== 'markdown') {
    err('--diagram: applies to --format mermaid or markdown');
    return 2;
  }
  // Without --heading-level, markdown's own default level.
  const headingLevel =
    values.headingLevel === undefined
      ? undefined
      : optionalPart('diagrams').parseHeadingLevel(values.headingLevel);
  if (headingLevel === null) {
    err(
      `--heading-level: ${notOneOf(['1', '2', '3', '4'], `"${clipEcho(values.headingLevel ?? '')}"`)}`,
    );
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
  // A page link without a scenario in its hash may name a preset (`?preset=…`, as the page and
  // its embeds write it): that preset.
  if (isPresetLink(target)) {
    const named = linkedPreset(target);
    if (named === null) {
      err(
        `${clipEcho(target)}: a page link carries a scenario ('#s=…') or a preset ('?preset=…'); this one has neither`,
      );
      return 2;
    }
    if (presetRefOf(named) === undefined) {
      err(
        `the link's preset "${clipEcho(named)}" is not a preset${nearPresets(named)} (see --list)`,
      );
      return 2;
    }
  }
  const presetRef = targetPreset(target);
  if (presetRef !== undefined) {
    // Our own preset, parsed ahead from the zod parse (src/scenarios/parsed/): runCli imported it.
    const scenario = loadedPresetScenario(presetRef);
    if (scenario === undefined)
      throw new Error(`the preset "${presetRef}" was used before it was imported`);
    parsed = { ok: true, scenario };
  } else if (isShareLink(target)) {
    // A share link: the scenario it carries, exactly.
    const { decodeShare, shareIssueLines, linkExtrasNotes } = optionalPart('share');
    const hash = target.includes('#') ? target.slice(target.indexOf('#')) : target;
    const shared = decodeShare(hash);
    if (!shared.ok) {
      // As the page says it: "share link: …" for the link, "path: …" for a field.
      err(shareIssueLines(shared.issues).join('\n'));
      return 2;
    }
    parsed = { ok: true, scenario: shared.scenario };
    // Compare's lanes and the atlas's choice the page put beside it, which this run leaves out.
    for (const note of linkExtrasNotes(hash, scenarioKind(shared.scenario) === 'batch', {
      compare: values.compare.length > 0,
      explore: values.explore,
    }))
      err(note);
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
    parsed = optionalPart('validate').parseScenarioJson(text);
    if (!parsed.ok) {
      // As the page labels them (`(file): …`, `field: …`); a syntax error at file:line:column.
      err(fileIssuesText(target, text, parsed.issues));
      return 2;
    }
  }
  const seeded = seed === undefined ? parsed.scenario : { ...parsed.scenario, seed };
  // `--set`: the knobs set on it, as a `--compare` lane sets them (./compare.ts `setKnobs`). The
  // run is then no longer the preset's nor the file's as written: reported under its own name,
  // with no preset, and no pin of the file offered to accept.
  const edited = values.set.length > 0;
  const set = edited ? optionalPart('compare').setKnobs(seeded, values.set) : { scenario: seeded };
  if ('problem' in set) {
    err(set.problem);
    return 2;
  }
  const scenario = set.scenario;
  const ranPreset = edited ? undefined : presetRef;
  const kind = scenarioKind(scenario);
  if (kind === 'batch' && (format === 'mermaid' || values.diagram !== undefined)) {
    err(`${format === 'mermaid' ? '--format mermaid' : '--diagram'} ${BATCH_NO_DIAGRAM}`);
    return 2;
  }
  if (diagram.startsWith('event:')) {
    const id = diagram.slice('event:'.length);
    if (buildEvents(scenario.workload, scenario.seed).identityOf(id) < 0) {
      err(`--diagram: no business event "${clipEcho(id)}" in the workload`);
      return 2;
    }
  }
  if (atlasArgs && kind === 'batch')
    return optionalPart('exploreBatch').runBatchExplore(
      scenario,
      ranPreset,
      atlasArgs.depth,
      values.kinds,
      format,
      values.check,
      out,
      err,
    );
  const streamAtlasArgs =
    atlasArgs && optionalPart('explore').parseExploreArgs(values.depth, values.kinds);
  if (streamAtlasArgs && 'problem' in streamAtlasArgs) {
    err(streamAtlasArgs.problem);
    return 2;
  }
  if (streamAtlasArgs) {
    const { checkLine, claimBroken, exploreReport, exploreText } = optionalPart('explore');
    let atlas;
    const status = limits.status;
    try {
      atlas = exploreReport(
        scenario,
        streamAtlasArgs,
        ranPreset,
        status && atlasProgress(status),
        // The fix: line's command repeats what made this atlas (./exploreWithFix.ts).
        {
          target,
          scenarioOptions: [
            ...(values.seed === undefined ? [] : ['--seed', values.seed]),
            ...values.set.flatMap((v) => ['--set', v]),
          ],
          atlasOptions: [
            ...(values.depth === undefined ? [] : ['--depth', values.depth]),
            ...(values.kinds === undefined ? [] : ['--kinds', values.kinds]),
          ],
        },
      ).report;
    } catch (e) {
      status?.(null);
      // Pairs past their bound are refused with the reason; anything else is a bug.
      const msg = (e as Error).message;
      if (msg.startsWith('pairs are') || msg.includes('more than the bound')) {
        err(`--depth 2: ${msg}`);
        return 2;
      }
      err(`internal error: ${(e as Error).stack ?? String(e)}`);
      return 1;
    }
    status?.(null);
    out(`${format === 'json' ? JSON.stringify(atlas, null, 2) : exploreText(atlas)}\n`);
    if (values.check) err(checkLine(atlas));
    return values.check && claimBroken(atlas) ? 3 : 0;
  }
  const sqlAsked = format === 'sql' || values.against !== undefined;
  if (sqlAsked) {
    const what = format === 'sql' ? '--format sql' : '--against';
    if (values.compare.length > 0 || values.check) {
      err(`${what}: applies to one run, not with ${values.check ? '--check' : '--compare'}`);
      return 2;
    }
    if (kind === 'stream' && scenario.sink.type !== 'table') {
      err(
        `${what}: the scenario's sink is "${scenario.sink.type}", not a SQL table (sink.type "table")`,
      );
      return 2;
    }
    if (values.against !== undefined && !/^postgres(ql)?:\/\//.test(values.against)) {
      err(`--against: expected a postgres:// URL, got "${clipEcho(values.against)}"`);
      return 2;
    }
    return optionalPart('sql').runSql(scenario, limits, values.against, out, err);
  }
  if (values.compare.length > 0)
    return optionalPart('compare').runCompare(
      scenario,
      ranPreset,
      values.compare,
      format,
      values.check,
      out,
      err,
      {
        diagram: markdownDiagram,
        headingLevel,
      },
    );
  // A batch scenario is judged by the batch engine (src/cli/batchReport.ts).
  if (kind === 'batch')
    return runBatchCli(scenario, ranPreset ?? null, format, values.check, out, err, {
      headingLevel,
      fromFile: presetRef === undefined && !isShareLink(target) && !edited,
    });
  let run;
  try {
    run = simulate(scenario, limits);
    // The JSON report is written in chunks: 2,000,000 events make more than one string holds.
    const report =
      format === 'json'
        ? jsonReportChunks(run, ranPreset, nodeTraceHash)
        : format === 'mermaid'
          ? [optionalPart('diagrams').mermaidReport(run, diagram)]
          : format === 'markdown'
            ? [
                optionalPart('diagrams').markdownDoc(
                  run,
                  ranPreset,
                  markdownDiagram,
                  nodeTraceHash,
                  headingLevel,
                ),
              ]
            : [textReport(run, ranPreset, nodeTraceHash)];
    for (const chunk of report) out(chunk);
    out('\n');
  } catch (e) {
    err(`internal error: ${(e as Error).stack ?? String(e)}`);
    return 1;
  }
  if (values.check) {
    // A scenario file's pin can be edited: say how to accept what the run shows now.
    const fromFile = presetRef === undefined && !isShareLink(target) && !edited;
    if (!scenario.expect) {
      err('--check: the scenario has no "expect" block');
      if (fromFile) err(acceptNow(`add "expect": ${pinJson(pinOfRun(scenario))}`));
      return 3;
    }
    const diff = [
      ...compareExpect(run, scenario.expect),
      ...(scenario.expect.atlas
        ? optionalPart('atlasPin').atlasMismatches(scenario, scenario.expect.atlas)
        : []),
    ];
    if (diff.length > 0) {
      for (const d of diff) err(mismatchLine(d));
      if (fromFile)
        err(acceptNow(`set its "expect" block to ${pinJson(repinned(scenario.expect, diff))}`));
      return 3;
    }
    // On stderr, so the report on stdout stays machine-readable.
    err('check: the run matches the "expect" block');
  }
  return 0;
}
