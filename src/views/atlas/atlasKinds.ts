/**
 * The fault atlas's kind filter in the page — the CLI's `--kinds` as checkboxes: each kind of
 * placement in words (a stream's, and a batch job's own), which of them a choice ticks, and the
 * engine's "narrow them with --kinds" said as the page does it. Types only from the engine: the
 * panels' chunks carry no engine code.
 */
import type { BatchPlacementKind, PlacementKind } from '../../engine';
import type { AtlasChoice } from './atlasChoice';

/** A kind the filter offers: its name (the CLI's) and its words. */
export interface KindOption<K extends string = string> {
  kind: K;
  words: string;
}

/** Every placement kind of a stream, in the engine's order (PLACEMENT_KINDS), with its words. */
export const ATLAS_KINDS: readonly KindOption<PlacementKind>[] = [
  { kind: 'drop-request', words: 'lost requests' },
  { kind: 'drop-response', words: 'lost responses' },
  { kind: 'delay-response', words: 'late responses' },
  { kind: 'crash', words: 'crashes' },
  { kind: 'leader-failover', words: 'leader failovers' },
  { kind: 'rebalance', words: 'rebalances' },
  { kind: 'zombie', words: 'zombies' },
  { kind: 'app-resend', words: 'application re-sends' },
  { kind: 'source-duplicate', words: 'source duplicates' },
];

/**
 * Every placement kind of a batch job, in the engine's order (BATCH_PLACEMENT_KINDS): a task
 * crash, a clear and re-run of a date, a row landing late (docs/semantics/batch.md#faults).
 */
export const BATCH_ATLAS_KINDS: readonly KindOption<BatchPlacementKind>[] = [
  { kind: 'crash', words: 'task crashes' },
  { kind: 'clear', words: 'clears and re-runs' },
  { kind: 'late-row', words: 'late rows' },
];

/** The kinds of `options` the choice ticks, in their order: all when it names none. */
export function kindsTicked<K extends string>(
  options: readonly KindOption<K>[],
  choice: AtlasChoice,
): K[] {
  const ticked = choice.kinds;
  return options.map((o) => o.kind).filter((k) => ticked === undefined || ticked.includes(k));
}

/** An atlas refusal in the page's words: the page narrows by its kind checkboxes, not `--kinds`. */
export function pageRefusal(message: string): string {
  return message.replace(
    'narrow them with --kinds',
    'narrow them by unticking some of the fault kinds above',
  );
}
