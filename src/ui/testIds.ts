/**
 * Test ids shared by the app and the Playwright specs (e2e/), so a renamed id breaks the
 * type-check rather than silently breaking a selector.
 */
export const testIds = {
  app: 'app',
  appHeading: 'app-heading',
  errorBoundary: 'error-boundary',
  errorReload: 'error-reload',
  // Top bar
  scenarioPicker: 'scenario-picker',
  guaranteeSwitch: 'guarantee-switch',
  guaranteeLabel: 'guarantee-label',
  seedInput: 'seed-input',
  fontSmaller: 'font-smaller',
  fontLarger: 'font-larger',
  undo: 'undo',
  redo: 'redo',
  // Transport and timeline
  play: 'play',
  stepBack: 'step-back',
  stepForward: 'step-forward',
  restart: 'restart',
  speed: 'speed',
  skipIdle: 'skip-idle',
  clock: 'clock',
  timeline: 'timeline',
  faultMarker: 'fault-marker',
  faultDetails: 'fault-details',
  faultAt: 'fault-at',
  faultDelete: 'fault-delete',
  runStatus: 'run-status',
  runCancel: 'run-cancel',
  issues: 'issues',
  // Counters and verdict
  counters: 'counters',
  counterSent: 'counter-sent',
  counterRows: 'counter-rows',
  counterDuplicates: 'counter-duplicates',
  counterMissing: 'counter-missing',
  counterSum: 'counter-sum',
  verdict: 'verdict',
  explanation: 'explanation',
  // Pipeline
  pipeline: 'pipeline',
  component: 'component',
  faultMenu: 'fault-menu',
  faultMenuItem: 'fault-menu-item',
  partitionLog: 'partition-log',
  logCell: 'log-cell',
  processor: 'processor',
  sinceCommit: 'since-commit',
  checkpointTable: 'checkpoint-table',
  batchList: 'batch-list',
  sinkTable: 'sink-table',
  sinkRow: 'sink-row',
  readerPanel: 'reader-panel',
  token: 'token',
  // Lower panels
  tabs: 'tabs',
  ledger: 'ledger',
  ledgerRow: 'ledger-row',
  knobs: 'knobs',
  knob: 'knob',
  whatThisSets: 'what-this-sets',
  eventTrace: 'event-trace',
} as const;

export type TestId = (typeof testIds)[keyof typeof testIds];
