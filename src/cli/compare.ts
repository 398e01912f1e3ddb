/**
 * `sim <scenario> --compare <lane>` (up to twice: three lanes): run the scenario and each lane, and
 * print the verdicts and the per-event diff — the events whose fate differs, with each lane's
 * sentence. A lane is
 * - a guarantee (`exactly-once`: the same scenario under that guarantee's recipe) and/or knobs
 *   (`enable.idempotence=true acks=1`, space-separated; a knob by its dotted path or its real name),
 *   applied to the scenario as the page's Compare does (src/views/compare/lanes.ts);
 * - or another scenario: a file, a preset id, a share link.
 *
 * `--format json` prints `{ lanes: [report, …], diff: [{ id, fates: […] }], … }`: each lane's
 * report is the one-run JSON report (src/cli/report.ts); `diff` lists the events whose fate
 * differs, each lane's fate in lane order.
 *
 * Every lane runs on the scenario's engine (src/cli/scenarioEngine.ts): a batch job's lanes on the
 * batch engine, compared as the page's batch Compare does (./compareBatch.ts); a stream lane
 * beside a batch job, or the reverse, is refused.
 */
import { readFileSync } from 'node:fs';
import {
  clipEcho,
  GuaranteeSchema,
  parseScenario,
  parseScenarioJson,
  formatIssues,
  type Guarantee,
  type Run,
  type Scenario,
  type ScenarioInput,
} from '../engine';
import { misspellingBound, nearest } from '../engine/core/editDistance';
import { findPreset } from '../scenarios';
import { compareMarkdown } from '../views/compare/compareMarkdown';
import { DEFAULT_HEADING_LEVEL, type HeadingLevel } from '../views/io/markdown';
import { compareBuilt, type ComparedRuns } from '../views/compare/compareRuns';
import { fateWords, type LaneFate } from '../views/compare/diff';
import {
  laneTypedValue,
  laneScenario,
  laneTitle,
  MAX_LANES,
  type LaneSpec,
  type LaneWords,
} from '../views/compare/lanes';

import { formatMs } from '../views/run/format';
import { KNOBS, knobsFor } from '../views/edit/knobs';
import { decodeShare, shareIssueLines } from '../views/io/shareLink';
import { jsonReport, textReport, type JsonReport, type TraceHasher } from './report';
import { visibleControls } from './visibleControls';
import { nodeTraceHash } from './nodeTraceHash';
import { markdownDoc } from './reportDiagram';
import type { DiagramKind } from '../views/diagrams/mermaid';
import type { BatchLaneInput } from '../views/batch/batchCompare';
import { runBatchCompare } from './compareBatch';
import { kindWords, scenarioKind } from './scenarioEngine';
import { laneHeading } from './laneHeading';

/** A terminal has no screen: a lane built from lane 1 says so ("lane 1 with acks = 1"). */
const CLI_LANE_WORDS: LaneWords = { asIs: 'lane 1', then: ' with ' };

/** The `--compare` JSON object. */
export interface CompareJson {
  /** Each lane's run report, the scenario given first. */
  lanes: (JsonReport & { lane: string })[];
  /** Lanes that could not run, by lane number (from 1), and why. */
  refused: { lane: number; title: string; reason: string }[];
  /** The events whose fate differs, in the first lane's order; `fates` in lane order. */
  diff: { id: string; fates: { count: number | null; fate: LaneFate['fate']; why?: string }[] }[];
  /** Knobs set otherwise, each lane's value in effect. */
  knobs: { path: string; name: string; values: string[] }[];
  /** Per lane after the first: the first trace entry where it departs from the first (null: none). */
  divergences: ({
    entry: number;
    timeMs: number;
    first: string | null;
    lane: string | null;
  } | null)[];
}

/** One `--compare` value as a lane, or the problem with it (naming the option). */
function parseLane(value: string, base: ScenarioInput): BatchLaneInput | { problem: string } {
  const words = value
    .trim()
    .split(/\s+/)
    .filter((w) => w.length > 0);
  const isSpec = words.length > 0 && words.every((w) => isGuarantee(w) || /^[\w.-]+=/.test(w));
  if (!isSpec || /^(https?:|#|s=\d|\?)/i.test(value.trim())) return otherScenario(value);
  const spec: LaneSpec = {};
  for (const w of words) {
    if (isGuarantee(w)) {
      if (spec.guarantee !== undefined)
        return { problem: `--compare: two guarantees in one lane ("${spec.guarantee}", "${w}")` };
      spec.guarantee = w;
      continue;
    }
    const eq = w.indexOf('=');
    const path = knobPath(w.slice(0, eq), base, '--compare');
    if ('problem' in path) return path;
    (spec.knobs ??= []).push({
      path: path.path,
      value: laneTypedValue(path.path, w.slice(eq + 1)),
    });
  }
  const title = laneTitle(base, spec, CLI_LANE_WORDS);
  const lane = laneScenario(base, spec);
  // The lane runs lane 1's scenario changed: its report must not carry lane 1's name (a preset's
  // name often names the very setting the lane changes, "— idempotence off"); it names its own
  // configuration, as its title does (laneTitle, in the CLI's words).
  const { guarantee } = spec;
  if (!lane.ok) return { title, lane, guarantee };
  const name = spec.guarantee === undefined ? title : `lane 1 at ${title}`;
  return { title, lane: { ...lane, scenario: { ...lane.scenario, name } }, guarantee };
}

function isGuarantee(w: string): w is Guarantee {
  return GuaranteeSchema.safeParse(w).success;
}

/**
 * `--set knob=value…` (given once or more): the scenario with those knobs set, as a `--compare`
 * lane of knobs sets them (a knob by its path or real name, its value as the Knobs tab reads it),
 * so that a command runs — or explores — a scenario with a knob changed without writing it out
 * (the atlas's `fix:` line prints one). Its name says the change; a configuration Kafka or Flink
 * would refuse is the problem, naming the option.
 */
export function setKnobs(
  base: Scenario,
  values: readonly string[],
): { scenario: Scenario } | { problem: string } {
  const knobs: { path: string; value: unknown }[] = [];
  const words: string[] = [];
  for (const w of values.flatMap((v) => v.trim().split(/\s+/)).filter((x) => x.length > 0)) {
    const eq = w.indexOf('=');
    if (eq <= 0)
      return {
        problem: `--set: expected knob=value (acks=all, producer.enable.idempotence=true), got "${clipEcho(w)}"${isGuarantee(w) ? `; a guarantee is a recipe of knobs: --compare ${w} runs it beside the scenario` : ''}`,
      };
    const path = knobPath(w.slice(0, eq), base, '--set');
    if ('problem' in path) return path;
    knobs.push({ path: path.path, value: laneTypedValue(path.path, w.slice(eq + 1)) });
    words.push(w);
  }
  const set = laneScenario(base, { knobs });
  if (!set.ok)
    return {
      problem: `--set ${words.join(' ')}: ${set.reason.replace("this lane's configuration", 'the configuration')}`,
    };
  return { scenario: { ...set.scenario, name: `${base.name}, with ${words.join(' ')}` } };
}

/**
 * A knob named on the command line: its dotted path (`producer.acks`), or its real name
 * (`acks`) when exactly one knob of this scenario's pipeline has it. `option` names the option
 * in a problem.
 */
function knobPath(
  name: string,
  base: ScenarioInput,
  option: '--compare' | '--set',
): { path: string } | { problem: string } {
  if (KNOBS.some((k) => k.path === name)) return { path: name };
  // A batch job's field by its path in the scenario format (`batch.task.retries`), as batch
  // Compare's "what differs" names it; the lane's validation judges the value.
  if (base.batch !== undefined && name.startsWith('batch.')) return { path: name };
  const parsed = parseScenario(base);
  const pool = parsed.ok ? knobsFor(parsed.scenario) : KNOBS;
  const named = pool.filter((k) => k.name === name);
  if (named.length === 1) return { path: named[0]!.path };
  if (named.length > 1)
    return {
      problem: `${option}: "${name}" names several knobs here; give its path: ${named.map((k) => k.path).join(', ')}`,
    };
  // The Knobs tab shows names ("key column"), some with spaces a lane's words cannot hold: offer
  // the knobs whose path ends in the word, or whose name has it, with the path to give.
  const word = name.toLowerCase();
  const near = pool.filter(
    (k) =>
      k.path.toLowerCase().endsWith(`.${word}`) ||
      k.name
        .toLowerCase()
        .split(/[\s()/]+/)
        .includes(word),
  );
  // A misspelt path or real name (`enable.idempotance`, `producer.akcs`): the knob a typo away.
  if (near.length === 0) {
    const spelt = nearest(
      name,
      pool.flatMap((k) => [k.path, k.name]),
      (c) => misspellingBound(c),
    );
    const meant = pool.find((k) => k.path === spelt || k.name === spelt);
    if (meant) near.push(meant);
  }
  if (near.length > 0)
    return {
      problem: `${option}: no knob "${name}"; did you mean ${near.map((k) => `${k.path} (${k.name})`).join(', ')}?`,
    };
  return {
    problem: `${option}: no knob "${name}" (give a knob's path, e.g. producer.enable.idempotence — the Knobs tab shows each knob's path under its ⓘ — or its real name, e.g. acks)`,
  };
}

/** Another scenario as a lane: a preset id, a share link, or a file. */
function otherScenario(ref: string): BatchLaneInput | { problem: string } {
  const preset = findPreset(ref);
  let input: unknown;
  let title = ref;
  if (preset && !ref.endsWith('.json')) {
    input = preset.variant.scenario;
    title = `${preset.preset.id}/${preset.variant.id}`;
  } else if (/#s=|^s=\d+\./.test(ref)) {
    const shared = decodeShare(ref.includes('#') ? ref.slice(ref.indexOf('#')) : ref);
    if (!shared.ok) return { problem: `--compare: ${shareIssueLines(shared.issues).join('; ')}` };
    input = shared.input;
    title = 'the shared scenario';
  } else {
    let text: string;
    try {
      text = readFileSync(ref, 'utf8');
    } catch {
      return {
        problem: `--compare: "${ref}" is no guarantee, knob=value, preset id, share link or scenario file`,
      };
    }
    const parsed = parseScenarioJson(text);
    if (!parsed.ok)
      return { problem: `--compare ${ref}:\n${formatIssues(parsed.issues, '(file)')}` };
    input = parsed.scenario;
  }
  const parsed = parseScenario(input);
  if (!parsed.ok) return { problem: `--compare ${ref}:\n${formatIssues(parsed.issues, '(root)')}` };
  return { title, lane: { ok: true, input: input as ScenarioInput, scenario: parsed.scenario } };
}

/** The JSON object of a compare. */
export function compareJson(
  c: ComparedRuns,
  preset: string | undefined,
  hash: TraceHasher,
): CompareJson {
  const ran = c.lanes.flatMap((l, i) => (l.ok ? [{ l, i }] : []));
  const m = c.model;
  return {
    lanes: ran.map(({ l, i }) => ({
      lane: l.title,
      ...jsonReport(l.run, i === 0 ? preset : undefined, hash),
    })),
    refused: c.lanes.flatMap((l, i) =>
      l.ok ? [] : [{ lane: i + 1, title: l.title, reason: l.reason }],
    ),
    diff: (m?.diff ?? [])
      .filter((r) => r.differs)
      .map((r) => ({
        id: r.id,
        fates: r.fates.map((f) => ({
          count: f.count,
          fate: f.fate,
          ...(f.why ? { why: f.why } : {}),
        })),
      })),
    knobs: (m?.knobs ?? []).map((k) => ({ path: k.path, name: k.name, values: k.values })),
    divergences: (m?.divergences ?? []).map((d) =>
      d === null ? null : { entry: d.entry, timeMs: d.time, first: d.base, lane: d.other },
    ),
  };
}

/** The text of a compare: each lane's verdict, what differs, and the per-event diff. */
export function compareText(
  c: ComparedRuns,
  preset: string | undefined,
  hash: TraceHasher,
): string {
  const lines: string[] = [];
  const no = c.lanes.flatMap((l, i) => (l.ok ? [i + 1] : []));
  c.lanes.forEach((l, i) => {
    if (!l.ok) {
      lines.push(laneHeading(i + 1, l.title, null), `cannot run: ${l.reason}`, '');
      return;
    }
    const report = textReport(l.run, i === 0 ? preset : undefined, hash);
    lines.push(laneHeading(i + 1, l.title, report.split('\n')[0]!), report, '');
  });
  const m = c.model;
  if (!m) {
    lines.push('nothing to compare: fewer than two lanes ran');
    return visibleControls(lines.join('\n'));
  }
  lines.push('── what differs');
  for (const k of m.knobs) lines.push(`  ${k.name} (${k.system}): ${k.values.join(' | ')}`);
  if (m.knobs.length === 0) lines.push('  no knob');
  m.divergences.forEach((d, i) => {
    const a = no[0];
    const b = no[i + 1];
    lines.push(
      d === null
        ? `  lane ${b} runs exactly as lane ${a} (identical traces)`
        : `  lane ${b} departs from lane ${a} at ${formatMs(d.time)} (entry ${d.entry + 1}): lane ${a}: ${d.base ?? 'its run has ended'}; lane ${b}: ${d.other ?? 'its run has ended'}`,
    );
  });
  lines.push('');
  const differing = m.diff.filter((r) => r.differs);
  lines.push(
    `── per-event diff: ${differing.length} of ${m.diff.length} events differ (lanes ${no.join(' | ')})`,
  );
  for (const r of differing) {
    lines.push(
      `  ${r.id}: ${r.fates.map((f, i) => fateWords(f, m.outcomes[i]!.unit)).join(' | ')}`,
    );
    r.fates.forEach((f, i) => {
      if (f.why) lines.push(`      lane ${no[i]}: ${f.why}`);
    });
  }
  return visibleControls(lines.join('\n'));
}

/** The Markdown of a compare: the first lane's report, then the Compare section. */
export function compareMarkdownDoc(
  c: ComparedRuns,
  first: string,
  hash: TraceHasher,
  level: HeadingLevel = DEFAULT_HEADING_LEVEL,
): string {
  return `${first.trimEnd()}\n\n${compareMarkdown(c, (r: Run) => hash(r.trace), level).trimEnd()}`;
}

/**
 * Build the lanes of `--compare` values beside the scenario (a lane that cannot run — its knobs
 * refused, its guarantee unavailable — among them, refused), or the first problem.
 */
export function compareLanes(
  base: ScenarioInput,
  baseTitle: string,
  values: readonly string[],
): ComparedRuns | { problem: string } {
  const lanes = builtLanes(base, baseTitle, values);
  return 'problem' in lanes ? lanes : compareBuilt(lanes);
}

/**
 * The lanes of `--compare` values beside the scenario, on the scenario's engine
 * (src/cli/scenarioEngine.ts) — a lane that cannot run (its knobs refused, its guarantee
 * unavailable) kept, not ok, to be listed as refused — or the first problem: a value that names
 * no lane, or a stream beside a batch job (or a batch job beside a stream) — one engine's runs
 * compared with the other's would be no comparison.
 */
function builtLanes(
  base: ScenarioInput,
  baseTitle: string,
  values: readonly string[],
): BatchLaneInput[] | { problem: string } {
  const lanes: BatchLaneInput[] = [];
  const first = parseScenario(base);
  if (!first.ok) return { problem: formatIssues(first.issues, '(root)') };
  lanes.push({ title: baseTitle, lane: { ok: true, input: base, scenario: first.scenario } });
  for (const v of values) {
    const l = parseLane(v, base);
    if ('problem' in l) return l;
    // A lane whose configuration Kafka or Flink would refuse (acks=1 with idempotence on) is a
    // result of the comparison, as on the page's Compare: listed as refused, with its reason,
    // beside the lanes that ran (docs/cli.md, `refused`). Nothing to compare is refused input.
    if (!l.lane.ok) {
      lanes.push(l);
      continue;
    }
    const [kind, baseKind] = [scenarioKind(l.lane.scenario), scenarioKind(first.scenario)];
    if (kind !== baseKind)
      return {
        problem: `--compare ${JSON.stringify(v)}: lane ${lanes.length + 1} is ${kindWords(kind)} and lane 1 ${kindWords(baseKind)}: lanes run on one engine, a stream's and a batch job's cannot be compared`,
      };
    lanes.push(l);
  }
  return lanes;
}

/** The runner's `--compare`: the lanes, their verdicts and the per-event diff. */
export function runCompare(
  scenario: Scenario,
  presetRef: string | undefined,
  lanes: string[],
  format: string,
  check: boolean,
  out: (s: string) => void,
  err: (s: string) => void,
  markdown: { diagram: DiagramKind; headingLevel: HeadingLevel | undefined },
): number {
  if (lanes.length > MAX_LANES - 1) {
    err(`--compare: at most ${MAX_LANES - 1} lanes beside the scenario, got ${lanes.length}`);
    return 2;
  }
  if (check || format === 'mermaid') {
    err(`${check ? '--check' : '--format mermaid'}: applies to one run, not with --compare`);
    return 2;
  }
  const built = builtLanes(scenario, presetRef ?? scenario.name, lanes);
  if ('problem' in built) {
    err(built.problem);
    return 2;
  }
  // Each refused lane on stderr too, by its `--compare` value; with fewer than two lanes able to
  // run there is nothing to compare: exit 2, as for any invalid argument.
  const refused = built.flatMap((l, i) =>
    l.lane.ok ? [] : [`--compare ${JSON.stringify(lanes[i - 1])}: ${l.lane.reason}`],
  );
  if (built.length - refused.length < 2) {
    err(refused.join('\n'));
    return 2;
  }
  for (const r of refused) err(`${r} (lane refused; the others compared)`);
  try {
    // A batch job's lanes are compared as the page's batch Compare does (./compareBatch.ts).
    if (scenarioKind(scenario) === 'batch') {
      runBatchCompare(built, presetRef, format, markdown.headingLevel, out);
      return 0;
    }
    const c = compareBuilt(built);
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
