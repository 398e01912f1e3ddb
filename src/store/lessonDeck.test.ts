/**
 * The presenter's deck over a lab: a step opens its preset at its start, where the run waits for
 * the reveal (then plays at its pace), the answer waits for reveal, the "then flip to" opens in
 * Compare once the revealed run has reached its end, Undo works as on the page, and
 * followers read the step through one stable selector.
 */
import { describe, expect, it } from 'vitest';
import { findLesson } from '../scenarios/lessons';
import { createLab } from './labStore';
import { createLessonDeck, currentLessonStep, LESSON_WAITS } from './lessonDeck';
import { inlineRunner } from './labTesting';

const lesson = findLesson('delivery-guarantees-45')!;

describe('lesson deck', () => {
  it('opens a step, reveals on demand, and moves within the lesson', async () => {
    const lab = createLab({ runner: inlineRunner });
    const deck = createLessonDeck(lab, lesson);
    await lab.actions.settled();
    await Promise.resolve();
    expect(lab.app.getState().presetRef).toBe('at-most-once/default');
    // The run waits at its start for the room's answer.
    expect(lab.app.getState().playing).toBe(false);
    // The first step replaced the lab's opening scenario: nothing to undo back to.
    expect(lab.app.getState().past).toEqual([]);
    const first = currentLessonStep(deck.store.getState());
    expect(first).toMatchObject({ lessonId: lesson.id, index: 0, count: 10, revealed: false });
    expect(first.question).toBe('How many of the 20 payments reach the table?');
    // A stable selector output while nothing changes.
    expect(currentLessonStep(deck.store.getState())).toBe(first);

    deck.actions.previous(); // already at the first step: stays
    expect(deck.store.getState().index).toBe(0);
    deck.actions.next();
    expect(lab.app.getState().presetRef).toBe('at-least-once/default');
    expect(lab.app.getState().compare).toBeNull();
    // Step 2 flips to exactly-once after the reveal — once its run has played to its end: the
    // room watches the run first (before, Compare replaced it at the reveal). Undoably.
    deck.actions.reveal();
    // R plays the run; the answer waits for its end (it showed at once, issue 24).
    expect(deck.store.getState()).toMatchObject({ revealed: true, answered: false });
    expect(lab.app.getState().compare).toBeNull();
    await lab.actions.settled();
    await Promise.resolve();
    expect(lab.app.getState().playing).toBe(true);
    lab.actions.tick(50);
    expect(lab.cursor.getState().idx).toBeGreaterThan(0);
    expect(lab.app.getState().compare).toBeNull();
    // A pause midway is not the end.
    lab.actions.pause();
    expect(lab.app.getState().compare).toBeNull();
    expect(deck.store.getState().answered).toBe(false);
    lab.actions.toEnd();
    expect(deck.store.getState().answered).toBe(true);
    expect(lab.app.getState().compare).toEqual({ lanes: [{ guarantee: 'exactly-once' }] });
    lab.actions.undo();
    expect(lab.app.getState().compare).toBeNull();
    deck.actions.goTo(99);
    expect(currentLessonStep(deck.store.getState())).toMatchObject({ index: 9, revealed: false });
  });

  it('keeps the run at its start until the reveal, then plays it (issue 24)', async () => {
    const lab = createLab({ runner: inlineRunner });
    const deck = createLessonDeck(lab, lesson);
    await lab.actions.settled();
    await Promise.resolve();
    const n = lab.app.getState().view!.n;
    expect(n).toBeGreaterThan(1);
    const atStart = () => expect(lab.cursor.getState()).toEqual({ t: 0, idx: 0 });
    atStart();
    // Every way forward is refused, and the status line says why.
    lab.actions.play();
    expect(lab.app.getState().playing).toBe(false);
    expect(lab.app.getState().notice).toBe(LESSON_WAITS);
    lab.actions.step(1);
    lab.actions.jump(1);
    lab.actions.seek(1000);
    lab.actions.seekIndex(n - 1);
    lab.actions.toEnd();
    atStart();
    deck.actions.reveal();
    // The reveal takes the refusal off the status line and plays the run.
    expect(lab.app.getState().notice).toBeNull();
    await lab.actions.settled();
    await Promise.resolve();
    expect(lab.app.getState().playing).toBe(true);
    lab.actions.tick(50);
    expect(lab.cursor.getState().t).toBeGreaterThan(0);
    // The next step waits again, at its own start.
    deck.actions.next();
    await lab.actions.settled();
    await Promise.resolve();
    expect(lab.app.getState().presetRef).toBe('at-least-once/default');
    expect(lab.app.getState().playing).toBe(false);
    lab.actions.seekIndex(1);
    atStart();
  });

  it('a second R shows the answer at once; the lanes still wait for the run’s end', async () => {
    const lab = createLab({ runner: inlineRunner });
    const deck = createLessonDeck(lab, lesson, { index: 1, revealed: false });
    await lab.actions.settled();
    deck.actions.reveal();
    await lab.actions.settled();
    await Promise.resolve();
    lab.actions.tick(50);
    expect(deck.store.getState()).toMatchObject({ revealed: true, answered: false });
    deck.actions.reveal();
    expect(deck.store.getState().answered).toBe(true);
    expect(currentLessonStep(deck.store.getState())).toMatchObject({ index: 1, answered: true });
    expect(lab.app.getState().compare).toBeNull();
    lab.actions.toEnd();
    expect(lab.app.getState().compare).toEqual({ lanes: [{ guarantee: 'exactly-once' }] });
  });

  it('does not flip a step the presenter left before its run ended', async () => {
    const lab = createLab({ runner: inlineRunner });
    const deck = createLessonDeck(lab, lesson, { index: 1, revealed: true });
    await lab.actions.settled();
    await Promise.resolve();
    deck.actions.next();
    await lab.actions.settled();
    deck.actions.reveal();
    await lab.actions.settled();
    await Promise.resolve();
    lab.actions.toEnd();
    // Step 3 has no "then flip to"; step 2's must not open over it.
    expect(lab.app.getState().presetRef).toBe('effectively-once/default');
    expect(lab.app.getState().compare).toBeNull();
  });

  it('resumes at a step, revealed, as a reload of the presenter view does', async () => {
    const lab = createLab({ runner: inlineRunner });
    const deck = createLessonDeck(lab, lesson, { index: 4, revealed: true });
    expect(deck.store.getState()).toMatchObject({ index: 4, revealed: true });
    expect(lab.app.getState().presetRef).toBe('lost-ack-retry/idempotence-off');
    expect(lab.app.getState().compare).toBeNull();
    await lab.actions.settled();
    await Promise.resolve();
    lab.actions.toEnd();
    expect(lab.app.getState().compare).toEqual({
      lanes: [{ knobs: [{ path: 'producer.enable.idempotence', value: true }] }],
    });
    await lab.actions.settled();
  });
});
