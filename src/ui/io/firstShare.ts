/**
 * The share link the address opens (`#s=…`), decoded before the page boots: src/ui/io/boot.ts
 * awaits {@link firstShareLoaded} (a top-level await) as it does the first presets. The link's
 * codec (DEFLATE by fflate, src/views/io/shareLink.ts) and the validation it runs are imported
 * only when the address carries a link, so an embed of a preset fetches neither (issue 31).
 */
import type { ShareResult } from '../../views/io/shareLink';
import { shareParam } from '../../views/io/shareParam';

/** `hash`'s share link decoded (src/platform/share.ts `shareFromLocation`), or null without one. */
export async function decodeShareOf(hash: string): Promise<ShareResult | null> {
  if (shareParam(hash) === null) return null;
  try {
    const { decodeShare } = await import('../../views/io/shareLink');
    return decodeShare(hash);
  } catch {
    // The codec's chunk did not download: the link is not refused as damaged, it is unread.
    return {
      ok: false,
      issues: [{ path: '', message: 'share link: could not be read (reload the page to retry)' }],
    };
  }
}

/** The address's share link, decoded (null without one). */
export const firstShareLoaded: Promise<ShareResult | null> =
  // Only in a browser: unit tests decode links themselves.
  typeof window !== 'undefined' && typeof window.location !== 'undefined'
    ? decodeShareOf(window.location.hash)
    : Promise.resolve(null);
