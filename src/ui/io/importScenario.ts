/**
 * Import, whatever the way in (file picker, drop, paste): validate, and hand back the scenario
 * *as written* (what the workspace keeps) or the issues, each naming its field path. Never throws,
 * never touches the lab: the caller loads the scenario only when it is valid.
 */
import type { ScenarioInput } from '../../engine';
import { decodeShare, shareIssueLines, shareParam } from '../../platform/share';
import {
  importScenarioFile,
  importScenarioText,
  issueLines,
  type ReadableFile,
} from '../../views/export';

/** The outcome of an import. */
export type ImportOutcome =
  | { ok: true; input: ScenarioInput; name: string; from: string }
  | { ok: false; lines: string[]; from: string };

const parseInput = (text: string): ScenarioInput =>
  JSON.parse(text.replace(/^\uFEFF/, '')) as ScenarioInput;

/** Is this pasted text a share link (a URL or hash with `s=`)? */
function isShareLink(text: string): boolean {
  const t = text.trim();
  if (t.startsWith('{')) return false;
  const i = t.indexOf('#');
  return i >= 0 && shareParam(t.slice(i)) !== null;
}

/** Import pasted or typed text: scenario JSON, or a share link. */
export function importText(text: string, from = 'the pasted text'): ImportOutcome {
  if (isShareLink(text)) {
    const t = text.trim();
    const r = decodeShare(t.slice(t.indexOf('#')));
    return r.ok
      ? { ok: true, input: r.input, name: r.scenario.name, from: 'the share link' }
      : { ok: false, lines: shareIssueLines(r.issues), from: 'the share link' };
  }
  const r = importScenarioText(text);
  if (!r.ok) return { ok: false, lines: issueLines(r.issues, '(pasted text)'), from };
  return { ok: true, input: parseInput(text), name: r.scenario.name, from };
}

/** Import a file (picked or dropped). */
export async function importFile(file: ReadableFile): Promise<ImportOutcome> {
  const from = file.name ? `“${file.name.slice(0, 80)}”` : 'the file';
  let raw = '';
  // Read through importScenarioFile (it refuses an oversized file before reading it), keeping
  // the text for the scenario as written.
  const r = await importScenarioFile({
    ...(file.name !== undefined ? { name: file.name } : {}),
    size: file.size,
    text: async () => (raw = await file.text()),
  });
  if (!r.ok) return { ok: false, lines: issueLines(r.issues, '(file)'), from };
  return { ok: true, input: parseInput(raw), name: r.scenario.name, from };
}
