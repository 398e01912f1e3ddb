/**
 * The presenter view's address: `?lesson=<id>` (a library lesson) or `?lesson=shared#l=…` (a
 * lesson carried by the link itself, src/views/library/lessonLink.ts), `&step=N` (from 1) and `&reveal=1`
 * so that a reload resumes where the presenter was, `&notes=1` for the notes window.
 */
import { decodeLessonLink, encodeLessonLink } from '../views/library/lessonLink';
import { findLesson, type Lesson } from '../scenarios/lessons';
import type { Issue } from '../engine';

/** `?lesson=` value of a lesson carried in the hash rather than found in the library. */
const SHARED_LESSON = 'shared';

export interface LessonAddress {
  lessonParam: string;
  /** From 0. */
  index: number;
  revealed: boolean;
  notes: boolean;
}

/** The presenter view's address, or null when the page is not one (no `?lesson=`). */
export function lessonAddressOf(search: string): LessonAddress | null {
  const q = new URLSearchParams(search);
  const lessonParam = q.get('lesson');
  if (lessonParam === null) return null;
  const step = Number(q.get('step') ?? '1');
  return {
    lessonParam,
    index: Number.isInteger(step) && step >= 1 ? step - 1 : 0,
    revealed: q.get('reveal') === '1',
    notes: q.get('notes') === '1',
  };
}

/** The lesson an address names: the library's, or the one its hash carries; else the issues. */
export function lessonOfAddress(
  a: LessonAddress,
  hash: string,
): { ok: true; lesson: Lesson } | { ok: false; issues: Issue[] } {
  if (a.lessonParam === SHARED_LESSON) {
    const r = decodeLessonLink(hash);
    return (
      r ?? {
        ok: false,
        issues: [{ path: 'link', message: 'this lesson link carries no lesson (#l=…)' }],
      }
    );
  }
  const lesson = findLesson(a.lessonParam);
  return lesson
    ? { ok: true, lesson }
    : {
        ok: false,
        issues: [
          { path: 'lesson', message: `no lesson "${a.lessonParam.slice(0, 80)}" in the library` },
        ],
      };
}

/** Keep the address in step with the deck (no history entry: stepping is not navigating away). */
export function writeLessonStep(index: number, revealed: boolean): void {
  const url = new URL(location.href);
  url.searchParams.set('step', String(index + 1));
  if (revealed) url.searchParams.set('reveal', '1');
  else url.searchParams.delete('reveal');
  history.replaceState(history.state, '', url);
}

/** The address of a lesson's presenter view (a library lesson by id, another in the hash). */
export function lessonHref(lesson: Lesson, o: { notes?: boolean } = {}): string {
  const url = new URL(location.href);
  url.search = '';
  url.hash = '';
  const library = findLesson(lesson.id) === lesson;
  url.searchParams.set('lesson', library ? lesson.id : SHARED_LESSON);
  if (o.notes) url.searchParams.set('notes', '1');
  if (!library) url.hash = encodeLessonLink(lesson);
  return url.toString();
}

/** The notes window's address for the presenter view on screen. */
export function notesHref(): string {
  const url = new URL(location.href);
  url.searchParams.set('notes', '1');
  url.searchParams.delete('reveal');
  return url.toString();
}
