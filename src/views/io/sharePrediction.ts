/**
 * "Predict first" in a share link: the author's question and answer travel beside the scenario,
 * in the hash parameter `p` (`#s=2.…&p=1.…`), so a link of an edited preset — or of any scenario
 * — asks its reader what the author chose, as a link of a preset as shipped asks the preset's own
 * question (it opens as that preset, src/ui/io/startup.ts).
 *
 * URL scheme of `p`:
 * - `p=0`: ask nothing — not even a preset's own question (the author unticked it);
 * - `p=1.<base64url(UTF-8 JSON {"q": question, "a": answer})>` (RFC 4648 §5, no padding): ask
 *   `q` (empty: the generic multiple-choice question, `GENERIC_QUESTION`, src/views/library/question.ts) and reveal `a`
 *   at the end of the run. Encoded so the answer does not read at a glance in the address bar
 *   (a hash is never sent to a server; it is not a secret either).
 *
 * A link of a preset as shipped that asks the preset's own question carries no `p`: the page
 * knows the question and its answer, which then stays out of the link (the Embed dialog's rule).
 *
 * Pure: the codec, what the Share popover's choice puts in the link, and which question the page
 * asks of a lab state once a link has asked one.
 */
import type { ScenarioInput } from '../../engine';
import { loadedPreset } from '../../scenarios/presetCatalog';
import {
  isPristinePreset,
  presetSubject,
  questionVariant,
  type PredictionSubject,
} from '../library/library';
import { fromBase64Url, PREDICT_PARAM, toBase64Url } from './shareParam';

// Where they have always been imported from; they live in ./shareParam.ts, which needs no decoder.
export { PREDICT_PARAM, PREDICTION_UNREADABLE } from './shareParam';
/** Longest question or answer kept (characters), as an embed's `q=` and `a=`. */
export const SHARE_PREDICT_MAX = 600;
/** Longest `p` value read (characters): two texts of {@link SHARE_PREDICT_MAX}, in base64url. */
const MAX_PARAM_CHARS = 16_000;

/** What a share link asks: nothing (`p=0`), or a question and its answer. */
export type SharePrediction = { ask: false } | { ask: true; question: string; answer: string };

// Text from a URL is data: cut to size and strip control characters (one line each).
const clean = (v: unknown): string =>
  typeof v === 'string'
    ? v
        .replace(/[\u0000-\u001f\u007f]/g, ' ')
        .trim()
        .slice(0, SHARE_PREDICT_MAX)
    : '';

/** The `p=…` parameter (no leading `&`) for a prediction. Deterministic. */
export function encodeSharePrediction(p: SharePrediction): string {
  if (!p.ask) return `${PREDICT_PARAM}=0`;
  const json = JSON.stringify({ q: clean(p.question), a: clean(p.answer) });
  return `${PREDICT_PARAM}=1.${toBase64Url(new TextEncoder().encode(json))}`;
}

/**
 * The prediction a URL hash carries, or null when it carries none — or one this build cannot read
 * (damaged, unknown version): the scenario still opens, as if the link asked nothing of its own,
 * and the page says so ({@link sharePredictionUnreadable}). Never throws.
 * @param hash - `location.hash` (with or without the leading `#`).
 */
export function decodeSharePrediction(hash: string): SharePrediction | null {
  const value = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash).get(PREDICT_PARAM);
  if (value === null || value.length > MAX_PARAM_CHARS) return null;
  if (value === '0') return { ask: false };
  const m = /^1\.([A-Za-z0-9_-]*)$/.exec(value);
  if (!m) return null;
  try {
    const data = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(m[1]!)),
    ) as unknown;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
    const { q, a } = data as { q?: unknown; a?: unknown };
    return { ask: true, question: clean(q), answer: clean(a) };
  } catch {
    return null;
  }
}

/**
 * Whether a URL hash carries a `p` this build cannot read (damaged, unknown version, too long):
 * the scenario opens without it, and the reader must be told — else the link's question is lost
 * without a word, the outcome shown at once.
 * @param hash - `location.hash` (with or without the leading `#`).
 */
export function sharePredictionUnreadable(hash: string): boolean {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  return params.has(PREDICT_PARAM) && decodeSharePrediction(hash) === null;
}

/** The Share popover's prediction choice: its checkbox and its two fields. */
export interface PredictionChoice {
  ask: boolean;
  question: string;
  answer: string;
}

/**
 * What a link carries for the author's choice (null: no `p`).
 * @param own - the question the page asks by itself when it opens the link: a preset's as
 *   shipped, on the variant the question is about (null: none — an edited preset, another
 *   variant, a scenario of one's own). Asking exactly that needs nothing in the link, and keeps
 *   the answer out of it; unticking it needs `p=0`. Anything else is the author's question.
 */
export function sharePredictionFor(
  choice: PredictionChoice,
  own: { question: string; answer: string } | null,
): SharePrediction | null {
  if (!choice.ask) return own ? { ask: false } : null;
  const question = clean(choice.question);
  const answer = clean(choice.answer);
  if (own && question === own.question && answer === own.answer) return null;
  return { ask: true, question, answer };
}

/**
 * The question the page asks by itself when it opens a link of this workspace: the open preset's,
 * when the workspace is its variant as shipped and the question is about that variant (such a
 * link opens as the preset). Null otherwise: an edited preset's answer describes another run, as
 * does a question about another variant (the Embed dialog's rule too).
 */
export function ownPresetQuestion(
  scenario: ScenarioInput,
  presetRef: string | null,
): { question: string; answer: string } | null {
  const open = presetRef ? loadedPreset(presetRef) : undefined;
  if (!open || !isPristinePreset(scenario, presetRef)) return null;
  if (questionVariant(open.preset) !== open.variant.id) return null;
  return { question: open.preset.predict.question, answer: open.preset.predict.answer };
}

/**
 * The Share popover's choice when it opens: the page's own question ticked and filled in where
 * there is one ({@link ownPresetQuestion}), else unticked and empty — as the Embed dialog starts.
 */
export function defaultPredictionChoice(
  own: { question: string; answer: string } | null,
): PredictionChoice {
  return own ? { ask: true, ...own } : { ask: false, question: '', answer: '' };
}

/** A share link's prediction, as the page that opened the link keeps it. */
export interface LinkedPrediction {
  /** Where its prediction is kept (one per link opened: a second link asks afresh). */
  key: string;
  /** The scenario object the link opened: the run its answer describes. */
  scenario: ScenarioInput;
  /** The preset the link opened as (`pristinePresetRef`), or null. */
  presetRef: string | null;
  prediction: SharePrediction;
}

/** The lab state a linked prediction is judged against. */
export interface LinkState {
  scenario: ScenarioInput;
  presetRef: string | null;
  /** The undo history (oldest first): the scenario of each step. */
  past: readonly { scenario: ScenarioInput }[];
}

/**
 * Whether the link's prediction (rather than the open preset's) is the one asked of this state:
 * the workspace is the scenario the link opened, or an edit of it — the same preset (or none) open
 * and the link's scenario in the undo history. Opening a preset, or undoing back to the workspace
 * from before the link, leaves the link's question behind.
 */
export function linkApplies(link: LinkedPrediction | null, s: LinkState): boolean {
  if (!link) return false;
  if (s.scenario === link.scenario) return true;
  return s.presetRef === link.presetRef && s.past.some((step) => step.scenario === link.scenario);
}

/**
 * The page's subject once a link may have asked a question: the link's while it applies
 * ({@link linkApplies}; pristine only on the scenario it opened; nothing when it asks nothing),
 * else the open preset's ({@link presetSubject}).
 */
export function linkedSubject(
  link: LinkedPrediction | null,
  s: LinkState,
): PredictionSubject | null {
  if (link && linkApplies(link, s))
    return link.prediction.ask
      ? { key: link.key, otherVariant: false, pristine: s.scenario === link.scenario }
      : null;
  return presetSubject(s);
}
