/**
 * A session's results as CSV, for after class: one line per answer, in the order the steps were
 * published. Written by the page's own CSV writer (src/views/io/csv.ts), which neutralises a name
 * such as `=HYPERLINK(…)` that a student could type to run in the teacher's spreadsheet.
 */
import { toCsv, type CsvValue } from '../src/views/io/csv';
import { CHALLENGE_ANSWERS } from '../src/views/room/protocol';
import { solutionLine } from '../src/views/room/solutionLine';
import type { Session } from './sessions';

/**
 * `step`: the step's number as the presenter shows it ("Step 4 of 10": 4; a page's room numbers
 * its questions from 1 the same way); `stepIndex`: the same from 0, as the room's protocol and the
 * lesson's `steps[]` count; `asked`: its place among the steps this session published (a room
 * started on step 4 asked it 1st); `solution`: with a challenge's "solved", the solution the
 * student sent, in a line (src/views/room/solutionLine.ts). Documented in docs/workshops.md.
 */
const HEADER = [
  'step',
  'stepIndex',
  'asked',
  'title',
  'question',
  'student',
  'name',
  'answer',
  'answerText',
  'right',
  'solution',
] as const;

export function resultsCsv(session: Session): string {
  const rows: CsvValue[][] = [];
  const names = new Map(session.students.map((s) => [s.id, s.name]));
  session.steps.forEach((record, k) => {
    const q = record.step.question;
    const correct = record.reveal?.correct;
    for (const [student, value] of Object.entries(record.answers)) {
      const options =
        q.kind === 'choice' ? q.options : q.kind === 'challenge' ? CHALLENGE_ANSWERS : [];
      const text = options.find((o) => o.id === value)?.text ?? '';
      rows.push([
        record.step.stepIndex + 1,
        record.step.stepIndex,
        k + 1,
        record.step.title,
        q.text,
        student,
        names.get(student) ?? '',
        value,
        text,
        correct === undefined ? '' : value === correct,
        record.solutions?.[student] ? solutionLine(record.solutions[student]) : '',
      ]);
    }
  });
  return toCsv(HEADER, rows);
}
