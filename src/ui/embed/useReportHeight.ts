import { useEffect, type RefObject } from 'react';
import { HEIGHT_MESSAGE, type HeightMessage } from './embedOptions';

/**
 * Tell the host page how tall the player is, so it can size the iframe: a
 * {@link HeightMessage} posted to `window.parent` once enabled and whenever the height changes.
 * Nothing happens outside a frame.
 */
export function useReportHeight(
  ref: RefObject<HTMLElement | null>,
  id: string,
  enabled = true,
): void {
  useEffect(() => {
    const el = ref.current;
    if (!enabled || !el || window.parent === window) return;
    let last = -1;
    const post = () => {
      const height = Math.ceil(el.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      const message: HeightMessage = { type: HEIGHT_MESSAGE, height, id };
      // No secret in it, and the host's origin is not known: any origin may read it.
      window.parent.postMessage(message, '*');
    };
    const observer = new ResizeObserver(post);
    observer.observe(el);
    post();
    return () => observer.disconnect();
  }, [ref, id, enabled]);
}
