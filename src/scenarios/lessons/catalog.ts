/**
 * The shipped lessons, validated once: what `?lesson=<id>` opens.
 */
import { LESSON_FILES } from './library';
import { parseLesson } from './parse';
import type { Lesson } from './schema';

let parsed: Lesson[] | null = null;

/** Every shipped lesson, validated (a shipped lesson that does not validate is a build defect). */
export function libraryLessons(): readonly Lesson[] {
  parsed ??= LESSON_FILES.map((l) => {
    const r = parseLesson(l);
    if (!r.ok)
      throw new Error(
        `lesson ${l.id}: ${r.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      );
    return r.lesson;
  });
  return parsed;
}

/** The shipped lesson with this id, or undefined. */
export function findLesson(id: string): Lesson | undefined {
  return libraryLessons().find((l) => l.id === id);
}
