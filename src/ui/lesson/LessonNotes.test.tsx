/**
 * The notes window names a step's challenge by its title, with the address the students open and
 * its reference solution: the room's phones get the why on the challenge's reveal, and the
 * presenter read only its id ("Challenge: commit-before-crash-point") here.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { parseLesson } from '../../scenarios/lessons';
import { LessonNotes } from './LessonNotes';

afterEach(cleanup);

it('a step’s challenge: its title, its address and its solution’s why', () => {
  const r = parseLesson({
    version: 1,
    id: 'notes-challenge',
    title: 'Notes',
    steps: [
      {
        title: 'Commit first',
        preset: 'commit-before-process',
        challenge: 'commit-before-crash-point',
      },
    ],
  });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  render(<LessonNotes lesson={r.lesson} start={0} />);
  expect(screen.getByText(/Find the crash point that loses data/)).toBeTruthy();
  expect(screen.getByText('?challenge=commit-before-crash-point')).toBeTruthy();
  expect(screen.getByText(/^Solution: The consumer commits the batch’s offsets/)).toBeTruthy();
});
