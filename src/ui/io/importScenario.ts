/**
 * Import, whatever the way in (file picker, drop, paste): validate, and hand back the scenario
 * *as written* (what the workspace keeps) or the issues, each naming its field path. Never throws,
 * never touches the lab: the caller loads the scenario only when it is valid.
 */
import type { Challenge, ScenarioInput } from '../../engine';
import { looksLikeChallenge } from '../../scenarios/challenges/looksLike';
import { looksLikeLesson, parseLesson, resolveStep, type Lesson } from '../../scenarios/lessons';
import { decodeShare, shareIssueLines, shareParam } from '../../platform/share';
import { presetParamOf, resolvePresetParam } from '../../platform/presetUrl';
import { loadAllPresets, loadedPreset } from '../../scenarios/presetCatalog';
import { isSinkSqlFile } from '../../scenarios/config/sinkSql';
import { issueLines } from '../../views/io/export';
import {
  importScenarioFile,
  importScenarioText,
  type ReadableFile,
} from '../../views/io/scenarioImport';
import {
  isConfigFileName,
  looksLikeConfigText,
  pastedBatchName,
} from '../../scenarios/config/configText';
import { importConfigFiles, importConfigTexts, type ConfigReport } from './importConfigFiles';

/**
 * The outcome of an import. `presetRef` (`preset-id/variant-id`): the text was a page link naming a
 * preset (`?preset=…`), opened as that preset — its story and question with it.
 */
export type ImportOutcome =
  | {
      ok: true;
      input: ScenarioInput;
      name: string;
      from: string;
      presetRef?: string;
      /** The text was a lesson file (docs/workshops.md): the page opens its presenter view. */
      lesson?: Lesson;
      /** The text was a challenge file (docs/challenges.md): the page opens it, its start as `input`. */
      challenge?: Challenge;
      /** The text was configuration files (Kafka, Flink, Spark): which keys were applied, which ignored. */
      config?: ConfigReport;
    }
  | {
      ok: false;
      lines: string[];
      from: string;
      /** The input was taken for configuration files: the refusal names their lines. */
      config?: true;
      /** The refusal's own heading, where "… is not a valid scenario" would not be what failed. */
      heading?: string;
    };

const parseInput = (text: string): ScenarioInput =>
  JSON.parse(text.replace(/^\uFEFF/, '')) as ScenarioInput;

/**
 * Pasted text as a link would read: a link holds no whitespace, but a mail client wraps a long
 * one (a line break, spaces), so ASCII whitespace is taken out. Scenario JSON (`{…}`) is given
 * back as it is: its whitespace may be inside strings.
 */
function pastedLink(text: string): string {
  const t = text.trim();
  return t.startsWith('{') ? text : t.replace(/[\t\n\f\r ]+/g, '');
}

/** Is this pasted text a share link (a URL or hash with `s=`)? */
function isShareLink(text: string): boolean {
  const t = text.trim();
  if (t.startsWith('{')) return false;
  const i = t.indexOf('#');
  return i >= 0 && shareParam(t.slice(i)) !== null;
}

/**
 * The query of a page address (`https://…?…`) or of a bare query (`?…`): null when `text` is
 * neither, undefined when it is an address that does not parse.
 */
function searchOf(text: string): string | null | undefined {
  const t = text.trim();
  if (t.startsWith('?')) return t.split('#', 1)[0]!;
  if (!/^https?:\/\//i.test(t)) return null;
  try {
    return new URL(t).search;
  } catch {
    return undefined;
  }
}

/**
 * Whether text pasted on the page is meant for the importer: scenario JSON, a share link (`#s=`,
 * a damaged one too: it gets its refusal) or a page link naming a preset. A stray paste is not.
 */
export function looksImportable(text: string): boolean {
  const s = pastedLink(text).trim();
  return (
    s.startsWith('{') ||
    /#s=/.test(s) ||
    presetParamOf(searchOf(s) ?? '') !== null ||
    looksLikeConfigText(text)
  );
}

/**
 * A page address (or its query, `?…`) without a share link: the preset it names, as the page
 * opens `?preset=` (src/platform/presetUrl.ts) and the CLI runs it. Null when `text` is no link.
 */
function presetLink(text: string): ImportOutcome | null {
  const search = searchOf(text);
  if (search === null) return null;
  const from = 'the preset link';
  if (search === undefined) return { ok: false, from, lines: ['link: not a valid address'] };
  const value = presetParamOf(search);
  if (value === null)
    return {
      ok: false,
      from: 'the link',
      lines: [
        "link: a page link carries a scenario ('#s=…') or a preset ('?preset=…'); this one has neither",
      ],
    };
  const r = resolvePresetParam(value);
  const p = r.kind === 'preset' ? loadedPreset(r.ref) : undefined;
  if (r.kind === 'unknown' || !p)
    return { ok: false, from, lines: [`preset: ${r.kind === 'unknown' ? r.message : value}`] };
  return {
    ok: true,
    input: structuredClone(p.variant.scenario),
    name: p.variant.scenario.name ?? p.preset.id,
    from,
    presetRef: `${p.preset.id}/${p.variant.id}`,
  };
}

/**
 * Text that is a lesson file (JSON listing `steps`): the lesson (its first step's scenario as the
 * input), or its refusal naming the field. Null when the text is no lesson.
 */
function lessonImport(text: string, from: string, root: string): ImportOutcome | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return null;
  }
  if (!looksLikeLesson(raw)) return null;
  const r = parseLesson(raw);
  if (!r.ok)
    return {
      ok: false,
      lines: issueLines(r.issues, root, text),
      from,
      // It lists steps: what failed is a lesson, not a scenario.
      heading: `Not imported: ${from} is not a valid lesson.`,
    };
  const first = resolveStep(r.lesson, 0);
  return { ok: true, input: first.scenario, name: r.lesson.title, from, lesson: r.lesson };
}

/**
 * Text that is a challenge file (JSON with two of a challenge's own fields): the challenge, its
 * start as the input, validated as a shipped one is (the format, the start, the knobs it names);
 * or its refusal naming each field at its line. Null when the text is no challenge. Its id must
 * not be a shipped challenge's: `?challenge=<id>` names that one.
 */
async function challengeImport(
  text: string,
  from: string,
  root: string,
): Promise<ImportOutcome | null> {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return null;
  }
  if (!looksLikeChallenge(raw)) return null;
  // Its start may name a preset: every one must be loaded to be found.
  await loadAllPresets();
  const { checkChallenge, challengeById } = await import('../../scenarios/challenges');
  const r = checkChallenge(raw);
  const heading = `Not imported: ${from} is not a valid challenge.`;
  if (!r.ok) return { ok: false, lines: issueLines(r.issues, root, text), from, heading };
  const id = r.challenge.id;
  if (challengeById(id))
    return {
      ok: false,
      from,
      heading,
      lines: issueLines(
        [
          {
            path: 'id',
            message: `"${id}" is a shipped challenge's id (?challenge=${id} opens that one): give yours an id of its own`,
          },
        ],
        root,
        text,
      ),
    };
  return { ok: true, input: r.start, name: r.challenge.title, from, challenge: r.challenge };
}

/** Import pasted or typed text: scenario JSON, a share link, or a page link naming a preset. */
export function importText(text: string, from = 'the pasted text'): ImportOutcome {
  if (text.trim().startsWith('{')) {
    const lesson = lessonImport(text, from, '(pasted text)');
    if (lesson) return lesson;
  }
  const link = pastedLink(text);
  const preset = isShareLink(link) ? null : presetLink(link);
  if (preset) return preset;
  if (isShareLink(link)) {
    const r = decodeShare(link.slice(link.indexOf('#')));
    return r.ok
      ? { ok: true, input: r.input, name: r.scenario.name, from: 'the share link' }
      : { ok: false, lines: shareIssueLines(r.issues), from: 'the share link' };
  }
  const r = importScenarioText(text);
  if (!r.ok) return { ok: false, lines: issueLines(r.issues, '(pasted text)', text), from };
  return { ok: true, input: parseInput(text), name: r.scenario.name, from };
}

/**
 * Import pasted or dropped text: configuration lines (Kafka `.properties`, a Flink `config.yaml`,
 * sniffed by their keys) as `delivery-lab from-config` reads them, anything else as {@link importText}.
 */
export async function importPasted(text: string): Promise<ImportOutcome> {
  // A preset link, or a scenario that is a preset as shipped, opens as that preset: every one
  // must be loaded to be recognised (src/scenarios/presetCatalog.ts).
  await loadAllPresets();
  if (!looksLikeConfigText(text))
    return (
      (text.trim().startsWith('{')
        ? await challengeImport(text, 'the pasted text', '(pasted text)')
        : null) ?? importText(text)
    );
  // An Airflow DAG or a dbt model as theirs; a sink's INSERT or MERGE as SQL; nested keys (Flink's
  // config.yaml) as YAML; flat lines as `.properties`.
  const name =
    pastedBatchName(text) ??
    (isSinkSqlFile('', text)
      ? 'pasted sink.sql'
      : /^\s+[\w.-]+\s*:/m.test(text)
        ? 'pasted config.yaml'
        : 'pasted.properties');
  return importConfigTexts([{ name, text }]);
}

/** Import a file (picked or dropped). */
export async function importFile(file: ReadableFile): Promise<ImportOutcome> {
  if (isConfigFileName(file.name)) return importConfigFiles([file]);
  const from = file.name ? `“${file.name.slice(0, 80)}”` : 'the file';
  // Its issues start with its name, as `delivery-lab` prints a file's (`payments.json:3:5: …`).
  const label = file.name ? file.name.slice(0, 80) : '(file)';
  let raw = '';
  // Read through importScenarioFile (it refuses an oversized file before reading it), keeping
  // the text for the scenario as written.
  const r = await importScenarioFile({
    ...(file.name !== undefined ? { name: file.name } : {}),
    size: file.size,
    text: async () => (raw = await file.text()),
  });
  if (!r.ok && looksLikeConfigText(raw))
    return importConfigTexts([{ name: file.name ?? 'the file', text: raw }]);
  if (!r.ok)
    return (
      (await challengeImport(raw, from, label)) ??
      lessonImport(raw, from, label) ?? {
        ok: false,
        lines: issueLines(r.issues, label, raw),
        from,
      }
    );
  return { ok: true, input: parseInput(raw), name: r.scenario.name, from };
}

/**
 * Import several files at once (picked or dropped together): one goes as {@link importFile};
 * several only as configuration files, combined (a producer's `.properties` and a Flink
 * `config.yaml`), as `delivery-lab from-config` combines them.
 */
export async function importFiles(files: readonly ReadableFile[]): Promise<ImportOutcome> {
  if (files.length === 1) return importFile(files[0]!);
  const others = files.filter((f) => !isConfigFileName(f.name)).map((f) => f.name ?? 'a file');
  if (others.length > 0)
    return {
      ok: false,
      from: 'the files',
      heading: 'Not imported: these files do not open together.',
      lines: [
        `${others.join(', ')}: several files open together only as configuration files (.properties, .yaml, .sql); open a scenario file on its own`,
      ],
    };
  return importConfigFiles(files);
}
