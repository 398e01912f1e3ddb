/**
 * What a finished fault atlas found, as the Markdown report's Fault atlas section says it
 * (./atlasMarkdown.ts): the summary (which says when the claim survives every fault, or breaks
 * with the scenario's own faults) and the earliest, simplest break. An atlas is the same on every machine (issue 23), so these are part of the
 * report as much as the run's verdict is; how long it took is not. Plain data: the report may be
 * written in a worker.
 */
import type { Atlas, FaultSpec, ScenarioInput } from '../../engine';
import type { AtlasChoice } from './atlasChoice';
import { minimalCounterexampleOf } from './heatCells';

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

/** The kinds and pairs of a choice (not whether it was explored). */
export function choiceOf(c: AtlasChoice): AtlasFindings['choice'] {
  return { ...(c.kinds ? { kinds: c.kinds } : {}), ...(c.pairs ? { pairs: true } : {}) };
}

/** Whether `found` answers `choice` on `input` (the scenario as written, on screen now). */
export function findingsOf(
  found: AtlasFindings | null,
  input: ScenarioInput,
  choice: AtlasChoice,
): AtlasFindings | undefined {
  if (!found || found.input !== input || (found.choice.pairs ?? false) !== (choice.pairs ?? false))
    return undefined;
  const a = found.choice.kinds;
  const b = choice.kinds;
  const same = a === b || (a !== undefined && b !== undefined && a.join() === b.join());
  return same ? found : undefined;
}
