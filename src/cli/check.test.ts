// @vitest-environment jsdom
// (for DOMParser: the JUnit report is parsed as XML)
/**
 * `delivery-lab check`, in-process: the summary line and exit codes (0 all match · 2 malformed ·
 * 3 a mismatch), directories and globs, the JUnit report (parsed as XML, counts checked) and the
 * GitHub annotations.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRun } from './cliTesting';

const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// public/scenarios/lost-ack-duplicate.json: by hand (its description) 3 rows, 1 duplicate, sum 40.
const passing = readFileSync('public/scenarios/lost-ack-duplicate.json', 'utf8');
// The same scenario expecting no duplicate: the run still has one (rows 3, not 2).
const failingScenario = JSON.parse(passing) as { expect: { totals: Record<string, number> } };
failingScenario.expect.totals = { ...failingScenario.expect.totals, rows: 2, duplicates: 0 };
const failing = JSON.stringify(failingScenario, null, 2);

mkdirSync(join(dir, 'docs', 'deep'), { recursive: true });
writeFileSync(join(dir, 'docs', 'pass.json'), passing);
writeFileSync(join(dir, 'docs', 'deep', 'fail.json'), failing);
// Found by a directory walk, no scenario: passed over.
writeFileSync(join(dir, 'docs', 'package.json'), '{"name": "x"}');
writeFileSync(
  join(dir, 'malformed.json'),
  '{"version": 1, "name": "m", "workload": {"topic": "t", "events": [{"id": "e1", "amount": "ten", "at": 0}]}}',
);

const check = checkRun;
/** A path as GitHub's workflow commands escape a property. */
const escaped = (f: string) => f.replace(/:/g, '%3A').replace(/,/g, '%2C');

describe('delivery-lab check', { timeout: 60_000 }, () => {
  it('exit 0 when every scenario matches its expect block', () => {
    const r = check([join(dir, 'docs', 'pass.json')]);
    expect(r.code).toBe(0);
    expect(r.out.split('\n').at(-1)).toBe('check: 1 scenario: 1 passed, 0 failed, 0 malformed');
  });

  it('a directory: every scenario under it (package.json passed over); a mismatch exits 3 and names the field', () => {
    const r = check([join(dir, 'docs')]);
    expect(r.code).toBe(3);
    expect(r.out).toContain('expect mismatch: totals.rows: expected 2, got 3');
    expect(r.out.split('\n').at(-1)).toBe('check: 2 scenarios: 1 passed, 1 failed, 0 malformed');
  });

  it('a copy of the lab’s build under the docs (/lab/embed.js, as docs/embed.md hosts it) is passed over, and said so; named, it is checked', () => {
    // docs/ as an MkDocs site has it: a page, and the lab's dist/ copied to docs/lab/ so that
    // /lab/embed.js is served beside the pages. The build's example scenarios (one made to fail
    // here) are the lab's, not the site's pins: they were checked, counted and could fail it.
    const site = join(dir, 'site');
    mkdirSync(join(site, 'lab', 'scenarios'), { recursive: true });
    writeFileSync(join(site, 'pass.json'), passing);
    for (const f of ['index.html', 'embed.js', 'scenario.schema.json'])
      writeFileSync(join(site, 'lab', f), f.endsWith('.json') ? '{}' : '');
    writeFileSync(join(site, 'lab', 'scenarios', 'example.json'), failing);
    const r = check([site]);
    expect(r.out.split('\n')).toEqual([
      `✓ ${join(site, 'pass.json')} (Lost ack, no idempotence: a duplicate row)`,
      'check: 1 scenario: 1 passed, 0 failed, 0 malformed',
    ]);
    expect(r.err).toBe(
      `check: passed over ${join(site, 'lab')}/, a copy of the lab's build (embed.js, scenario.schema.json): its example scenarios are the lab's, not your pages' (name the folder to check it)`,
    );
    expect(r.code).toBe(0);
    // Named, the folder is checked: its example fails.
    expect(check([join(site, 'lab')]).code).toBe(3);
  });

  it('a glob: ** across folders', () => {
    const r = check([`${dir}/**/fail.json`]);
    expect(r.code).toBe(3);
    expect(r.out.split('\n').at(-1)).toBe('check: 1 scenario: 0 passed, 1 failed, 0 malformed');
  });

  it('a malformed file exits 2, naming the file and the field', () => {
    const r = check([join(dir, 'malformed.json'), join(dir, 'docs', 'pass.json')]);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(
      /malformed\.json:1: workload\.events\.0\.amount: expected a number, got a string/,
    );
    expect(r.out.split('\n').at(-1)).toBe('check: 2 scenarios: 1 passed, 0 failed, 1 malformed');
  });

  it("a malformed file: every problem at its own field's line, and one annotation each", () => {
    // public/scenarios/lost-ack-duplicate.json pretty-printed, two fields broken far apart
    // (the lines are counted in the text, not by the code under test).
    const s = JSON.parse(passing) as {
      producer: Record<string, unknown>;
      processor: Record<string, unknown>;
    };
    s.producer = { ...s.producer, acks: 'two' };
    s.processor = { ...s.processor, 'max.poll.records': -5 };
    const text = JSON.stringify(s, null, 2);
    const lineOf = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
    const [acks, records] = [lineOf('"acks": "two"'), lineOf('"max.poll.records": -5')];
    expect(records - acks).toBeGreaterThan(2);
    const file = join(dir, 'two-problems.json');
    writeFileSync(file, text);
    const r = check([file], { GITHUB_ACTIONS: 'true' });
    expect(r.code).toBe(2);
    const problems = r.out.split('\n').filter((l) => l.startsWith('    '));
    expect(problems).toEqual([
      `    ${file}:${acks}: producer.acks: expected "0", "1", "all" or "-1", got "two"`,
      `    ${file}:${records}: processor.max.poll.records: at least 1`,
    ]);
    const annotations = r.out.split('\n').filter((l) => l.startsWith('::error'));
    expect(annotations.map((a) => /line=(\d+)/.exec(a)![1])).toEqual([`${acks}`, `${records}`]);
  });

  it('a JSON syntax error, in a scenario or a lesson file: at the line the parser names, with its column', () => {
    // Line 4, column 17 (position 31 + 16 = 47): the "b" where a comma after "one" belongs (counted
    // by hand in the text below).
    const text = [
      '{',
      '  "version": 1,',
      '  "steps": [',
      '    {"a": "one" "b": 2}',
      '  ]',
      '}',
    ].join('\n');
    const file = join(dir, 'syntax.json');
    writeFileSync(file, text);
    const r = check([file], { GITHUB_ACTIONS: 'true' });
    expect(r.code).toBe(2);
    const problems = r.out.split('\n').filter((l) => l.startsWith('    '));
    expect(problems).toEqual([
      `    ${file}:4: column 17: not valid JSON: Expected ',' or '}' after property value in JSON at position 47`,
    ]);
    expect(r.out).toMatch(/::error file=[^,]*syntax\.json,line=4/);
  });

  it('a path given absolute is shown absolute, a relative one as given (text and JUnit file=)', () => {
    // The tester's case: an absolute path under /tmp was printed ../../../tmp/…/fail.json.
    const file = join(dir, 'docs', 'deep', 'fail.json');
    const report = join(dir, 'paths.xml');
    const abs = check([file, '--reporter', 'junit', '--output', report]);
    expect(abs.out.split('\n')[0]).toBe(`✗ ${file} (Lost ack, no idempotence: a duplicate row)`);
    expect(abs.out).toContain(`    ${file}:`);
    const doc = new DOMParser().parseFromString(readFileSync(report, 'utf8'), 'application/xml');
    expect(doc.getElementsByTagName('testcase')[0]!.getAttribute('file')).toBe(file);
    // A relative path (the repository's own scenario) is printed relative, as typed.
    const rel = check(['public/scenarios/lost-ack-duplicate.json']);
    expect(rel.out.split('\n')[0]).toMatch(/^✓ public\/scenarios\/lost-ack-duplicate\.json /);
  });

  it('--reporter junit --output: valid XML with the right counts', () => {
    const report = join(dir, 'report.xml');
    const r = check([
      join(dir, 'docs'),
      join(dir, 'malformed.json'),
      '--reporter',
      'junit',
      '--output',
      report,
    ]);
    expect(r.code).toBe(2);
    const doc = new DOMParser().parseFromString(readFileSync(report, 'utf8'), 'application/xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    const suite = doc.getElementsByTagName('testsuite')[0]!;
    // pass.json passed, fail.json failed, malformed.json an error: 3 tests.
    expect(['tests', 'failures', 'errors'].map((a) => suite.getAttribute(a))).toEqual([
      '3',
      '1',
      '1',
    ]);
    expect(doc.getElementsByTagName('testcase')).toHaveLength(3);
    expect(doc.getElementsByTagName('failure')[0]!.getAttribute('message')).toBe(
      'expect mismatch: totals.rows: expected 2, got 3',
    );
  });

  it("GITHUB_ACTIONS set: an ::error annotation per mismatch, at its field's line in the expect block", () => {
    const file = join(dir, 'docs', 'deep', 'fail.json');
    const lines = failing.split('\n');
    const expectAt = lines.findIndex((l) => l.includes('"expect"'));
    // The block's "rows": 2 and "duplicates": 0, under the file's "expect" (the run: 3 and 1).
    const at = (field: string) => lines.findIndex((l, i) => i > expectAt && l.includes(field)) + 1;
    const r = check([file], { GITHUB_ACTIONS: 'true' });
    // Workflow-command escaping: ':' and ',' only in properties; the message keeps its colons.
    const annotations = r.out.split('\n').filter((l) => l.startsWith('::error'));
    expect(annotations).toEqual([
      `::error file=${escaped(file)},line=${at('"rows": 2')},title=delivery-lab%3A expect mismatch::expect mismatch: totals.rows: expected 2, got 3`,
      `::error file=${escaped(file)},line=${at('"duplicates": 0')},title=delivery-lab%3A expect mismatch::expect mismatch: totals.duplicates: expected 0, got 1`,
    ]);
    expect(at('"rows": 2')).toBeGreaterThan(expectAt + 1);
    // The text report names the same lines.
    expect(check([file]).out).toContain(
      `fail.json:${at('"duplicates": 0')}: expect mismatch: totals.duplicates`,
    );
    expect(check([file]).out).not.toContain('::error');
  });

  it('GITHUB_ACTIONS set: the pin to accept is a ::notice at the same line', () => {
    const file = join(dir, 'docs', 'deep', 'fail.json');
    const line = failing.split('\n').findIndex((l) => l.includes('"expect"')) + 1;
    const notices = check([file], { GITHUB_ACTIONS: 'true' })
      .out.split('\n')
      .filter((l) => l.startsWith('::notice'));
    // The file's block with the run's 3 rows and 1 duplicate in place of the 2 and 0 it says.
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      new RegExp(
        `^::notice file=[^,]*fail\\.json,line=${line},title=delivery-lab%3A to accept what the run shows now::to accept what the run shows now: set its "expect" block to \\{"totals":\\{"rows":3,"duplicates":1,"lost":0,"sum":40\\},"rows":\\{"e1":2,"e2":1\\},"observed":"at-least-once",`,
      ),
    );
  });

  it('bad arguments exit 2', () => {
    expect(check([]).code).toBe(2);
    expect(check([join(dir, 'nope.json')]).err).toBe(
      `${join(dir, 'nope.json')}: no such file or directory`,
    );
    expect(check(['x.json', '--reporter', 'tap']).err).toBe(
      '--reporter: expected text or junit, got "tap"',
    );
    // A misspelt option is named with the one it probably meant, not in Node's words for a
    // script's author ("To specify a positional argument starting with a '-' …").
    const misspelt = check(['x.json', '--reportr', 'junit']);
    expect(misspelt.code).toBe(2);
    expect(misspelt.err.split('\n')[0]).toBe('unknown option --reportr — did you mean --reporter?');
    expect(check(['x.json', '--bogus']).err.split('\n')[0]).toBe('unknown option --bogus');
  });
});

describe('delivery-lab check: batch scenarios', { timeout: 60_000 }, () => {
  // airflow-retry-append/append (src/scenarios/library/batch.ts, S21): try 1 of 2024-03-10 appends
  // e1..e10 and commits, then fails; retries=1 appends them again: 20 rows, 10 duplicates.
  // Written without `workload` (the batch source's rows are the events): the schema allows it.
  const batchFile = (rows: number, duplicates: number) =>
    JSON.stringify({
      version: 1,
      name: 'retried append',
      claim: 'exactly-once',
      batch: {
        task: { retries: 1 },
        write: { mode: 'append' },
        source: Array.from({ length: 10 }, (_, k) => ({
          id: `e${k + 1}`,
          date: '2024-03-10',
          amount: 10 * (k + 1),
        })),
        faults: [{ logicalDate: 0, tryNumber: 1, point: 'after-write' }],
      },
      expect: { totals: { rows, duplicates }, observed: 'at-least-once' },
    });
  // A folder of its own: the globs above walk `dir`.
  const batchDir = mkdtempSync(join(tmpdir(), 'delivery-lab-check-batch-'));
  afterAll(() => rmSync(batchDir, { recursive: true, force: true }));
  writeFileSync(join(batchDir, 'pass.json'), batchFile(20, 10));
  writeFileSync(join(batchDir, 'fail.json'), batchFile(10, 0));

  it('runs a batch file through the batch engine: its expect matches (exit 0)', () => {
    const r = check([join(batchDir, 'pass.json')]);
    expect(r.out).toContain('✓');
    expect(r.code).toBe(0);
  });

  it('a directory of batch files (no workload) is found; a mismatch exits 3 naming the field', () => {
    const r = check([batchDir]);
    expect(r.out).toContain('expect mismatch: totals.rows: expected 10, got 20');
    expect(r.out).toContain('expect mismatch: totals.duplicates: expected 0, got 10');
    expect(r.out.split('\n').at(-1)).toBe('check: 2 scenarios: 1 passed, 1 failed, 0 malformed');
    expect(r.code).toBe(3);
  });
});
