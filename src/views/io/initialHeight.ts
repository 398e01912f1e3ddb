/**
 * The loader's `initial-height` attribute (public/embed.js, docs/embed.md "The height message"):
 * the frame's height before the player's first height message, so the text below an embed does
 * not move when the player has measured its run. One number cannot be right for every column: a
 * run's player measured 790 px in a 720 px frame and 1,210 px in a phone's 358 px one (its stages
 * wrap), so the value may give a height per frame width, in the form of `<img sizes>`
 * (https://developer.mozilla.org/en-US/docs/Web/HTML/Element/img#sizes):
 * `(max-width: 479px) 1210px, 790px` — the first entry whose `max-width` the frame's width fits,
 * else the last, which has no condition. The width is the frame's (the column's), not the
 * window's: the player's own layouts switch on the frame's width. Pure: `delivery-lab check`
 * (src/cli/checkDocs.ts) and the Embed dialog share it; the loader, plain JS with no import,
 * reads the same form (pinned by src/ui/embed/embedLoader.test.ts).
 */

/** Smallest and largest initial height (CSS px): the player's own `height=` range. */
const INITIAL_HEIGHT_MIN = 200;
const INITIAL_HEIGHT_MAX = 4000;

/** One entry: a height for frames at most `maxWidth` wide (null: any width). */
export interface InitialHeightRule {
  maxWidth: number | null;
  height: number;
}

const NUMBER = String.raw`(\d+(?:\.\d+)?)`;
const ENTRY = new RegExp(
  String.raw`^(?:\(\s*max-width\s*:\s*${NUMBER}([a-z%]*)\s*\)\s*)?${NUMBER}([a-z%]*)$`,
  'i',
);

/**
 * Read an `initial-height` value: its rules in order, the last one for any width; or the
 * problem, naming the entry (a unit other than px, a height out of range, a condition on the last
 * entry). A bare number is px, as the player's `height=` reads it.
 */
export function parseInitialHeight(
  value: string,
): { ok: true; rules: InitialHeightRule[] } | { ok: false; message: string } {
  const takes = `(CSS px, ${INITIAL_HEIGHT_MIN} to ${INITIAL_HEIGHT_MAX}: “790” or “(max-width: 479px) 1210px, 790px”)`;
  const entries = value.split(',').map((e) => e.trim());
  const rules: InitialHeightRule[] = [];
  for (const entry of entries) {
    const m = ENTRY.exec(entry);
    if (!m) return { ok: false, message: `“${entry.slice(0, 60)}” is not a height ${takes}` };
    const [, width, widthUnit, height, heightUnit] = m;
    for (const unit of [widthUnit, heightUnit])
      if (unit && unit.toLowerCase() !== 'px')
        return { ok: false, message: `“${entry}”: ${unit} is not a unit it takes ${takes}` };
    const h = Number(height);
    if (h < INITIAL_HEIGHT_MIN || h > INITIAL_HEIGHT_MAX)
      return { ok: false, message: `“${entry}”: ${h} px is out of range ${takes}` };
    rules.push({ maxWidth: width === undefined ? null : Number(width), height: h });
  }
  const last = rules[rules.length - 1]!;
  if (last.maxWidth !== null)
    return {
      ok: false,
      message: `“${entries[entries.length - 1]}”: the last entry is the height for any other width, with no (max-width: …) ${takes}`,
    };
  if (rules.slice(0, -1).some((r) => r.maxWidth === null))
    return {
      ok: false,
      message: `“${value.slice(0, 60)}”: only the last entry goes without a (max-width: …) ${takes}`,
    };
  return { ok: true, rules };
}

/** The height a frame `width` px wide starts at. */
export function initialHeightFor(rules: readonly InitialHeightRule[], width: number): number {
  return rules.find((r) => r.maxWidth === null || width <= r.maxWidth)!.height;
}

/** Rules as the attribute writes them (`(max-width: 479px) 1210px, 790px`, or `790px`). */
export function formatInitialHeight(rules: readonly InitialHeightRule[]): string {
  return rules
    .map((r) =>
      r.maxWidth === null ? `${r.height}px` : `(max-width: ${r.maxWidth}px) ${r.height}px`,
    )
    .join(', ');
}
