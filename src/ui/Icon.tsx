/**
 * The few symbols common fonts lack (a projector laptop may have only basic fonts): drawn as
 * inline SVG that follows the text colour. Decorative: each use sits next to words.
 */
export type IconName = 'dup' | 'hourglass' | 'info' | 'skip' | 'library';

const PATHS: Record<IconName, string> = {
  // Two overlapping squares: "a copy".
  dup: 'M5 1h9v9H5z M2 5v10h10',
  // An hourglass: "waiting for the transaction".
  hourglass: 'M3 1h10 M3 15h10 M4 1c0 5 8 5 8 7s-8 2-8 7 M12 1c0 5-8 5-8 7s8 2 8 7',
  // i in a circle.
  info: 'M8 1a7 7 0 1 0 0.01 0z M8 7v5 M8 4.2v0.6',
  // Fast forward to a bar: "skipped ahead".
  skip: 'M1.5 3l5.5 5-5.5 5z M7 3l5.5 5L7 13z M14.5 3v10',
  // Three books on a shelf.
  library: 'M1.5 2.5h3v11h-3z M5.5 2.5h3v11h-3z M9.6 3.4l2.9-0.8 2.9 10.6-2.9 0.8z',
};

/** An inline icon, 1em square. */
export function Icon({ name }: { name: IconName }) {
  return (
    <svg
      className="icon"
      viewBox="0 0 16 16"
      width="1em"
      height="1em"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.7"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
