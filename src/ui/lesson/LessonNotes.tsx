import { useEffect, useMemo, useRef, useState } from 'react';
import { openLessonChannel, type LessonChannel } from '../../platform/lessonChannel';
import { stepOf } from '../../store/lessonDeck';
import type { Lesson } from '../../scenarios/lessons';
import { lessonTestIds } from './lessonTestIds';
import { useDeckKeys } from './useDeckKeys';
import type { LessonChallenge } from '../../scenarios/lessons';
import { challengeAddress } from '../room/challengeAddress';
import './lesson.css';

/**
 * The presenter's notes (`?lesson=…&notes=1`), in a second window kept in step with the presenter
 * view over a BroadcastChannel: the step's note, its question and answer, and what comes next.
 * Its keys drive the presenter view as the presenter's own do.
 */
export function LessonNotes({ lesson, start }: { lesson: Lesson; start: number }) {
  const [at, setAt] = useState({ index: start, revealed: false });
  const channel = useRef<LessonChannel | null>(null);
  useEffect(() => {
    const c = openLessonChannel(lesson.id, (m) => {
      if (m.type === 'step') setAt({ index: m.index, revealed: m.revealed });
    });
    c.post({ type: 'hello' });
    channel.current = c;
    return () => c.close();
  }, [lesson.id]);
  const keys = useMemo(
    () => ({
      next: () =>
        channel.current?.post({
          type: 'go',
          index: Math.min(at.index + 1, lesson.steps.length - 1),
        }),
      previous: () => channel.current?.post({ type: 'go', index: Math.max(at.index - 1, 0) }),
      reveal: () => channel.current?.post({ type: 'reveal' }),
    }),
    [at.index, lesson.steps.length],
  );
  useDeckKeys(keys);
  const index = Math.min(at.index, lesson.steps.length - 1);
  const step = stepOf(lesson, index);
  const next = index + 1 < lesson.steps.length ? stepOf(lesson, index + 1) : null;
  return (
    <main
      className="lesson-notes"
      data-testid={lessonTestIds.notes}
      data-step={index + 1}
      data-revealed={at.revealed || undefined}
    >
      <p className="lesson-count">
        {lesson.title} — step {index + 1} of {lesson.steps.length}
        {at.revealed ? ' (revealed)' : ''}
      </p>
      <h1>{step.title}</h1>
      <p className="lesson-note" data-testid={lessonTestIds.notesNote}>
        {step.note || 'No note for this step.'}
      </p>
      <h2>Question</h2>
      <p>{step.question.text}</p>
      <h2>Answer</h2>
      <p>{step.question.answer || 'The run’s outcome answers it (its verdict, on the reveal).'}</p>
      {step.compare && <p>After the reveal: Compare opens beside it.</p>}
      {step.challenge && <ChallengeNote of={step.challenge} />}
      <h2>Next</h2>
      <p>{next ? next.title : 'The end of the lesson.'}</p>
    </main>
  );
}

/**
 * The step's challenge for the presenter: its title, the address the students open and its
 * reference solution — the room's phones get the why on the challenge's reveal; the projector's
 * panel has no room for it, so the presenter reads it here.
 */
function ChallengeNote({ of }: { of: LessonChallenge }) {
  const c = of.challenge;
  const address = new URL(challengeAddress(c.id, of.carried), window.location.href).href;
  return (
    <>
      <h2>Challenge</h2>
      <p>
        {c.title} — <code className="lesson-address">{address}</code>
      </p>
      <p>Solution: {c.solution.why}</p>
    </>
  );
}
