/**
 * The kinds of fault the atlases place, one list per engine: the streaming atlas's
 * (./placements.ts, the CLI's `--kinds`) and the batch job's (../batch/explore.ts). A leaf, so
 * that the scenario format can name them (`expect.atlas.kinds`, ../scenario/semanticIssues.ts)
 * without building an atlas.
 */
export const PLACEMENT_KINDS = [
  'drop-request',
  'drop-response',
  'delay-response',
  'crash',
  'leader-failover',
  'rebalance',
  'zombie',
  'app-resend',
  'source-duplicate',
] as const;
export type PlacementKind = (typeof PLACEMENT_KINDS)[number];

/** The kinds of batch placement, simplest first (the counterexample's tie-break). */
export const BATCH_PLACEMENT_KINDS = ['crash', 'clear', 'late-row'] as const;
export type BatchPlacementKind = (typeof BATCH_PLACEMENT_KINDS)[number];
