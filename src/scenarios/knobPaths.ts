/**
 * A scenario's knobs by dotted path (`processor.enable.auto.commit`): read one, or set one in a
 * copy, splitting dotted config names by the keys the schema allows.
 */
import { DEFAULT_DISCRIMINATORS, READER_KEYS, SCHEMA_KEYS } from './knobSchemaKeys';

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

/**
 * The discriminator the schema's default gives the object at `keys` when it is left out
 * (`['processor']` → `['type', 'consumer']`, `['sink']` → `['type', 'table']`), or undefined when
 * that object is no defaulted discriminated union (./knobSchemaKeys.ts, pinned to the schema).
 */
function defaultDiscriminator(keys: readonly string[]): [string, unknown] | undefined {
  const path = keys.join('.');
  const tag = Object.hasOwn(DEFAULT_DISCRIMINATORS, path)
    ? DEFAULT_DISCRIMINATORS[path]
    : undefined;
  return tag ? [tag[0], tag[1]] : undefined;
}

/** The keys the schema allows in the object at `prefix` (so `setKnob` can split dotted config names). */
function knownKeys(prefix: string): string[] {
  if (/^readers\.\d+$/.test(prefix)) return [...READER_KEYS];
  return Object.hasOwn(SCHEMA_KEYS, prefix) ? [...SCHEMA_KEYS[prefix]!] : [];
}
