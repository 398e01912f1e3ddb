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
 * | `panels=a,b` | which panels show: pipeline, transport, counters, verdict, why, compare (the link's lanes, `c=`, else the default offer: src/ui/compare/compareOffer.ts) | pipeline,transport,counters,verdict |
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

import { formatSpeedShown } from '../../views/run/format';
import { SPEED_DEFAULT, SPEED_MAX, SPEED_MIN } from '../../views/run/playback';
import type { PageNotice } from '../io/notices';
import type { SharePrediction } from '../../views/io/sharePrediction';
import {
  ELEMENT_OWN_ATTRIBUTES,
  EMBED_PARAMS,
  likelyElementAttribute,
  likelyEmbedParam,
  unknownEmbedParams,
} from '../../views/io/embedParams';
import {
  DEFAULT_PANELS,
  EMBED_PANELS,
  invalidEmbedValues,
  readEmbedOptions,
  shown,
  type EmbedOptions,
} from '../../views/io/embedValues';

export {
  CAPTION_MAX,
  DEFAULT_EMBED,
  DEFAULT_PANELS,
  EMBED_PANELS,
  invalidEmbedValues,
  parsePanels,
  PREDICT_MAX,
  startPastEndLine,
  startWithQuestionLine,
  type EmbedOptions,
  type EmbedPanel,
} from '../../views/io/embedValues';
export { isEmbed } from './embedAddress';
export { EMBED_PARAMS, likelyEmbedParam, unknownEmbedParams } from '../../views/io/embedParams';
export { attr, embedSnippet, HEIGHT_MESSAGE, type HeightMessage } from './embedSnippet';

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
        if (meant) return `“${shown(name)}” — did you mean “${meant}”?`;
        const own = likelyElementAttribute(name);
        if (!own) return `“${shown(name)}”`;
        const { holds, misspelt } = ELEMENT_OWN_ATTRIBUTES[own]!;
        return `“${shown(name)}” — did you mean the element’s “${own}” (${holds}; misspelt, ${misspelt})?`;
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
 * The Embed dialog's speed choices: the default first — no `speed=`, so the embed plays the run at
 * its own pace (src/views/run/pace.ts), as the lab opens it; it never reads the reader's saved
 * speed — then {@link SPEED_LADDER}, with the speed the lab plays at now in its place when it is on
 * neither (the author tuned it for this run). The default read "×0.01, the lab’s default" while
 * the embed played lost-ack-retry at its pace, ×0.0056.
 * @param current - the lab's speed now (virtual ms per real ms).
 * @param pace - the run's own pace, which the default plays at.
 */
export function speedChoices(current: number, pace: number = SPEED_DEFAULT): SpeedChoice[] {
  const values: number[] = [...SPEED_LADDER];
  const now = Math.min(SPEED_MAX, Math.max(SPEED_MIN, current));
  if (now !== pace && !values.includes(now)) values.push(now);
  values.sort((x, y) => x - y);
  // In the words the page's speed is shown in ("1 s in 1.3 min", the transport's), where
  // "×0.1" meant nothing; then the `speed=` it writes, the number the player's notice names.
  return [
    {
      value: null,
      label: `${formatSpeedShown(pace)}, the run’s own pace${current === pace ? ' (as it plays now)' : ''}`,
    },
    ...values.map((value) => ({
      value,
      label: `${formatSpeedShown(value)} (speed=${value}${value === current ? ', as the lab plays now' : ''})`,
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
