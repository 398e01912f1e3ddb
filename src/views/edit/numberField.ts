/**
 * Reading a number typed by hand into a field whose range the scenario schema sets
 * (src/engine/scenario/schema.ts). The schema is the rule: `schemaRange` reads a field's bounds
 * from it, and `parseNumberIn` says, in words, why a text is not a value of that field, so the
 * field can tell the user instead of silently running something else (clamping, rounding, or
 * refusing the whole scenario). The seed field (./seed.ts) is the same rule for one field. The
 * schema's ranges are read apart, in ./schemaRange.ts: this module is on the lab's first load
 * (the seed field), zod is not (issue 24).
 */

/** What a field accepts: a number in [min, max], whole if `int`. */
export interface NumberRange {
  min: number;
  max: number;
  int: boolean;
}

/** A number read from a text, or why there is none (`problem` is a short clause). */
export type NumberParse = { ok: true; value: number } | { ok: false; problem: string };

/** Shortens what the user typed for quoting it back. */
function quote(text: string): string {
  return `“${text.length > 16 ? `${text.slice(0, 15)}…` : text}”`;
}

/** A number as the messages print it: `604,800,000`. */
export function formatBound(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 6 });
}

/**
 * Parse a number as typed: plain decimal digits, or grouped by commas as the lab prints them
 * (surrounding spaces ignored; a fraction only when the range allows one), within [min, max]. An empty field, a fraction for a whole number, an
 * exponent, a value outside the range or anything else is refused with the reason
 * ("“-1” is negative", "“10.5” is not a whole number", "“99999” is more than 100").
 */
export function parseNumberIn(text: string, range: NumberRange, what = 'the value'): NumberParse {
  const t = text.trim();
  if (t === '') return { ok: false, problem: `${what} is empty` };
  // Digits grouped in threes by commas, as the lab prints numbers (formatBound, "armed at
  // 840,000 ms"): the commas group, they are no decimal comma — copied back from the page,
  // "840,000" read as 840 armed a fault a thousand times earlier than the text said.
  const grouped = /^[-−+]?\s*\d{1,3}(?:,\d{3})+(?:\.\d*)?$/.test(t);
  const m = /^([-−+]?)\s*(\d*)(?:[.,](\d*))?$/.exec(grouped ? t.replace(/,/g, '') : t);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) {
    // 1e12 is a number, written in a way the field does not take: say so, with the digits.
    if (/^[-−+]?\d+(?:\.\d+)?e[-+]?\d+$/i.test(t) && Number.isFinite(Number(t.replace('−', '-'))))
      return {
        ok: false,
        problem: `${quote(t)} has an exponent: write it in digits (${formatBound(Number(t.replace('−', '-')))})`,
      };
    return { ok: false, problem: `${quote(t)} is not a number` };
  }
  const negative = m[1] === '-' || m[1] === '−';
  const frac = m[3] ?? '';
  const hasFraction = /[1-9]/.test(frac);
  if (negative && range.min >= 0 && ((m[2] !== '' && /[1-9]/.test(m[2]!)) || hasFraction)) {
    return { ok: false, problem: `${quote(t)} is negative` };
  }
  if (hasFraction && range.int) return { ok: false, problem: `${quote(t)} is not a whole number` };
  const digits = m[2]!.replace(/^0+(?=\d)/, '') || '0';
  // Compare as digits first: a long string would lose precision as a number.
  const magnitude =
    digits.length > String(Math.trunc(Math.abs(range.max))).length + 1
      ? Infinity
      : Number(`${digits}${frac ? `.${frac}` : ''}`);
  const value = negative ? -magnitude : magnitude;
  if (value > range.max) {
    return { ok: false, problem: `${quote(t)} is more than ${formatBound(range.max)}` };
  }
  if (value < range.min) {
    return { ok: false, problem: `${quote(t)} is less than ${formatBound(range.min)}` };
  }
  return { ok: true, value: Object.is(value, -0) ? 0 : value };
}

/** The range in words: "a whole number from 0 to 2,147,483,647". */
export function rangeRule(range: NumberRange, unit?: string): string {
  const u = unit ? ` ${unit}` : '';
  return `${range.int ? 'a whole number' : 'a number'} from ${formatBound(range.min)}${u} to ${formatBound(range.max)}${u}`;
}
