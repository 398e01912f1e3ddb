import { describe, expect, it } from 'vitest';
import type { RoomStep } from '../../views/room/protocol';
import { alreadyAskedWords, askWords } from './askWords';

// Step 6 of a lesson (index 5), its own question, and its challenge's round (numbered as the step).
const own: RoomStep = {
  stepIndex: 5,
  title: 'The same lost ack, idempotent producer',
  question: { kind: 'number', text: 'How many rows does the table end with?', unit: 'rows' },
};
const challengeRound: RoomStep = {
  stepIndex: 5,
  title: 'Challenge: A duplicate with idempotence on',
  question: { kind: 'challenge', text: 'Did the page say Solved?', challenge: 'x' },
};

describe("the room panel's ask button says what the phones get", () => {
  it("in a lesson, names the step and its question — 'again' once the room was asked the step", () => {
    expect(askWords(null, own)).toEqual({
      label: 'Ask step 6’s question',
      title: 'The phones get step 6’s question, “How many rows does the table end with?”',
    });
    // From the challenge's round: back to the step's question, its answers kept.
    expect(askWords(challengeRound, own)).toEqual({
      label: 'Ask step 6’s question again',
      title:
        'The phones get step 6’s question again, “How many rows does the table end with?”, with the answers given to it',
    });
    expect(askWords({ ...own, stepIndex: 4 }, own).label).toBe('Ask step 6’s question');
    expect(alreadyAskedWords(own)).toBe('The phones have step 6’s question: its answers stand.');
  });

  it('shortens a long question in the title to 120 characters', () => {
    const long: RoomStep = { ...own, question: { ...own.question, text: 'x'.repeat(300) } };
    const title = askWords(null, long).title;
    expect(title).toBe(`The phones get step 6’s question, “${'x'.repeat(119)}…”`);
  });

  it('on the page, the story on screen, in place of the one asked', () => {
    expect(askWords(null, null).label).toBe('Ask the room');
    expect(askWords(own, null)).toEqual({
      label: 'Ask the story on screen',
      title:
        'The phones get the story on screen — its title, its setup and its question — in place of “The same lost ack, idempotent producer” (the same story, still answered: its answers stand)',
    });
  });
});
