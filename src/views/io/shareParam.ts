/**
 * The parts of a share link (./shareLink.ts) that need no codec: its hash parameter, base64url,
 * and its issues as lines. Apart so that what only looks for a link (the first screen's presets,
 * a prediction's or a compare's parameter, the embed's boot) does not load DEFLATE (fflate) and
 * the schemas with it: an embed of a preset has no link to decode (issue 31).
 */
import type { Issue } from '../../engine';

/** The hash parameter that carries a shared scenario. */
export const SHARE_PARAM = 's';
/** The hash parameter that carries the compare state beside it (src/views/compare/compareLink.ts). */
export const COMPARE_PARAM = 'c';
/** The hash parameter that carries the fault atlas's choice (src/views/atlas/atlasLink.ts). */
export const ATLAS_PARAM = 'a';
/** The hash parameter that carries a challenge opened from a file (../challenge/challengeLink.ts). */
export const CHALLENGE_LINK_PARAM = 'ch';
/** The hash parameter that carries a shared scenario's prediction question (./sharePrediction.ts). */
export const PREDICT_PARAM = 'p';

/** What the page says of a link whose `p` could not be read (./sharePrediction.ts). */
export const PREDICTION_UNREADABLE =
  'The prediction part of this share link (p=…) could not be read: the scenario opened without the link’s question.';

/**
 * The share parameter of a URL hash, or null when the hash carries none.
 * @param hash - `location.hash` (with or without the leading `#`).
 */
export function shareParam(hash: string): string | null {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  return params.get(SHARE_PARAM);
}

// ─────────────────────────────────────────────────────────────────────────── base64url

/** Bytes → base64url without padding (RFC 4648 §5). */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url (padding optional) → bytes. Throws on a character outside the alphabet. */
export function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url');
  if (text.length % 4 === 1) throw new Error('truncated base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * A refused link's issues as lines for a notice: a field's as `path: message`, one about the link
 * or the scenario as a whole as its message alone — it already names the link
 * (`share link: the data is damaged …`, not `(link): share link: …`).
 */
export function shareIssueLines(issues: readonly Issue[]): string[] {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
}
