/**
 * The fault atlas's kind filter in the page — the CLI's `--kinds` as checkboxes: each kind of
 * placement in words, and the engine's "narrow them with --kinds" said as the page does it.
 * Types only from the engine: the panel's chunk carries no engine code.
 */
import type { PlacementKind } from '../../engine';

/** Every placement kind, in the engine's order (PLACEMENT_KINDS), with its words. */
export const ATLAS_KINDS: readonly { kind: PlacementKind; words: string }[] = [
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

/** The kinds ticked, in the engine's order; all when `off` is empty. */
export function kindsTicked(off: ReadonlySet<PlacementKind>): PlacementKind[] {
  return ATLAS_KINDS.map((k) => k.kind).filter((k) => !off.has(k));
}

/** An atlas refusal in the page's words: the page narrows by its kind checkboxes, not `--kinds`. */
export function pageRefusal(message: string): string {
  return message.replace(
    'narrow them with --kinds',
    'narrow them by unticking some of the fault kinds above',
  );
}
