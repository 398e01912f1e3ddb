/**
 * The presenter's deck over a lab: a step opens its preset at its start, where the run waits for
 * the reveal (then plays at its pace), the answer waits for reveal, the "then flip to" opens in
 * Compare once the revealed run has reached its end, Undo works as on the page within a step, and
 * followers read the step through one stable selector.
 */
import { describe, expect, it } from 'vitest';
import type { RunClient, RunJob } from '../platform/runClient';
import { findLesson } from '../scenarios/lessons';
import { scenarioKey } from '../views/run/compute';
import { computeRunView } from '../views/run/computeRun';
import { createLab } from './labStore';
import { streamThenBatchLesson } from '../scenarios/lessons/testLessons';
import { createLessonDeck, currentLessonStep, LESSON_WAITS } from './lessonDeck';
import { inlineRunner } from './labTesting';

/**
 * A run client whose runs wait until `arrive()` (computed inline then, and at once after it): the
 * moment between a step's load and its run being ready, held open for as long as a test needs.
 */
function heldRunner() {
  const held: (() => void)[] = [];
  let flowing = false;
  const runner: RunClient = {
    run(input) {
      const result = () => ({ ...computeRunView(input), key: scenarioKey(input) });
      if (flowing) return { promise: Promise.resolve(result()), cancel() {} };
      let release!: () => void;
      const promise = new Promise<Awaited<RunJob['promise']>>((resolve) => {
        release = () => resolve(result());
      });
      held.push(release);
      return { promise, cancel() {} };
    },
    dispose() {},
  };
  return {
    runner,
    arrive() {
      flowing = true;
      for (const release of held.splice(0)) release();
    },
  };
}

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
    expect(first).toMatchObject({ lessonId: lesson.id, index: 0, count: 11, revealed: false });
    expect(first.question).toBe('How many of the 20 payments reach the table?');
    // A stable selector output while nothing changes.
    expect(currentLessonStep(deck.store.getState())).toBe(first);

    deck.actions.previous(); // already at the first step: stays
    expect(deck.store.getState().index).toBe(0);
    deck.actions.next();
    expect(lab.app.getState().presetRef).toBe('at-least-once/default');
    expect(lab.app.getState().compare).toBeNull();
    // Undo on a step just opened has nothing to undo: it brought back step 1's run (at-most-once)
    // under step 2's title and question, the deck still on step 2.
    expect(lab.app.getState().past).toEqual([]);
    lab.actions.undo();
    expect(lab.app.getState().presetRef).toBe('at-least-once/default');
    expect(deck.store.getState().index).toBe(1);
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
    expect(currentLessonStep(deck.store.getState())).toMatchObject({ index: 10, revealed: false });
  });

  it("a batch job's step: R takes the refusal off, its schedule's end (told by the batch view) shows the answer", async () => {
    const lab = createLab({ runner: inlineRunner });
    const deck = createLessonDeck(lab, streamThenBatchLesson(), { index: 1, revealed: false });
    await lab.actions.settled();
    expect(lab.app.getState().presetRef).toBe('airflow-retry-append/append');
    // The schedule (src/ui/batch/BatchRun.tsx) asks the guard before each attempt: refused.
    expect(lab.actions.forwardRefusal()).toBe(LESSON_WAITS);
    // An end told before the reveal is not the revealed run's.
    deck.actions.reachedEnd();
    expect(deck.store.getState()).toMatchObject({ revealed: false, answered: false });
    deck.actions.reveal();
    expect(lab.actions.forwardRefusal()).toBeNull();
    await lab.actions.settled();
    await Promise.resolve();
    // No stream run to play or watch: the answer waits for the schedule's end.
    expect(lab.app.getState().playing).toBe(false);
    expect(deck.store.getState()).toMatchObject({ revealed: true, answered: false });
    deck.actions.reachedEnd();
    expect(deck.store.getState()).toMatchObject({ revealed: true, answered: true });
    expect(lab.app.getState().compare).toBeNull();
    // Back to the stream step, and again: asked anew.
    deck.actions.previous();
    deck.actions.next();
    expect(deck.store.getState()).toMatchObject({ index: 1, revealed: false, answered: false });
  });

  it('PageUp to a revealed step opens it folded at t = 0, no new round; "Ask again" counts one and folds a played run back', async () => {
    const lab = createLab({ runner: inlineRunner });
    const deck = createLessonDeck(lab, lesson);
    await lab.actions.settled();
    deck.actions.reveal();
    await lab.actions.settled();
    await Promise.resolve();
    lab.actions.toEnd();
    expect(deck.store.getState()).toMatchObject({ index: 0, answered: true, rounds: 0 });
    deck.actions.next();
    deck.actions.previous();
    await lab.actions.settled();
    // Opened again: the run at its start, the outcome folded — and no new round: the room keeps
    // its answers and reveal for this step (the server's publish), until asked again.
    expect(deck.store.getState()).toMatchObject({
      index: 0,
      revealed: false,
      answered: false,
      rounds: 0,
    });
    expect(lab.cursor.getState()).toEqual({ t: 0, idx: 0 });
    // "Ask again" on the folded step: one round; the run stays at its start, waiting.
    deck.actions.askAgain();
    expect(deck.store.getState()).toMatchObject({ index: 0, revealed: false, rounds: 1 });
    lab.actions.play();
    expect(lab.app.getState().notice).toBe(LESSON_WAITS);
    // Played again, then asked again: the run back at its start, waiting for the new round.
    deck.actions.reveal();
    await lab.actions.settled();
    await Promise.resolve();
    lab.actions.tick(50);
    expect(lab.cursor.getState().idx).toBeGreaterThan(0);
    deck.actions.askAgain();
    await lab.actions.settled();
    expect(deck.store.getState()).toMatchObject({
      index: 0,
      revealed: false,
      answered: false,
      rounds: 2,
    });
    expect(lab.cursor.getState()).toEqual({ t: 0, idx: 0 });
    expect(lab.app.getState().playing).toBe(false);
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

  describe('a move made while the revealed step’s run is on its way is made when it arrives', () => {
    /** A lab and a deck resumed at step `index`, revealed (`?reveal=1`), its run held. */
    const resumed = (index: number) => {
      const { runner, arrive } = heldRunner();
      const lab = createLab({ runner });
      const deck = createLessonDeck(lab, lesson, { index, revealed: true });
      expect(lab.app.getState().status).toBe('running');
      const ready = async () => {
        arrive();
        await lab.actions.settled();
        await Promise.resolve();
      };
      return { lab, deck, ready };
    };

    it('End on a step without "then flip to": the run at its end, paused — not played from 0', async () => {
      // Step 3, effectively-once: 20 payments. Fails on the old deck: the End was dropped (no
      // run to end) and the reveal played the run from its start (t 0 → playing).
      const { lab, deck, ready } = resumed(2);
      lab.actions.toEnd();
      await ready();
      const { view, playing } = lab.app.getState();
      expect(lab.app.getState().presetRef).toBe('effectively-once/default');
      expect(playing).toBe(false);
      expect(lab.cursor.getState()).toEqual({ idx: view!.n, t: view!.endTime });
      expect(deck.store.getState()).toMatchObject({ revealed: true, answered: true });
    });

    it('End on a "then flip to" step: at its end, the answer shown and Compare open', async () => {
      // Step 5, lost-ack-retry with idempotence off, flips to idempotence on (CI's race: '1 / 10
      // sent', playing).
      const { lab, deck, ready } = resumed(4);
      lab.actions.toEnd();
      await ready();
      expect(deck.store.getState().answered).toBe(true);
      expect(lab.app.getState().compare).toEqual({
        lanes: [{ knobs: [{ path: 'producer.enable.idempotence', value: true }] }],
      });
      expect(lab.app.getState().playing).toBe(false);
      const { view } = lab.app.getState();
      expect(lab.cursor.getState().idx).toBe(view!.n);
    });

    it('a jump lands on the run’s first moment, paused; Home after End keeps the start and plays', async () => {
      // Step 5's first moment is the commit of e1 at 122 ms (src/views/run/moments.test.ts).
      const jumped = resumed(4);
      jumped.lab.actions.jump(1);
      await jumped.ready();
      expect(jumped.lab.cursor.getState().t).toBe(122);
      expect(jumped.lab.app.getState().playing).toBe(false);
      expect(jumped.lab.app.getState().notice).toMatch(/^Next commit — event \d+ at 122 ms/);
      // The last move asked for wins: End, then Home, is the start — and the reveal plays it.
      const home = resumed(2);
      home.lab.actions.toEnd();
      home.lab.actions.restart();
      await home.ready();
      expect(home.lab.app.getState().playing).toBe(true);
      expect(home.deck.store.getState().answered).toBe(false);
    });

    it('a move made before the reveal is still refused, and a step left meanwhile drops it', async () => {
      const { runner, arrive } = heldRunner();
      const lab = createLab({ runner });
      const deck = createLessonDeck(lab, lesson, { index: 2, revealed: false });
      lab.actions.toEnd();
      expect(lab.app.getState().notice).toBe(LESSON_WAITS);
      deck.actions.reveal();
      lab.actions.toEnd();
      // The presenter moves on before the run arrives: the End was a move in step 3's run.
      deck.actions.next();
      arrive();
      await lab.actions.settled();
      await Promise.resolve();
      expect(lab.cursor.getState()).toEqual({ t: 0, idx: 0 });
      expect(deck.store.getState()).toMatchObject({ index: 3, revealed: false });
    });
  });
});
