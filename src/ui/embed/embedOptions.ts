/**
 * The embedded player's options, in the page's query string (`?embed&autoplay=1&t=40000…`), and
 * the iframe snippet the Embed dialog writes. Pure: tested without a browser.
 *
 * | parameter | meaning | default |
 * |---|---|---|
 * | `embed` | the compact player instead of the full lab | — |
 * | `autoplay=1` | start playing once the run is ready (with a prediction asked: once it is locked in or skipped) | off |
 * | `t=<ms>` | start at this virtual time | 0 |
 * | `speed=<x>` | virtual ms per real ms (0.001 … 1000; out of range: the nearest end) | the lab's |
 * | `panels=a,b` | which panels show: pipeline, transport, counters, verdict, why, compare (the link's lanes, `c=`, else the other two guarantees) | pipeline,transport,counters,verdict |
 * | `caption=<text>` | a caption above the player (text, never markup) | none |
 * | `lock=1` | knobs locked: no guarantee switch, no faults by clicking | unlocked |
 * | `predict=1` | ask for a prediction first; locking it in plays; the answer and verdict at the run's end | off; a share link's `p=1`: on ({@link withSharePrediction}) |
 * | `q=`, `a=` | the question and its answer (else the preset's on the variant it is about, else a generic one with choices: embedQuestion.ts) | — |
 * | `id=<text>` | echoed in every message to the host page, to tell frames apart | none |
 *
 * The scenario itself travels as everywhere else: `#s=` (a share link, exact) or `?preset=`.
 * Any other query parameter is ignored, and a value the embed cannot use as written falls back
 * (a speed out of range goes to the nearest end of it); both are named in a notice
 * ({@link embedOptionsNotice}) with what was used instead and what the option takes.
 */

import { formatCount, formatSpeed } from '../../views/run/format';
import { SPEED_DEFAULT, SPEED_MAX, SPEED_MIN } from '../../views/run/playback';
import type { PageNotice } from '../io/notices';
import type { SharePrediction } from '../../views/io/sharePrediction';
import {
  readHeight,
  readLayout,
  readTheme,
  type EmbedLayout,
  type EmbedTheme,
  type Read,
} from './embedLook';
import { distance } from '../../views/edit/editDistance';
import { EMBED_PARAMS, likelyEmbedParam, unknownEmbedParams } from '../../views/io/embedParams';

export { EMBED_PARAMS, likelyEmbedParam, unknownEmbedParams } from '../../views/io/embedParams';
export { attr, embedSnippet, HEIGHT_MESSAGE, type HeightMessage } from './embedSnippet';

/** Panels the embed can show. */
export const EMBED_PANELS = [
  'pipeline',
  'transport',
  'counters',
  'verdict',
  'why',
  'compare',
] as const;
/** One panel of {@link EMBED_PANELS}. */
export type EmbedPanel = (typeof EMBED_PANELS)[number];
/** Shown when `panels` is not given. */
export const DEFAULT_PANELS: readonly EmbedPanel[] = [
  'pipeline',
  'transport',
  'counters',
  'verdict',
];

/** Longest caption kept (characters). */
export const CAPTION_MAX = 200;
/** Longest question or answer kept (characters). */
export const PREDICT_MAX = 600;

/** The options of an embedded player. */
export interface EmbedOptions {
  autoplay: boolean;
  /** Start time (virtual ms). */
  start: number;
  /** Playback speed, or null for the lab's default. */
  speed: number | null;
  panels: EmbedPanel[];
  caption: string;
  lock: boolean;
  predict: boolean;
  question: string;
  answer: string;
  /** Echoed in the messages to the host page. */
  frameId: string;
  /** Compact or full player (auto: by the frame's width, embedLook.ts). */
  layout: EmbedLayout;
  theme: EmbedTheme;
  /** A fixed height (CSS px), or null: the height the run needs, reserved from the start. */
  height: number | null;
}

/** The defaults (what a bare `?embed` gets). */
export const DEFAULT_EMBED: EmbedOptions = {
  autoplay: false,
  start: 0,
  speed: null,
  panels: [...DEFAULT_PANELS],
  caption: '',
  lock: false,
  predict: false,
  question: '',
  answer: '',
  frameId: '',
  layout: 'auto',
  theme: 'auto',
  height: null,
};

/** Longest value (or unknown name) quoted back in the notice (a hostile URL may be huge). */
const SHOWN_MAX = 40;
/** Text from the address quoted in a notice line, cut to {@link SHOWN_MAX} characters. */
const shown = (v: string) => (v.length > SHOWN_MAX ? `${v.slice(0, SHOWN_MAX)}…` : v);
/** `“name=value” — ` at the head of a notice line about a value. */
const said = (name: string, raw: string) => `“${name}=${shown(raw)}” — `;

/** Values that turn a switch off (any case); any other value, or none (`&lock`), turns it on. */
const OFF = ['0', 'false', 'no', 'off'];
/** Values that turn a switch on without a word in the notice. */
const ON = ['', '1', 'true', 'yes', 'on'];

/** A switch (`autoplay`, `lock`, `predict`): off when absent. */
function readFlag(name: string, raw: string | null): Read<boolean> {
  if (raw === null) return { value: false };
  const v = raw.trim().toLowerCase();
  if (OFF.includes(v)) return { value: false };
  if (ON.includes(v)) return { value: true };
  return {
    value: true,
    issue: `${said(name, raw)}neither on nor off: read as on (${name}: 1, true, yes or on; 0, false, no or off)`,
  };
}

/**
 * Text from a URL is data: control characters become spaces (a caption is one line) and it is cut
 * to size — which the notice says.
 */
function readText(name: string, raw: string | null, max: number): Read<string> {
  const value = (raw ?? '').replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  if (value.length <= max) return { value };
  return {
    value: value.slice(0, max),
    issue: `“${name}” — ${formatCount(value.length)} characters: cut to its first ${formatCount(max)} (${name}: at most ${formatCount(max)})`,
  };
}

/** What the `t` option takes, for the notice. */
const T_TAKES = '(t: a virtual time in ms, from 0 to the run’s end)';

/** The `t` option: a whole number of virtual ms, 0 or more (a fraction is dropped). */
function readStart(raw: string | null): Read<number> {
  if (raw === null) return { value: 0 };
  const t = raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(t))
    return { value: 0, issue: `${said('t', raw)}not a number: opened at 0 ms ${T_TAKES}` };
  if (t < 0)
    return {
      value: 0,
      issue: `${said('t', raw)}before the run’s start: opened at 0 ms ${T_TAKES}`,
    };
  return { value: Math.floor(t) };
}

/**
 * The notice's line for a start time past the end of the run (known once the run is ready): the
 * embed opens at the end (src/ui/embed/EmbedApp.tsx). Null when the start is within the run.
 * @param start - the `t` option (virtual ms).
 * @param endTime - the run's end (virtual ms).
 */
export function startPastEndLine(start: number, endTime: number): string | null {
  if (start <= endTime) return null;
  return `${said('t', String(start))}past the run’s end, ${formatCount(endTime)} ms: opened at its end (t: a virtual time in ms, from 0 to ${formatCount(endTime)})`;
}

/**
 * The notice's line for a start time with `predict=1` while the question waits: the counters and
 * tables at `t` would give the outcome away before the answer (src/ui/embed/EmbedApp.tsx).
 * @param start - the `t` option (virtual ms).
 */
export function startWithQuestionLine(start: number): string {
  return `${said('t', String(start))}not used while the question waits (predict=1): opened at 0 ms, so the outcome shows only when the run reaches its end after the answer`;
}

/** What the `speed` option takes, for the notice. */
const SPEED_TAKES = `(speed: ${SPEED_MIN} to ${SPEED_MAX}, virtual ms per real ms)`;

/**
 * The `speed` option (virtual ms per real ms): null — the scenario's pace — when absent or not a
 * speed at all (not a number, 0 or less); a number out of range is taken to the nearest end of
 * it (`speed=1e9` plays as fast as the lab goes, ×1000, not at the default ×0.01).
 */
function readSpeed(raw: string | null): Read<number | null> {
  if (raw === null) return { value: null };
  const x = raw.trim() === '' ? NaN : Number(raw);
  // Without a speed, the player plays the scenario at its own pace (src/views/run/pace.ts).
  const fallback = `played at the scenario’s own pace ${SPEED_TAKES}`;
  if (!Number.isFinite(x))
    return { value: null, issue: `${said('speed', raw)}not a number: ${fallback}` };
  if (x <= 0) return { value: null, issue: `${said('speed', raw)}not above 0: ${fallback}` };
  if (x < SPEED_MIN)
    return {
      value: SPEED_MIN,
      issue: `${said('speed', raw)}below the slowest: played at ${formatSpeed(SPEED_MIN)} ${SPEED_TAKES}`,
    };
  if (x > SPEED_MAX)
    return {
      value: SPEED_MAX,
      issue: `${said('speed', raw)}above the fastest: played at ${formatSpeed(SPEED_MAX)} ${SPEED_TAKES}`,
    };
  return { value: x };
}

export { isEmbed } from './embedAddress';

/** The panel a name that is none is probably a misspelling of (one or two edits), or null. */
function likelyPanel(name: string): EmbedPanel | null {
  let best: EmbedPanel | null = null;
  let bestD = Infinity;
  for (const p of EMBED_PANELS) {
    const d = distance(name, p);
    if (d <= (p.length >= 6 ? 2 : 1) && d < bestD) {
      best = p;
      bestD = d;
    }
  }
  return best;
}

/**
 * The `panels` option: the names it lists that are panels (case and spaces ignored, empty names
 * skipped), in display order. A name that is no panel is left out, and the notice says which. A
 * value naming no panel at all — empty, `xyz` — falls back to the default set: a player showing
 * nothing is never what was meant.
 */
function readPanels(raw: string | null): Read<EmbedPanel[]> {
  if (raw === null) return { value: [...DEFAULT_PANELS] };
  const names = raw.split(',').map((x) => x.trim().toLowerCase());
  const asked = new Set(names);
  const panels = EMBED_PANELS.filter((x) => asked.has(x));
  const unknown = [...new Set(names.filter((x) => x !== '' && !isPanel(x)))];
  const takes = `(panels: ${EMBED_PANELS.join(', ')})`;
  const none = unknown.map((x) => {
    const meant = likelyPanel(x);
    return meant ? `“${shown(x)}” (did you mean “${meant}”?)` : `“${shown(x)}”`;
  });
  const noPanel = `no panel ${none.join(', ')}`;
  if (panels.length === 0)
    return {
      value: [...DEFAULT_PANELS],
      issue: `${said('panels', raw)}${unknown.length > 0 ? noPanel : 'names no panel'}: showed the default, ${DEFAULT_PANELS.join(', ')} ${takes}`,
    };
  if (unknown.length === 0) return { value: panels };
  return {
    value: panels,
    issue: `${said('panels', raw)}${noPanel}: showed ${panels.join(', ')} ${takes}`,
  };
}

const isPanel = (x: string): x is EmbedPanel => (EMBED_PANELS as readonly string[]).includes(x);

/**
 * The `panels` option's panels (see readPanels): the names it lists that are panels, in display
 * order; the default set when it names none (absent, empty, `xyz`).
 */
export function parsePanels(value: string | null): EmbedPanel[] {
  return readPanels(value).value;
}

/** Longest frame id kept (characters). */
const FRAME_ID_MAX = 80;

/** Every option read from a query string, each with its notice line if it has one. */
function readEmbedOptions(search: string): { [K in keyof EmbedOptions]: Read<EmbedOptions[K]> } {
  const p = new URLSearchParams(search);
  return {
    autoplay: readFlag('autoplay', p.get('autoplay')),
    start: readStart(p.get('t')),
    speed: readSpeed(p.get('speed')),
    panels: readPanels(p.get('panels')),
    caption: readText('caption', p.get('caption'), CAPTION_MAX),
    lock: readFlag('lock', p.get('lock')),
    predict: readFlag('predict', p.get('predict')),
    question: readText('q', p.get('q'), PREDICT_MAX),
    answer: readText('a', p.get('a'), PREDICT_MAX),
    frameId: readText('id', p.get('id'), FRAME_ID_MAX),
    layout: readLayout(p.get('layout')),
    theme: readTheme(p.get('theme')),
    height: readHeight(p.get('height')),
  };
}

/**
 * The values of an embed's address it cannot use as written, one notice line each, in the order
 * of {@link EMBED_PARAMS}: what was wrong, what the embed used instead, and what the option
 * takes. A question or answer without `predict=1` is not asked, which is said too. A start time
 * past the run's end is known only once it has run: {@link startPastEndLine}.
 */
export function invalidEmbedValues(search: string): string[] {
  const r = readEmbedOptions(search);
  const lines = [
    r.autoplay,
    r.start,
    r.speed,
    r.panels,
    r.caption,
    r.lock,
    r.predict,
    r.question,
    r.answer,
    r.frameId,
    r.layout,
    r.theme,
    r.height,
  ].flatMap((x) => (x.issue ? [x.issue] : []));
  const p = new URLSearchParams(search);
  const given = (['q', 'a'] as const).filter((k) => (p.get(k) ?? '').trim() !== '');
  if (given.length > 0 && !r.predict.value)
    lines.push(
      `${given.map((k) => `“${k}”`).join(' and ')} — asked only with predict=1, which this address does not have: not asked`,
    );
  return lines;
}

/**
 * The notice an embed shows when its address has options it does not know or values it cannot
 * use as written (none: null), so the author of a snippet with `autoply=1` or `speed=abc` sees
 * why it does not do what was meant instead of nothing at all. One line per unknown name, with
 * the likely intended one (the text then lists the known ones), then one per value
 * ({@link invalidEmbedValues}). The reader may dismiss it; the embed plays as the lines say.
 */
export function embedOptionsNotice(search: string): Omit<PageNotice, 'id'> | null {
  const unknown = unknownEmbedParams(search);
  const invalid = invalidEmbedValues(search);
  if (unknown.length === 0 && invalid.length === 0) return null;
  const ignores =
    unknown.length === 1
      ? 'ignores an option it does not know'
      : `ignores ${unknown.length} options it does not know`;
  const cannot =
    invalid.length === 1
      ? 'could not use an option as written'
      : `could not use ${invalid.length} options as written`;
  const text =
    unknown.length === 0
      ? `This embed ${cannot}:`
      : `This embed ${ignores}${invalid.length > 0 ? ` and ${cannot}` : ''}. Its options: ${EMBED_PARAMS.join(', ')}.`;
  return {
    tone: 'warn',
    text,
    lines: [
      ...unknown.map((name) => {
        const meant = likelyEmbedParam(name);
        return meant ? `“${shown(name)}” — did you mean “${meant}”?` : `“${shown(name)}”`;
      }),
      ...invalid,
    ],
  };
}

/**
 * Read the options from a query string: what cannot be used as written falls back to its
 * default, or for a speed out of range to the nearest end of it ({@link invalidEmbedValues} says
 * which).
 */
export function parseEmbedOptions(search: string): EmbedOptions {
  const r = readEmbedOptions(search);
  return {
    autoplay: r.autoplay.value,
    start: r.start.value,
    speed: r.speed.value,
    panels: r.panels.value,
    caption: r.caption.value,
    lock: r.lock.value,
    predict: r.predict.value,
    question: r.question.value,
    answer: r.answer.value,
    frameId: r.frameId.value,
    layout: r.layout.value,
    theme: r.theme.value,
    height: r.height.value,
  };
}

/**
 * The options once the share link the embed opened has had its say on "Predict first": its `p=`
 * (src/views/io/sharePrediction.ts) maps onto `predict=`, `q=` and `a=`, so a share link made an
 * embed by adding `?embed` asks what the page asks when it opens that link. `p=1.…` asks its
 * question (none written: the embed's own, as `predict=1` without `q`), `p=0` asks nothing.
 * The embed's own `predict=`, when the address has one, decides whether to ask (its author chose
 * for this frame); the link's question then fills in only a `q=` and `a=` left out.
 * @param search - the embed's query string (which options it has).
 * @param shared - the `p=` of the share link opened (null: none, or no share link opened).
 */
export function withSharePrediction(
  options: EmbedOptions,
  search: string,
  shared: SharePrediction | null,
): EmbedOptions {
  if (!shared) return options;
  if (new URLSearchParams(search).has('predict'))
    return options.predict && shared.ask && !options.question && !options.answer
      ? { ...options, question: shared.question, answer: shared.answer }
      : options;
  // Without `predict=`, a `q=` or `a=` is not asked (the notice says so): the link's are.
  return shared.ask
    ? { ...options, predict: true, question: shared.question, answer: shared.answer }
    : { ...options, predict: false, question: '', answer: '' };
}

/** One choice of the Embed dialog's speed: null is the lab's default (no `speed=` written). */
export interface SpeedChoice {
  value: number | null;
  label: string;
}

/** The speeds the Embed dialog offers beside the default: a 1-2-5 ladder over the lab's range. */
const SPEED_LADDER = [
  0.001, 0.002, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 100, 1000,
] as const;

/**
 * The Embed dialog's speed choices: the lab's default first (the embed never reads the reader's
 * saved speed, so it plays at {@link SPEED_DEFAULT}), then {@link SPEED_LADDER}, with the speed
 * the lab plays at now in its place when it is on neither (the author tuned it for this run).
 * @param current - the lab's speed now (virtual ms per real ms).
 */
export function speedChoices(current: number): SpeedChoice[] {
  const values: number[] = [...SPEED_LADDER];
  const now = Math.min(SPEED_MAX, Math.max(SPEED_MIN, current));
  if (now !== SPEED_DEFAULT && !values.includes(now)) values.push(now);
  values.sort((x, y) => x - y);
  return [
    {
      value: null,
      label: `${formatSpeed(SPEED_DEFAULT)}, the lab’s default${current === SPEED_DEFAULT ? ' (as it plays now)' : ''}`,
    },
    ...values.map((value) => ({
      value,
      label: `${formatSpeed(value)}${value === current ? ' (as the lab plays now)' : ''}`,
    })),
  ];
}

/**
 * The query string of an embed (`?embed&…`): only the options that differ from the defaults,
 * and `preset` when given (a share link goes in the hash instead).
 */
export function embedQuery(o: EmbedOptions, preset?: string | null): string {
  const parts = ['embed'];
  const p = new URLSearchParams();
  if (preset) p.set('preset', preset);
  if (o.autoplay) p.set('autoplay', '1');
  if (o.start > 0) p.set('t', String(Math.floor(o.start)));
  if (o.speed !== null) p.set('speed', String(o.speed));
  const same =
    o.panels.length === DEFAULT_PANELS.length && DEFAULT_PANELS.every((x) => o.panels.includes(x));
  if (!same) p.set('panels', EMBED_PANELS.filter((x) => o.panels.includes(x)).join(','));
  if (o.caption) p.set('caption', o.caption);
  if (o.lock) p.set('lock', '1');
  if (o.predict) {
    p.set('predict', '1');
    if (o.question) p.set('q', o.question);
    if (o.answer) p.set('a', o.answer);
  }
  if (o.frameId) p.set('id', o.frameId);
  if (o.layout !== 'auto') p.set('layout', o.layout);
  if (o.theme !== 'auto') p.set('theme', o.theme);
  if (o.height !== null) p.set('height', String(o.height));
  const rest = p.toString();
  if (rest) parts.push(rest);
  return `?${parts.join('&')}`;
}
