/** The results CSV numbers a step as the presenter shows it, whatever step the room started on. */
import { expect, it } from 'vitest';
import { resultsCsv } from './resultsCsv';
import type { Session } from './sessions';

it('a room started on step 4 of a lesson: step 4 (stepIndex 3), asked 1st', () => {
  const choice = {
    kind: 'choice' as const,
    text: 'How many rows?',
    options: [
      { id: 'nine', text: '9 rows' },
      { id: 'ten', text: '10 rows' },
    ],
  };
  const session: Session = {
    id: 's',
    code: 'ABCDEF',
    createdAt: 0,
    codeExpiresAt: 1,
    presenterTokenHash: 'x',
    students: [{ id: 's1', tokenHash: 'y', name: 'Ada', joinedAt: 0 }],
    steps: [
      {
        step: { stepIndex: 3, title: 'acks=0', question: choice },
        publishedAt: 0,
        answers: { s1: 'nine' },
        closed: true,
        reveal: { answer: '9', correct: 'nine' },
      },
      {
        step: { stepIndex: 4, title: 'next', question: choice },
        publishedAt: 1,
        answers: { s1: 'ten' },
        closed: false,
        reveal: null,
      },
    ],
    current: 1,
    endedAt: null,
  };
  expect(resultsCsv(session).trimEnd().split('\r\n')).toEqual([
    'step,stepIndex,asked,title,question,student,name,answer,answerText,right,solution',
    '4,3,1,acks=0,How many rows?,s1,Ada,nine,9 rows,true,',
    '5,4,2,next,How many rows?,s1,Ada,ten,10 rows,,',
  ]);
});

it("a lesson step's challenge, asked as a round of the step: its answers' text, no right one", () => {
  const session: Session = {
    id: 's',
    code: 'ABCDEF',
    createdAt: 0,
    codeExpiresAt: 1,
    presenterTokenHash: 'x',
    students: [
      { id: 's1', tokenHash: 'y', name: 'Ada', joinedAt: 0 },
      { id: 's2', tokenHash: 'z', name: 'Bo', joinedAt: 0 },
    ],
    steps: [
      {
        step: {
          stepIndex: 2,
          title: 'Challenge: A duplicate with idempotence on',
          question: {
            kind: 'challenge',
            text: 'Solved?',
            challenge: 'duplicate-with-idempotence-on',
          },
        },
        publishedAt: 0,
        answers: { s1: 'solved', s2: 'not-solved' },
        // Ada's solution: its CSV column, in a line (src/views/room/solutionLine.ts).
        solutions: {
          s1: {
            knobs: [],
            faults: [
              { kind: 'crash', target: 'broker-1', point: 'now' },
              { kind: 'delay-response', link: 'produce', delayMs: 500 },
            ],
          },
        },
        closed: true,
        reveal: { answer: 'The table’s answer to the INSERT of e1 is lost …' },
      },
    ],
    current: 0,
    endedAt: null,
  };
  expect(resultsCsv(session).trimEnd().split('\r\n')).toEqual([
    'step,stepIndex,asked,title,question,student,name,answer,answerText,right,solution',
    '3,2,1,Challenge: A duplicate with idempotence on,Solved?,s1,Ada,solved,Solved it,,"crash target=broker-1, delay-response link=produce delayMs=500"',
    '3,2,1,Challenge: A duplicate with idempotence on,Solved?,s2,Bo,not-solved,Not yet,,',
  ]);
});
