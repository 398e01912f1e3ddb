/**
 * Test ids of Compare, shared by the app and the Playwright specs (kept apart from the page's
 * src/ui/testIds.ts: Compare's own file).
 */
export const compareTestIds = {
  /** The "Compare" toggle beside Share. */
  toggle: 'compare-toggle',
  panel: 'compare-panel',
  close: 'compare-close',
  addLane: 'compare-add-lane',
  /** A lane's column (data-lane = its number from 1, data-trace-hash). */
  lane: 'compare-lane',
  laneTitle: 'compare-lane-title',
  laneGuarantee: 'compare-lane-guarantee',
  laneKnob: 'compare-lane-knob',
  laneKnobsMore: 'compare-lane-knobs-more',
  laneKnobValue: 'compare-lane-knob-value',
  laneKnobSet: 'compare-lane-knob-set',
  laneRemove: 'compare-lane-remove',
  /** A lane's "From files…": its configuration from the engineer's own files. */
  laneFromFiles: 'compare-lane-from-files',
  /** Its hidden file input (Playwright sets files on it). */
  laneFiles: 'compare-lane-files',
  /** Files refused, naming each file's line: the lanes unchanged. */
  laneFilesRefused: 'compare-lane-files-refused',
  /** Why a lane has no run (an unavailable guarantee, a refused knob). */
  laneRefused: 'compare-lane-refused',
  laneUnfired: 'compare-lane-unfired',
  laneCounters: 'compare-lane-counters',
  laneVerdict: 'compare-lane-verdict',
  /** A lane's verdict folded until the shared clock reaches the lane's end (or Reveal now). */
  laneVerdictFolded: 'compare-lane-verdict-folded',
  laneTable: 'compare-lane-table',
  laneRow: 'compare-lane-row',
  diff: 'compare-diff',
  diffRow: 'compare-diff-row',
  knobs: 'compare-knobs',
  divergence: 'compare-divergence',
} as const;
