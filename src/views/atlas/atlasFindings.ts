/**
 * What a finished fault atlas found, as the Markdown report's Fault atlas section says it
 * (./atlasMarkdown.ts): the summary (which says when the claim survives every fault, or breaks
 * with the scenario's own faults) and the earliest, simplest break. An atlas is the same on every machine (issue 23), so these are part of the
 * report as much as the run's verdict is; how long it took is not. Plain data: the report may be
 * written in a worker.
 */
import {
  breaksOf,
  type Atlas,
  type AtlasExpect,
  type FaultSpec,
  type ScenarioInput,
} from '../../engine';
import type { AtlasChoice } from './atlasChoice';
import { minimalCounterexampleOf } from './heatCells';
import { outcomeCounts, type OutcomeCounts } from './atlasSummary';

export interface AtlasFindings {
  /**
   * The scenario as written that the atlas explored: the report carries the findings only while
   * it is the one on screen (an edit since makes them another scenario's).
   */
  input: ScenarioInput;
  /** The choice it answers (./atlasChoice.ts: the kinds ticked, "Pairs too"), and no other. */
  choice: Pick<AtlasChoice, 'kinds' | 'pairs'>;
  /** The atlas's one-sentence summary, as the page shows it. */
  summary: string;
  /** The earliest, simplest break, in words, and (a stream's) the faults it adds; null when none. */
  counterexample: { words: string; faults?: readonly FaultSpec[] } | null;
  /** The scenario alone held its claim and so did every trial: "survives every fault tried". */
  survives: boolean;
  /** Trials per outcome (what `expect.atlas`'s `breaks` and `outcomes` pin); absent: not counted. */
  outcomes?: OutcomeCounts;
}

/** The findings of a stream's finished atlas (its summary from the heat map the page drew). */
export function streamAtlasFindings(
  input: ScenarioInput,
  choice: AtlasChoice,
  atlas: Atlas,
  summary: string,
): AtlasFindings {
  const c = minimalCounterexampleOf(atlas);
  return {
    input,
    choice: choiceOf(choice),
    summary,
    counterexample: c && { words: `${c.labels.join(' and ')} (${c.result})`, faults: c.faults },
    survives:
      atlas.base.outcome === 'held' && atlas.trials.every((t) => t.result.outcome === 'held'),
    outcomes: outcomeCounts(atlas.trials.map((t) => t.result.outcome)),
  };
}

/**
 * The pin of what a finished atlas found that the claim survives (`expect.atlas`,
 * docs/format.md#the-fault-atlas-in-expect: `delivery-lab check` runs the atlas again): its kinds
 * and pairs, and no trial that breaks the claim. None when one breaks it.
 */
export function survivalPin(
  found: AtlasFindings | undefined,
): { kinds?: string[]; depth?: 2; breaks: 0 } | undefined {
  if (!found?.survives) return undefined;
  const { kinds, pairs } = found.choice;
  return {
    ...(kinds ? { kinds: [...kinds] } : {}),
    ...(pairs ? { depth: 2 as const } : {}),
    breaks: 0,
  };
}

/**
 * The `expect.atlas` a scenario leaving the page for docs CI carries (the Scenario for docs CI
 * export, the Embed dialog's pin), given the block as written and what the finished atlas of
 * this scenario found (`findingsOf`). A block written for the same kinds and depth takes the
 * atlas's counts — its `breaks` and each outcome it lists — rather than pinning, as written, what
 * the page has just shown false (a pin of "breaks": 0 kept beside an atlas where 25 trials broke
 * the claim, `delivery-lab check` then failing on the file the page exported for it). A block of
 * other kinds or depth stays as written; with none, the survival pin when the claim survived.
 */
export function atlasPinFor(
  found: AtlasFindings | undefined,
  written: AtlasExpect | undefined,
): AtlasExpect | undefined {
  if (!written) return survivalPin(found);
  const n = found?.outcomes;
  if (!found || !n || (written.depth ?? 1) !== (found.choice.pairs ? 2 : 1)) return written;
  const kinds = (k: readonly string[] | undefined) => (k ? [...k].sort().join() : null);
  const explored = found.choice.kinds;
  // A block without kinds pins every kind: the atlas must have explored every kind too.
  if (kinds(written.kinds) !== kinds(explored)) return written;
  const breaks = breaksOf(n);
  const outcomes = written.outcomes
    ? Object.fromEntries(Object.keys(written.outcomes).map((o) => [o, n[o as keyof OutcomeCounts]]))
    : undefined;
  return {
    ...written,
    ...(written.breaks !== undefined || !outcomes ? { breaks } : {}),
    ...(outcomes ? { outcomes } : {}),
  };
}

/** The kinds and pairs of a choice (not whether it was explored). */
export function choiceOf(c: AtlasChoice): AtlasFindings['choice'] {
  return { ...(c.kinds ? { kinds: c.kinds } : {}), ...(c.pairs ? { pairs: true } : {}) };
}

/**
 * Whether `found` answers `choice` on `input` (the scenario as written, on screen now). The same
 * scenario by content, as the atlas panel tells it: opening Compare or ticking a kind is an undo
 * step that puts a copy of the scenario, unchanged, on screen.
 */
export function findingsOf(
  found: AtlasFindings | null,
  input: ScenarioInput,
  choice: AtlasChoice,
): AtlasFindings | undefined {
  if (!found || (found.choice.pairs ?? false) !== (choice.pairs ?? false)) return undefined;
  if (found.input !== input && JSON.stringify(found.input) !== JSON.stringify(input))
    return undefined;
  const a = found.choice.kinds;
  const b = choice.kinds;
  const same = a === b || (a !== undefined && b !== undefined && a.join() === b.join());
  return same ? found : undefined;
}
