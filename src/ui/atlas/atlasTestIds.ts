/** Test ids of the fault atlas panel (e2e/atlas.spec.ts). */
export const atlasTestIds = {
  panel: 'atlas',
  explore: 'atlas-explore',
  pairs: 'atlas-pairs',
  progress: 'atlas-progress',
  cancel: 'atlas-cancel',
  summary: 'atlas-summary',
  legend: 'atlas-legend',
  grid: 'atlas-grid',
  cell: 'atlas-cell',
  cellTrials: 'atlas-cell-trials',
  openTrial: 'atlas-open-trial',
  compareTrial: 'atlas-compare-trial',
  counterexample: 'atlas-counterexample',
  survives: 'atlas-survives',
  error: 'atlas-error',
  speed: 'atlas-speed',
} as const;
