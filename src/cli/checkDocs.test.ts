/**
 * `delivery-lab check` on HTML and Markdown pages: each lab embed (iframe or element) found at its
 * line, checked against the expectation pinned to it (inline, a sidecar file, or its scenario
 * hash's own); code blocks, code spans, comments and scripts are not embeds; exit 0 / 2 / 3 and
 * the unpinned count.
 *
 * The numbers: preset lost-ack-retry/acks-1 (src/scenarios/library/producer.ts) ends, by its own
 * hand-derived `expect`, with 11 rows, 1 duplicate and sum 580 — an acks=1 leader acknowledges
 * before replication, the lost ack is retried and the retry is appended again
 * (https://kafka.apache.org/documentation/#producerconfigs_acks).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../engine';
import { findPreset } from '../scenarios';
import { encodeShare } from '../views/io/shareLink';
import { checkRun } from './cliTesting';

const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-check-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PRESET = 'lost-ack-retry/acks-1';
// The preset's scenario as a share link carries it, its expect block included.
const HASH = encodeShare(findPreset(PRESET)!.variant.scenario);

/** Writes a page; returns its path as check shows it (from the working folder). */
const write = (name: string, lines: string[]) => {
  writeFileSync(join(dir, name), lines.join('\n'));
  return relative('.', join(dir, name));
};

const guide = write('guide.md', [
  '# Acks', //                                                                   1
  '',
  '```html',
  '<delivery-lab-embed preset="no-such"></delivery-lab-embed>', //             4: in a fence
  '```',
  '',
  'Inline `<iframe src="/lab/?embed&preset=nope"></iframe>` is code.', //      7: a code span
  '',
  `<delivery-lab-embed preset="${PRESET}" caption="A lost ack"`, //            9: pinned, passes
  `  expect='{"totals": {"rows": 11, "duplicates": 1}, "points": {"log:events": {"totals": {"rows": 11}}}}'>`,
  '</delivery-lab-embed>',
  '',
  '<!-- <delivery-lab-embed preset="bogus"></delivery-lab-embed> -->', //     13: a comment
  `<delivery-lab-embed preset="${PRESET}"></delivery-lab-embed>`, //          14: unpinned
  `<delivery-lab-embed scenario-hash="${HASH}"></delivery-lab-embed>`, //     15: its hash's expect
]);

writeFileSync(join(dir, 'pin.json'), '{"totals": {"rows": 12}}');
const page = write('page.html', [
  '<!doctype html>',
  '<html><body>',
  '<p>Before</p>',
  '<iframe', //                                                                4: fails
  '  title="lab"',
  `  src="https://example.org/lab/?embed&amp;preset=${PRESET}&amp;autoplay=1"`,
  `  data-expect='{"totals": {"duplicates": 0, "sum": 580}}'></iframe>`,
  '<iframe src="https://www.youtube.com/embed/xyz"></iframe>', //             8: not the lab's
  `<iframe src="/lab/?embed#${HASH}" data-expect-file="pin.json"></iframe>`, // 9: fails
  `<script>const s = '<delivery-lab-embed preset="x">';</script>`, //       10: script text
  '</body></html>',
]);

const bad = write('bad.md', [
  'Intro',
  '<delivery-lab-embed caption="none"></delivery-lab-embed>', //              2: no scenario
  `<delivery-lab-embed preset="lost-ack-retry/acks-9"></delivery-lab-embed>`, // 3: no variant
  `<delivery-lab-embed preset="${PRESET}"`,
  "  expect='{",
  '    "totals": {"rows": "eleven"}', //                                      6: the bad field
  "  }'></delivery-lab-embed>",
  `<delivery-lab-embed preset="${PRESET}" expect="{not json"></delivery-lab-embed>`, // 8
  '<iframe src="/lab/?embed#s=2.AAAA"></iframe>', //                           9: a broken hash
  `<delivery-lab-embed preset="${PRESET}" expect-file="missing.json"></delivery-lab-embed>`, // 10
]);

// A tag over several lines, its inline `expect` spanning lines: the mismatch is pointed at the
// field's line inside the attribute, not at the tag's first line. Indented by 4 spaces after a
// blank line, an embed is an indented code block, an example
// (https://spec.commonmark.org/0.31.2/#indented-code-blocks): not checked.
const spans = write('spans.md', [
  '# Spans', //                                                                  1
  '',
  '<delivery-lab-embed', //                                                     3: the tag
  `  preset="${PRESET}"`,
  "  expect='{", //                                                              5: the attribute
  '    "totals": {',
  '      "rows": 11,',
  '      "duplicates": 0', //                                                    8: 1, not 0
  "    }}'>",
  '</delivery-lab-embed>',
  '',
  'An example:',
  '',
  '    <delivery-lab-embed preset="no-such"></delivery-lab-embed>', //         14: indented code
]);

const check = (argv: string[]) => checkRun(argv);

describe('delivery-lab check on pages', { timeout: 60_000 }, () => {
  it('Markdown: fenced and inline code and comments are skipped; pinned embeds pass, one unpinned; exit 0', () => {
    const r = check([guide]);
    expect(r.lines).toEqual([
      `✓ ${guide}:9 (<delivery-lab-embed>, preset ${PRESET}, pinned by expect)`,
      `· ${guide}:14 (<delivery-lab-embed>, preset ${PRESET}): unpinned, no expectation to check`,
      `✓ ${guide}:15 (<delivery-lab-embed>, scenario “A lost acknowledgement, retried — acks=1”, pinned by its scenario hash)`,
      'check: 3 scenarios: 2 passed, 0 failed, 0 malformed, 1 unpinned',
    ]);
    expect(r.code).toBe(0);
  });

  it('JUnit reports each embed at the line the text does: its tag (line 9), not its expect attribute (10)', () => {
    // JUnit said line="10" for the embed the text reports at guide.md:9 before (resultLine).
    const report = join(dir, 'guide.xml');
    expect(check([guide, '--reporter', 'junit', '--output', report]).code).toBe(0);
    const lines = [...readFileSync(report, 'utf8').matchAll(/<testcase [^>]*line="(\d+)"/g)].map(
      (m) => m[1],
    );
    expect(lines).toEqual(['9', '14', '15']);
  });

  it('HTML: each mismatch at its line with expected and got; a sidecar file; other iframes and script text passed over; exit 3', () => {
    const r = check([page]);
    expect(r.lines).toEqual([
      `✗ ${page}:4 (iframe, preset ${PRESET}, pinned by data-expect)`,
      // At the data-expect attribute's line (7), not the tag's (4).
      `    ${page}:7: expect mismatch: totals.duplicates: expected 0, got 1`,
      `    ${page}:7: to accept what the run shows now: data-expect='{"totals":{"duplicates":1,"sum":580}}'`,
      `✗ ${page}:9 (iframe, scenario “A lost acknowledgement, retried — acks=1”, pinned by pin.json)`,
      `    ${page}:9: expect mismatch: totals.rows: expected 12, got 11`,
      `    ${page}:9: to accept what the run shows now: write {"totals":{"rows":11}} to ${relative('.', join(dir, 'pin.json'))}`,
      'check: 2 scenarios: 0 passed, 2 failed, 0 malformed',
    ]);
    expect(r.code).toBe(3);
  });

  it('a mismatch points at its field inside a multi-line expect; an indented code block is an example, not an embed', () => {
    const r = check([spans]);
    expect(r.lines).toEqual([
      `✗ ${spans}:3 (<delivery-lab-embed>, preset ${PRESET}, pinned by expect)`,
      `    ${spans}:8: expect mismatch: totals.duplicates: expected 0, got 1`,
      // At the attribute's line (5), where the pin to paste goes.
      `    ${spans}:5: to accept what the run shows now: expect='{"totals":{"rows":11,"duplicates":1}}'`,
      'check: 1 scenario: 0 passed, 1 failed, 0 malformed',
    ]);
    expect(r.code).toBe(3);
  });

  it('malformed embeds and expectations: exit 2, each naming its line and field', () => {
    const r = check([bad]);
    const problems = r.lines.filter((l) => l.startsWith('    '));
    expect(problems.slice(0, 3)).toEqual([
      `    ${bad}:2: delivery-lab-embed: give preset="…", scenario-hash="s=2.…" or src="scenario.json"`,
      `    ${bad}:3: preset: "lost-ack-retry/acks-9" is not a preset of the library; the preset "lost-ack-retry" has variants idempotence-off, idempotence-on, acks-1, retries-0`,
      `    ${bad}:6: expect: totals.rows: expected a number, got a string`,
    ]);
    expect(problems[3]).toMatch(new RegExp(`^    ${bad}:8: expect: not valid JSON`));
    expect(problems[4]).toMatch(new RegExp(`^    ${bad}:9: src: share link: `));
    expect(problems[5]).toBe(
      `    ${bad}:10: expect-file: ${relative('.', join(dir, 'missing.json'))}: no such file`,
    );
    expect(r.lines.at(-1)).toBe('check: 6 scenarios: 0 passed, 0 failed, 6 malformed');
    expect(r.code).toBe(2);
  });

  it('a link to the lab’s page on a preset in scenario-hash (its address bar, no hash) is that preset, as the loader reads it', () => {
    // It was refused: "scenario-hash: share link: no "s=" parameter in the link".
    // A folder of its own: the directory test counts the pages of `dir`.
    const own = mkdtempSync(join(tmpdir(), 'delivery-lab-check-page-link-'));
    const file = relative('.', join(own, 'page-link.md'));
    writeFileSync(
      file,
      [
        '# Page link', // 1
        '', // 2
        `<delivery-lab-embed scenario-hash="https://lab.example.org/?preset=lost-ack-retry/acks-1" expect='{"totals":{"rows":11,"duplicates":1}}'></delivery-lab-embed>`, // 3
        '', // 4
        '<delivery-lab-embed scenario-hash="https://lab.example.org/?preset=lost-ack-retyr"></delivery-lab-embed>', // 5
      ].join('\n'),
    );
    const r = check([file]);
    // lost-ack-retry/acks-1: 11 rows, 1 duplicate (src/cli/checkRepin.test.ts's figures).
    expect(r.lines[0]).toBe(
      `✓ ${file}:3 (<delivery-lab-embed>, preset lost-ack-retry/acks-1, pinned by expect)`,
    );
    expect(r.lines[2]).toMatch(
      new RegExp(
        `^    ${file.replace(/[.]/g, '\\.')}:5: scenario-hash: preset: "lost-ack-retyr" is not a preset of the library`,
      ),
    );
    expect(r.code).toBe(2);
    rmSync(own, { recursive: true, force: true });
  });

  it('a pinned iframe of the lab’s whole page (no embed) is checked; a pin on an iframe of no lab scenario is refused', () => {
    // Both were passed over: the pin was never checked, and the page said nothing.
    const own = mkdtempSync(join(tmpdir(), 'delivery-lab-check-page-iframe-'));
    const file = relative('.', join(own, 'page-iframe.md'));
    writeFileSync(
      file,
      [
        '# Page iframes', // 1
        '', // 2
        `<iframe src="https://lab.example.org/?preset=lost-ack-retry/acks-1" data-expect='{"totals":{"rows":11,"duplicates":1}}'></iframe>`, // 3
        '', // 4
        `<iframe src="https://lab.example.org/#${HASH}" data-expect='{"totals":{"rows":12}}'></iframe>`, // 5
        '', // 6
        `<iframe src="https://lab.example.org/" data-expect='{"totals":{"rows":11}}'></iframe>`, // 7
        '', // 8
        '<iframe src="https://lab.example.org/?preset=lost-ack-retry/acks-1"></iframe>', // 9: unpinned, not the player: passed over
      ].join('\n'),
    );
    const r = check([file]);
    // lost-ack-retry/acks-1: 11 rows, 1 duplicate (src/cli/checkRepin.test.ts's figures).
    expect(r.lines).toEqual([
      `✓ ${file}:3 (iframe, preset lost-ack-retry/acks-1, pinned by data-expect)`,
      `✗ ${file}:5 (iframe, scenario “A lost acknowledgement, retried — acks=1”, pinned by data-expect)`,
      `    ${file}:5: expect mismatch: totals.rows: expected 12, got 11`,
      `    ${file}:5: to accept what the run shows now: data-expect='{"totals":{"rows":11}}'`,
      `! ${file}:7 (iframe)`,
      `    ${file}:7: data-expect: the iframe's src names no scenario of the lab (its player is ?embed with preset=… or #s=…), so nothing checks this pin`,
      'check: 3 scenarios: 1 passed, 1 failed, 1 malformed',
    ]);
    expect(r.code).toBe(2);
    rmSync(own, { recursive: true, force: true });
  });

  it('a misspelt attribute of the element’s own (expects, expect_file, scenario_hash): the one it meant, and what it does', () => {
    // They were called "not an option of the player", listed with the player's options only: the
    // pin or the scenario the author meant was nowhere on the line.
    const own = mkdtempSync(join(tmpdir(), 'delivery-lab-check-own-attrs-'));
    try {
      const file = join(own, 'own.md');
      writeFileSync(
        file,
        [
          `<delivery-lab-embed preset="${PRESET}" expects='{"totals": {"rows": 11}}'></delivery-lab-embed>`,
          `<delivery-lab-embed preset="${PRESET}" expect_file="pin.json"></delivery-lab-embed>`,
          `<delivery-lab-embed scenario_hash="${HASH}"></delivery-lab-embed>`,
        ].join('\n'),
      );
      const problems = check([file]).lines.filter((l) => l.startsWith('    '));
      expect(problems).toEqual([
        `    ${file}:1: expects: not an attribute the loader or delivery-lab check reads; did you mean “expect”? (the pin delivery-lab check compares the run with: misspelt, the embed is not pinned)`,
        `    ${file}:2: expect_file: not an attribute the loader or delivery-lab check reads; did you mean “expect-file”? (a file beside the page holding the pin: misspelt, the embed is not pinned)`,
        `    ${file}:3: delivery-lab-embed: give preset="…", scenario-hash="s=2.…" or src="scenario.json"`,
        `    ${file}:3: scenario_hash: not an attribute the loader or delivery-lab check reads; did you mean “scenario-hash”? (the scenario, a share link's s=2.…: misspelt, the embed plays nothing)`,
      ]);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('initial-height: the loader’s own attribute, not misspelt; a value it cannot use (unit, range, form) is malformed at its line', () => {
    // It was "not an option of the player" (the loader had no such attribute); a value the loader
    // ignores leaves the frame at 480 px, and the text below it moves once the player measures.
    const own = mkdtempSync(join(tmpdir(), 'delivery-lab-check-initial-height-'));
    try {
      const file = join(own, 'heights.md');
      const pin = `expect='{"totals": {"rows": 11}}'`;
      writeFileSync(
        file,
        [
          `<delivery-lab-embed preset="${PRESET}" initial-height="790" ${pin}></delivery-lab-embed>`, // 1
          `<delivery-lab-embed preset="${PRESET}" initial-height="(max-width: 479px) 1210px, 790px" ${pin}></delivery-lab-embed>`, // 2
          `<delivery-lab-embed preset="${PRESET}"`, //                               3
          `  initial-height="50em" ${pin}></delivery-lab-embed>`, //                  4: a unit
          `<delivery-lab-embed preset="${PRESET}" initial-height="9000" ${pin}></delivery-lab-embed>`, // 5
          `<delivery-lab-embed preset="${PRESET}" initial-height="790px, (max-width: 479px) 1210px" ${pin}></delivery-lab-embed>`, // 6
          `<delivery-lab-embed preset="${PRESET}" initial_height="790" ${pin}></delivery-lab-embed>`, // 7
        ].join('\n'),
      );
      const r = check([file]);
      const takes =
        '(CSS px, 200 to 4000: “790” or “(max-width: 479px) 1210px, 790px”) (the loader ignores it: the frame starts at 480 px and the text below it moves)';
      expect(r.lines.filter((l) => l.startsWith('    '))).toEqual([
        `    ${file}:4: initial-height: “50em”: em is not a unit it takes ${takes}`,
        `    ${file}:5: initial-height: “9000”: 9000 px is out of range ${takes}`,
        `    ${file}:6: initial-height: “(max-width: 479px) 1210px”: the last entry is the height for any other width, with no (max-width: …) ${takes}`,
        `    ${file}:7: initial_height: not an attribute the loader or delivery-lab check reads; did you mean “initial-height”? (the frame's height until the player's first height message: misspelt, the frame starts at 480 px and the text below it moves)`,
      ]);
      expect(r.lines.at(-1)).toBe('check: 6 scenarios: 2 passed, 0 failed, 4 malformed');
      expect(r.code).toBe(2);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('src: the scenario file beside the page, played and pinned by its own expect block (or the element’s); a bad, missing or misplaced file is malformed at its line', () => {
    // The author had to import the file in the lab, press Embed and paste a 1,907-character hash,
    // which then drifted from the file: the element now names the file, one copy.
    const own = mkdtempSync(join(tmpdir(), 'delivery-lab-check-src-'));
    try {
      // The preset's scenario as the payments team keeps it: 11 rows, 1 duplicate, sum 580.
      const shipped = findPreset(PRESET)!.variant.scenario;
      const payments = { ...shipped, name: 'Payments: a lost ack' };
      writeFileSync(join(own, 'payments-lost-ack.json'), JSON.stringify(payments, null, 2));
      writeFileSync(
        join(own, 'payments-stale.json'),
        JSON.stringify({ ...payments, expect: { totals: { rows: 10, duplicates: 0 } } }),
      );
      writeFileSync(
        join(own, 'payments-bad.json'),
        JSON.stringify({ ...payments, producer: { ...payments.producer, acks: '2' } }),
      );
      const file = join(own, 'payments.md');
      writeFileSync(
        file,
        [
          '<delivery-lab-embed src="payments-lost-ack.json"></delivery-lab-embed>', //  1: passes
          `<delivery-lab-embed src="payments-lost-ack.json" expect='{"totals": {"rows": 12}}'></delivery-lab-embed>`, // 2
          '<delivery-lab-embed src="payments-stale.json"></delivery-lab-embed>', //     3: fails
          '<delivery-lab-embed src="payments-bad.json"></delivery-lab-embed>', //       4: a bad field
          '<delivery-lab-embed src="missing.json"></delivery-lab-embed>', //            5
          `<delivery-lab-embed src="payments-lost-ack.json" preset="${PRESET}"></delivery-lab-embed>`, // 6
          '<delivery-lab-embed src="https://example.org/payments.json"></delivery-lab-embed>', // 7
          '<delivery-lab-embed file="payments-lost-ack.json"></delivery-lab-embed>', // 8: not src
        ].join('\n'),
      );
      const r = check([file]);
      const at = (n: number) => `${file}:${n}`;
      expect(r.lines).toEqual([
        `✓ ${at(1)} (<delivery-lab-embed>, scenario file payments-lost-ack.json, pinned by its file's expect block)`,
        `✗ ${at(2)} (<delivery-lab-embed>, scenario file payments-lost-ack.json, pinned by expect)`,
        `    ${at(2)}: expect mismatch: totals.rows: expected 12, got 11`,
        `    ${at(2)}: to accept what the run shows now: expect='{"totals":{"rows":11}}'`,
        `✗ ${at(3)} (<delivery-lab-embed>, scenario file payments-stale.json, pinned by its file's expect block)`,
        `    ${at(3)}: expect mismatch: totals.rows: expected 10, got 11`,
        `    ${at(3)}: expect mismatch: totals.duplicates: expected 0, got 1`,
        `    ${at(3)}: to accept what the run shows now: set the "expect" block of ${join(own, 'payments-stale.json')} to {"totals":{"rows":11,"duplicates":1}}`,
        `! ${at(4)} (<delivery-lab-embed>)`,
        `    ${at(4)}: src: ${join(own, 'payments-bad.json')}: producer.acks: expected "0", "1", "all" or "-1", got "2"`,
        `! ${at(5)} (<delivery-lab-embed>)`,
        `    ${at(5)}: src: ${join(own, 'missing.json')}: no such file (the player would say it could not be fetched, and play nothing)`,
        `! ${at(6)} (<delivery-lab-embed>)`,
        `    ${at(6)}: src and preset: give one scenario, not both`,
        `! ${at(7)} (<delivery-lab-embed>)`,
        `    ${at(7)}: src: “https://example.org/payments.json”: delivery-lab check reads the file beside the page; write its path relative to the page (payments-lost-ack.json, data/payments.json)`,
        `! ${at(8)} (<delivery-lab-embed>)`,
        `    ${at(8)}: delivery-lab-embed: give preset="…", scenario-hash="s=2.…" or src="scenario.json"`,
        `    ${at(8)}: file: the element names its scenario file with src="payments-lost-ack.json" (the loader fetches src; file is the player's own name for it, and nothing would send the file)`,
        'check: 8 scenarios: 1 passed, 2 failed, 5 malformed',
      ]);
      expect(r.code).toBe(2);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('scenario-hash given the whole share link, as Share copies it: its hash is read, as the loader reads it', () => {
    // It said "share link: no "s=" parameter in the link" of a link that has one after its #.
    const own = mkdtempSync(join(tmpdir(), 'delivery-lab-check-full-link-'));
    try {
      const file = join(own, 'full.md');
      writeFileSync(
        file,
        `<delivery-lab-embed scenario-hash="https://example.org/lab/#${HASH}" expect='{"totals": {"rows": 11}}'></delivery-lab-embed>\n`,
      );
      const r = check([file]);
      expect(r.lines).toEqual([
        `✓ ${file}:1 (<delivery-lab-embed>, scenario “A lost acknowledgement, retried — acks=1”, pinned by expect)`,
        'check: 1 scenario: 1 passed, 0 failed, 0 malformed',
      ]);
      expect(r.code).toBe(0);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('an option the player does not know (autoply, a misspelt caption): malformed at its attribute, with the option it meant; the page’s own attributes are not options', () => {
    // In a folder of its own: the directory test counts `dir`'s pages.
    const own = mkdtempSync(join(tmpdir(), 'delivery-lab-check-typos-'));
    try {
      const file = join(own, 'typos.md');
      writeFileSync(
        file,
        [
          '# Typos', //                                                            1
          `<delivery-lab-embed preset="${PRESET}" autoply class="wide" data-x="1"`, // 2: the tag
          '  captoin="A lost ack"', //                                             3: misspelt
          `  expect='{"totals": {"rows": 11}}'></delivery-lab-embed>`,
          `<iframe src="/lab/?embed&amp;preset=${PRESET}&amp;speeed=2" title="lab" data-expect='{"totals": {"rows": 11}}'></iframe>`, // 5
          `<delivery-lab-embed preset="${PRESET}" aria-label="demo" style="margin:0" expect='{"totals": {"rows": 11}}'></delivery-lab-embed>`, // 6: passes
        ].join('\n'),
      );
      const shown = file;
      const r = check([file]);
      const problems = r.lines.filter((l) => l.startsWith('    '));
      const options =
        'autoplay, t, speed, panels, caption, lock, predict, q, a, id, layout, theme, height';
      expect(problems).toEqual([
        // The element's list names its scenario file by the element's own attribute, src.
        `    ${shown}:2: autoply: not an option of the player; did you mean “autoplay”? (it would be ignored, with a notice above the player; its options: preset, src, ${options})`,
        `    ${shown}:3: captoin: not an option of the player; did you mean “caption”? (it would be ignored, with a notice above the player; its options: preset, src, ${options})`,
        `    ${shown}:5: src: “speeed” is not an option of the player; did you mean “speed”? (it would be ignored, with a notice above the player; its options: preset, file, ${options})`,
      ]);
      expect(r.lines.at(-1)).toBe('check: 3 scenarios: 1 passed, 0 failed, 2 malformed');
      expect(r.code).toBe(2);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('each misspelt field of an inline expect is named with the field it meant, as a scenario file’s is', () => {
    // It said only `unknown key "rowz": not a field here` (a scenario's `expect.totals.rowz` says
    // `did you mean "rows"?`: docs/format.md).
    const own = mkdtempSync(join(tmpdir(), 'delivery-lab-check-expect-typo-'));
    try {
      const file = join(own, 'typo.md');
      writeFileSync(
        file,
        [
          '# Typo',
          `<delivery-lab-embed preset="${PRESET}"`,
          `  expect='{"totals": {"rowz": 11}, "observd": "at-least-once"}'></delivery-lab-embed>`,
        ].join('\n'),
      );
      const r = check([file]);
      expect(r.lines.filter((l) => l.startsWith('    '))).toEqual([
        `    ${file}:3: expect: totals.rowz: unknown key "rowz": not a field here (misspelt, or a field of another kind); did you mean "rows"?`,
        // Every wrong field, not the first only (it stopped at totals.rowz).
        `    ${file}:3: expect: observd: unknown key "observd": not a field here (misspelt, or a field of another kind); did you mean "observed"?`,
      ]);
      expect(r.code).toBe(2);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('an embed with a misspelt option and a misspelt pin names both, in the order of their lines', () => {
    // It named the option only: the author fixed it, pushed, and CI failed again on the pin.
    const own = mkdtempSync(join(tmpdir(), 'delivery-lab-check-both-'));
    try {
      const file = join(own, 'both.md');
      writeFileSync(
        file,
        [
          '# Both', //                                                      1
          `<delivery-lab-embed preset="${PRESET}"`, //                     2: the tag
          `  expect='{"totals": {"rows": 11,`, //                           3
          `    "dupes": 1}}'`, //                                           4: not a field
          '  autoply></delivery-lab-embed>', //                            5: not an option
        ].join('\n'),
      );
      const r = check([file]);
      const problems = r.lines.filter((l) => l.startsWith('    '));
      expect(problems).toHaveLength(2);
      expect(problems[0]).toContain(`    ${file}:4: expect: totals.dupes: unknown key "dupes"`);
      expect(problems[1]).toContain(
        `    ${file}:5: autoply: not an option of the player; did you mean “autoplay”?`,
      );
      expect(r.lines.at(-1)).toBe('check: 1 scenario: 0 passed, 0 failed, 1 malformed');
      expect(r.code).toBe(2);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('an embed pinned by a scenario file that is not its own scenario says where the two part', () => {
    // The author edited the file's producer (acks=all) and re-pinned it; the page's embed still
    // plays acks=1, and failed against the file's pin with no word of why.
    const own = mkdtempSync(join(tmpdir(), 'delivery-lab-check-drift-'));
    try {
      const shipped = findPreset(PRESET)!.variant.scenario;
      const edited: ScenarioInput = {
        ...shipped,
        producer: { ...shipped.producer, acks: 'all' },
        expect: { totals: { rows: 10, duplicates: 0 } },
      };
      writeFileSync(join(own, 'payments.json'), JSON.stringify(edited, null, 2));
      const file = join(own, 'drift.md');
      writeFileSync(
        file,
        [
          '# Drift', //                                                                      1
          `<delivery-lab-embed scenario-hash="${HASH}"`, //                                  2: stale
          '  expect-file="payments.json"></delivery-lab-embed>', //                          3
          `<delivery-lab-embed scenario-hash="${encodeShare(edited)}"`, //                   4: made again
          '  expect-file="payments.json"></delivery-lab-embed>', //                          5
        ].join('\n'),
      );
      const r = check([file]);
      const notes = r.lines.filter((l) => l.includes('⚠'));
      expect(notes).toEqual([
        `    ${file}:2: ⚠ the embed plays another scenario than payments.json, whose expect block pins it: producer.acks is "1" in the embed, "all" in the file — to show the file's scenario, import it on the lab's page and take the embed again (Embed)`,
      ]);
      expect(r.lines.at(-1)).toBe('check: 2 scenarios: 1 passed, 1 failed, 0 malformed');
      expect(r.code).toBe(3);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('an embed whose own fault never fired holds its pin and says so under it, as a scenario file does', () => {
    // Under acks=0 the broker sends no acknowledgement to lose: the page's "a lost ack" embed
    // showed a run without its fault, and its pin held without a word.
    const own = mkdtempSync(join(tmpdir(), 'delivery-lab-check-unfired-'));
    try {
      const shipped = findPreset(PRESET)!.variant.scenario;
      const noAck: ScenarioInput = {
        ...shipped,
        producer: { ...shipped.producer, acks: '0' },
        expect: undefined,
      };
      const file = join(own, 'unfired.md');
      writeFileSync(
        file,
        [
          '# Unfired', //                                                              1
          `<delivery-lab-embed scenario-hash="${encodeShare(noAck)}"`, //             2
          `  expect='{"totals": {"rows": 10, "duplicates": 0}}'></delivery-lab-embed>`,
        ].join('\n'),
      );
      const r = check([file]);
      expect(r.lines.filter((l) => l.includes('⚠'))).toEqual([
        `    ${file}:2: ⚠ fault "lost ack", a lost acknowledgement, never fired: with acks=0 the broker sends no acknowledgement to lose`,
      ]);
      expect(r.lines.at(-1)).toBe('check: 1 scenario: 1 passed, 0 failed, 0 malformed');
      expect(r.code).toBe(0);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('a preset as shipped keeps its faults that never fire on purpose without a note, as the page does', () => {
    // at-most-once keeps its siblings' lost acknowledgement, which acks=0 gives nothing to lose
    // (its neverFires): a note under every at-most-once embed would flag the library, not the page.
    const own = mkdtempSync(join(tmpdir(), 'delivery-lab-check-never-fires-'));
    try {
      const file = join(own, 'amo.md');
      writeFileSync(
        file,
        `<delivery-lab-embed preset="at-most-once" expect='{"totals": {"rows": 18}}'></delivery-lab-embed>\n`,
      );
      const r = check([file]);
      expect(r.lines).toEqual([
        `✓ ${file}:1 (<delivery-lab-embed>, preset at-most-once/default, pinned by expect)`,
        'check: 1 scenario: 1 passed, 0 failed, 0 malformed',
      ]);
      expect(r.code).toBe(0);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('a batch job given panels its player does not have (compare), a t or a speed: malformed at the attribute, in the player’s words', () => {
    const own = mkdtempSync(join(tmpdir(), 'delivery-lab-check-batch-panels-'));
    try {
      const file = join(own, 'batch.md');
      writeFileSync(
        file,
        [
          '# Batch',
          '<delivery-lab-embed preset="airflow-retry-append/append"',
          '  panels="pipeline,compare"',
          `  expect='{"totals": {"rows": 20}}'></delivery-lab-embed>`,
          `<delivery-lab-embed preset="airflow-retry-append/append" panels="pipeline,transport,counters,verdict,why" expect='{"totals": {"rows": 20}}'></delivery-lab-embed>`,
          `<delivery-lab-embed preset="airflow-retry-append/append" t="5000"`,
          `  speed="2" expect='{"totals": {"rows": 20}}'></delivery-lab-embed>`,
        ].join('\n'),
      );
      const r = check([file]);
      expect(r.lines.filter((l) => l.startsWith('    '))).toEqual([
        `    ${file}:3: panels: “panels=pipeline,compare” — a batch job’s player shows its schedule, its table and its verdict whatever panels says, and has no Compare: only “why” is read (the player says so in a notice above itself)`,
        `    ${file}:6: t: “t=5000” — a batch job’s player opens at the start of its schedule: not used (the player says so in a notice above itself)`,
        `    ${file}:7: speed: “speed=2” — a batch job’s player plays its schedule at its own pace: not used (the player says so in a notice above itself)`,
      ]);
      expect(r.lines.at(-1)).toBe('check: 3 scenarios: 1 passed, 0 failed, 2 malformed');
      expect(r.code).toBe(2);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('a start time the player cannot use (t past the run’s end; t with predict): malformed at its attribute, in the player’s notice’s words', () => {
    // Both passed: the player says so in a notice to every reader (src/ui/embed/EmbedApp.tsx),
    // which docs/cli.md counts as malformed.
    const own = mkdtempSync(join(tmpdir(), 'delivery-lab-check-start-'));
    try {
      const file = join(own, 'start.md');
      writeFileSync(
        file,
        [
          '# Start',
          `<iframe src="/lab/?embed&amp;preset=${PRESET}&amp;t=40000" data-expect='{"totals": {"rows": 11}}'></iframe>`,
          `<delivery-lab-embed preset="${PRESET}" predict`,
          `  t="2000" expect='{"totals": {"rows": 11}}'></delivery-lab-embed>`,
          `<delivery-lab-embed preset="${PRESET}" t="2000" expect='{"totals": {"rows": 11}}'></delivery-lab-embed>`,
        ].join('\n'),
      );
      const r = check([file]);
      expect(r.lines.filter((l) => l.startsWith('    '))).toEqual([
        `    ${file}:2: src: “t=40000” — past the run’s end, 30,473 ms: opened at its end (t: a virtual time in ms, from 0 to 30,473) (the player says so in a notice above itself)`,
        `    ${file}:4: t: “t=2000” — not used while the question waits (predict=1): opened at 0 ms, so the outcome shows only when the run reaches its end after the answer (the player says so in a notice above itself)`,
      ]);
      expect(r.lines.at(-1)).toBe('check: 3 scenarios: 1 passed, 0 failed, 2 malformed');
      expect(r.code).toBe(2);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('an option value the player cannot use as written (speed="abc", panels="pipline", q without predict): malformed at its attribute, in the player’s words', () => {
    const own = mkdtempSync(join(tmpdir(), 'delivery-lab-check-values-'));
    try {
      const file = join(own, 'values.md');
      writeFileSync(
        file,
        [
          '# Values', //                                                           1
          `<delivery-lab-embed preset="${PRESET}"`, //                              2: the tag
          '  speed="abc"', //                                                       3: not a number
          '  panels="pipline,verdict"', //                                          4: a misspelt panel
          '  q="How many rows?"', //                                                5: without predict
          `  expect='{"totals": {"rows": 11}}'></delivery-lab-embed>`,
          `<iframe src="/lab/?embed&amp;preset=${PRESET}&amp;t=-5" title="lab" data-expect='{"totals": {"rows": 11}}'></iframe>`, // 7
        ].join('\n'),
      );
      const r = check([file]);
      const problems = r.lines.filter((l) => l.startsWith('    '));
      const note = '(the player says so in a notice above itself)';
      expect(problems).toEqual([
        `    ${file}:3: speed: “speed=abc” — not a number: played at the scenario’s own pace (speed: 0.001 to 1000, virtual ms per real ms) ${note}`,
        `    ${file}:4: panels: “panels=pipline,verdict” — no panel “pipline” (did you mean “pipeline”?): showed verdict (panels: pipeline, transport, counters, verdict, why, compare) ${note}`,
        `    ${file}:5: q: “q” — asked only with predict=1, which this address does not have: not asked ${note}`,
        `    ${file}:7: src: “t=-5” — before the run’s start: opened at 0 ms (t: a virtual time in ms, from 0 to the run’s end) ${note}`,
      ]);
      expect(r.lines.at(-1)).toBe('check: 2 scenarios: 0 passed, 0 failed, 2 malformed');
      expect(r.code).toBe(2);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('a directory: pages and scenario files together; malformed wins over failed', () => {
    const r = check([dir]);
    // guide.md 3 (2 passed, 1 unpinned) + page.html 2 failed + spans.md 1 failed + bad.md 6.
    expect(r.lines.at(-1)).toBe('check: 12 scenarios: 2 passed, 3 failed, 6 malformed, 1 unpinned');
    expect(r.code).toBe(2);
  });

  it('a bare preset id is checked at the variant its question is about, as the embed opens it', () => {
    // aborted-transaction-dirty-read asks about read_uncommitted (its second variant): 15 rows,
    // 5 duplicates, sum 700 (src/scenarios/library/broker.ts). Before, check ran its first,
    // read_committed (10 rows, 0 duplicates, 550), while the embed showed read_uncommitted.
    const own = mkdtempSync(join(tmpdir(), 'delivery-lab-check-bare-'));
    try {
      const file = join(own, 'bare.md');
      writeFileSync(
        file,
        [
          '<delivery-lab-embed preset="aborted-transaction-dirty-read"',
          `  expect='{"totals": {"rows": 15, "duplicates": 5, "sum": 700}}'></delivery-lab-embed>`,
        ].join('\n'),
      );
      const r = check([relative('.', file)]);
      expect(r.lines).toEqual([
        `✓ ${relative('.', file)}:1 (<delivery-lab-embed>, preset aborted-transaction-dirty-read/read-uncommitted, pinned by expect)`,
        'check: 1 scenario: 1 passed, 0 failed, 0 malformed',
      ]);
      expect(r.code).toBe(0);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it("the docs' pinned examples (README.md, docs/cli.md, docs/embed.md) pass as written", () => {
    // Each ```html block that pins an embed, checked as a page of its own.
    const blocks = ['README.md', 'docs/cli.md', 'docs/embed.md'].flatMap((doc) =>
      [...readFileSync(doc, 'utf8').matchAll(/```html\n([\s\S]*?)```/g)]
        .map((m) => m[1]!)
        .filter((b) => b.includes('expect=')),
    );
    // The fourth, docs/embed.md's effectively-once, pins its fault atlas: every placement held.
    expect(blocks).toHaveLength(4);
    const files = blocks.map((b, k) => write(`example-${k}.html`, [b]));
    const r = check(files);
    expect(r.lines.at(-1)).toBe('check: 4 scenarios: 4 passed, 0 failed, 0 malformed');
    expect(r.code).toBe(0);
  });
});
