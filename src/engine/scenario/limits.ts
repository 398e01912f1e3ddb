/**
 * Hard limits of a scenario. They are part of the schema, so a huge or hostile file is refused
 * with a message that names the field instead of freezing a tab.
 */
export const LIMITS = {
  /** Events listed one by one in `workload.events`. */
  explicitEvents: 10_000,
  /** Events made by `workload.generate`. */
  generatedEvents: 2_000_000,
  /** Any virtual time or duration, in ms: 7 days, safely below 2^31 so times fit an Int32. */
  timeMs: 7 * 24 * 3600 * 1000,
  /** Entries in `faults`. */
  faults: 1_000,
  /** Any name, id or key. */
  stringLength: 200,
  /** Free text (description, notes). */
  textLength: 4_000,
  partitions: 64,
  brokers: 9,
  instances: 8,
  readers: 4,
  initialRows: 1_000,
  /**
   * Levels of arrays and objects, counted from the scenario itself. Its deepest field is a few
   * levels down (`expect.points.<name>.totals.rows`); a value nested thousands deep is refused
   * before the schema reads it (zod and String() recurse into it and overflow the stack).
   */
  nesting: 32,
  /**
   * Trace entries of one run. A valid scenario can keep a run busy without end until its stop
   * time (a crash before every commit, restarted at once, for 7 days): the run is cut off here,
   * with a note, instead of filling the memory. The largest workload (2,000,000 generated events)
   * takes about 6.5 million entries.
   */
  traceEntries: 10_000_000,
} as const;

/**
 * Largest JSON text accepted (bytes of UTF-16 code units): a scenario is a small description.
 * Here, not in ./validate.ts: a share link's codec reads it without zod (issue 24).
 */
export const MAX_JSON_CHARS = 2_000_000;
