/**
 * Lesson links: a whole lesson in the URL's hash, `#l=<version>.<payload>`, with the share
 * link's codec (./shareLink.ts: deflate, a checksum, base64url, versioned) — so a lesson opened
 * from a file survives a reload and can be sent as a link. Decoding never throws: the lesson, or
 * the issues naming its fields (as a file import gives them).
 */
import type { Issue } from '../../engine';
import { parseLesson, type Lesson, type LessonParse } from '../../scenarios/lessons';
import { encodeShare, SHARE_CODEC } from '../io/shareLink';

/** The hash parameter that carries a lesson. */
const LESSON_PARAM = 'l';

/** `l=<version>.<payload>` (no leading `#`): the share link's encoding of the lesson as written. */
export function encodeLessonLink(lesson: Lesson): string {
  // encodeShare serialises any JSON value the same way; only the parameter's name differs.
  return `${LESSON_PARAM}=${encodeShare(lesson as never).split(/=(.*)/s)[1]!}`;
}

/**
 * The lesson a URL hash carries (`#l=…`), or null when it carries none.
 * @param hash - `location.hash`, with or without its `#`.
 */
export function decodeLessonLink(hash: string): LessonParse | null {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get(LESSON_PARAM);
  if (value === null) return null;
  const refuse = (message: string): LessonParse => ({
    ok: false,
    issues: [{ path: 'link', message } satisfies Issue],
  });
  const dot = value.indexOf('.');
  const version = Number(value.slice(0, dot));
  const decode = dot > 0 ? SHARE_CODEC.decoders[version] : undefined;
  if (!decode) return refuse('not a lesson link this Delivery Lab can read (unknown version)');
  try {
    return parseLesson(decode(value.slice(dot + 1)));
  } catch (e) {
    return refuse((e as Error).message);
  }
}
