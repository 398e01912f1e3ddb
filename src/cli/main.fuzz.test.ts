/**
 * Fuzz: mutated scenarios through the CLI's own entry point (`main`, as `npm run sim` calls it,
 * reading a file). Each case starts from a small preset or example scenario and makes one to
 * three hostile edits anywhere in it: arrays and objects nested thousands deep, numbers JSON
 * cannot hold (1e400), wrong types, prototype keys (__proto__, constructor), long strings,
 * unicode (lone surrogates too), keys removed. Whatever comes in, the CLI must end in a run
 * (exit 0, or 3 from --check) whose report's totals are finite numbers, or a refusal (exit 2)
 * whose every line names a field and echoes little of the input — never an internal error
 * (exit 1) — and Object.prototype must be as it was.
 *
 * A fixed seed keeps `npm test` reproducible; `FC_SEED=random` (or a number) explores other cases,
 * and fast-check prints the seed and the shrunk counterexample of a failure.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { clipEcho, ECHO_MAX } from '../engine';
// The presets are the CLI's own input (`sim <preset-id>`); their scenarios are the seeds here.
import { presets } from '../scenarios';
// The parts and presets the executable imports per run, all imported (main is synchronous).
import './cliTesting';
import { main } from './main';
import { loadOptionalParts, OPTIONAL_PARTS } from './optionalParts';

// The cases ask for markdown and diagrams: the parts the executable imports for them.
await loadOptionalParts(OPTIONAL_PARTS);

const seed = process.env.FC_SEED === 'random' ? undefined : Number(process.env.FC_SEED ?? 20261202);
const CASES = 2000;

const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const FILE = join(dir, 'case.json');

/** Events listed or generated: small scenarios keep each run to a few milliseconds. */
function eventCount(s: Record<string, unknown>): number {
  const w = s.workload as { events?: unknown[]; generate?: { count?: number } } | undefined;
  return w?.events?.length ?? w?.generate?.count ?? Infinity;
}

/** The scenarios mutated: every preset variant and example with at most 20 events. */
const BASES: Record<string, unknown>[] = [
  ...presets.flatMap((p) => p.variants.map((v) => v.scenario as Record<string, unknown>)),
  ...readdirSync('public/scenarios')
    .filter((f) => f.endsWith('.json'))
    .map(
      (f) =>
        JSON.parse(readFileSync(join('public/scenarios', f), 'utf8')) as Record<string, unknown>,
    ),
].filter((s) => eventCount(s) <= 20);

/**
 * A value JSON.stringify cannot write (a number beyond a double, nesting deeper than its
 * recursion) travels as a marker string, spelt out in the text afterwards.
 */
const MARK = '\u0001';
const marker = (kind: string, arg: string | number) => `${MARK}${kind}:${arg}`;
function spell(text: string): string {
  return text.replace(/"\\u0001([A-Z]+):([^"]*)"/g, (_, kind: string, arg: string) => {
    const n = Number(arg);
    if (kind === 'ARRAY') return `${'['.repeat(n)}${']'.repeat(n)}`;
    if (kind === 'OBJECT') return `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    return arg; // NUMBER: the literal as written
  });
}

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: 1, max: 6000 }).map((n) => marker('ARRAY', n)),
  fc.integer({ min: 1, max: 6000 }).map((n) => marker('OBJECT', n)),
  fc
    .constantFrom(
      '1e400',
      '-1e400',
      '1e308',
      '-1e308',
      '1e-400',
      '9007199254740993',
      '4294967296',
      '1e21',
      '-0',
      '0',
      '-1',
      '0.5',
    )
    .map((x) => marker('NUMBER', x)),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer({ min: ECHO_MAX, max: 50_000 }).map((n) => 'x'.repeat(n)),
  fc.constantFrom(true, false, null, [], {}, '', '__proto__'),
  // Values a field may well take: the mutation gets past the shape to the cross-field checks.
  fc.constantFrom('e1', 'consumer-0', 'flink', 'spark', 'exactly-once', 'table', 'kafka', 1, 0),
  fc.jsonValue({ maxDepth: 3 }),
);

const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'valueOf',
    '__defineGetter__',
    'then',
    'length',
  ),
  fc.string({ maxLength: 8 }),
  fc.integer({ min: ECHO_MAX, max: 5000 }).map((n) => 'k'.repeat(n)),
);

interface Edit {
  at: number;
  op: 'set' | 'add' | 'delete';
  key: string;
  value: unknown;
}

/** Every [container, key] in a JSON value, depth first (the root's keys first). */
function slots(root: unknown): [Record<string, unknown> | unknown[], string | number][] {
  const out: [Record<string, unknown> | unknown[], string | number][] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach((x, i) => (out.push([v, i]), walk(x)));
    else if (typeof v === 'object' && v !== null)
      for (const k of Object.keys(v)) {
        out.push([v as Record<string, unknown>, k]);
        walk((v as Record<string, unknown>)[k]);
      }
  };
  walk(root);
  return out;
}

/** An own, enumerable property, even for "__proto__" (as JSON.parse makes it). */
function define(o: object, key: string | number, value: unknown) {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The base with the edits made, as JSON text. */
function mutate(base: Record<string, unknown>, edits: Edit[]): string {
  const root = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
  for (const e of edits) {
    const all = slots(root);
    const [parent, key] = all[e.at % all.length]!;
    if (e.op === 'set') define(parent, key, e.value);
    else if (e.op === 'delete') {
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key as string];
    } else {
      const target = parent[key as never] as unknown;
      const box = typeof target === 'object' && target !== null ? target : parent;
      if (Array.isArray(box)) box.push(e.value);
      else define(box, e.key, e.value);
    }
  }
  return spell(JSON.stringify(root));
}

const caseArb = fc.record({
  base: fc.nat({ max: BASES.length - 1 }),
  edits: fc.array(
    fc.record({
      at: fc.nat(),
      op: fc.constantFrom<Edit['op']>('set', 'set', 'add', 'delete'),
      key: hostileKey,
      value: hostileValue,
    }),
    { minLength: 1, maxLength: 3 },
  ),
  args: fc.constantFrom(
    ['--format', 'json'],
    ['--format', 'json'],
    ['--format', 'json', '--check'],
    ['--format', 'text'],
    ['--format', 'markdown'],
    ['--diagram', 'flow'],
  ),
});

/** What the runtime's Object.prototype holds: names and descriptors. */
function prototypeShape(): string {
  return Object.getOwnPropertyNames(Object.prototype)
    .sort()
    .map((k) => {
      const d = Object.getOwnPropertyDescriptor(Object.prototype, k)!;
      return `${k}:${typeof d.value}:${String(d.enumerable)}:${String(d.writable)}`;
    })
    .join(',');
}

describe('fuzz: mutated scenarios through the CLI entry point', () => {
  it(`${CASES} cases: a run with finite totals, or a refusal naming a field; never an internal error`, () => {
    expect(BASES.length).toBeGreaterThan(20);
    const shape = prototypeShape();
    fc.assert(
      fc.property(caseArb, ({ base, edits, args }) => {
        const scenario = BASES[base]!;
        const text = mutate(scenario, edits);
        writeFileSync(FILE, text);
        const out: string[] = [];
        const err: string[] = [];
        // The trace limit lowered: a mutation that makes a crash loop ends in milliseconds.
        const code = main(
          [FILE, ...args],
          (s) => out.push(s),
          (s) => err.push(s),
          { maxTraceEntries: 20_000 },
        );
        const errText = err.join('\n');
        expect(errText).not.toMatch(/internal error/);
        expect([0, 2, 3]).toContain(code);
        if (code === 2) {
          expect(out).toEqual([]);
          // Each line `path: message`, the path a field of the scenario (its first part a key
          // of the file, or of the format's top level) or `(file)` for the whole of it.
          // (A long key is named clipped, as every echo is.)
          const fields = [
            '(file)',
            ...Object.keys(scenario),
            ...Object.keys(JSON.parse(text) as object),
          ].map(clipEcho);
          const lines = errText.split('\n');
          expect(lines.length).toBeGreaterThan(0);
          for (const line of lines) {
            const named = fields.some((f) => line.startsWith(`${f}: `) || line.startsWith(`${f}.`));
            expect(named, line.slice(0, 300)).toBe(true);
            // Two echoes at most (a path and a value), each clipped to ECHO_MAX characters.
            expect(line.length, line.slice(0, 300)).toBeLessThan(3 * ECHO_MAX + 400);
          }
        } else if (args[1] === 'json') {
          const report = JSON.parse(out.join('')) as { totals: Record<string, unknown> };
          for (const [k, v] of Object.entries(report.totals))
            expect(Number.isFinite(v), `totals.${k} = ${String(v)}`).toBe(true);
        } else expect(out.join('').length).toBeGreaterThan(1);
        expect(prototypeShape()).toBe(shape);
        expect(({} as Record<string, unknown>).a).toBeUndefined();
      }),
      { numRuns: CASES, ...(seed !== undefined ? { seed } : {}) },
    );
  }, 240_000);
});
