import { describe, expect, it } from 'vitest';
import { libraryLessons, parseLesson, resolveStep } from '../../scenarios/lessons';
import { shippedChallenges } from '../../scenarios/challenges/shipped';
import { ROOM_LIMITS, RoomStepSchema } from '../../views/room/protocol';
import type { LabState } from '../../store/labStore';
import { loadPreset } from '../../scenarios/presetCatalog';
import type { Goal } from '../../engine';
import { goalWords } from '../../views/challenge/words';
import {
  currentRoomReveal,
  currentRoomStep,
  lessonChallengeStep,
  lessonRoomReveal,
  lessonRoomStep,
  observedOnScreen,
  pageStepToAsk,
} from './currentRoomStep';

describe('a lesson step asked of the room', () => {
  it('gives every step of every shipped lesson a valid room step, numbered by its place', () => {
    for (const lesson of libraryLessons())
      for (const [i] of lesson.steps.entries()) {
        const step = resolveStep(lesson, i);
        const asked = lessonRoomStep(step, i);
        expect(RoomStepSchema.safeParse(asked).success, `${lesson.id} step ${i + 1}`).toBe(true);
        expect(asked.stepIndex).toBe(i);
        expect(asked.title).toBe(step.title);
        // A choice question's reveal names one of its options (the histogram marks it).
        const reveal = lessonRoomReveal(step, 'at-least-once');
        if (asked.question.kind === 'choice' && reveal.correct !== undefined)
          expect(asked.question.options.map((o) => o.id)).toContain(reveal.correct);
      }
  });
});

describe("a lesson step's challenge asked of the room", () => {
  // Every shipped challenge, as a lesson's own (another id): the largest of them, with the longest
  // intro, still travels to the phones within one message.
  const asOwn = shippedChallenges.map((c, k) => {
    const parsed = parseLesson({
      version: 1,
      id: 'own',
      title: 'Own',
      steps: [{ title: 'A step', preset: 'at-least-once', challenge: { ...c, id: `own-${k}` } }],
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    return resolveStep(parsed.lesson, 0).challenge!;
  });

  it("carries the lesson's own challenge whole (ch=…), a valid room step within the message limit", () => {
    for (const own of asOwn) {
      const asked = lessonChallengeStep(own, 0);
      expect(RoomStepSchema.safeParse(asked).success, own.challenge.id).toBe(true);
      expect(asked.question).toMatchObject({ challenge: own.challenge.id, carried: own.carried });
      const bytes = new TextEncoder().encode(JSON.stringify({ type: 'step', step: asked })).length;
      expect(bytes, own.challenge.id).toBeLessThan(ROOM_LIMITS.messageBytes);
    }
  });

  it("says each challenge's goal once: its intro states it, the phone's setup adds no second goal sentence", () => {
    // fix-at-least-once's intro ends "… so that every payment is in the table exactly once. The
    // faults stay."; the phones had "Make the end of the pipeline exact: …" after it, the same goal.
    for (const [k, c] of shippedChallenges.entries()) {
      const goal = { ...c.goal, atLeast: 'atLeast' in c.goal ? (c.goal.atLeast ?? 1) : 1 } as Goal;
      const asked = lessonChallengeStep(asOwn[k]!, 0);
      expect(asked.setup, c.id).toBe(c.intro);
      expect(asked.setup, c.id).not.toContain(goalWords(goal));
    }
  });

  it('names a shipped one by its id alone', () => {
    const parsed = parseLesson({
      version: 1,
      id: 'shipped',
      title: 'Shipped',
      steps: [{ title: 'A step', preset: 'at-least-once', challenge: 'acks-one-loses' }],
    });
    const asked = parsed.ok && lessonChallengeStep(resolveStep(parsed.lesson, 0).challenge!, 0);
    expect(asked && asked.question).toEqual({
      kind: 'challenge',
      text: 'Open the challenge, change the pipeline within its rules and play the run to its end: did the page say Solved?',
      challenge: 'acks-one-loses',
    });
  });

  it('refuses a carried challenge that is not a link’s hash, naming the field', () => {
    const asked = lessonChallengeStep(asOwn[0]!, 0);
    const bad = { ...asked, question: { ...asked.question, carried: 'ch=2.<script>' } };
    const r = RoomStepSchema.safeParse(bad);
    expect(r.success ? [] : r.error.issues.map((i) => i.path.join('.'))).toEqual([
      'question.carried',
    ]);
  });
});

describe('the reveal of a batch preset asked of the room', () => {
  it("marks the choice its batch run's verdict names right (the store holds no stream run of it)", async () => {
    const ref = 'redis-claim-order/claim-then-write';
    const found = await loadPreset(ref);
    const scenario = found!.variant.scenario;
    // As the store stands once a batch job is in: ready, no stream view (labStore's requestRun).
    const s = { scenario, presetRef: ref, viewFor: scenario, view: null } as unknown as LabState;
    // The preset's question names events: the room asks the four choices.
    const asked = currentRoomStep(s, 0);
    expect(asked.question.kind).toBe('choice');
    // e5 is claimed, the crash loses its write, the retry skips it: lost, none twice.
    expect(observedOnScreen(s)).toBe('at-most-once');
    expect(currentRoomReveal(s).correct).toBe('at-most-once');
    // Before its run is in, nothing is marked (the answer in words only).
    expect(currentRoomReveal({ ...s, viewFor: null } as LabState).correct).toBeUndefined();
  });
});

describe('a preset asked of the room on a variant its question is not about', () => {
  it('asks the question any run can be asked, of the run on screen, as the page asks nothing of the preset’s there', async () => {
    // lost-ack-retry's question is about idempotence off (3 rows: e3 twice); retries=0 sends
    // nothing again, so its answer is not this run's.
    const ref = 'lost-ack-retry/retries-0';
    const found = await loadPreset(ref);
    const scenario = found!.variant.scenario;
    const s = { scenario, presetRef: ref, viewFor: null, view: null } as unknown as LabState;
    const asked = currentRoomStep(s, 0);
    expect(asked.title).toBe(`${found!.preset.title} — ${found!.variant.label}`);
    expect(asked.setup).toMatch(/^Set up for the “idempotence off” variant, not this one: /);
    expect(asked.question).toEqual({
      kind: 'choice',
      text: 'What will the sink end with?',
      options: [
        { id: 'exactly-once', text: 'Every event exactly once' },
        { id: 'at-most-once', text: 'Some events lost' },
        { id: 'at-least-once', text: 'Some events twice' },
        { id: 'none', text: 'Some lost and some twice' },
      ],
    });
    expect(RoomStepSchema.safeParse(asked).success).toBe(true);
    // The question's own variant is asked the preset's question, with its setup as written.
    const own = await loadPreset('lost-ack-retry');
    const ownAsked = currentRoomStep(
      { scenario: own!.variant.scenario, presetRef: 'lost-ack-retry' } as unknown as LabState,
      0,
    );
    expect(ownAsked.title).toBe(own!.preset.title);
    expect(ownAsked.setup).toBe(own!.preset.setup.slice(0, ownAsked.setup!.length));
    expect(ownAsked.question.kind).toBe('number');
  });
});

describe("the page's ask button (Ask the story on screen)", () => {
  it('keeps the step the room is answering when the same question is open; asks anew once revealed, or another question', async () => {
    const ref = 'flink-checkpoint-replay/plain-sink';
    const found = await loadPreset(ref);
    const s = {
      scenario: found!.variant.scenario,
      presetRef: ref,
      viewFor: null,
      view: null,
    } as unknown as LabState;
    const first = pageStepToAsk(s, null, false)!;
    expect(first.stepIndex).toBe(0);
    // Asked again (a second press, a Space on the focused button) before the reveal: nothing to
    // publish — it was step 1, no answer, and the room's answers of step 0 set aside. The room
    // echoes the step through zod (its keys in the schema's order): the same step still.
    const echoed = RoomStepSchema.parse(JSON.parse(JSON.stringify(first)));
    expect(pageStepToAsk(s, echoed, false)).toBeNull();
    // Revealed: the same question is a new round.
    expect(pageStepToAsk(s, echoed, true)?.stepIndex).toBe(1);
    // Another preset open: its question, the next step.
    const other = await loadPreset('flink-checkpoint-replay/upsert');
    const next = pageStepToAsk(
      { ...s, scenario: other!.variant.scenario, presetRef: 'flink-checkpoint-replay/upsert' },
      echoed,
      false,
    );
    expect(next?.stepIndex).toBe(1);
    expect(next?.title).not.toBe(first.title);
  });
});

describe('an edited story asked of the room', () => {
  it('asks the question any run can be asked, judged by the run: the preset’s answer is not the edited run’s', async () => {
    // at-least-once: 24 rows (p-4's lost ack re-sent, a consumer crash replaying 3); without its
    // faults, 20 rows, every payment once.
    const ref = 'at-least-once/default';
    const found = await loadPreset(ref);
    const scenario = { ...found!.variant.scenario, faults: [] };
    const s = { scenario, presetRef: ref, viewFor: null, view: null } as unknown as LabState;
    const asked = currentRoomStep(s, 0);
    expect(asked.title).toBe(`${found!.preset.title} — edited`);
    expect(asked.setup).toMatch(/^Set up for the story as shipped, not this edited run: /);
    expect(asked.question.kind).toBe('choice');
    expect(asked.question.text).toBe('What will the sink end with?');
    const view = { verdict: { observed: 'exactly-once' } };
    const reveal = currentRoomReveal({ ...s, viewFor: scenario, view } as unknown as LabState);
    expect(reveal.correct).toBe('exactly-once');
    // As shipped: its own question, 24 rows.
    const shipped = currentRoomStep(
      { ...s, scenario: found!.variant.scenario } as unknown as LabState,
      0,
    );
    expect(shipped.title).toBe(found!.preset.title);
    expect(shipped.question.kind).toBe('number');
  });
});
