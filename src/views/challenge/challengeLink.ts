/**
 * Challenge links: a challenge opened from a file, carried whole in the page's URL hash,
 * `#ch=<version>.<payload>`, with the share link's codec (../io/shareLink.ts: deflate, a
 * checksum, base64url, versioned) — so that it survives a reload and reaches students as a link,
 * as a lesson opened from a file does (../library/lessonLink.ts). A shipped challenge needs none:
 * `?challenge=<id>` names it. Decoding never throws: the challenge, or the issues naming its
 * fields (as the file's import gives them).
 */
import type { Issue } from '../../engine';
import { checkChallenge, type ChallengeCheck } from '../../scenarios/challenges/resolve';
import { encodeShare, SHARE_CODEC } from '../io/shareLink';
import { CHALLENGE_LINK_PARAM } from '../io/shareParam';
import type { Challenge } from '../../engine';

/** `ch=<version>.<payload>` (no leading `#`): the share link's encoding of the challenge. */
export function encodeChallengeLink(challenge: Challenge): string {
  // encodeShare serialises any JSON value the same way; only the parameter's name differs.
  return `${CHALLENGE_LINK_PARAM}=${encodeShare(challenge as never).split(/=(.*)/s)[1]!}`;
}

/**
 * The challenge a URL hash carries (`#ch=…`), validated as a file's is, or null when it carries
 * none.
 * @param hash - `location.hash`, with or without its `#`.
 */
export function decodeChallengeLink(hash: string): ChallengeCheck | null {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get(CHALLENGE_LINK_PARAM);
  if (value === null) return null;
  const refuse = (message: string): ChallengeCheck => ({
    ok: false,
    issues: [{ path: 'link', message } satisfies Issue],
  });
  const dot = value.indexOf('.');
  const version = Number(value.slice(0, dot));
  const decode = dot > 0 ? SHARE_CODEC.decoders[version] : undefined;
  if (!decode) return refuse('not a challenge link this Delivery Lab can read (unknown version)');
  try {
    return checkChallenge(decode(value.slice(dot + 1)));
  } catch (e) {
    return refuse((e as Error).message);
  }
}
