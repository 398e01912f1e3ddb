/** Scenario validation at the edges: limits, huge and deep values, long echoes, versions and JSON syntax. */
import { describe, expect, it, vi } from 'vitest';
import { parseScenario, parseScenarioJson, MAX_JSON_CHARS } from './validate';
import { LIMITS } from './limits';
import { base, paths } from './validateTesting';

describe('scenario validation at the limits names the field', () => {
  it('enforces the limits', () => {
    expect(paths({ ...base, name: 'x'.repeat(LIMITS.stringLength + 1) })).toEqual(['name']);
    expect(
      paths({ ...base, workload: { generate: { count: LIMITS.generatedEvents + 1 } } }),
    ).toEqual(['workload.generate.count']);
    expect(paths({ ...base, stopAtMs: LIMITS.timeMs + 1 })).toEqual(['stopAtMs']);
  });

  it('a huge number gets one message, with the field’s own limit (not also zod’s safe-integer bound)', () => {
    const r = parseScenario({ ...base, stopAtMs: 1e20 });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.issues).toEqual([
        {
          path: 'stopAtMs',
          message: `at most 7 days (${LIMITS.timeMs.toLocaleString('en-US')} ms)`,
        },
      ]);
  });

  it('a number too large for a double (JSON 1e400, -1e400) is named in words, as every type error is', () => {
    // JSON.parse reads 1e400 as Infinity and -1e400 as -Infinity; zod refuses both as not a number.
    const r = parseScenarioJson(
      '{"version":1,"name":"x","workload":{"events":[{"id":"e1","amount":1e400,"at":-1e400}]}}',
    );
    expect(r).toEqual({
      ok: false,
      issues: [
        {
          path: 'workload.events.0.amount',
          message: 'expected a number, got a number too large to represent',
        },
        {
          path: 'workload.events.0.at',
          message: 'expected a number, got a negative number too large to represent',
        },
      ],
    });
    expect(parseScenarioJson('{"version":1e400,"name":"x"}')).toEqual({
      ok: false,
      issues: [
        {
          path: 'version',
          message:
            "expected the format's version number, a whole number from 1 (current: 1); got a number too large to represent",
        },
      ],
    });
  });

  it('an array nested 5,000 deep in version is refused naming the field, not serialised into the message', () => {
    let deep: unknown = [];
    for (let i = 1; i < 5000; i++) deep = [deep];
    expect(parseScenario({ version: deep, name: 'x' })).toEqual({
      ok: false,
      issues: [
        {
          path: 'version',
          message:
            "expected the format's version number, a whole number from 1 (current: 1); got an array",
        },
      ],
    });
  });

  it('a value nested thousands deep in any field is refused naming where it starts (zod would overflow the stack)', () => {
    // Found by the CLI fuzz test: an event id {"length": [[[…5,079 deep…]]]} — zod's min-length
    // check compares the nested array with a number, and Array#toString recurses 5,079 times.
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const r = parseScenarioJson(
      `{"version":1,"name":"x","workload":{"events":[{"id":{"length":${deep(5079)}},"amount":1,"at":0}]}}`,
    );
    expect(r).toEqual({
      ok: false,
      issues: [
        {
          // The first 8 segments of the path to the 32nd level.
          path: 'workload.events.0.id.length.0.0.0…',
          message:
            'nested more than 32 levels deep (no field of a scenario is more than a few levels down)',
        },
      ],
    });
    // The same value built in memory (a share link's, the page's) is walked without recursion.
    let id: unknown = [];
    for (let i = 1; i < 5079; i++) id = [id];
    expect(
      parseScenario({ ...base, workload: { events: [{ id: { length: id }, amount: 1, at: 0 }] } }),
    ).toEqual(r);
    // A million levels (a 2 MB file): counted in the text, before JSON.parse takes seconds on it.
    const million = parseScenarioJson(`{"version":1,"name":"x","notes":${deep(999_000)}}`);
    expect(!million.ok && million.issues.map((i) => i.path)).toEqual(['notes.0.0.0.0.0.0.0…']);
    // Brackets inside strings (escaped quotes too) are text, not nesting.
    const quoted = JSON.stringify({ ...base, description: `\\"${'['.repeat(100)}` });
    expect(paths(JSON.parse(quoted))).toEqual([]);
    expect(parseScenarioJson(quoted).ok).toBe(true);
    // 32 levels are fine as far as nesting goes (the schema then says what is wrong).
    expect(paths({ ...base, notes: JSON.parse(deep(31)) as unknown })).toEqual(['notes']);
  });

  it('no message echoes more than 200 characters of the input (a long value, an unknown key, a record key)', () => {
    const long = 'k'.repeat(5000);
    const clipped = `${'k'.repeat(200)}… (5,000 characters)`;
    expect(parseScenario({ ...base, version: long })).toEqual({
      ok: false,
      issues: [
        {
          path: 'version',
          message: `expected the format's version number, a whole number from 1 (current: 1); got "${clipped}"`,
        },
      ],
    });
    // The path shows the unknown key clipped; the message does not repeat it.
    expect(parseScenario({ ...base, [long]: 1 })).toEqual({
      ok: false,
      issues: [
        {
          path: clipped,
          message:
            'unknown key (5,000 characters): not a field here (misspelt, or a field of another kind)',
        },
      ],
    });
    expect(parseScenario({ ...base, expect: { rows: { [long]: 1 } } })).toEqual({
      ok: false,
      issues: [{ path: `expect.rows.${clipped}`, message: 'invalid key: at most 200 characters' }],
    });
  });

  it('refuses versions from the future and non-objects, and reports JSON syntax errors at the root', () => {
    expect(paths({ ...base, version: 2 })).toEqual(['version']);
    expect(paths([1, 2])).toEqual(['']);
    const r = parseScenarioJson('{"version": 1,');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.issues[0]!.message).toMatch(/not valid JSON/);
    const comma = parseScenarioJson('{\n  "version": 1,\n}');
    expect(!comma.ok && comma.issues[0]!.message).toMatch(/ \(line 3 column 1\)$/);
    // V8 may quote the text: the issue stays on one line.
    const words = parseScenarioJson('not\njson');
    expect(!words.ok && words.issues[0]!.message).not.toContain('\n');
    expect(parseScenarioJson('\uFEFF  \n')).toEqual({
      ok: false,
      issues: [{ path: '', message: 'empty: expected a scenario (JSON)' }],
    });
    const big = parseScenarioJson(' '.repeat(MAX_JSON_CHARS + 1));
    // Grouped as every other count the lab prints (it said "2000001 characters (limit 2000000)").
    expect(!big.ok && big.issues[0]!.message).toBe(
      'file too large: 2,000,001 characters (limit 2,000,000)',
    );
  });

  it('names the trailing comma a hand edit left before a closing bracket, on its own line', () => {
    // V8 points at the `]` (line 4); the comma one too many is at the end of line 3.
    const list = parseScenarioJson(
      '{"version": 1, "name": "x", "workload": {"events": [\n' +
        '  {"id": "e1", "amount": 1, "at": 0}\n' +
        '  ],\n' +
        '  "faults": [{"kind": "rebalance"},\n  ]}}',
    );
    expect(!list.ok && list.issues[0]!.message).toMatch(
      /^not valid JSON: Unexpected token '\]', .* — the comma before it, on line 4, is one too many: JSON allows no trailing comma \(line 5 column 3\)$/,
    );
    const object = parseScenarioJson('{\n  "version": 1,\n}');
    expect(!object.ok && object.issues[0]!.message).toBe(
      'not valid JSON: Expected double-quoted property name in JSON at position 18 — the comma before it, on line 2, is one too many: JSON allows no trailing comma (line 3 column 1)',
    );
    // A comma that is not trailing gets no such words.
    const missing = parseScenarioJson('{"version": 1 "name": "x"}');
    expect(!missing.ok && missing.issues[0]!.message).not.toContain('comma');
  });

  it('keeps the trailing comma’s words where V8 names the line itself, as Chromium’s does', () => {
    // Chromium's V8 ends its message with "(line 3 column 1)": the page's Import and Open… lost
    // the words the CLI (Node 20's V8: "at position 18" only) gives for the same file.
    const text = '{\n  "version": 1,\n}';
    const spy = vi.spyOn(JSON, 'parse').mockImplementationOnce(() => {
      throw new SyntaxError(
        'Expected double-quoted property name in JSON at position 18 (line 3 column 1)',
      );
    });
    const r = parseScenarioJson(text);
    spy.mockRestore();
    expect(!r.ok && r.issues[0]!.message).toBe(
      'not valid JSON: Expected double-quoted property name in JSON at position 18 — the comma before it, on line 2, is one too many: JSON allows no trailing comma (line 3 column 1)',
    );
  });

  it('names a typographic quote a word processor put where JSON needs a straight one', () => {
    // “version”: the key's opening quote is “ (U+201C) at line 2, column 3 (offset 4).
    const key = parseScenarioJson('{\n  \u201Cversion\u201D: 1\n}');
    expect(!key.ok && key.issues[0]!.message).toMatch(
      /^not valid JSON: Expected .*property name.* at position 4 — \u201C is a typographic quote \(a word processor's\): JSON needs the straight quote " around each key and string \(line 2 column 3\)$/,
    );
    // A value: "name": “x” — V8 says "Unexpected token" with no position; found at line 1.
    const value = parseScenarioJson('{"version": 1, "name": \u201Cx\u201D}');
    expect(!value.ok && value.issues[0]!.message).toMatch(
      /^not valid JSON: Unexpected token .* — \u201C is a typographic quote \(a word processor's\): JSON needs the straight quote " around each key and string \(line 1 column 24\)$/,
    );
    // Inside a string they are text: “who” in a note is valid JSON.
    expect(parseScenarioJson(JSON.stringify({ ...base, name: 'say \u201Cwho\u201D' })).ok).toBe(
      true,
    );
  });

  it('refuses a key set twice in one object, naming both lines: JSON.parse would keep the last silently', () => {
    // A hand edit that adds a line above the old one: line 3 says true, line 5 still false, and
    // JSON.parse keeps false — the run would go on under the setting the edit meant to change.
    const text = [
      '{"version": 1, "name": "x", "workload": {"events": [{"id": "e1", "amount": 1, "at": 0}]},',
      ' "producer": {',
      '   "enable.idempotence": true,',
      '   "acks": "all",',
      '   "enable.idempotence": false',
      ' }}',
    ].join('\n');
    expect(parseScenarioJson(text)).toEqual({
      ok: false,
      issues: [
        {
          path: 'producer.enable.idempotence',
          message:
            'set twice in one object, at lines 3 and 5: JSON keeps only the last (false) — delete one',
        },
      ],
    });
    // Every duplicate is named, in arrays too; the same key in two objects is no duplicate.
    const two = parseScenarioJson(
      '{"version": 1, "version": 1, "name": "x", "workload": {"events": [' +
        '{"id": "e1", "amount": 1, "at": 0, "at": 5}, {"id": "e2", "amount": 1, "at": 0}]}}',
    );
    expect(!two.ok && two.issues.map((i) => i.path)).toEqual(['version', 'workload.events.0.at']);
    expect(!two.ok && two.issues[1]!.message).toBe(
      'set twice in one object, at lines 1 and 1: JSON keeps only the last (5) — delete one',
    );
  });
});
