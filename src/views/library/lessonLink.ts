/**
 * Lesson links: a whole lesson in the URL's hash, `#l=<version>.<payload>`, with the share
 * link's codec (./shareLink.ts: deflate, a checksum, base64url, versioned) — so a lesson opened
 * from a file survives a reload and can be sent as a link. Decoding never throws: the lesson, or
 * the issues naming its fields (as a file import gives them).
 */
import type { Issue } from '../../engine';
import { parseLesson, type Lesson, type LessonParse } from '../../scenarios/lessons';
import { decodeHashPayload, encodeHashPayload } from '../io/hashPayload';

/** The hash parameter that carries a lesson. */
const LESSON_PARAM = 'l';

/** `l=<version>.<payload>` (no leading `#`): the share link's encoding of the lesson as written. */
export function encodeLessonLink(lesson: Lesson): string {
  return encodeHashPayload(LESSON_PARAM, lesson);
}

/**
 * The lesson a URL hash carries (`#l=…`), or null when it carries none.
 * @param hash - `location.hash`, with or without its `#`.
 */
export function decodeLessonLink(hash: string): LessonParse | null {
  const r = decodeHashPayload(hash, LESSON_PARAM, 'a lesson link');
  if (r === null) return null;
  return r.ok
    ? parseLesson(r.value)
    : { ok: false, issues: [{ path: 'link', message: r.message } satisfies Issue] };
}
