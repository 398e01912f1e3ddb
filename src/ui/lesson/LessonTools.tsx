import { useRef } from 'react';
import { issueLines } from '../../views/io/export';
import { copyText, fileStem } from '../../platform/download';
import { lessonHref, notesHref } from '../../platform/lessonUrl';
import { downloadText } from '../../platform/download';
import { parseLessonJson, type Lesson } from '../../scenarios/lessons';
import { usePage } from '../io/PageContext';
import { goToAddress } from '../../platform/address';

/** Largest lesson file read (characters): the scenario format's own limit. */
const MAX_LESSON_FILE = 2_000_000;

/**
 * The presenter's tools: open the notes window, copy the lesson's link, export it as a file, or
 * open another lesson file — refused, naming the field, when it is not a valid lesson (the
 * lesson on screen stays).
 */
export function LessonTools({ lesson }: { lesson: Lesson }) {
  const { notices } = usePage();
  const picker = useRef<HTMLInputElement>(null);
  const openFile = async (file: File) => {
    const from = `“${file.name.slice(0, 80)}”`;
    const text = file.size > MAX_LESSON_FILE ? '' : await file.text();
    const r =
      file.size > MAX_LESSON_FILE
        ? ({
            ok: false,
            issues: [{ path: '', message: `file too large: ${file.size} bytes` }],
          } as const)
        : parseLessonJson(text);
    if (r.ok) goToAddress(lessonHref(r.lesson));
    else
      notices.push({
        tone: 'error',
        text: `Could not open ${from} as a lesson:`,
        // With the text: a JSON syntax error says where, `day-1.lesson.json:3:5: not valid JSON:
        // …`, as the page's Import and the CLI say it (jsonSyntaxLine).
        lines: issueLines(r.issues, file.name ? file.name.slice(0, 80) : '(file)', text),
      });
  };
  return (
    <span className="lesson-tools">
      <button
        type="button"
        onClick={() => window.open(notesHref(), `lesson-notes:${lesson.id}`)}
        title="The presenter's notes, in a window of their own (kept in step)"
      >
        Notes
      </button>
      <button
        type="button"
        onClick={() =>
          void copyText(lessonHref(lesson)).then((ok) =>
            notices.push(
              ok
                ? { tone: 'info', text: 'Copied the lesson’s link.' }
                : { tone: 'warn', text: 'Could not copy the link: the browser refused.' },
            ),
          )
        }
      >
        Copy link
      </button>
      <button
        type="button"
        onClick={() =>
          downloadText(
            `${JSON.stringify(lesson, null, 2)}\n`,
            `${fileStem(lesson.id, 'lesson')}.lesson.json`,
            'application/json',
          )
        }
      >
        Export
      </button>
      <button type="button" onClick={() => picker.current?.click()}>
        Open…
      </button>
      <input
        ref={picker}
        type="file"
        accept=".json,application/json"
        hidden
        aria-label="Open a lesson file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void openFile(file);
        }}
      />
    </span>
  );
}
