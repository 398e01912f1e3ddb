/**
 * Challenge links: a challenge opened from a file, carried whole in the page's URL hash,
 * `#ch=<version>.<payload>` (../io/hashPayload.ts), so that it survives a reload and reaches
 * students as a link, as a lesson opened from a file does (../library/lessonLink.ts). A shipped
 * challenge needs none: `?challenge=<id>` names it. Decoding never throws: the challenge, or the
 * issues naming its fields (as the file's import gives them).
 */
import type { Challenge, Issue } from '../../engine';
import { checkChallenge, type ChallengeCheck } from '../../scenarios/challenges/resolve';
import { decodeHashPayload, encodeHashPayload } from '../io/hashPayload';
import { CHALLENGE_LINK_PARAM } from '../io/shareParam';

/** `ch=<version>.<payload>` (no leading `#`): the share link's encoding of the challenge. */
export function encodeChallengeLink(challenge: Challenge): string {
  return encodeHashPayload(CHALLENGE_LINK_PARAM, challenge);
}

/**
 * The challenge a URL hash carries (`#ch=…`), validated as a file's is, or null when it carries
 * none.
 * @param hash - `location.hash`, with or without its `#`.
 */
export function decodeChallengeLink(hash: string): ChallengeCheck | null {
  const r = decodeHashPayload(hash, CHALLENGE_LINK_PARAM, 'a challenge link');
  if (r === null) return null;
  return r.ok
    ? checkChallenge(r.value)
    : { ok: false, issues: [{ path: 'link', message: r.message } satisfies Issue] };
}
