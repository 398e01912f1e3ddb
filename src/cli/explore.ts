/**
 * `sim <scenario> --explore [--depth 1|2] [--kinds k,…] [--format json|text] [--check]`: the
 * fault atlas in the terminal — counts per outcome and per kind, the summary, and the minimal
 * counterexample as a scenario fault (JSON) with its explanation. With --check, exit 3 when any
 * trial breaks the claim (or the scenario breaks it on its own): a doc's CI can pin "this
 * configuration survives every single fault".
 */
import {
  clipEcho,
  explainCounterexample,
  notOneOf,
  explore,
  minimalCounterexample,
  BufferPool,
  OUTCOMES,
  PLACEMENT_KINDS,
  type Atlas,
  type Counterexample,
  type PlacementKind,
  type Scenario,
} from '../engine';
import { misspellingBound, nearest } from '../engine/core/editDistance';
import { heatMap, type OutcomeCounts } from '../views/atlas/heatMap';
import { noFaultNeededSentence } from '../views/atlas/heatCells';
import { suggestFix, type FixSuggestion } from '../views/atlas/fixSuggestion';
import { fixSentence } from '../views/atlas/fixSentence';
import { assembleSlices, planAtlas, runAtlasSlice } from '../views/atlas/atlasJob';
import { runTrialsInThreads, THREADED_FROM } from './atlasThreads';
import { threadEntry } from './threadEntry';
import { fixCommands, type ExploreCommand } from './exploreWithFix';

/** The atlas options of the command line, checked. */
export interface ExploreArgs {
  depth: 1 | 2;
  kinds: readonly PlacementKind[];
}

/** Parse --depth and --kinds, or say what is wrong (one line naming the option). */
export function parseExploreArgs(
  depth: string | undefined,
  kinds: string | undefined,
): ExploreArgs | { problem: string } {
  if (depth !== undefined && depth !== '1' && depth !== '2')
    return { problem: `--depth: ${notOneOf(['1', '2'], `"${clipEcho(depth)}"`)}` };
  const list = parseKinds(kinds, PLACEMENT_KINDS, '');
  if ('problem' in list) return list;
  return { depth: depth === '2' ? 2 : 1, kinds: list };
}

/** The kinds --kinds names, in `allowed` order (all when absent), or the one-line problem. */
export function parseKinds<K extends string>(
  kinds: string | undefined,
  allowed: readonly K[],
  forWhat: string,
): K[] | { problem: string } {
  if (kinds === undefined) return [...allowed];
  const names = kinds.split(',').map((k) => k.trim());
  const unknown = names.filter((k) => !(allowed as readonly string[]).includes(k));
  if (unknown.length > 0 || names.length === 0) {
    const name = unknown[0] ?? '';
    const near = nearest(name, allowed, misspellingBound);
    return {
      problem: `--kinds (a comma-separated list): ${notOneOf(allowed, `"${clipEcho(name)}"${forWhat}`, near === null ? undefined : `did you mean ${near}?`)}`,
    };
  }
  return allowed.filter((k) => names.includes(k));
}

/** The JSON report of an atlas (the contract of `--explore --format json`). */
export interface ExploreReport {
  scenario: string;
  preset?: string;
  claim: string;
  depth: 1 | 2;
  kinds: readonly string[];
  /** The scenario alone, with its own faults. */
  base: { outcome: string; duplicated: number; lost: number };
  /** Trials run (placements at depth 1, pairs at depth 2). */
  trials: number;
  placements: number;
  outcomes: OutcomeCounts;
  byKind: Record<string, OutcomeCounts>;
  summary: string;
  /**
   * The earliest, simplest trial that breaks the claim, or null when every trial held; with the
   * knobs of the claim's recipe that keep it on that fault (null: the scenario sets the recipe;
   * absent: a batch job's atlas, whose counterexamples are edits, not faults).
   */
  counterexample:
    | (BreakingTrial & {
        explanation: string[];
        /** With `commands`: the runner's commands that explore the scenario with it. */
        fix?: (FixSuggestion & { commands?: string[] }) | null;
      })
    | null;
  /**
   * Every trial that breaks the claim, in trial order (kind, then time): its faults as the
   * scenario takes them, where they strike in words, when the last strikes, and what it broke —
   * what the page's heat map lists cell by cell. Empty when every trial held.
   */
  breaking: BreakingTrial[];
}

/** A trial of the atlas, as the report gives it: the faults it adds and what they did. */
export interface BreakingTrial {
  faults: unknown[];
  labels: string[];
  timeMs: number;
  outcome: string;
  duplicated: number;
  lost: number;
}

/**
 * The atlas: on worker threads where the executable allows them (./threadEntry.ts) and it has
 * enough trials to pay for their start, on this thread otherwise — the same atlas either way.
 */
function atlasOf(
  s: Scenario,
  args: ExploreArgs,
  onProgress?: (done: number, total: number) => void,
): Atlas {
  const pool = new BufferPool();
  const threads = threadEntry();
  if (threads === null)
    return explore(s, { depth: args.depth, kinds: args.kinds, pool, onProgress });
  const plan = planAtlas(s, args.depth, args.kinds, pool);
  if ('refused' in plan) throw new Error(plan.refused);
  const slices =
    plan.trials < THREADED_FROM
      ? [runAtlasSlice(s, plan, 0, plan.trials, { pool, onProgress })]
      : runTrialsInThreads(s, plan, threads.url, threads.threads, onProgress);
  return assembleSlices(s, plan, slices);
}

/** Build the report (runs the atlas). */
export function exploreReport(
  s: Scenario,
  args: ExploreArgs,
  presetRef: string | undefined,
  /** After each run: runs done and of how many (a terminal's progress line, ./progress.ts). */
  onProgress?: (done: number, total: number) => void,
  /** How the runner was asked for it: the fix then comes with the commands that explore with it. */
  asked?: ExploreCommand,
): { report: ExploreReport; atlas: Atlas } {
  const atlas = atlasOf(s, args, onProgress);
  const map = heatMap(atlas);
  const c = minimalCounterexample(atlas);
  const fix = c ? suggestFix(s, c.faults) : null;
  const commands = fix && asked ? fixCommands(s, fix, asked) : [];
  return {
    atlas,
    report: {
      scenario: s.name,
      ...(presetRef ? { preset: presetRef } : {}),
      claim: s.claim,
      depth: atlas.depth,
      kinds: args.kinds,
      base: {
        outcome: atlas.base.outcome,
        duplicated: atlas.base.duplicated,
        lost: atlas.base.lost,
      },
      trials: atlas.trials.length,
      placements: atlas.placements.length,
      outcomes: map.totals,
      byKind: map.byKind,
      summary: map.summary,
      counterexample: c
        ? {
            ...counterexampleJson(atlas, c),
            fix: fix && commands.length > 0 ? { ...fix, commands } : fix,
          }
        : null,
      breaking: atlas.trials
        .filter((t) => t.result.outcome !== 'held')
        .map((t) => {
          const ps = t.placements.map((i) => atlas.placements[i]!);
          return {
            faults: ps.map((p) => p.fault),
            labels: ps.map((p) => p.label),
            timeMs: Math.max(...ps.map((p) => p.time)),
            outcome: t.result.outcome,
            duplicated: t.result.duplicated,
            lost: t.result.lost,
          };
        }),
    },
  };
}

function counterexampleJson(
  atlas: Atlas,
  c: Counterexample,
): Omit<NonNullable<ExploreReport['counterexample']>, 'fix'> {
  return {
    faults: c.faults,
    labels: c.labels,
    timeMs: c.time,
    outcome: c.result.outcome,
    duplicated: c.result.duplicated,
    lost: c.result.lost,
    explanation: explainCounterexample(atlas, c),
  };
}

/** The report as text. */
export function exploreText(r: ExploreReport): string {
  const lines: string[] = [];
  lines.push(`${r.scenario}${r.preset ? ` (${r.preset})` : ''} — fault atlas, depth ${r.depth}`);
  lines.push(
    `claim: ${r.claim}; the scenario alone: ${r.base.outcome}${r.base.lost ? `, ${r.base.lost} lost` : ''}${r.base.duplicated ? `, ${r.base.duplicated} duplicated` : ''}`,
  );
  lines.push('');
  lines.push(r.summary);
  lines.push('');
  lines.push(...outcomeTable(r));
  lines.push('');
  const c = r.counterexample;
  if (!c) {
    lines.push(
      r.base.outcome === 'held'
        ? `No ${r.depth === 1 ? 'single fault' : 'pair of faults'} tried breaks the ${r.claim} claim.`
        : noFaultNeededSentence(r.claim),
    );
  } else {
    // A batch job's placements are edits of its `batch` part (src/cli/exploreBatch.ts).
    const edits = c.faults.every(isEdit);
    lines.push(
      `Minimal counterexample (${c.outcome}: ${c.lost} lost, ${c.duplicated} duplicated), ${edits ? 'edit the scenario' : 'add to "faults"'}:`,
    );
    for (let i = 0; i < c.faults.length; i++) {
      const f = c.faults[i];
      lines.push(`  ${c.labels[i]}`);
      lines.push(
        isEdit(f)
          ? `  ${f.field === 'batch.source' ? 'set on its row of "batch.source"' : `add to "${f.field}"`}: ${JSON.stringify(f.value)}`
          : `  ${JSON.stringify(f)}`,
      );
    }
    for (const e of c.explanation) lines.push(`why: ${e}`);
    if (c.fix) lines.push(`fix: ${withCommands(fixSentence(c.fix), c.fix.commands)}`);
  }
  return lines.join('\n');
}

/**
 * The counts per kind and outcome as an aligned table, with the total row `all`. A pair (depth 2)
 * is counted under the kind of its later fault, where the heat map draws it (`byKind`): the column
 * says so, since the pair's earlier fault may be the one that breaks the claim.
 */
function outcomeTable(
  r: Pick<ExploreReport, 'byKind' | 'outcomes' | 'trials' | 'depth'>,
): string[] {
  const head = [r.depth === 2 ? 'later fault' : 'kind', ...OUTCOMES, 'total'];
  const rows = Object.entries(r.byKind).map(([k, c]) => [
    k,
    ...OUTCOMES.map((o) => String(c[o])),
    String(OUTCOMES.reduce((a, o) => a + c[o], 0)),
  ]);
  rows.push(['all', ...OUTCOMES.map((o) => String(r.outcomes[o])), String(r.trials)]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [fmt(head), ...rows.map(fmt)];
}

/**
 * The fix's sentence ending with the commands that explore with it ("… run the atlas with it to
 * try the others: delivery-lab pipeline.json --set acks=all --explore").
 */
export function withCommands(sentence: string, commands: readonly string[] | undefined): string {
  return commands && commands.length > 0
    ? `${sentence.replace(/\.$/, '')}: ${commands.join(', or ')}`
    : sentence;
}

/** A counterexample fault written as a scenario edit (`{ field, value }`), as batch jobs' are. */
function isEdit(f: unknown): f is { field: string; value: unknown } {
  return typeof f === 'object' && f !== null && 'field' in f && 'value' in f;
}

/** Whether the atlas shows the claim broken (what --check exits 3 on). */
export function claimBroken(r: ExploreReport): boolean {
  return r.base.outcome !== 'held' || r.counterexample !== null;
}

/**
 * What `--check` says on stderr: a placement that breaks the claim (its counterexample is in the
 * report), the scenario breaking it on its own (the report has no counterexample then: "no fault
 * needs adding"), or none.
 */
export function checkLine(r: ExploreReport): string {
  if (r.base.outcome !== 'held')
    return `check: the scenario breaks its ${r.claim} claim on its own (${r.base.outcome}), before any fault is added`;
  return r.counterexample !== null
    ? 'check: a placement breaks the claim (see the minimal counterexample)'
    : 'check: no placement breaks the claim';
}
