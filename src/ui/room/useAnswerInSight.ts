import { useLayoutEffect, type RefObject } from 'react';

/**
 * Once the room's answer shows, the panel scrolls it into sight above its foot (Export results and
 * End the room, which stay at the panel's foot: room.css) when it lies below: a multiple choice's
 * four options and the answer in words run past 720 px on the projector, and the answer is what
 * the room looks for. Only the panel scrolls, never the page; a panel that fits does not move.
 */
export function useAnswerInSight(
  panel: RefObject<HTMLElement | null>,
  answer: RefObject<HTMLElement | null>,
  text: string | null,
): void {
  useLayoutEffect(() => {
    const box = panel.current;
    const said = answer.current;
    if (!box || !said || text === null) return;
    const foot = box.querySelector('.room-end-actions');
    const limit = (foot ?? box).getBoundingClientRect()[foot ? 'top' : 'bottom'];
    const below = said.getBoundingClientRect().bottom - limit;
    if (below > 0) box.scrollBy({ top: Math.ceil(below) });
  }, [panel, answer, text]);
}
