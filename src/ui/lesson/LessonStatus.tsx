import type { LabState } from '../../store/labStore';
import { useLab } from '../../store/LabContext';
import { lessonTestIds } from './lessonTestIds';

const selectNotice = (s: LabState) => s.notice;

/**
 * The lab's status line in the presenter view, when it has something to say — above all why
 * Play, a step or the timeline did nothing: the run waits for the room's answer
 * (src/store/lessonDeck.ts). The page's StatusLine carries the teacher's tools; the room needs
 * the sentence only.
 */
export function LessonStatus() {
  const notice = useLab(selectNotice);
  return (
    <p className="lesson-status" role="status" data-testid={lessonTestIds.status}>
      {notice}
    </p>
  );
}
