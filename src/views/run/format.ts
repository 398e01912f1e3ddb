/** Number, money and time formatting for the panels (one locale, so screenshots and tests agree). */

import { groupDigits } from '../../engine';

// Written by hand as en-US writes them (format.test.ts checks every one against Intl): the first
// Intl number format or plural rules a page makes loads the locale data, ~20–70 ms of its main
// thread that the embed's first paint paid for its first count (issue 31, scripts/embed-trace.ts).
// A money amount with more than two decimals is left to Intl, which rounds it.
let money: Intl.NumberFormat | undefined;
const moneyFormat = () => (money ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }));

/** `n` rounded to a whole number as Intl rounds it: half away from zero, the sign kept (-0.4 → -0). */
const roundHalfExpand = (n: number) => Math.sign(n) * Math.round(Math.abs(n));

/** "2nd", "21st": the engine's, for the pipeline's copy marks. */
export { ordinal } from '../../engine';

/** Input quoted in a message, at most 200 characters: the engine's, for platform/ and ui/. */
export { clipEcho } from '../../engine';

/** The table sink's statement as its SQL shape: the engine's, for the sink's box. */
export { sqlShape } from '../../engine';

/**
 * The number a person sees for trace entry `i` (0-based inside the engine and in the exported
 * trace file): 1-based, as the clock counts — "event 44 / 120" is the 44th engine event applied,
 * trace entry 43. The status line, the Event trace tab and the timeline all say this number.
 */
export function entryNumber(i: number): number {
  return i + 1;
}

/**
 * The number a person sees for sink or reader row `row` (0-based row id in the engine, the
 * 'row-insert' entry's `aux`): 1-based, as the row tables' `#` column counts them.
 */
export function rowNumber(row: number): number {
  return row + 1;
}

/** 12,345 */
export function formatCount(n: number): string {
  return groupDigits(roundHalfExpand(n));
}

/**
 * The words for a count of `n` in the number English gives it: `one` for 1 as shown (rounded to
 * a whole number: "0 records", "2 records" for 1.5), else `many` — Intl.PluralRules' 'one' and 'other' categories
 * (https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Intl/PluralRules).
 * For the words a count agrees with: "knob differs" / "knobs differ".
 */
export function pluralOf(n: number, one: string, many = `${one}s`): string {
  // Rounded as formatCount rounds, so that the noun agrees with the number shown ("1 day" for 0.6).
  return Math.round(Math.abs(n)) === 1 ? one : many;
}

/** "1 record", "2 records", "1,000 rows": a count with its noun in the right number. */
export function formatCountOf(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${pluralOf(n, one, many)}`;
}

/** $2,320 (amounts are the workload's currency units; the dashboard writes them in dollars). */
export function formatMoney(x: number): string {
  const a = Math.abs(x);
  const cents = /^\d+(\.\d{1,2})?$/.test(String(a));
  return `${x < 0 ? '−' : ''}$${cents ? groupDigits(a) : moneyFormat().format(a)}`;
}

/**
 * A report's error in words a reader says aloud: "$190 short" when it reports less than the truth,
 * "$190 over" when more (a signed "off by −$190" read as a riddle). `reported - truth` is the error.
 */
export function moneyOffWords(reported: number, truth: number): string {
  const d = reported - truth;
  return `${formatMoney(Math.abs(d))} ${d < 0 ? 'short' : 'over'}`;
}

/**
 * Virtual time: "850 ms", "41.150 s", "5 min 01.006 s", "1 h 02 min" — minutes from one minute on,
 * so a long run's timeline does not put "2974.092 s" beside "1 h 33 min".
 */
export function formatMs(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 1000) return `${Math.floor(t)} ms`;
  if (t < 60_000) return `${(t / 1000).toFixed(3)} s`;
  if (t < 3_600_000) {
    const m = Math.floor(t / 60_000);
    return `${m} min ${((t % 60_000) / 1000).toFixed(3).padStart(6, '0')} s`;
  }
  const h = Math.floor(t / 3_600_000);
  const m = Math.floor((t % 3_600_000) / 60_000);
  return `${h} h ${String(m).padStart(2, '0')} min`;
}

/** A duration for knob defaults and tooltips: "30 s", "24 h", "1.5 s", "500 ms". */
export function formatDuration(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms >= 1000) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/** A size in bytes as Flink's web UI writes checkpoint sizes: "48 B", "3.1 KB", "1.2 MB" (1 KB = 1,024 B). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${Math.max(0, Math.round(n))} B`;
  if (n < 1024 * 1024) return `${Number((n / 1024).toFixed(1))} KB`;
  return `${Number((n / 1024 / 1024).toFixed(1))} MB`;
}

/** How long a stretch of real time is, for the speed's tooltip: "100 ms", "2.5 s", "1.7 min". */
export function formatPlayTime(ms: number): string {
  if (ms < 1000) return `${Number(ms.toPrecision(2))} ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toPrecision(2))} s`;
  return `${Number((ms / 60_000).toPrecision(2))} min`;
}

/**
 * The speed in words, for the slider's screen-reader value and its tooltip: how long one second
 * of the run takes to play, "×2: one second of the run plays in 500 ms" — true at every speed,
 * where "one virtual millisecond takes N real ms" rounded ×2's half a millisecond to 1 and ×10's
 * tenth to 0.
 * @param speed - virtual ms per real ms.
 */
export function formatSpeedWords(speed: number): string {
  return `${formatSpeed(speed)}: one second of the run plays in ${formatPlayTime(1000 / speed)}`;
}

/**
 * The speed as the transport shows it beside its slider: "1 s in 1.3 min" — one second of the run
 * plays in that much real time. Words a room reads at the projector, where the factor ("×0.013",
 * then explained only in a tooltip) meant nothing; short for the playback's one row at 1280×720.
 * @param speed - virtual ms per real ms.
 */
export function formatSpeedShown(speed: number): string {
  return `1 s in ${formatPlayTime(1000 / speed)}`;
}

/** Playback speed: "×0.02", "×1", "×250" (virtual ms per real ms). */
export function formatSpeed(speed: number): string {
  if (speed >= 10) return `×${Math.round(speed)}`;
  if (speed >= 1) return `×${Number(speed.toFixed(1))}`;
  return `×${Number(speed.toPrecision(2))}`;
}
