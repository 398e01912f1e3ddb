/** docs/workshops.md: its example lesson is a valid lesson, and the lessons it lists are the library's. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { libraryLessons, parseLessonJson } from '../scenarios/lessons';

const doc = readFileSync('docs/workshops.md', 'utf8');

describe('docs/workshops.md', () => {
  it('shows a lesson file that validates', () => {
    const json = /```json\n([\s\S]*?)```/.exec(doc)![1]!;
    const r = parseLessonJson(json);
    expect(r.ok ? [] : r.issues).toEqual([]);
  });

  it('lists every shipped lesson by its address', () => {
    for (const l of libraryLessons()) expect(doc).toContain(`?lesson=${l.id}`);
  });
});
