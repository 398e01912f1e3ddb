/** Test ids of the fault atlas panel (e2e/atlas.spec.ts). */
export const atlasTestIds = {
  panel: 'atlas',
  explore: 'atlas-explore',
  pairs: 'atlas-pairs',
  kinds: 'atlas-kinds',
  offer: 'atlas-offer',
  progress: 'atlas-progress',
  timeLeft: 'atlas-time-left',
  cancel: 'atlas-cancel',
  cancelled: 'atlas-cancelled',
  /** The live region: the start, the progress every 10 s, the summary at the end, a cancel. */
  said: 'atlas-said',
  summary: 'atlas-summary',
  /** The provisional summary while the atlas runs ("So far: …"). */
  soFar: 'atlas-so-far',
  legend: 'atlas-legend',
  grid: 'atlas-grid',
  cell: 'atlas-cell',
  cellTrials: 'atlas-cell-trials',
  openTrial: 'atlas-open-trial',
  compareTrial: 'atlas-compare-trial',
  counterexample: 'atlas-counterexample',
  counterexampleSoFar: 'atlas-counterexample-so-far',
  survives: 'atlas-survives',
  noFaultNeeded: 'atlas-no-fault-needed',
  error: 'atlas-error',
  speed: 'atlas-speed',
  fix: 'atlas-fix',
  fixCompare: 'atlas-fix-compare',
  /** "Explore with acks=all": the knob set, the atlas run again. */
  fixExplore: 'atlas-fix-explore',
} as const;
