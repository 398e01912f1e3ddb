/**
 * A scenario's knobs by dotted path (`processor.enable.auto.commit`): read one, or set one in a
 * copy, splitting dotted config names by the keys the schema allows.
 */
import {
  BrokerSchema,
  ProcessorSchema,
  ProducerSchema,
  ReaderSchema,
  ScenarioSchema,
  SinkSchema,
} from '../engine';

/** Read a knob by dotted path (config names with dots are matched greedily: `processor.enable.auto.commit`). */
export function getKnob(s: unknown, path: string): unknown {
  let cur: unknown = s;
  let rest = path;
  while (rest.length > 0) {
    if (cur === null || typeof cur !== 'object') return undefined;
    const obj = cur as Record<string, unknown>;
    // Longest key of obj that is a prefix of rest (followed by '.' or the end).
    const key = Object.keys(obj)
      .filter((k) => rest === k || rest.startsWith(`${k}.`))
      .sort((a, b) => b.length - a.length)[0];
    if (key === undefined) {
      const first = rest.split('.')[0]!;
      if (rest === first) return obj[first];
      return undefined;
    }
    cur = obj[key];
    rest = rest.slice(key.length + 1);
  }
  return cur;
}

/**
 * A copy of `s` with the knob at `path` set (undefined removes it). Unknown intermediate objects
 * are created; one the schema fills in as a discriminated union when it is left out (`processor`,
 * `sink`) is created with the discriminator of that default (`type: "consumer"`, `"table"`), so
 * the scenario keeps meaning what it meant, plus the one knob — `{ "max.poll.records": 7 }`
 * alone is refused for want of a type.
 */
export function setKnob<T>(
  s: T,
  path: string,
  value: unknown,
  schemaKeys: (prefix: string) => string[] = knownKeys,
): T {
  const root = structuredClone(s) as Record<string, unknown>;
  let cur = root;
  let rest = path;
  let prefix = '';
  const keys: string[] = [];
  for (;;) {
    const candidates = [...Object.keys(cur), ...schemaKeys(prefix)].filter(
      (k) => rest === k || rest.startsWith(`${k}.`),
    );
    const key = candidates.sort((a, b) => b.length - a.length)[0] ?? rest.split('.')[0]!;
    if (rest === key) {
      if (value === undefined) delete cur[key];
      else cur[key] = value;
      return root as T;
    }
    const next = cur[key];
    keys.push(key);
    let child: Record<string, unknown>;
    if (next !== null && typeof next === 'object') child = next as Record<string, unknown>;
    else {
      const tag = next === undefined ? defaultDiscriminator(keys) : undefined;
      child = tag ? { [tag[0]]: tag[1] } : {};
    }
    cur[key] = child;
    cur = child;
    rest = rest.slice(key.length + 1);
    prefix = prefix ? `${prefix}.${key}` : key;
  }
}

interface SchemaNode {
  shape?: Record<string, SchemaNode>;
  def?: { type?: string; innerType?: SchemaNode; discriminator?: string };
  safeParse?(v: unknown): { success: boolean; data?: unknown };
}

/**
 * The discriminator the schema's default gives the object at `keys` when it is left out
 * (`['processor']` → `['type', 'consumer']`, `['sink']` → `['type', 'table']`), or undefined when
 * that object is no defaulted discriminated union. The scenario's other unions (a fault's `kind`,
 * a random fault's `what`) have no default, so there is nothing to fill in for them.
 */
function defaultDiscriminator(keys: readonly string[]): [string, unknown] | undefined {
  const unwrap = (n: SchemaNode | undefined) => {
    while (n?.def?.innerType) n = n.def.innerType;
    return n;
  };
  let node: SchemaNode | undefined = ScenarioSchema as unknown as SchemaNode;
  for (const k of keys) node = unwrap(node)?.shape?.[k];
  const d = unwrap(node)?.def?.discriminator;
  if (!node || d === undefined) return undefined;
  const parsed = node.safeParse?.(undefined);
  const data = parsed?.success ? (parsed.data as Record<string, unknown> | undefined) : undefined;
  return data && d in data ? [d, data[d]] : undefined;
}

/** The keys the schema allows in the object at `prefix` (so `setKnob` can split dotted config names). */
function knownKeys(prefix: string): string[] {
  const keysOf = (o: unknown): string[] => Object.keys((o as { shape?: object }).shape ?? {});
  switch (prefix) {
    case 'producer':
      return keysOf(ProducerSchema);
    case 'producer.app':
      return keysOf((ProducerSchema.shape.app as unknown as { unwrap(): unknown }).unwrap());
    case 'broker':
      return keysOf(BrokerSchema);
    case 'processor':
      return ProcessorSchema.options.flatMap(keysOf);
    case 'sink':
      return SinkSchema.options.flatMap(keysOf);
    default:
      return /^readers\.\d+$/.test(prefix) ? keysOf(ReaderSchema) : [];
  }
}
