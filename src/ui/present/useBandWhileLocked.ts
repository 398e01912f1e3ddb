import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * Projector mode, an answer locked in: whether the story stays the band above the pipeline (as
 * while asked) until the reveal, rather than going beside it. It goes beside unless its column
 * cannot hold the title, the setup whole and the question's box at their heights (the story's
 * Story/Watch/Try/Sources, hidden until the reveal, at their box's least): the setup is what the
 * room reads while the run plays (issue 24). At 1280×720 the column is 19em beside a pipeline at
 * its stages' least widths, and 9 of the 26 library stories do not fit (flink-commit-phase-crash's
 * 540-character setup takes 437 px of its 556 px) — 19 while the box held "You predicted", now on
 * the verdict's card (LockedPrediction), 14 until five setups within 21 px of the room lost a line
 * (at-least-once's question box was 19 px short); at
 * 1920×1080 all do. Measured, not counted in characters: the lines wrap at
 * widths no character
 * count predicts. Measured in the column, before the first paint (a layout effect): on the lock-in
 * and on a change of `key` (preset, variant, font scale).
 */
export function useBandWhileLocked(
  ref: RefObject<HTMLElement | null>,
  /** Projector mode, an answer locked in and not revealed. */
  locked: boolean,
  /** What the story's content depends on (preset, variant, font scale). */
  key: string,
): boolean {
  // The key whose story was measured too tall for the column (null: none).
  const [tooTall, setTooTall] = useState<string | null>(null);
  const band = locked && tooTall === key;
  useLayoutEffect(() => {
    const story = ref.current;
    if (!locked || band || !story) return;
    if (!fitsBeside(story)) setTooTall(key);
  }, [ref, locked, band, key]);
  return band;
}

/** The story, laid out beside the pipeline: its head, setup and question's box fit its height. */
function fitsBeside(story: HTMLElement): boolean {
  const setup = story.querySelector<HTMLElement>(':scope > .story-setup');
  const predict = story.querySelector<HTMLElement>(':scope > .predict');
  if (!setup || !predict) return true;
  const rest = story.querySelector<HTMLElement>(':scope > .story-text');
  const px = (e: HTMLElement, p: string) =>
    parseFloat(getComputedStyle(e).getPropertyValue(p)) || 0;
  const end =
    story.getBoundingClientRect().bottom -
    px(story, 'padding-bottom') -
    px(story, 'border-bottom-width');
  // The question's box at its content's height (it shrinks to a scrolling box beside: its
  // scrollHeight is that height, its borders added), the story's rest at its least — and the
  // column's gaps between them (a flex column's row-gap: without them at-least-once's box was
  // taken to fit and scrolled 19 px, its question's last line cut).
  const gap = px(story, 'row-gap');
  const need =
    setup.getBoundingClientRect().bottom +
    px(setup, 'margin-bottom') +
    gap +
    px(predict, 'margin-top') +
    predict.scrollHeight +
    (predict.offsetHeight - predict.clientHeight) +
    px(predict, 'margin-bottom') +
    (rest ? gap + px(rest, 'min-height') + px(rest, 'margin-top') : 0);
  return need <= end + 1;
}
