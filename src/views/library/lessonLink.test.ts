/** Lesson links: a lesson round-trips through `#l=…`; a damaged or foreign link is refused, named. */
import { describe, expect, it } from 'vitest';
import { findLesson } from '../../scenarios/lessons';
import { decodeLessonLink, encodeLessonLink } from './lessonLink';

const lesson = findLesson('exactly-once-flink-spark')!;

describe('lesson links', () => {
  it('round-trip a lesson through the hash', () => {
    const param = encodeLessonLink(lesson);
    expect(param).toMatch(/^l=2\.[A-Za-z0-9_-]+$/);
    const back = decodeLessonLink(`#${param}&step=3`);
    expect(back).toEqual({ ok: true, lesson });
  });

  it('refuse a damaged link, an unknown version, and a link whose lesson is invalid', () => {
    const param = encodeLessonLink(lesson);
    const damaged = decodeLessonLink(`#${param.slice(0, -6)}AAAAAA`);
    expect(damaged?.ok).toBe(false);
    expect(!damaged?.ok && damaged?.issues[0]?.path).toBe('link');
    const future = decodeLessonLink('#l=9.abc');
    expect(!future?.ok && future?.issues[0]?.message).toContain('unknown version');
    const bad = decodeLessonLink(
      `#${encodeLessonLink({ ...lesson, steps: [{ ...lesson.steps[0]!, preset: 'nope' }] })}`,
    );
    expect(!bad?.ok && bad?.issues.map((i) => i.path)).toEqual(['steps.0.preset']);
    expect(decodeLessonLink('#s=2.abc')).toBeNull();
  });
});
