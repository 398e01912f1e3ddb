/**
 * An embedded player's options as its address writes them (`?embed&autoplay=1&t=40000…`), read
 * into the values the player uses, each with the notice line that says why a value could not be
 * used as written (src/ui/embed/embedOptions.ts lists the options and shows the notice). Pure and
 * in views, so `delivery-lab check` (src/cli/checkDocs.ts) refuses what the player would warn a
 * reader about: the same reading, one source.
 */
import { formatCount, formatSpeed } from '../run/format';
import { SPEED_MAX, SPEED_MIN } from '../run/playback';
import { nearest } from '../../engine/core/editDistance';

/** Longest value (or unknown name) quoted back in the notice (a hostile URL may be huge). */
const SHOWN_MAX = 40;
/** Text from the address quoted in a notice line, cut to {@link SHOWN_MAX} characters. */
export const shown = (v: string) => (v.length > SHOWN_MAX ? `${v.slice(0, SHOWN_MAX)}…` : v);
/** `“name=value” — ` at the head of a notice line about a value. */
const said = (name: string, raw: string) => `“${name}=${shown(raw)}” — `;

/** `layout=`: auto picks compact in a narrow frame (src/ui/embed/embedLook.ts, `isCompact`). */
const EMBED_LAYOUTS = ['auto', 'compact', 'full'] as const;
export type EmbedLayout = (typeof EMBED_LAYOUTS)[number];

/**
 * `theme=`: light or dark as said, auto follows the reader's system (`prefers-color-scheme`),
 * host follows what the host page posts (src/ui/embed/embedLook.ts), the system's until it does.
 */
const EMBED_THEMES = ['auto', 'light', 'dark', 'host'] as const;
export type EmbedTheme = (typeof EMBED_THEMES)[number];

/** Smallest and largest `height=` kept (CSS px): a player below 200 px shows nothing useful. */
const HEIGHT_MIN = 200;
const HEIGHT_MAX = 4000;

/** One option read: the value used and, when the value as written could not be, why. */
export interface Read<T> {
  value: T;
  issue?: string;
}

/** One of a fixed list of words (any case); anything else: `auto`, said in the notice. */
function readChoice<T extends string>(
  name: string,
  raw: string | null,
  choices: readonly T[],
): Read<T> {
  const fallback = choices[0]!;
  if (raw === null) return { value: fallback };
  const v = raw.trim().toLowerCase();
  const hit = choices.find((c) => c === v);
  if (hit) return { value: hit };
  return {
    value: fallback,
    issue: `${said(name, raw)}not a choice: used ${fallback} (${name}: ${choices.join(', ')})`,
  };
}

const readLayout = (raw: string | null) => readChoice('layout', raw, EMBED_LAYOUTS);
const readTheme = (raw: string | null) => readChoice('theme', raw, EMBED_THEMES);

/** `height=<px>`: a whole number of CSS px, taken into range; null (sized to the run) when absent. */
export function readHeight(raw: string | null): Read<number | null> {
  if (raw === null) return { value: null };
  const takes = `(height: CSS px, ${HEIGHT_MIN} to ${HEIGHT_MAX})`;
  const x = raw.trim() === '' ? NaN : Number(raw.trim().replace(/px$/i, ''));
  if (!Number.isFinite(x))
    return { value: null, issue: `${said('height', raw)}not a number: sized to the run ${takes}` };
  const h = Math.round(Math.min(HEIGHT_MAX, Math.max(HEIGHT_MIN, x)));
  if (h !== Math.round(x))
    return { value: h, issue: `${said('height', raw)}out of range: ${h} px ${takes}` };
  return { value: h };
}

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

/** The panel a name that is none is probably a misspelling of (one or two edits), or null. */
function likelyPanel(name: string): EmbedPanel | null {
  return nearest(name, EMBED_PANELS, (p) => (p.length >= 6 ? 2 : 1));
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
 * The notice's line when `panels=` asks a batch job's player for what it does not have: it shows
 * its schedule, table and verdict whatever `panels` says, and has no Compare lanes — only `why`
 * is read (src/ui/batch/BatchEmbed.tsx's notice, and `delivery-lab check`'s problem). Null for the default panels, with or without `why`.
 */
function batchPanelsLine(panels: readonly string[]): string | null {
  const asked = panels.filter((p) => p !== 'why');
  const same =
    asked.length === DEFAULT_PANELS.length && DEFAULT_PANELS.every((p) => asked.includes(p));
  if (same) return null;
  return `“panels=${panels.join(',')}” — a batch job’s player shows its schedule, its table and its verdict whatever panels says, and has no Compare: only “why” is read`;
}

/**
 * Every option a batch job's player does not use as written, each a line of its notice (and of
 * `delivery-lab check`): `panels` it does not have ({@link batchPanelsLine}), a start time `t`
 * (it opens at the start of its schedule) and a `speed` (its schedule plays at its own pace).
 */
export function batchUnusedLines(o: Pick<EmbedOptions, 'panels' | 'start' | 'speed'>): string[] {
  const lines: string[] = [];
  const panels = batchPanelsLine(o.panels);
  if (panels) lines.push(panels);
  if (o.start > 0)
    lines.push(
      `${said('t', String(o.start))}a batch job’s player opens at the start of its schedule: not used`,
    );
  if (o.speed !== null)
    lines.push(
      `${said('speed', String(o.speed))}a batch job’s player plays its schedule at its own pace: not used`,
    );
  return lines;
}

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
export function readEmbedOptions(search: string): {
  [K in keyof EmbedOptions]: Read<EmbedOptions[K]>;
} {
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
