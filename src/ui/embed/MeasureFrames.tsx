import { useEffect, useRef, useState } from 'react';
import { formatInitialHeight, type InitialHeightRule } from '../../views/io/initialHeight';
import { HEIGHT_MESSAGE } from './embedSnippet';

/**
 * The frame widths the Embed dialog measures its player at: a docs column (720 px: the compact
 * layout, 480–760 px) and a phone's (358 px: a 390 px screen less its margins; under 480 px the
 * stages take the whole width, one under another, and the player is ~1.5× as tall). One height
 * cannot serve both: the text below moved by ~400 px on one or the other.
 */
export const MEASURED_WIDTHS = { column: 720, phone: 358 } as const;

type MeasuredWidth = keyof typeof MEASURED_WIDTHS;
const MEASURED = Object.keys(MEASURED_WIDTHS) as MeasuredWidth[];
/** Each hidden frame's accessible name. */
const TITLES: Record<MeasuredWidth, string> = {
  column: 'Measuring the player in a 720 px column',
  phone: 'Measuring the player in a phone’s column',
};

/** Frames narrower than the compact layout's 480 px get the phone's height (docs/embed.md). */
const PHONE_MAX_WIDTH = 479;

/** What the player reported at each width, once it has (its first height message and after). */
export interface MeasuredHeights {
  column?: number;
  phone?: number;
}

/**
 * The `initial-height` of the measured heights (src/views/io/initialHeight.ts): the phone's for
 * frames under 480 px, the column's for any other; one number when both are the same. Undefined
 * until both are in.
 */
export function initialHeightOf(m: MeasuredHeights): string | undefined {
  if (m.column === undefined || m.phone === undefined) return undefined;
  const rules: InitialHeightRule[] =
    m.phone === m.column
      ? [{ maxWidth: null, height: m.column }]
      : [
          { maxWidth: PHONE_MAX_WIDTH, height: m.phone },
          { maxWidth: null, height: m.column },
        ];
  return formatInitialHeight(rules);
}

/**
 * The player of `url` in two hidden, inert frames (out of the tab order and the accessibility
 * tree, their documents too: https://html.spec.whatwg.org/multipage/interaction.html#inert-subtrees), one per {@link MEASURED_WIDTHS}, and the height each
 * reports (its `delivery-lab:height` message: the height it keeps for its whole run, docs/embed.md
 * "The height message"): the height the Embed dialog writes, so the host page's frame starts at
 * the height it will have. Measured again when the address changes (another option, another run).
 */
export function MeasureFrames({
  url,
  onMeasured,
}: {
  url: string;
  onMeasured: (m: MeasuredHeights) => void;
}) {
  const frames = useRef<Partial<Record<MeasuredWidth, HTMLIFrameElement | null>>>({});
  // Each height with the address it was measured for: another address starts with none.
  const [measured, setMeasured] = useState<MeasuredHeights & { url?: string }>({});
  useEffect(() => {
    const origin = new URL(url).origin;
    const listen = (event: MessageEvent) => {
      const m = event.data as { type?: unknown; height?: unknown } | null;
      if (event.origin !== origin || m?.type !== HEIGHT_MESSAGE) return;
      if (typeof m.height !== 'number' || !Number.isFinite(m.height)) return;
      const height = Math.ceil(m.height);
      const which = MEASURED.find((w) => event.source === frames.current[w]?.contentWindow);
      if (which) setMeasured((x) => ({ ...(x.url === url ? x : { url }), [which]: height }));
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [url]);
  const current = measured.url === url ? measured : undefined;
  const columnHeight = current?.column;
  const phoneHeight = current?.phone;
  useEffect(
    () =>
      onMeasured({
        ...(columnHeight ? { column: columnHeight } : {}),
        ...(phoneHeight ? { phone: phoneHeight } : {}),
      }),
    [columnHeight, phoneHeight, onMeasured],
  );
  const frame = (width: number) => ({
    position: 'fixed' as const,
    left: -10_000,
    top: 0,
    width,
    height: 400,
    border: 0,
    visibility: 'hidden' as const,
  });
  return (
    <>
      {MEASURED.map((w) => (
        <iframe
          key={`${w} ${url}`}
          ref={(el) => {
            frames.current[w] = el;
          }}
          src={url}
          title={TITLES[w]}
          inert
          data-measure={w}
          style={frame(MEASURED_WIDTHS[w])}
        />
      ))}
    </>
  );
}
