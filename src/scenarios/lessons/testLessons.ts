/**
 * Lessons built for tests (unit and e2e), parsed as a lesson file would be: one source for a fixture
 * two suites need, so the lesson they each check is the same one.
 */
import type { Lesson } from './schema';
import { parseLesson } from './parse';

/**
 * A stream step, then a batch job (docs/workshops.md: any library preset can be a step):
 * at-least-once, then airflow-retry-append (retries=1, append: 20 rows, 10 of them second copies).
 */
export function streamThenBatchLesson(): Lesson {
  const parsed = parseLesson({
    version: 1,
    id: 'stream-then-batch',
    title: 'A stream, then a batch job',
    steps: [
      { title: 'At least once', preset: 'at-least-once' },
      { title: 'An Airflow retry into an append', preset: 'airflow-retry-append' },
    ],
  });
  if (!parsed.ok) throw new Error(`the test lesson does not parse: ${JSON.stringify(parsed.issues)}`);
  return parsed.lesson;
}
