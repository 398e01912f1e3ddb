/**
 * The notes window names a step's challenge by its title, with the address the students open and
 * its reference solution: the room's phones get the why on the challenge's reveal, and the
 * presenter read only its id ("Challenge: commit-before-crash-point") here.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { parseLesson } from '../../scenarios/lessons';
import { shippedChallenges } from '../../scenarios/challenges/shipped';
import { decodeChallengeLink } from '../../views/challenge/challengeLink';
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
  // The whole address, to paste where the room reads it.
  expect(
    screen.getByText(new URL('?challenge=commit-before-crash-point', location.href).href),
  ).toBeTruthy();
  expect(screen.getByText(/^Solution: The consumer commits the batch’s offsets/)).toBeTruthy();
});

it('the lesson’s own challenge: its whole address, the challenge in its hash', () => {
  const own = {
    ...structuredClone(shippedChallenges.find((c) => c.id === 'commit-before-crash-point')!),
    id: 'our-crash-point',
    title: 'Our crash point',
  };
  const r = parseLesson({
    version: 1,
    id: 'notes-own-challenge',
    title: 'Notes',
    steps: [{ title: 'Commit first', preset: 'commit-before-process', challenge: own }],
  });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  render(<LessonNotes lesson={r.lesson} start={0} />);
  expect(screen.getByText(/^Our crash point —/)).toBeTruthy();
  const address = screen.getByText(/\?challenge=our-crash-point#ch=/).textContent!;
  const carried = decodeChallengeLink(new URL(address).hash);
  expect(carried?.ok && carried.challenge.title).toBe('Our crash point');
});
