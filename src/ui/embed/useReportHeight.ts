import { useEffect, type RefObject } from 'react';
import { HEIGHT_MESSAGE, type HeightMessage } from './embedOptions';

/**
 * Tell the host page how tall the player is, so it can size the iframe: a
 * {@link HeightMessage} posted to `window.parent` once enabled and whenever the height changes
 * (with `title`, the scenario's name, for the loader's frame title).
 * Nothing happens outside a frame.
 */
export function useReportHeight(
  ref: RefObject<HTMLElement | null>,
  id: string,
  enabled = true,
  title?: string,
): void {
  useEffect(() => {
    const el = ref.current;
    if (!enabled || !el || window.parent === window) return;
    let last = -1;
    const post = () => {
      const height = Math.ceil(el.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      const message: HeightMessage = {
        type: HEIGHT_MESSAGE,
        height,
        id,
        ...(title ? { title } : {}),
      };
      // No secret in it, and the host's origin is not known: any origin may read it.
      window.parent.postMessage(message, '*');
    };
    const observer = new ResizeObserver(post);
    observer.observe(el);
    post();
    return () => observer.disconnect();
  }, [ref, id, enabled, title]);
}

/** A scenario's `name`, when it has one (a scenario of one's own may not), for the frame's title. */
export function scenarioName(scenario: unknown): string | undefined {
  const name = (scenario as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name.trim() ? name.trim().slice(0, 200) : undefined;
}
