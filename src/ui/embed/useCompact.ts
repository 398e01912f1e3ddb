import { useEffect, useState } from 'react';
import { isCompact, type EmbedLayout } from './embedLook';

/**
 * Whether the player takes its compact layout: as `layout=` says, or with `layout=auto` by the
 * frame's width (the iframe's viewport), kept up to date when the host resizes the frame.
 */
export function useCompact(layout: EmbedLayout): boolean {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    if (layout !== 'auto') return;
    const update = () => setWidth(window.innerWidth);
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [layout]);
  return isCompact(layout, width);
}
