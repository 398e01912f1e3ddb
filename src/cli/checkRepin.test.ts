/**
 * `delivery-lab check` after a mismatch says how to accept what the run shows now: the pin with
 * the same fields, each one that differs at the run's value, written where the pin lives (an
 * `expect` attribute, a sidecar file, beside a scenario hash, a scenario file's block) — and that
 * pin, pasted, passes.
 *
 * The numbers, by each scenario's own hand-derived `expect`: at-least-once/default ends with 24
 * rows, 4 duplicates (p-4, p-5, p-7 twice and one more), sum $2,320, observed at-least-once
 * (src/views/edit/pinExpect.test.ts); lost-ack-retry/acks-1 with 11 rows, 1 duplicate, sum 580,
 * the topic events 11 rows; docs/format.md's two-event example with 3 rows, 1 duplicate (e1
 * twice), 0 lost, sum 40, observed at-least-once.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseScenario, type Scenario } from '../engine';
import { findPreset } from '../scenarios';
import { encodeShare } from '../views/io/shareLink';
import { checkRun } from './cliTesting';
import { pinJson } from './repin';

const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-check-repin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string) => relative('.', join(dir, name));

const check = (argv: string[]) => checkRun(argv);

/** docs/format.md's example: e1's ack lost, idempotence off, 3 rows for 2 events. */
const twoEvents = (expectBlock: object | undefined) => ({
  version: 1,
  name: 'Lost ack, no idempotence: a duplicate row',
  seed: 1,
  claim: 'at-least-once',
  workload: {
    topic: 'payments',
    events: [
      { id: 'e1', amount: 10, at: 0 },
      { id: 'e2', amount: 20, at: 10 },
    ],
  },
  producer: {
    'enable.idempotence': false,
    'max.in.flight.requests.per.connection': 1,
    'request.timeout.ms': 1000,
    'linger.ms': 0,
  },
  processor: {
    type: 'consumer',
    'enable.auto.commit': false,
    'auto.offset.reset': 'earliest',
    startAtMs: 5000,
  },
  sink: { type: 'table', name: 'payments' },
  faults: [{ id: 'lost ack', kind: 'drop-response', link: 'produce', match: { event: 'e1' } }],
  ...(expectBlock ? { expect: expectBlock } : {}),
});

/** A scenario as a share link carries it (parsed, its defaults filled in). */
const parsed = (input: object): Scenario => {
  const r = parseScenario(input);
  if (!r.ok) throw new Error('invalid');
  return r.scenario;
};

const ACKS1 = findPreset('lost-ack-retry/acks-1')!.variant.scenario;
// The preset's scenario in a link whose block says 10 rows, and names a reader it has not.
const STALE_HASH = encodeShare({
  ...ACKS1,
  expect: {
    totals: { rows: 10 },
    points: { 'log:events': { totals: { rows: 10 } }, 'reader:nope': { totals: { rows: 1 } } },
  },
});

describe('check: a mismatch comes with the pin that holds now', { timeout: 60_000 }, () => {
  writeFileSync(join(dir, 'two.scenario.json'), JSON.stringify(twoEvents({ totals: { rows: 2 } })));
  writeFileSync(join(dir, 'dups.expect.json'), '{"totals": {"duplicates": 0}}');
  const page = join(dir, 'page.html');
  writeFileSync(
    page,
    [
      '<p>Intro</p>', //                                                              1
      '<delivery-lab-embed preset="at-least-once/default"', //                        2
      `  expect='{"totals": {"rows": 22, "duplicates": 2, "sum": 2300}, "rows": {"p-4": 1, "p-99": 1}, "observed": "exactly-once"}'>`,
      '</delivery-lab-embed>',
      `<iframe src="/lab/?embed#${STALE_HASH}" title="lab"></iframe>`, //             5
      `<delivery-lab-embed scenario-hash="${encodeShare(parsed(twoEvents(undefined)))}"`, //  6
      '  expect-file="two.scenario.json"></delivery-lab-embed>', //                 7
      '<delivery-lab-embed preset="lost-ack-retry/acks-1" expect-file="dups.expect.json"></delivery-lab-embed>', // 8
    ].join('\n'),
  );
  const shown = at('page.html');

  it('each failed embed: the differences, then the pin to accept, where it lives', () => {
    const r = check([shown]);
    expect(r.lines).toEqual([
      `✗ ${shown}:2 (<delivery-lab-embed>, preset at-least-once/default, pinned by expect)`,
      `    ${shown}:3: expect mismatch: totals.rows: expected 22, got 24`,
      `    ${shown}:3: expect mismatch: totals.duplicates: expected 2, got 4`,
      `    ${shown}:3: expect mismatch: totals.sum: expected 2300, got 2320`,
      `    ${shown}:3: expect mismatch: rows.p-4: expected 1, got 2`,
      `    ${shown}:3: expect mismatch: rows.p-99: expected 1, got no such event`,
      `    ${shown}:3: expect mismatch: observed: expected exactly-once, got at-least-once`,
      // p-99 is no event of the run: left out, no run could pin it.
      `    ${shown}:3: to accept what the run shows now: expect='{"totals":{"rows":24,"duplicates":4,"sum":2320},"rows":{"p-4":2},"observed":"at-least-once"}'`,
      `✗ ${shown}:5 (iframe, scenario “A lost acknowledgement, retried — acks=1”, pinned by its scenario hash)`,
      `    ${shown}:5: expect mismatch: totals.rows: expected 10, got 11`,
      `    ${shown}:5: expect mismatch: points.log:events.totals.rows: expected 10, got 11`,
      `    ${shown}:5: expect mismatch: points.reader:nope: expected an observation point, got none (points: log:events, processed, sink)`,
      `    ${shown}:5: to accept what the run shows now: add data-expect='{"totals":{"rows":11},"points":{"log:events":{"totals":{"rows":11}}}}' (it wins over the block the scenario hash carries)`,
      `✗ ${shown}:6 (<delivery-lab-embed>, scenario “Lost ack, no idempotence: a duplicate row”, pinned by two.scenario.json)`,
      `    ${shown}:7: expect mismatch: totals.rows: expected 2, got 3`,
      `    ${shown}:7: to accept what the run shows now: set the "expect" block of ${at('two.scenario.json')} to {"totals":{"rows":3}}`,
      `✗ ${shown}:8 (<delivery-lab-embed>, preset lost-ack-retry/acks-1, pinned by dups.expect.json)`,
      `    ${shown}:8: expect mismatch: totals.duplicates: expected 0, got 1`,
      `    ${shown}:8: to accept what the run shows now: write {"totals":{"duplicates":1}} to ${at('dups.expect.json')}`,
      'check: 4 scenarios: 0 passed, 4 failed, 0 malformed',
    ]);
    expect(r.code).toBe(3);
  });

  it('the pin it gives, pasted into the page, passes', () => {
    const text = readFileSync(page, 'utf8').split('\n');
    const fixed = join(dir, 'fixed.html');
    writeFileSync(
      fixed,
      [
        text[1],
        `  expect='{"totals":{"rows":24,"duplicates":4,"sum":2320},"rows":{"p-4":2},"observed":"at-least-once"}'>`,
        text[3],
        text[4]!.replace(
          '></iframe>',
          ` data-expect='{"totals":{"rows":11},"points":{"log:events":{"totals":{"rows":11}}}}'></iframe>`,
        ),
      ].join('\n'),
    );
    const r = check([at('fixed.html')]);
    expect(r.lines.at(-1)).toBe('check: 2 scenarios: 2 passed, 0 failed, 0 malformed');
    expect(r.code).toBe(0);
  });

  it('a scenario file: its block with the run’s values; without one, the block to add', () => {
    writeFileSync(
      join(dir, 'wrong.json'),
      JSON.stringify(twoEvents({ totals: { rows: 2, lost: 0 }, rows: { e1: 1 } }), null, 2),
    );
    writeFileSync(join(dir, 'bare.json'), JSON.stringify(twoEvents(undefined), null, 2));
    const r = check([at('wrong.json'), at('bare.json')]);
    // Line 47: the "expect" key of the file JSON.stringify(…, null, 2) wrote (its 46 lines before).
    expect(readFileSync(join(dir, 'wrong.json'), 'utf8').split('\n')[46]).toBe('  "expect": {');
    const wrongLine = r.lines.findIndex((l) => l.startsWith(`✗ ${at('wrong.json')}`));
    expect(r.lines.slice(wrongLine + 3, wrongLine + 4)).toEqual([
      `    ${at('wrong.json')}:47: to accept what the run shows now: set its "expect" block to {"totals":{"rows":3,"lost":0},"rows":{"e1":2}}`,
    ]);
    expect(r.lines).toContain(
      `    ${at('bare.json')}:1: to accept what the run shows now: add "expect": {"totals":{"rows":3,"duplicates":1,"lost":0,"sum":40},"observed":"at-least-once"}`,
    );
    expect(r.code).toBe(3);
  });

  it('JUnit: the failure holds the pin to accept too', () => {
    const report = join(dir, 'report.xml');
    check([at('wrong.json'), '--reporter', 'junit', '--output', report]);
    expect(readFileSync(report, 'utf8')).toContain(
      'to accept what the run shows now: set its &quot;expect&quot; block to {&quot;totals&quot;:{&quot;rows&quot;:3,&quot;lost&quot;:0},&quot;rows&quot;:{&quot;e1&quot;:2}}</failure>',
    );
  });

  it("an id with a quote or an ampersand stays inside expect='…' and reads back the same", () => {
    const json = pinJson({ rows: { "it's": 1, 'a&b': 2 } });
    expect(json).toBe('{"rows":{"it\\u0027s":1,"a\\u0026b":2}}');
    expect(json).not.toMatch(/['&]/);
    expect(JSON.parse(json)).toEqual({ rows: { "it's": 1, 'a&b': 2 } });
  });
});
