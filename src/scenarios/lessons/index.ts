/**
 * Lessons: a presenter's sequence of library stories, each predicted by the room before it plays
 * (docs/workshops.md). The format (./schema), its validation (./parse), how a step plays
 * (./resolve) and the lessons shipped (./library).
 */
export * from './schema';
export { parseLesson, parseLessonJson, looksLikeLesson } from './parse';
export type { LessonParse } from './parse';
export { resolveStep } from './resolve';
export type { LessonChallenge, ResolvedStep } from './resolve';
export { LESSON_FILES } from './library';
export { libraryLessons, findLesson } from './catalog';
