/**
 * The shape of the dev/test API the page installs on `window.__deliveryLab` (under automation
 * or in dev builds only). Shared with the Playwright specs, which reach it through
 * `page.evaluate`. Plain types only, so the specs' Node project can import this file.
 */

/** Counters at the cursor (see src/views/run/at.ts `Counters`). */
export interface TestCounters {
  events: number;
  sent: number;
  sentAmount: number;
  preexistingRows: number;
  rows: number;
  duplicates: number;
  missing: number;
  doubleCounted: number;
  sum: number;
  trueSum: number;
  doubleAmount: number;
  missingAmount: number;
  processed: number;
  final: boolean;
}

/** The dev/test API. Times are virtual milliseconds. */
export interface DeliveryLabTestApi {
  /** Load a preset (`preset-id[/variant]`) or a scenario object; resolves when its run is ready. */
  load(scenario: string | object): Promise<void>;
  /** Resolves once the current run has settled (after an edit). */
  settled(): Promise<void>;
  /** Move the cursor to time t (paused) and return the counters there. */
  runTo(t: number): Promise<TestCounters>;
  /** Counters at the cursor. */
  counters(): TestCounters;
  /** The engine's totals for the run cut off at t (`stopAtMs`), computed independently. */
  engineTotalsAt(
    t: number,
  ): Promise<{ rows: number; duplicates: number; lost: number; observedSum: number } | null>;
  /** Cursor and run size. */
  cursor(): { t: number; idx: number; n: number; endTime: number };
  /** The scenario as edited (faults added by clicks included). */
  scenario(): object;
  /** The run's trace hash (identical to the engine's `traceHash`). */
  traceHash(): string;
  /** Run status: idle, running, ready, invalid, error, cancelled. */
  status(): string;
  /** Messages in flight at the cursor: entry, type, lost, event id. */
  tokens(): {
    entry: number;
    type: string;
    lost: boolean;
    event: string;
    sentAt: number;
    until: number;
  }[];
  /** Set playback speed (virtual ms per real ms) and start playing. */
  play(speed?: number): void;
}

declare global {
  interface Window {
    __deliveryLab?: DeliveryLabTestApi;
  }
}
