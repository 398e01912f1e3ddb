/**
 * The CLI's contract, in-process: exit codes (0 ran · 1 internal · 2 invalid · 3 --check
 * mismatch), the JSON report's fields, and the mermaid and markdown formats.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseScenario, parseScenarioJson, simulate, traceHash } from '../engine';
import type { ScenarioInput } from '../engine';
import { findPreset, labPresets } from '../scenarios';
import { encodeShare } from '../views/io/shareLink';
import { withCompareParam } from '../views/compare/compareLink';
import { withAtlasParam } from '../views/atlas/atlasLink';
import {
  eventSequenceDiagram,
  runSequenceDiagram,
  topologyFlowchart,
} from '../views/diagrams/mermaid';
import { main, nodeTraceHash } from './main';
import { captured } from './cliTesting';

const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Run the CLI in-process; returns the exit code and what it printed. */
const cli = (argv: string[]) => captured(main, argv, { join: '', trimEnd: true });

/** Write a scenario file in the test's temporary directory. */
function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const EXAMPLE = 'public/scenarios/lost-ack-duplicate.json';
const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Record<string, unknown>;

function exampleRun() {
  const parsed = parseScenarioJson(readFileSync(EXAMPLE, 'utf8'));
  if (!parsed.ok) throw new Error('example invalid');
  return simulate(parsed.scenario);
}

describe('exit 0: it ran', () => {
  it("prints the engine's trace hash, digested natively: the same string as traceHash", () => {
    const run = exampleRun();
    expect(JSON.parse(cli([EXAMPLE, '--format', 'json']).out).traceHash).toBe(traceHash(run.trace));
    // A long trace with several actors and topics (columns well past one hash block).
    const p = parseScenario(
      findPreset('flink-checkpoint-replay/2pc-read-committed')!.variant.scenario,
    );
    if (!p.ok) throw new Error('preset invalid');
    const flink = simulate(p.scenario);
    expect(nodeTraceHash(flink.trace)).toBe(traceHash(flink.trace));
  });

  it('--format json prints the contract object', () => {
    const r = cli([EXAMPLE, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const report = JSON.parse(r.out) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(
      expect.arrayContaining(['scenario', 'seed', 'traceHash', 'events', 'totals', 'guarantee']),
    );
    expect(report.traceHash).toMatch(/^[0-9a-f]{64}$/);
    expect(report.totals).toMatchObject({ events: 2, sinkRows: 3, duplicates: 1, lost: 0 });
    expect(report.events).toEqual([
      expect.objectContaining({ id: 'e1', sinkRows: 2, fate: 'duplicated' }),
      expect.objectContaining({ id: 'e2', sinkRows: 1, fate: 'once' }),
    ]);
    expect(report.guarantee).toMatchObject({
      claimed: 'at-least-once',
      observed: 'at-least-once',
      held: true,
    });
  });

  it('--format text is the default', () => {
    const r = cli([EXAMPLE]);
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toBe('Lost ack, no idempotence: a duplicate row');
  });

  it('--format mermaid prints the whole run, the topology or one event', () => {
    const run = exampleRun();
    const seq = cli([EXAMPLE, '--format', 'mermaid']);
    expect(seq.code).toBe(0);
    expect(seq.out).toBe(runSequenceDiagram(run).trimEnd());
    expect(cli([EXAMPLE, '--format', 'mermaid', '--diagram', 'sequence']).out).toBe(seq.out);
    expect(cli([EXAMPLE, '--format', 'mermaid', '--diagram', 'flow']).out).toBe(
      topologyFlowchart(run.scenario).trimEnd(),
    );
    expect(cli([EXAMPLE, '--format', 'mermaid', '--diagram', 'event:e1']).out).toBe(
      eventSequenceDiagram(run, 'e1')!.trimEnd(),
    );
  });

  it('--format markdown prints the report with the diagram in a mermaid block', () => {
    const r = cli([EXAMPLE, '--format', 'markdown', '--diagram', 'event:e1']);
    expect(r.code).toBe(0);
    // An H2 title by default, its sections H3 (src/views/io/markdown.ts).
    expect(r.out.startsWith('## Lost ack, no idempotence: a duplicate row\n')).toBe(true);
    expect(r.out).toContain(
      'Claimed **at-least-once**, observed **at-least-once** at sink table payments',
    );
    expect(r.out).toContain('### Causal chain of e1\n\n```mermaid\nsequenceDiagram\n');
    expect(r.out.endsWith('```')).toBe(true);
  });

  it('--format markdown --heading-level: 1 gives an H1 title, 2 by default; the Compare follows', () => {
    const h1 = cli([EXAMPLE, '--format', 'markdown', '--heading-level', '1']);
    expect(h1.code).toBe(0);
    expect(h1.out.match(/^#+ .*$/gm)).toEqual([
      '# Lost ack, no idempotence: a duplicate row',
      '## Verdict',
      '## Counts',
      '## Why',
      '## Knobs',
      '## Faults',
      '## The first anomaly, from its cause',
    ]);
    const byDefault = cli([EXAMPLE, '--format', 'markdown']);
    expect(byDefault.out).toBe(cli([EXAMPLE, '--format', 'markdown', '--heading-level', '2']).out);
    expect(byDefault.out.match(/^#+ /gm)!.map((h) => h.length - 1)).toEqual([2, 3, 3, 3, 3, 3, 3]);
    // With --compare, the Compare section is a section of the report: one level below its title.
    const compared = cli([
      EXAMPLE,
      '--format',
      'markdown',
      '--heading-level',
      '3',
      '--compare',
      'exactly-once',
    ]);
    expect(compared.code).toBe(0);
    expect(compared.out.match(/^#+ (Lost ack|Compare|What differs).*$/gm)).toEqual([
      '### Lost ack, no idempotence: a duplicate row',
      '#### Compare',
      '##### What differs',
    ]);
  });

  it('--format markdown names the preset it ran', () => {
    const r = cli(['at-least-once', '--format', 'markdown']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('preset `at-least-once/default`');
  });

  it('--check passes when the run matches the expect block', () => {
    const r = cli([EXAMPLE, '--check', '--format', 'json']);
    expect(r.err).toBe('check: the run matches the "expect" block');
    expect(r.code).toBe(0);
  });

  it('reads a share link: the same run as the file it carries, expect block included', () => {
    const scenario = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as ScenarioInput;
    const link = `https://example.org/lab/#${encodeShare(scenario)}&t=1200`;
    const fromLink = cli([link, '--check', '--format', 'json']);
    expect(fromLink.code).toBe(0);
    expect(fromLink.err).toBe('check: the run matches the "expect" block');
    const fromFile = cli([EXAMPLE, '--format', 'json']);
    expect(JSON.parse(fromLink.out).traceHash).toBe(JSON.parse(fromFile.out).traceHash);
    // A damaged link is refused as a link, exit 2.
    expect(cli(['#s=1.@@@'])).toMatchObject({ code: 2 });
    expect(cli(['#s=1.@@@']).err).toMatch(/^share link: /);
  });

  // The page's Share writes Compare's lanes (c=) and the fault atlas's choice (a=) beside the
  // scenario (docs/page.md). The runner runs the scenario alone: it ran it without a word, so the
  // link of "my configuration beside exactly-once" printed one lane as if it were all.
  it("says what else a share link carries, Compare's lanes and the atlas, and the options that run them", () => {
    const scenario = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as ScenarioInput;
    const lanes = withCompareParam(encodeShare(scenario), {
      lanes: [{ guarantee: 'exactly-once' }, { knobs: [{ path: 'producer.acks', value: 'all' }] }],
    });
    const link = `https://example.org/lab/#${withAtlasParam(lanes, { kinds: ['crash', 'leader-failover'], pairs: true, explored: true })}`;
    const r = cli([link]);
    expect(r.code).toBe(0);
    expect(r.err).toBe(
      [
        "note: the link also carries Compare's lanes (c=), which this run leaves out: add --compare 'exactly-once' --compare 'producer.acks=all' to run them",
        "note: the link also carries the fault atlas's choice (a=), which this run leaves out: add --explore --kinds crash,leader-failover --depth 2 to run it",
      ].join('\n'),
    );
    // Given, the options say it already: no note.
    expect(cli([link, '--compare', 'exactly-once']).err).not.toMatch(/Compare's lanes/);
  });

  it('reads a page link naming a preset (?preset=…, as an embed of a preset is written)', () => {
    const fromLink = cli([
      'https://docs.example/lab/?embed&preset=lost-ack-retry/acks-1',
      '--format',
      'json',
    ]);
    const fromId = cli(['lost-ack-retry/acks-1', '--format', 'json']);
    expect(fromLink.code).toBe(0);
    expect(JSON.parse(fromLink.out).traceHash).toBe(JSON.parse(fromId.out).traceHash);
    expect(cli(['https://docs.example/lab/?embed'])).toEqual({
      code: 2,
      out: '',
      err: "https://docs.example/lab/?embed: a page link carries a scenario ('#s=…') or a preset ('?preset=…'); this one has neither",
    });
    // The query alone, and a share parameter pasted without its '#', are read too.
    expect(
      JSON.parse(cli(['?embed&preset=lost-ack-retry/acks-1', '--format', 'json']).out).traceHash,
    ).toBe(JSON.parse(fromId.out).traceHash);
    const scenario = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as ScenarioInput;
    expect(cli([encodeShare(scenario), '--check']).code).toBe(0);
    expect(cli(['https://docs.example/lab/?preset=nope']).err).toMatch(
      /^the link's preset "nope" is not a preset/,
    );
  });
});

describe('exit 2: invalid input, one line per problem naming the field', () => {
  it('a scenario with several problems', () => {
    const path = file('bad.json', {
      ...example,
      seed: -1,
      producer: { acks: 'sometimes' },
      workload: { topic: 'payments', events: [{ id: 'e1', amount: 'ten', at: 0 }] },
    });
    const r = cli([path, '--format', 'json']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    const lines = r.err.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => l.split(':')[0])).toEqual(
      expect.arrayContaining(['seed', 'producer.acks', 'workload.events.0.amount']),
    );
  });

  it('a cross-field problem (a fault aimed at a component that does not exist)', () => {
    const path = file('target.json', {
      ...example,
      faults: [{ kind: 'crash', target: 'consumer-7' }],
    });
    const r = cli([path]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^faults\.0\.target: no component "consumer-7"/);
  });

  it('an array nested 5,000 deep in version: refused naming the field (no stack overflow), echoes clipped', () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const r = cli([file('deep.json', `{"version":${deep},"name":"x"}`)]);
    expect(r).toMatchObject({
      code: 2,
      err: 'version.0.0.0.0.0.0.0…: nested more than 32 levels deep (no field of a scenario is more than a few levels down)',
    });
    // An argument is echoed as the scenario's fields are: its first 200 characters and its length.
    const long = cli(['--format', 'k'.repeat(5000), EXAMPLE]);
    expect(long).toMatchObject({
      code: 2,
      err: `--format: expected json, text, mermaid, markdown or sql, got "${'k'.repeat(200)}… (5,000 characters)"`,
    });
  });

  it('not JSON, a 100 KB name, no such file', () => {
    expect(cli([file('syntax.json', '{"version": 1,')]).code).toBe(2);
    const long = cli([file('long.json', { ...example, name: 'x'.repeat(100_000) })]);
    expect(long).toMatchObject({
      code: 2,
      err: 'name: at most 200 characters',
    });
    const missing = cli([join(dir, 'missing.json')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('no scenario file or preset named');
  });

  it('bad options', () => {
    expect(cli([EXAMPLE, '--format', 'yaml'])).toMatchObject({
      code: 2,
      err: '--format: expected json, text, mermaid, markdown or sql, got "yaml"',
    });
    expect(cli([EXAMPLE, '--format', 'mermaid', '--diagram', 'gantt'])).toMatchObject({
      code: 2,
      err: '--diagram: expected sequence, flow or event:<business id>, got "gantt"',
    });
    expect(cli([EXAMPLE, '--format', 'mermaid', '--diagram', 'event:p-404'])).toMatchObject({
      code: 2,
      err: '--diagram: no business event "p-404" in the workload',
    });
    for (const bad of ['0', '5', 'h2'])
      expect(cli([EXAMPLE, '--format', 'markdown', '--heading-level', bad])).toMatchObject({
        code: 2,
        err: `--heading-level: expected 1, 2, 3 or 4, got "${bad}"`,
      });
    expect(cli([EXAMPLE, '--format', 'text', '--heading-level', '1'])).toMatchObject({
      code: 2,
      err: '--heading-level: applies to --format markdown',
    });
    expect(cli([EXAMPLE, '--format', 'json', '--diagram', 'flow'])).toMatchObject({
      code: 2,
      err: '--diagram: applies to --format mermaid or markdown',
    });
    // --diagram without --format asks for the diagram: mermaid.
    const flow = cli([EXAMPLE, '--diagram', 'flow']);
    expect(flow.code).toBe(0);
    expect(flow.out).toMatch(/^flowchart LR/);
    expect(cli([EXAMPLE, '--seed', 'x']).code).toBe(2);
    expect(cli([EXAMPLE, '--bogus']).code).toBe(2);
    expect(cli([]).code).toBe(2);
  });

  it('--seed: a negative, fractional or empty value gets the same message as a word', () => {
    for (const args of [
      ['--seed', '-1'],
      ['--seed=-1'],
      ['--seed', '1.5'],
      ['--seed', 'abc'],
      ['--seed='],
      ['--seed', '4294967296'],
      ['--seed', '1e3'],
    ]) {
      const value = args.length === 2 ? args[1] : args[0]!.slice('--seed='.length);
      expect(cli([EXAMPLE, ...args])).toEqual({
        code: 2,
        out: '',
        err: `--seed: expected an integer from 0 to 4294967295, got "${value}"`,
      });
    }
    expect(cli([EXAMPLE, '--seed', '4294967295', '--format', 'json']).code).toBe(0);
  });

  it('argument problems Node would word its own way: one line naming it, and where the usage is', () => {
    // The packed bin's usage first: a project that installed the tarball has no `npm run sim`.
    const see =
      'see the usage: delivery-lab --help (in this repository: npm run --silent sim -- --help)';
    expect(cli([EXAMPLE, '--bogus'])).toEqual({
      code: 2,
      out: '',
      err: `unknown option --bogus\n${see}`,
    });
    // A misspelt option: the one it probably meant.
    expect(cli([EXAMPLE, '--chek'])).toMatchObject({
      code: 2,
      err: `unknown option --chek — did you mean --check?\n${see}`,
    });
    expect(cli([EXAMPLE, '--explor', '--depht=2'])).toMatchObject({
      code: 2,
      err: `unknown option --explor — did you mean --explore?\n${see}`,
    });
    expect(cli([EXAMPLE, '-z'])).toMatchObject({ code: 2, err: `unknown option -z\n${see}` });
    expect(cli([EXAMPLE, '--check=yes'])).toMatchObject({
      code: 2,
      err: `--check: takes no value, got "yes"\n${see}`,
    });
    expect(cli([EXAMPLE, '--seed'])).toMatchObject({
      code: 2,
      err: `--seed: expected a value\n${see}`,
    });
    expect(cli([EXAMPLE, 'at-least-once'])).toMatchObject({
      code: 2,
      err: `unexpected argument "at-least-once": give one scenario file or preset id\n${see}`,
    });
    // A lane's second knob outside its quotes: the shell split `--compare enable.idempotence=true
    // acks=all` in two, and "give one scenario file" named neither the lane nor the quoting.
    expect(cli([EXAMPLE, '--compare', 'enable.idempotence=true', 'acks=all'])).toMatchObject({
      code: 2,
      err: `unexpected argument "acks=all": a lane's knobs go in one argument, quoted: --compare 'enable.idempotence=true acks=all'\n${see}`,
    });
    // An option given twice: which one counts would be a guess.
    expect(cli([EXAMPLE, '--seed', '5', '--seed=6'])).toEqual({
      code: 2,
      out: '',
      err: `--seed: given more than once\n${see}`,
    });
    expect(cli(['--list', 'extra'])).toEqual({
      code: 2,
      out: '',
      err: '--list: takes no scenario, got "extra"',
    });
    // After `--`, a dash starts a file name, not an option.
    expect(cli(['--', '--bogus.json'])).toMatchObject({
      code: 2,
      err: 'no scenario file or preset named "--bogus.json" (see --list)',
    });
  });

  it('--list prints every preset the runner opens, the batch jobs after the streaming ones', () => {
    const r = cli(['--list']);
    expect(r.code).toBe(0);
    const ids = r.out.trimEnd().split('\n');
    // Every variant of the library (labPresets: streaming, then batch), one a line, each runnable.
    expect(ids).toEqual(labPresets.flatMap((p) => p.variants.map((v) => `${p.id}/${v.id}`)));
    expect(ids.indexOf('at-least-once/default')).toBeLessThan(
      ids.indexOf('airflow-retry-append/append'),
    );
    for (const id of ['airflow-retry-append/append', 'clear-rerun-window/pinned-overwrite'])
      expect(ids).toContain(id);
    // By hand: redis-claim-order has 3 variants (src/scenarios/library).
    expect(ids.filter((i) => i.startsWith('redis-claim-order/'))).toEqual([
      'redis-claim-order/claim-then-write',
      'redis-claim-order/write-then-claim',
      'redis-claim-order/one-transaction',
    ]);
  });

  it('a mistyped preset id gets the near ones: a variant that does not exist, or ids containing it', () => {
    expect(cli(['lost-ack-retry/nope'])).toMatchObject({
      code: 2,
      err: 'no scenario file or preset named "lost-ack-retry/nope"; the preset "lost-ack-retry" has variants idempotence-off, idempotence-on, acks-1, retries-0 (see --list)',
    });
    expect(cli(['lost-ack'])).toMatchObject({
      code: 2,
      err: 'no scenario file or preset named "lost-ack"; did you mean lost-ack-retry/idempotence-off, lost-ack-retry/idempotence-on, lost-ack-retry/acks-1, lost-ack-retry/retries-0 (see --list)',
    });
  });

  it('an empty file and a JSON syntax error are worded as the page words them', () => {
    expect(cli([file('empty.json', '')])).toEqual({
      code: 2,
      out: '',
      err: '(file): empty: expected a scenario (JSON)',
    });
    expect(cli([file('blank.json', '\uFEFF \n')])).toMatchObject({
      code: 2,
      err: '(file): empty: expected a scenario (JSON)',
    });
    // A syntax error names the file, its line and column, as an editor takes it (it said
    // "(file): not valid JSON: …" before, and nothing of where for an unfinished file).
    const comma = file('comma.json', '{\n,}');
    expect(cli([comma])).toEqual({
      code: 2,
      out: '',
      err: `${comma}:2:1: not valid JSON: Expected property name or '}' in JSON at position 2`,
    });
    const unfinished = file('unfinished.json', '{"version":1,"workload":\n');
    expect(cli([unfinished])).toEqual({
      code: 2,
      out: '',
      err: `${unfinished}:1:25: not valid JSON: Unexpected end of JSON input`,
    });
    // V8 gives no position for "Unexpected token" (a stray bracket, a misspelt `true`): the
    // place is found all the same (it printed the bare file name, without line or column).
    const stray = file('stray.json', '{"version": 1,\n "workload": {"events": [}\n}');
    expect(cli([stray])).toMatchObject({
      code: 2,
      err: expect.stringMatching(
        new RegExp(`^${stray}:2:26: not valid JSON: Unexpected token '}'`),
      ),
    });
    const misspelt = file('misspelt.json', '{"version": 1,\n  "x": tru }');
    expect(cli([misspelt]).err).toMatch(
      new RegExp(`^${misspelt}:2:11: not valid JSON: Unexpected token`),
    );
  });
});

describe('exit 3: --check found a difference', () => {
  it('prints each difference', () => {
    const path = file('mismatch.json', {
      ...example,
      expect: { totals: { rows: 99, duplicates: 1 }, rows: { e1: 1 } },
    });
    const r = cli([path, '--check', '--format', 'json']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.out)).toMatchObject({ totals: { sinkRows: 3 } });
    // lost-ack-duplicate.json: 3 rows for 2 events, e1 twice — the same fields, the run's values.
    expect(r.err.split('\n')).toEqual([
      'expect mismatch: totals.rows: expected 99, got 3',
      'expect mismatch: rows.e1: expected 1, got 2',
      'to accept what the run shows now: set its "expect" block to {"totals":{"rows":3,"duplicates":1},"rows":{"e1":2}}',
    ]);
  });

  it('a scenario without an expect block: the block to add, from the run', () => {
    const { expect: _omit, ...bare } = example;
    const r = cli([file('bare.json', bare), '--check']);
    expect(r.code).toBe(3);
    expect(r.err.split('\n')).toEqual([
      '--check: the scenario has no "expect" block',
      'to accept what the run shows now: add "expect": {"totals":{"rows":3,"duplicates":1,"lost":0,"sum":40},"observed":"at-least-once"}',
    ]);
  });

  it('a share link: the differences only (a link is not edited: the page makes a new one)', () => {
    const parsed = parseScenario({ ...example, expect: { totals: { rows: 99 } } });
    if (!parsed.ok) throw new Error('invalid');
    const r = cli([`#${encodeShare(parsed.scenario)}`, '--check']);
    expect(r.code).toBe(3);
    expect(r.err).toBe('expect mismatch: totals.rows: expected 99, got 3');
  });
});
