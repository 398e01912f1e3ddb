/**
 * `delivery-lab check` on an HTML or Markdown page: every embed of the lab in it — an iframe whose
 * `src` is the player (`?embed` with `preset=…` or a scenario hash `#s=…`) and every
 * `<delivery-lab-embed>` element (public/embed.js) — is run and compared with the expectation
 * pinned to it (docs/cli.md, "Pin your docs in CI"):
 * - inline, `expect='{"totals": {…}}'` on the element (`data-expect` on an iframe; either name is
 *   read on either tag), the `expect` block of a scenario file;
 * - or in a sidecar file, `expect-file="lesson.expect.json"` (`data-expect-file`), relative to the
 *   page: an `expect` block, or a scenario file whose `expect` block is used (the page's Export
 *   "for docs CI" writes one);
 * - else the `expect` block the scenario hash itself carries (the page pins the run on screen
 *   into every link it writes), or the scenario file the element plays (`src`, read beside the
 *   page as the loader fetches it beside the page's URL).
 * An embed with none is unpinned: listed, not a failure. A preset's own `expect` pins the
 * library, not the page's text, so it does not count.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  atlasKindIssues,
  clipEcho,
  ExpectSchema,
  formatIssues,
  keysAt,
  parseScenario,
  parseScenarioJson,
  readJsonText,
  schemaIssues,
  REPORT_INPUT,
  simulate,
  type Expect,
  type Scenario,
} from '../engine';
import { findPreset } from '../scenarios';
import {
  EMBED_PARAMS,
  ELEMENT_NOT_OPTIONS,
  ELEMENT_OWN_ATTRIBUTES,
  likelyElementAttribute,
  likelyEmbedParam,
  unknownEmbedParams,
} from '../views/io/embedParams';
import { parseInitialHeight } from '../views/io/initialHeight';
import { decodeShare, shareIssueLines } from '../views/io/shareLink';
import {
  batchUnusedLines,
  invalidEmbedValues,
  readEmbedOptions,
  startPastEndLine,
  startWithQuestionLine,
} from '../views/io/embedValues';
import type { CheckResult } from './check';
import { lineOfPath } from './jsonPathLines';
import { nearPresets } from './nearPresets';
import { pageTags, type ScannedTag } from './checkDocsScan';
import { pinCheck } from './atlasPin';
import { acceptNow, mismatchLine, pinJson, repinned } from './repin';
import { sidecarDrift } from './sidecarDrift';

/** The loader's element (public/embed.js). */
const ELEMENT = 'delivery-lab-embed';

/** A problem with one field of an embed: malformed. */
interface Problem {
  line: number;
  message: string;
}

/** The first attribute present among `names` (the element's name, then the iframe's data-*). */
function attribute(tag: ScannedTag, names: readonly string[]) {
  for (const name of names) {
    const a = tag.attributes.get(name);
    if (a) return { name, ...a };
  }
  return undefined;
}

/** The attributes that pin an embed's expectation (an iframe's are read under either name). */
const PIN_ATTRIBUTES = ['expect', 'data-expect', 'expect-file', 'data-expect-file'];

/**
 * A lab iframe's address: its query and hash, or null when the iframe is not the lab's. The
 * player's (`?embed`, with `preset=` or `#s=`) is the lab's; so is a link to the lab's whole page
 * (`?preset=`, `#s=`, no `embed`) carrying a pin — the author pinned it, so its run is checked
 * rather than passed over.
 */
function labAddress(tag: ScannedTag): { query: URLSearchParams; hash: string } | null {
  const src = tag.attributes.get('src')?.value;
  if (!src) return null;
  let url: URL;
  try {
    url = new URL(src, 'https://docs.invalid/');
  } catch {
    return null;
  }
  const hash = url.hash.replace(/^#/, '');
  const scenario = url.searchParams.has('preset') || /(^|&)s=/.test(hash);
  const pinned = PIN_ATTRIBUTES.some((name) => tag.attributes.has(name));
  const isLab = scenario && (url.searchParams.has('embed') || pinned);
  return isLab ? { query: url.searchParams, hash } : null;
}

/**
 * An embed's scenario, and the `expect` block its scenario hash carries (a preset's: none), with
 * the line of the attribute that holds the hash.
 */
interface Resolved {
  scenario: Scenario;
  label: string;
  hashPin: { expect: Expect; line: number } | undefined;
  /** The scenario file (`src`) whose own `expect` block is that pin, when it is one. */
  file?: string;
  /**
   * The ids of a library preset's faults that never fire in its run, kept on purpose (its
   * `neverFires`): not flagged, as the page does not flag them while the preset is as shipped.
   */
  neverFires?: readonly string[];
}

/**
 * An element's scenario file (`src`), read from disk beside the page as the loader fetches it
 * beside the page's URL, and validated as the player validates it: the file is the one copy the
 * page plays and pins (its own `expect` block, unless the element carries one).
 */
function scenarioFileOf(tag: ScannedTag, page: string): Resolved | Problem {
  const src = tag.attributes.get('src')!;
  const other = tag.attributes.get('preset') ?? tag.attributes.get('scenario-hash');
  if (other)
    return {
      line: other.line,
      message: `src and ${tag.attributes.has('preset') ? 'preset' : 'scenario-hash'}: give one scenario, not both`,
    };
  const value = src.value.trim();
  // A URL with a scheme or a host, or one from the site's root, is not a path beside the page.
  if (/^([a-z][a-z0-9+.-]*:|\/)/i.test(value))
    return {
      line: src.line,
      message: `src: “${clipEcho(value)}”: delivery-lab check reads the file beside the page; write its path relative to the page (payments-lost-ack.json, data/payments.json)`,
    };
  const path = join(dirname(page), decodeURIComponent(value.replace(/[?#].*$/, '')));
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const why =
      (e as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'no such file (the player would say it could not be fetched, and play nothing)'
        : (e as Error).message;
    return { line: src.line, message: `src: ${clipEcho(path)}: ${why}` };
  }
  const parsed = parseScenarioJson(text);
  if (!parsed.ok)
    return {
      line: src.line,
      message: `src: ${clipEcho(path)}: ${parsed.issues
        .map((i) => (i.path ? `${i.path}: ${i.message}` : i.message))
        .join('; ')}`,
    };
  const { expect } = parsed.scenario;
  return {
    scenario: parsed.scenario,
    label: `scenario file ${clipEcho(value)}`,
    hashPin: expect && { expect, line: src.line },
    file: clipEcho(path),
  };
}

/** The embed's scenario: a scenario hash (exact; it wins, as in the page), else a preset. */
function scenarioOf(
  tag: ScannedTag,
  address: { query: URLSearchParams; hash: string } | null,
  page: string,
): Resolved | Problem {
  if (!address && tag.attributes.has('src')) return scenarioFileOf(tag, page);
  const hashAttr = address ? tag.attributes.get('src') : tag.attributes.get('scenario-hash');
  const presetAttr = address ? tag.attributes.get('src') : tag.attributes.get('preset');
  const field = address ? 'src' : 'scenario-hash';
  // The attribute's value as the loader reads it (public/embed.js): `s=2.…`, `#s=2.…`, or the
  // whole share link as Share copies it — its hash.
  const value = (hashAttr?.value ?? '').trim();
  // A link to the lab's page on a preset, no hash (`…/?preset=…`): that preset, as the loader
  // reads it.
  const linked =
    !address && !value.includes('#') && value.includes('?')
      ? new URLSearchParams(value.slice(value.indexOf('?') + 1)).get('preset')
      : null;
  const hash = address ? address.hash : linked ? '' : value.slice(value.indexOf('#') + 1);
  if (hash !== '') {
    const shared = decodeShare(hash);
    if (!shared.ok)
      return {
        line: hashAttr!.line,
        message: `${field}: ${shareIssueLines(shared.issues).join('; ')}`,
      };
    return {
      scenario: shared.scenario,
      label: `scenario “${shared.scenario.name}”`,
      hashPin: shared.scenario.expect && { expect: shared.scenario.expect, line: hashAttr!.line },
    };
  }
  const named = address ? address.query.get('preset') : (presetAttr?.value ?? linked);
  if (!named)
    return {
      line: tag.line,
      message: `${ELEMENT}: give preset="…", scenario-hash="s=2.…" or src="scenario.json"`,
    };
  // As the page reads `?preset=` (src/platform/presetUrl.ts): any case, space and a trailing `/` ignored.
  const ref = named.trim().toLowerCase().replace(/\/$/, '');
  const found = ref.split('/').length <= 2 ? findPreset(ref) : undefined;
  if (!found)
    return {
      line: (presetAttr ?? hashAttr)!.line,
      message: `${address ? 'src: preset' : presetAttr ? 'preset' : 'scenario-hash: preset'}: "${clipEcho(named)}" is not a preset of the library${nearPresets(ref)}`,
    };
  const presetRef = `${found.preset.id}/${found.variant.id}`;
  const parsed = parseScenario(found.variant.scenario);
  // Every preset of the library parses (its own tests say so).
  if (!parsed.ok) throw new Error(`preset ${presetRef}: ${formatIssues(parsed.issues)}`);
  return {
    scenario: parsed.scenario,
    label: `preset ${presetRef}`,
    hashPin: undefined,
    neverFires: found.variant.neverFires ?? [],
  };
}

/** An `expect` block read from JSON text, or its problem (the field, on its own line). */
function readExpect(
  text: string,
  where: string,
  line: number,
  sidecar: boolean,
): { expect: Expect; scenarioFile: boolean; scenario?: unknown } | Problem[] {
  const read = readJsonText(text, 'an expect block');
  if (!read.ok) return [{ line, message: `${where}: ${read.issues[0]!.message}` }];
  let raw = read.raw;
  // A scenario file (a batch job's may have no workload): its expect block.
  const scenarioFile =
    sidecar && raw !== null && typeof raw === 'object' && ('workload' in raw || 'batch' in raw);
  if (scenarioFile && raw !== null && typeof raw === 'object') {
    if (!('expect' in raw))
      return [{ line, message: `${where}: the scenario has no "expect" block` }];
    raw = raw.expect;
  }
  const parsed = ExpectSchema.safeParse(raw, REPORT_INPUT);
  if (parsed.success)
    return { expect: parsed.data, scenarioFile, ...(scenarioFile ? { scenario: read.raw } : {}) };
  // Every wrong field, each at its line, with the field a misspelt key meant, as a scenario
  // file's expect block names it (docs/format.md).
  return schemaIssues(parsed.error.issues, (path) => keysAt(ExpectSchema, raw, path)).map(
    (issue) => ({
      line: fieldLine({ text, line, inline: !sidecar }, issue.path),
      message: `${where}: ${issue.path ? `${issue.path}: ` : ''}${issue.message}`,
    }),
  );
}

/** Where a pin was written: its JSON text, the page's line it starts at, inline or a sidecar. */
interface PinText {
  text: string;
  line: number;
  inline: boolean;
}

/**
 * The page's line of a field (`totals.rows`) of a pin: inline, the attribute's line plus the
 * field's line within its value (a tag and its `expect` may span lines); a sidecar's fields are
 * in another file, so the page's line of the attribute that names it.
 */
function fieldLine(pin: PinText, path: string): number {
  return pin.line + (pin.inline ? lineOfPath(pin.text, path) - 1 : 0);
}

/** The expectation pinned to an embed (inline, sidecar, or carried by its scenario), if any. */
function pinOf(
  tag: ScannedTag,
  hashPin: { expect: Expect; line: number } | undefined,
  page: string,
  scenarioFile?: string,
):
  | {
      expect: Expect;
      from: string;
      at: PinText;
      repin: (json: string) => string;
      /** The sidecar's scenario, when the pin is a scenario file's expect block. */
      sidecar?: unknown;
    }
  | Problem[]
  | null {
  const inline = attribute(tag, ['expect', 'data-expect']);
  const file = attribute(tag, ['expect-file', 'data-expect-file']);
  if (inline && file)
    return [{ line: file.line, message: `${inline.name} and ${file.name}: give one, not both` }];
  if (inline) {
    const r = readExpect(inline.value, inline.name, inline.line, false);
    const at = { text: inline.value, line: inline.line, inline: true };
    const repin = (json: string) => `${inline.name}='${json}'`;
    return 'expect' in r ? { expect: r.expect, from: inline.name, at, repin } : r;
  }
  if (file) {
    const path = join(dirname(page), file.value);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      const why =
        (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
      return [{ line: file.line, message: `${file.name}: ${clipEcho(path)}: ${why}` }];
    }
    const r = readExpect(text, `${file.name} ${clipEcho(path)}`, file.line, true);
    const at = { text, line: file.line, inline: false };
    const shown = clipEcho(path);
    const repin = (json: string) =>
      'expect' in r && r.scenarioFile
        ? `set the "expect" block of ${shown} to ${json}`
        : `write ${json} to ${shown}`;
    return 'expect' in r
      ? { expect: r.expect, from: file.value, at, repin, sidecar: r.scenario }
      : r;
  }
  if (!hashPin) return null;
  const at = { text: '', line: hashPin.line, inline: false };
  // The scenario file's own block: the one copy, pinned where it is.
  if (scenarioFile)
    return {
      expect: hashPin.expect,
      from: `its file's expect block`,
      at,
      repin: (json: string) => `set the "expect" block of ${scenarioFile} to ${json}`,
    };
  // The hash is the exact scenario, its block included: a pin beside it wins (the first of the
  // three), so the embed keeps its scenario and the page its link.
  const name = tag.name === ELEMENT ? 'expect' : 'data-expect';
  const repin = (json: string) =>
    `add ${name}='${json}' (it wins over the block the scenario hash carries)`;
  return { expect: hashPin.expect, from: 'its scenario hash', at, repin };
}

/**
 * The embed's options the player does not know (`autoply`, `captoin`): each at its attribute's
 * line (an iframe's, at its `src`), with the option it probably meant. The player ignores them
 * and says so in a notice above itself, to every reader of the page (docs/embed.md, "Options"):
 * a typo the docs site's CI should catch before it is published.
 */
function unknownOptions(
  tag: ScannedTag,
  address: { query: URLSearchParams; hash: string } | null,
): Problem[] {
  const known = new Set<string>(EMBED_PARAMS);
  const named = address
    ? unknownEmbedParams(`?${address.query.toString()}`).map((name) => ({
        name,
        field: 'src',
        line: tag.attributes.get('src')!.line,
      }))
    : [...tag.attributes]
        .filter(([name]) => !ELEMENT_NOT_OPTIONS.test(name) && !known.has(name))
        .map(([name, a]) => ({ name, field: name, line: a.line }));
  return named.map(({ name, field, line }) => {
    // The element's own attributes, misspelt (`expects`, `expect_file`, `scenario_hash`): not
    // options of the player, but what the loader and check read — the pin or the scenario.
    const own = field === 'src' ? null : likelyElementAttribute(name);
    if (own) {
      const { holds, misspelt } = ELEMENT_OWN_ATTRIBUTES[own]!;
      return {
        line,
        message: `${clipEcho(name)}: not an attribute the loader or delivery-lab check reads; did you mean “${own}”? (${holds}: misspelt, ${misspelt})`,
      };
    }
    const meant = likelyEmbedParam(name);
    // The element names its scenario file `src` (the loader sends it as the player's `file`, and
    // refuses a `file` attribute): its list says so, an iframe's address keeps `file`.
    const options = EMBED_PARAMS.filter((p) => p !== 'embed').map((p) =>
      p === 'file' && field !== 'src' ? 'src' : p,
    );
    return {
      line,
      message: `${field === 'src' ? `src: “${clipEcho(name)}” is` : `${clipEcho(name)}:`} not an option of the player${meant ? `; did you mean “${meant}”?` : ''} (it would be ignored, with a notice above the player; its options: ${options.join(', ')})`,
    };
  });
}

/**
 * The embed's option values the player cannot use as written (`speed="abc"`, `panels="pipline"`,
 * `q` without `predict`): each at its attribute's line (an iframe's, at its `src`), in the
 * player's own words — read by the player's own reader (src/views/io/embedValues.ts), which
 * falls back and says so in a notice above itself, to every reader of the page.
 */
function invalidValues(
  tag: ScannedTag,
  address: { query: URLSearchParams; hash: string } | null,
): Problem[] {
  const known = new Set<string>(EMBED_PARAMS);
  const query = address
    ? address.query
    : new URLSearchParams(
        [...tag.attributes]
          .filter(([name]) => known.has(name))
          .map(([name, a]): [string, string] => [name, a.value]),
      );
  return invalidEmbedValues(`?${query.toString()}`).map((line) => {
    // Each line opens with the option it is about: “speed=abc” — …, “caption” — …, “q” and “a” — ….
    const name = /^“([^”=]+)/.exec(line)?.[1] ?? '';
    const attr = address ? tag.attributes.get('src') : tag.attributes.get(name);
    return {
      line: (attr ?? tag.attributes.get('src'))?.line ?? tag.line,
      message: `${address ? 'src' : clipEcho(name)}: ${line} (the player says so in a notice above itself)`,
    };
  });
}

/**
 * The element's `initial-height` as the loader reads it (src/views/io/initialHeight.ts): a value
 * it cannot use leaves the frame at 480 px until the first height message, and the text below the
 * embed moves — at its attribute's line. An iframe's first height is its own `style`.
 */
function initialHeightProblems(tag: ScannedTag): Problem[] {
  const a = tag.name === ELEMENT ? tag.attributes.get('initial-height') : undefined;
  if (!a) return [];
  const read = parseInitialHeight(a.value);
  return read.ok
    ? []
    : [
        {
          line: a.line,
          message: `initial-height: ${read.message} (the loader ignores it: the frame starts at 480 px and the text below it moves)`,
        },
      ];
}

/**
 * `file` on the element: the player's query name for a scenario file, which the loader sets from
 * `src` and fetches; written by hand on the element nothing fetches it, and the player waits for
 * a file that never comes — so, at its line, the attribute meant.
 */
function fileAttributeProblems(tag: ScannedTag): Problem[] {
  const a = tag.name === ELEMENT ? tag.attributes.get('file') : undefined;
  return a
    ? [
        {
          line: a.line,
          message: `file: the element names its scenario file with src="${clipEcho(a.value)}" (the loader fetches src; file is the player's own name for it, and nothing would send the file)`,
        },
      ]
    : [];
}

/**
 * A batch job's options its player does not use (`panels` it does not have — no Compare —, `t`,
 * `speed`): at each attribute's line, in the words of the player's notice (src/ui/batch/BatchEmbed.tsx).
 */
function batchUnused(
  tag: ScannedTag,
  address: { query: URLSearchParams; hash: string } | null,
  scenario: Scenario,
): Problem[] {
  if (scenario.batch === undefined) return [];
  const get = (name: string) =>
    address ? address.query.get(name) : (tag.attributes.get(name)?.value ?? null);
  const query = new URLSearchParams();
  for (const name of ['panels', 't', 'speed']) {
    const value = get(name);
    if (value !== null) query.set(name, value);
  }
  const o = readEmbedOptions(`?${query.toString()}`);
  const lines = batchUnusedLines({
    panels: o.panels.value,
    start: o.start.value,
    speed: o.speed.value,
  });
  return lines.map((line) => {
    const name = /^“([^”=]+)/.exec(line)?.[1] ?? '';
    const attr = address ? tag.attributes.get('src') : tag.attributes.get(name);
    return {
      line: attr?.line ?? tag.line,
      message: `${address ? 'src' : name}: ${line} (the player says so in a notice above itself)`,
    };
  });
}

/**
 * A start time (`t`) the player cannot use, known once the scenario is: held back while a
 * question waits (`predict`), or past the run's end (which takes a run to know). In the player's
 * notice's words (src/ui/embed/EmbedApp.tsx), at the attribute's line. A batch job's player has
 * no `t`.
 */
function startProblems(
  tag: ScannedTag,
  address: { query: URLSearchParams; hash: string } | null,
  scenario: Scenario,
): Problem[] {
  if (scenario.batch !== undefined) return [];
  const value = address ? address.query.get('t') : (tag.attributes.get('t')?.value ?? null);
  if (value === null) return [];
  const query = new URLSearchParams({ t: value });
  const predict = address
    ? address.query.get('predict')
    : (tag.attributes.get('predict')?.value ?? null);
  // A bare attribute is `1` (docs/embed.md).
  if (predict !== null) query.set('predict', predict === '' ? '1' : predict);
  const options = readEmbedOptions(`?${query.toString()}`);
  const start = options.start.value;
  if (start <= 0) return [];
  const line = options.predict.value
    ? startWithQuestionLine(start)
    : startPastEndLine(start, simulate(scenario).endTime);
  if (line === null) return [];
  const attr = address ? tag.attributes.get('src') : tag.attributes.get('t');
  return [
    {
      line: attr?.line ?? tag.line,
      message: `${address ? 'src' : 't'}: ${line} (the player says so in a notice above itself)`,
    },
  ];
}

/** Check one embed. */
function checkEmbed(
  file: string,
  page: string,
  tag: ScannedTag,
  address: { query: URLSearchParams; hash: string } | null,
): CheckResult {
  const kind = address ? 'iframe' : `<${ELEMENT}>`;
  const malformed = (p: Problem, name: string, more: Problem[] = []): CheckResult => ({
    file,
    name,
    status: 'malformed',
    problems: [p.message, ...more.map((m) => m.message)],
    line: p.line,
    ...(more.length > 0 ? { lines: [p.line, ...more.map((m) => m.line)] } : {}),
    partLine: tag.line,
  });
  const resolved = scenarioOf(tag, address, page);
  const unknown = [
    ...unknownOptions(tag, address),
    ...invalidValues(tag, address),
    ...initialHeightProblems(tag),
    ...fileAttributeProblems(tag),
    ...('message' in resolved ? [] : batchUnused(tag, address, resolved.scenario)),
    ...('message' in resolved ? [] : startProblems(tag, address, resolved.scenario)),
  ];
  if ('message' in resolved) return malformed(resolved, kind, unknown);
  const name = `${kind}, ${resolved.label}`;
  const read = pinOf(tag, resolved.hashPin, page, resolved.file);
  // Every problem of the embed at once, in the order of their lines (docs/cli.md, "Output"): an
  // author who fixed a misspelt option alone would find the misspelt pin on the next CI run.
  const problems = [...unknown, ...(Array.isArray(read) ? read : [])].sort(
    (a, b) => a.line - b.line,
  );
  if (problems.length > 0) return malformed(problems[0]!, name, problems.slice(1));
  const pin = Array.isArray(read) ? null : read;
  if (pin === null)
    return { file, name, status: 'unpinned', problems: [], line: tag.line, partLine: tag.line };
  const kinds = atlasKindIssues(
    pin.expect.atlas?.kinds,
    resolved.scenario.batch !== undefined,
    'atlas.kinds',
  ).map((i) => ({
    line: fieldLine(pin.at, i.path),
    message: `${pin.from}: ${i.path}: ${i.message}`,
  }));
  if (kinds.length > 0) return malformed(kinds[0]!, name, kinds.slice(1));
  // On the engine of the scenario's kind, as `check` runs a scenario file (a batch job's: batch).
  // With the scenario's own faults that never fired, flagged as under a scenario file's result.
  const { diff, unfired } = pinCheck(resolved.scenario, pin.expect, resolved.neverFires);
  const drift =
    pin.sidecar === undefined ? null : sidecarDrift(resolved.scenario, pin.sidecar, pin.from);
  const notes = [...unfired, ...(drift ? [drift] : [])];
  return {
    ...(notes.length > 0 ? { notes } : {}),
    file,
    name: `${name}, pinned by ${pin.from}`,
    status: diff.length === 0 ? 'passed' : 'failed',
    problems: diff.map(mismatchLine),
    // Each mismatch at its own field's line, where the pin says it (not the tag's first line).
    line: diff.length > 0 ? fieldLine(pin.at, diff[0]!.path) : pin.at.line,
    lines: diff.map((d) => fieldLine(pin.at, d.path)),
    partLine: tag.line,
    // How to pin what the run shows now, at the line of the pin (its attribute).
    ...(diff.length > 0
      ? {
          update: {
            line: pin.at.line,
            text: acceptNow(pin.repin(pinJson(repinned(pin.expect, diff)))),
          },
        }
      : {}),
  };
}

/**
 * Every lab embed of a page, checked; none when the page has no embed.
 * @param file - the path as shown in the output.
 * @param page - the path to read sidecar files from (beside it).
 */
export function checkDocFile(
  file: string,
  page: string,
  text: string,
  kind: 'html' | 'markdown',
): CheckResult[] {
  const results: CheckResult[] = [];
  for (const tag of pageTags(text, kind)) {
    if (tag.name === ELEMENT) results.push(checkEmbed(file, page, tag, null));
    else if (tag.name === 'iframe') {
      const address = labAddress(tag);
      if (address) results.push(checkEmbed(file, page, tag, address));
      else {
        const pin = attribute(tag, PIN_ATTRIBUTES);
        // A pin on an iframe that shows no scenario of the lab would never be checked: say so.
        if (pin)
          results.push({
            file,
            name: 'iframe',
            status: 'malformed',
            problems: [
              `${pin.name}: the iframe's src names no scenario of the lab (its player is ?embed with preset=… or #s=…), so nothing checks this pin`,
            ],
            line: pin.line,
            partLine: tag.line,
          });
      }
    }
  }
  return results;
}
