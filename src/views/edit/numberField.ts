/**
 * Reading a number typed by hand into a field whose range the scenario schema sets
 * (src/engine/scenario/schema.ts). The schema is the rule: `schemaRange` reads a field's bounds
 * from it, and `parseNumberIn` says, in words, why a text is not a value of that field, so the
 * field can tell the user instead of silently running something else (clamping, rounding, or
 * refusing the whole scenario). The seed field (./seed.ts) is the same rule for one field.
 */
import { ScenarioSchema } from '../../engine';
import { formatCountOf } from '../run/format';

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
 * Parse a number as typed: plain decimal digits (surrounding spaces ignored; a fraction only when
 * the range allows one), within [min, max]. An empty field, a fraction for a whole number, an
 * exponent, a value outside the range or anything else is refused with the reason
 * ("“-1” is negative", "“10.5” is not a whole number", "“99999” is more than 100").
 */
export function parseNumberIn(text: string, range: NumberRange, what = 'the value'): NumberParse {
  const t = text.trim();
  if (t === '') return { ok: false, problem: `${what} is empty` };
  const m = /^([-−+]?)\s*(\d*)(?:[.,](\d*))?$/.exec(t);
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

// ── Reading a field's range from the zod schema ─────────────────────────────────────────────

interface SchemaLike {
  shape?: Record<string, SchemaLike>;
  options?: SchemaLike[];
  element?: SchemaLike;
  unwrap?: () => SchemaLike;
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean;
  def?: { type?: string; innerType?: SchemaLike; discriminator?: string };
}

/** Strip `.default()`, `.optional()`, `.nullable()` (and the like) down to the value's schema. */
function inner(s: SchemaLike): SchemaLike {
  let cur = s;
  for (let i = 0; i < 10; i++) {
    const next = cur.def?.innerType;
    if (!next) break;
    cur = next;
  }
  return cur;
}

/** The option of a union that describes `value` (matched on its literal fields, e.g. `type`, `kind`). */
function pickOption(options: SchemaLike[], value: unknown, key: string): SchemaLike | undefined {
  const having = options.filter((o) => inner(o).shape?.[key] !== undefined);
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    const match = having.find((o) =>
      Object.entries(inner(o).shape ?? {}).every(([k, f]) => {
        const lit = (inner(f).def as { values?: unknown[] } | undefined)?.values;
        return inner(f).def?.type !== 'literal' || !lit || v[k] === undefined || lit.includes(v[k]);
      }),
    );
    if (match) return match;
  }
  return having[0];
}

/**
 * The range the scenario schema gives the number at `path` (dotted, config names with dots matched
 * greedily as `getKnob` does: `producer.max.in.flight.requests.per.connection`, `faults.0.at`), for
 * the scenario `s` (which picks the processor, sink or fault variant). Undefined if the path does
 * not lead to a number.
 */
export function schemaRange(path: string, s?: unknown): NumberRange | undefined {
  let schema: SchemaLike = ScenarioSchema as unknown as SchemaLike;
  let value: unknown = s;
  let rest = path;
  while (rest.length > 0) {
    let node = inner(schema);
    if (node.element) {
      const [index, ...more] = rest.split('.');
      if (!/^\d+$/.test(index!)) return undefined;
      schema = node.element;
      value = Array.isArray(value) ? (value as unknown[])[Number(index)] : undefined;
      rest = more.join('.');
      continue;
    }
    const key = (keys: string[]) =>
      keys
        .filter((k) => rest === k || rest.startsWith(`${k}.`))
        .sort((a, b) => b.length - a.length)[0];
    if (node.options) {
      const all = node.options.flatMap((o) => Object.keys(inner(o).shape ?? {}));
      const k = key(all);
      const picked = k === undefined ? undefined : pickOption(node.options, value, k);
      if (!picked) return undefined;
      node = inner(picked);
    }
    const k = key(Object.keys(node.shape ?? {}));
    if (k === undefined) return undefined;
    schema = node.shape![k]!;
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[k] : undefined;
    rest = rest.slice(k.length + 1);
  }
  const n = inner(schema);
  if (n.def?.type !== 'number') return undefined;
  return {
    min:
      typeof n.minValue === 'number' && Number.isFinite(n.minValue)
        ? n.minValue
        : -Number.MAX_VALUE,
    max:
      typeof n.maxValue === 'number' && Number.isFinite(n.maxValue) ? n.maxValue : Number.MAX_VALUE,
    int: n.isInt === true,
  };
}

/** A time bound in words: "0 ms", "7 days (604,800,000 ms)", "2 h (7,200,000 ms)". */
function formatTimeBound(ms: number): string {
  const DAY = 86_400_000;
  const HOUR = 3_600_000;
  if (ms >= DAY && ms % DAY === 0) {
    const d = ms / DAY;
    return `${formatCountOf(d, 'day')} (${formatBound(ms)} ms)`;
  }
  if (ms >= HOUR && ms % HOUR === 0) return `${ms / HOUR} h (${formatBound(ms)} ms)`;
  return `${formatBound(ms)} ms`;
}

/**
 * A time typed into a field of a fault (`at`, "armed from"), judged against the schema's range for
 * that fault: the value, or the sentence to show beside the field
 * ("armed from must be between 0 ms and 7 days (604,800,000 ms): “99999999999” is more than …").
 */
export function parseFaultTime(
  text: string,
  path: string,
  scenario: unknown,
  label: string,
): NumberParse {
  const range = schemaRange(path, scenario) ?? { min: 0, max: Number.MAX_SAFE_INTEGER, int: true };
  const r = parseNumberIn(text, range, label);
  if (r.ok) return r;
  return {
    ok: false,
    problem: `${label} must be between ${formatTimeBound(range.min)} and ${formatTimeBound(range.max)}${range.int ? ', a whole number' : ''}: ${r.problem}`,
  };
}
