import { useEffect, useState } from 'react';
import { isCompact, type EmbedLayout } from './embedLook';

/**
 * The frame's width (the iframe's viewport) and whether the player takes its compact layout there
 * (as `layout=` says, or with `layout=auto` by that width), kept up to date when the host resizes
 * the frame. The width is part of what the player's height is measured for (ReserveHeight.tsx):
 * a frame narrowed from 700 to 358 px stays compact, but its stages wrap taller — measured for
 * its old width, the player kept its old height and scrolled the sink and reader out of sight
 * inside it (docs/embed.md: "resizing the frame … measures again").
 */
export function useFrameLayout(layout: EmbedLayout): { compact: boolean; width: number } {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const update = () => setWidth(window.innerWidth);
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
  return { compact: isCompact(layout, width), width };
}
