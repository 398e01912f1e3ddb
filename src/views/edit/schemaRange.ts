/**
 * A number field's range as the scenario schema gives it (src/engine/scenario/schema.ts), and a
 * fault's time judged against it. Apart from ./numberField.ts, which the lab's first screen loads
 * (the seed field): these read zod, which it does not (issue 24); the Knobs panel and the
 * validation's chunk (src/views/run/validationParts.ts) import them.
 */
import { ScenarioSchema } from '../../engine';
import { formatCountOf } from '../run/format';
import { formatBound, parseNumberIn, type NumberParse, type NumberRange } from './numberField';

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
