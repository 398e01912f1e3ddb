import { describe, expect, it } from 'vitest';
import { getKnob } from '../scenarios/knobPaths';
import { countersAt, indexAtTime } from '../views/run/at';
import {
  HISTORY_LIMIT,
  selectClaim,
  selectIssues,
  selectRecipeDifferences,
  type Lab,
} from './labStore';
import { settledLab } from './labTesting';

const final = (l: Lab) => {
  const v = l.app.getState().view!;
  return countersAt(v, v.n);
};

describe('lab store: runs', () => {
  it('runs the initial scenario: at-least-once ends with 24 rows, 4 duplicates', async () => {
    const l = await settledLab();
    expect(l.app.getState().status).toBe('ready');
    const c = final(l);
    expect([c.rows, c.duplicates, c.missing]).toEqual([24, 4, 0]);
    // It opens before its first entry (the first send is at 0 ms), where Restart goes too.
    expect(l.app.getState().view!.cols.time[0]).toBe(0);
    expect(l.cursor.getState()).toEqual({ t: 0, idx: 0 });
  });

  it('an invalid knob keeps the last run and reports the field', async () => {
    const l = await settledLab();
    const before = l.app.getState().view;
    // Kafka refuses an explicitly idempotent producer with acks=0 (ConfigException).
    l.actions.setKnob('producer.acks', '0');
    l.actions.setKnob('producer.enable.idempotence', true);
    await l.actions.settled();
    const s = l.app.getState();
    expect(s.status).toBe('invalid');
    expect(selectIssues(s).map((i) => i.path)).toContain('producer.acks');
    expect(s.view).not.toBeNull();
    expect(s.view).not.toBe(before === null ? undefined : null);
  });
});

describe('lab store: guarantee switch and knobs', () => {
  it('switching to exactly-once keeps the faults and removes the duplicates', async () => {
    const l = await settledLab();
    expect(selectClaim(l.app.getState())).toBe('at-least-once');
    expect(selectRecipeDifferences(l.app.getState())).toEqual([]);
    l.actions.setGuarantee('exactly-once');
    await l.actions.settled();
    expect(selectClaim(l.app.getState())).toBe('exactly-once');
    expect(selectRecipeDifferences(l.app.getState())).toEqual([]);
    expect(l.app.getState().scenario.faults).toHaveLength(2);
    const c = final(l);
    expect([c.duplicates, c.missing]).toEqual([0, 0]);
  });

  it('a knob changed by hand keeps the claim and differs from its recipe', async () => {
    const l = await settledLab();
    l.actions.setKnob('sink.statement', 'on-conflict-do-nothing');
    expect(selectClaim(l.app.getState())).toBe('at-least-once');
    expect(selectRecipeDifferences(l.app.getState()).map((k) => k.path)).toEqual([
      'sink.statement',
    ]);
  });

  it('setKnobs sets several knobs as one undo step, its notice naming each', async () => {
    const l = await settledLab();
    const before = l.app.getState().scenario;
    l.actions.setKnobs(
      [
        { path: 'producer.acks', value: 'all' },
        { path: 'producer.enable.idempotence', value: true },
      ],
      'from the fault atlas',
    );
    const s = l.app.getState();
    expect(getKnob(s.scenario, 'producer.acks')).toBe('all');
    expect(getKnob(s.scenario, 'producer.enable.idempotence')).toBe(true);
    expect(s.past).toHaveLength(1);
    expect(s.notice).toBe('Set acks to all; Set enable.idempotence to true; from the fault atlas');
    l.actions.undo();
    expect(l.app.getState().scenario).toBe(before);
    await l.actions.settled();
  });

  it('choosing the claimed guarantee again applies its recipe only where the knobs differ', async () => {
    const l = await settledLab();
    const pristine = l.app.getState().scenario;
    // The knobs follow the recipe: nothing to apply, no history entry.
    l.actions.setGuarantee('at-least-once');
    expect(l.app.getState().scenario).toBe(pristine);
    expect(l.app.getState().past).toHaveLength(0);
    l.actions.setKnob('sink.statement', 'on-conflict-do-nothing');
    l.actions.setGuarantee('at-least-once');
    expect(l.app.getState().scenario.sink).toMatchObject({ statement: 'insert' });
    expect(selectRecipeDifferences(l.app.getState())).toEqual([]);
    expect(l.app.getState().past).toHaveLength(2);
    await l.actions.settled();
  });

  it('a scenario without a claim claims the schema default', async () => {
    const l = await settledLab();
    const scenario = { ...l.app.getState().scenario, claim: 'exactly-once' as const };
    expect(selectClaim({ scenario })).toBe('exactly-once');
    delete (scenario as { claim?: unknown }).claim;
    expect(selectClaim({ scenario })).toBe('at-least-once');
  });

  it('the seed is part of the scenario and undoable', async () => {
    const l = await settledLab();
    l.actions.setSeed(42);
    expect(l.app.getState().scenario.seed).toBe(42);
    l.actions.undo();
    expect(l.app.getState().scenario.seed).toBe(1);
    l.actions.setSeed(-3);
    expect(l.app.getState().scenario.seed).toBe(1);
  });

  it('a rename is one undoable edit of the scenario; a name the format refuses changes nothing', async () => {
    const l = await settledLab();
    const shipped = l.app.getState().scenario.name;
    l.actions.renameScenario('  Payments: acks=1 loses a record on failover  ');
    expect(l.app.getState().scenario.name).toBe('Payments: acks=1 loses a record on failover');
    expect(l.app.getState().notice).toBe('Named “Payments: acks=1 loses a record on failover”');
    l.actions.undo();
    expect(l.app.getState().scenario.name).toBe(shipped);
    const past = l.app.getState().past.length;
    for (const refused of ['   ', 'x'.repeat(201), shipped]) l.actions.renameScenario(refused);
    expect(l.app.getState().scenario.name).toBe(shipped);
    expect(l.app.getState().past.length).toBe(past);
  });
});

describe('lab store: faults, undo and redo', () => {
  it('a scenario opened with an undo note: Undo and Redo name it, not the notice it opened with', async () => {
    // A student's solution opened on the projector (src/ui/room/SolutionsSent.tsx): its notice
    // ends "Undo (Ctrl+Z) goes back to the step", which Undo said back once it had.
    const l = await settledLab();
    const before = l.app.getState().scenario;
    l.actions.loadScenario(
      { ...before, seed: 7 },
      {
        notice: 'Solution 1 of the room, on the challenge’s start: seed=7. Undo goes back.',
        undoNote: 'opened Solution 1 of the room',
      },
    );
    expect(l.app.getState().notice).toBe(
      'Solution 1 of the room, on the challenge’s start: seed=7. Undo goes back.',
    );
    await l.actions.settled();
    l.actions.undo();
    expect(l.app.getState().scenario).toBe(before);
    expect(l.app.getState().notice).toBe('Undone: opened Solution 1 of the room');
    l.actions.redo();
    expect(l.app.getState().notice).toBe('Redone: opened Solution 1 of the room');
    // Without one, the notice names the step, as before.
    l.actions.loadScenario(before, { notice: 'Imported “x” from x.json' });
    l.actions.undo();
    expect(l.app.getState().notice).toBe('Undone: Imported “x” from x.json');
  });

  it('drop an in-flight ack → one duplicate; undo → none; redo → one again', async () => {
    const l = await settledLab();
    // Start from the preset without its faults: nothing goes wrong, 0 duplicates.
    l.actions.deleteFault(1);
    l.actions.deleteFault(0);
    await l.actions.settled();
    expect(final(l).duplicates).toBe(0);
    // p-2's ack is in flight at 62 ms (sent 61, arrives 63): find its entry and drop it.
    const v = l.app.getState().view!;
    l.actions.seek(62);
    const idx = l.cursor.getState().idx;
    let ack = -1;
    for (const e of v.msgs) if (e < idx && v.cols.time[e] === 61 && v.cols.until[e] === 63) ack = e;
    expect(ack).toBeGreaterThan(0);
    expect(l.actions.dropMessage(ack)).toBe(true);
    await l.actions.settled();
    expect(final(l).duplicates).toBe(1);
    // The cursor stays at 62 ms across the re-simulation.
    expect(l.cursor.getState().t).toBe(62);
    l.actions.undo();
    await l.actions.settled();
    expect(final(l).duplicates).toBe(0);
    l.actions.redo();
    await l.actions.settled();
    expect(final(l).duplicates).toBe(1);
  });

  it('a fault added under a label already taken gets a number, so explanations name one fault', async () => {
    const l = await settledLab();
    const f = { id: 'lost ack', kind: 'drop-response', link: 'produce', at: 0 } as const;
    l.actions.addFault(f);
    l.actions.addFault(f);
    await l.actions.settled();
    const ids = l.app.getState().scenario.faults!.map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    // The preset already has a fault labelled "lost ack".
    expect(ids).toEqual(['lost ack', 'consumer crash', 'lost ack 2', 'lost ack 3']);
  });

  it('moving a fault changes when it fires; deleting it removes it', async () => {
    const l = await settledLab('at-most-once');
    const crash = 1;
    expect(final(l).missing).toBe(2);
    l.actions.deleteFault(crash);
    await l.actions.settled();
    expect(final(l).missing).toBe(0);
    // Named by its id, as the status line, the timeline and the CLI name it.
    expect(l.app.getState().notice).toBe('Deleted fault "consumer crash"');
    l.actions.undo();
    await l.actions.settled();
    // Armed from after the last batch's end: the mid-batch crash never finds a 2nd batch.
    l.actions.moveFault(crash, 45_000);
    await l.actions.settled();
    expect(l.app.getState().scenario.faults![crash]!.at).toBe(45_000);
    expect(final(l).missing).toBe(0);
    // A crash at a named point only waits from then on: the notice says so.
    expect(l.app.getState().notice).toBe(
      'Fault "consumer crash" is armed from 45.000 s: it fires at the first matching moment after that',
    );
  });

  it('undo with nothing to undo, and redo with nothing to redo, say so and change nothing', async () => {
    const l = await settledLab();
    const before = l.app.getState().scenario;
    l.actions.undo();
    expect(l.app.getState().notice).toBe('Nothing to undo');
    expect(l.app.getState().scenario).toBe(before);
    l.actions.redo();
    expect(l.app.getState().notice).toBe('Nothing to redo');
    expect(l.app.getState().scenario).toBe(before);
  });

  it('keeps at most HISTORY_LIMIT undo steps', async () => {
    const l = await settledLab();
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) l.actions.setSeed(i + 2);
    expect(l.app.getState().past).toHaveLength(HISTORY_LIMIT);
    await l.actions.settled();
    // ~0.3 s idle (a run per seed); seconds on a loaded two-core machine.
  }, 30_000);
});

describe('lab store: playback cursor', () => {
  it('seek, step and tick keep idx = entries with time ≤ t', async () => {
    const l = await settledLab();
    const v = l.app.getState().view!;
    l.actions.seek(40_050);
    expect(l.cursor.getState().idx).toBe(indexAtTime(v, 40_050));
    const at = l.cursor.getState().idx;
    l.actions.step(1);
    expect(l.cursor.getState()).toEqual({ idx: at + 1, t: v.cols.time[at] });
    l.actions.step(-1);
    l.actions.step(-1);
    expect(l.cursor.getState().idx).toBe(at - 1);
    l.actions.play();
    for (let i = 0; i < 2000 && l.app.getState().playing; i++) l.actions.tick(16);
    expect(l.cursor.getState().idx).toBeGreaterThan(at);
  });

  it('playing reaches the end and stops there; play again restarts from 0', async () => {
    const l = await settledLab();
    const v = l.app.getState().view!;
    l.actions.setSpeed(1000);
    l.actions.play();
    let frames = 0;
    while (l.app.getState().playing && frames++ < 10_000) l.actions.tick(16);
    expect(l.cursor.getState()).toEqual({ t: v.endTime, idx: v.n });
    l.actions.play();
    expect(l.cursor.getState().t).toBe(0);
  });

  it('skipping idle time jumps the 30 s retry wait within a few frames', async () => {
    const l = await settledLab();
    // After the last send (950 ms) nothing happens until p-4's request times out at 30,155 ms.
    l.actions.seek(1000);
    l.actions.play();
    // Slow speed (×0.01): 30 s of waiting would take 50 minutes of real time without skipping.
    let longest = 0;
    for (let i = 0; i < 20; i++) {
      l.actions.tick(16);
      longest = Math.max(longest, l.app.getState().lastSkip);
    }
    expect(l.cursor.getState().t).toBeGreaterThan(30_000);
    expect(longest).toBeGreaterThan(29_000);
  });

  it('restart goes back to 0 and pauses', async () => {
    const l = await settledLab();
    l.actions.seek(1000);
    l.actions.play();
    l.actions.restart();
    expect(l.cursor.getState()).toEqual({ t: 0, idx: 0 });
    expect(l.app.getState().playing).toBe(false);
  });

  it('toEnd applies every entry, puts the clock at the end time and pauses', async () => {
    const l = await settledLab();
    l.actions.play();
    l.actions.toEnd();
    const v = l.app.getState().view!;
    expect(l.cursor.getState()).toEqual({ t: v.endTime, idx: v.n });
    expect(l.app.getState().playing).toBe(false);
  });

  it('a reveal guard (an unanswered "Predict first") keeps toEnd from jumping and says why', async () => {
    const l = await settledLab();
    l.actions.seek(100);
    const at = l.cursor.getState();
    l.actions.setRevealGuard(() => 'The answer waits');
    l.actions.toEnd();
    expect(l.cursor.getState()).toEqual(at);
    expect(l.app.getState().notice).toBe('The answer waits');
    // Another notice is left alone; the refusal itself is withdrawn once it no longer holds.
    l.actions.withdrawNotice('Undone');
    expect(l.app.getState().notice).toBe('The answer waits');
    l.actions.withdrawNotice('The answer waits');
    expect(l.app.getState().notice).toBeNull();
    l.actions.setRevealGuard(null);
    l.actions.toEnd();
    expect(l.cursor.getState().idx).toBe(l.app.getState().view!.n);
  });

  it('the reveal guard refuses play (button, Space, autoplay alike) and says why; allowed after', async () => {
    const l = await settledLab();
    let waits = true;
    l.actions.setRevealGuard(() => (waits ? 'The answer waits' : null));
    l.actions.play();
    expect(l.app.getState().playing).toBe(false);
    expect(l.app.getState().notice).toBe('The answer waits');
    l.actions.togglePlay();
    expect(l.app.getState().playing).toBe(false);
    l.actions.tick(1000);
    expect(l.cursor.getState()).toEqual({ t: 0, idx: 0 });
    waits = false;
    l.actions.play();
    expect(l.app.getState().playing).toBe(true);
    expect(l.app.getState().notice).toBeNull();
  });

  it('forwardRefusal asks the same guard for a view with its own playback (the batch schedule)', async () => {
    const l = await settledLab();
    expect(l.actions.forwardRefusal()).toBeNull();
    expect(l.app.getState().notice).toBeNull();
    let waits = true;
    l.actions.setRevealGuard(() => (waits ? 'The answer waits' : null));
    expect(l.actions.forwardRefusal()).toBe('The answer waits');
    expect(l.app.getState().notice).toBe('The answer waits');
    waits = false;
    expect(l.actions.forwardRefusal()).toBeNull();
  });

  it('while the guard says so, nothing moves the cursor forward; back towards the start is free', async () => {
    const l = await settledLab();
    const v = l.app.getState().view!;
    l.actions.seekIndex(5);
    l.actions.setRevealGuard(() => 'The answer waits');
    // Forward by a step, a jump, an index, a time or the end: each refused, with the guard's words.
    l.actions.step(1);
    expect(l.cursor.getState().idx).toBe(5);
    expect(l.app.getState().notice).toBe('The answer waits');
    l.actions.jump(1);
    l.actions.seekIndex(6);
    l.actions.seek(v.endTime);
    l.actions.toEnd();
    expect(l.cursor.getState().idx).toBe(5);
    // Back is free: a step, then the start.
    l.actions.step(-1);
    expect(l.cursor.getState().idx).toBe(4);
    l.actions.seekIndex(0);
    expect(l.cursor.getState().idx).toBe(0);
    l.actions.setRevealGuard(null);
    l.actions.seekIndex(v.n);
    expect(l.cursor.getState().idx).toBe(v.n);
  });

  it('a run already playing stops where it stands when the guard starts to say so', async () => {
    const l = await settledLab();
    l.actions.play();
    l.actions.tick(5);
    const at = l.cursor.getState().idx;
    l.actions.setRevealGuard(() => 'The answer waits');
    l.actions.setSpeed(1e9);
    l.actions.tick(10_000);
    expect(l.app.getState().playing).toBe(false);
    expect(l.cursor.getState().idx).toBe(at);
    expect(l.app.getState().notice).toBe('The answer waits');
    // Play is refused as long as the guard says so.
    l.actions.play();
    expect(l.app.getState().playing).toBe(false);
  });

  it('the last edit’s note goes once the user moves through the run (it stayed while stepping)', async () => {
    const l = await settledLab();
    l.actions.setSeed(7);
    await l.actions.settled();
    l.actions.undo();
    await l.actions.settled();
    // The undo's rerun put the cursor back: that is not the user moving, the note stays.
    expect(l.app.getState().notice).toBe('Undone: Seed 7');
    l.actions.step(1);
    expect(l.app.getState().notice).toBeNull();
    for (const move of [
      () => l.actions.seek(500),
      () => l.actions.seekIndex(3),
      () => l.actions.play(),
      () => l.actions.restart(),
      () => l.actions.toEnd(),
    ]) {
      l.app.setState({ notice: 'a note' });
      move();
      expect(l.app.getState().notice).toBeNull();
    }
  });
});

describe('lab store: the panels’ cursor (shown)', () => {
  it('follows seeks at once, frames at most every SHOWN_INTERVAL_MS, and a pause flushes it', async () => {
    const l = await settledLab();
    // The consumer's first batch: an engine event every few ms.
    l.actions.seek(40_002);
    expect(l.shown.getState().idx).toBe(l.cursor.getState().idx);
    l.actions.setSpeed(1);
    l.actions.play();
    l.actions.tick(10);
    l.actions.tick(10);
    // 20 ms of frames: the cursor moved, the panels' cursor has not yet.
    expect(l.cursor.getState().idx).toBeGreaterThan(l.shown.getState().idx);
    for (let i = 0; i < 6; i++) l.actions.tick(10);
    // 80 ms ≥ SHOWN_INTERVAL_MS: caught up.
    expect(l.shown.getState().idx).toBe(l.cursor.getState().idx);
    l.actions.tick(10);
    l.actions.pause();
    expect(l.shown.getState().idx).toBe(l.cursor.getState().idx);
  });
});

describe('lab store: guarantee switches', () => {
  const walk = { walk: true };

  it('an arrow-key walk is one undo step, and walking back to the first guarantee restores the scenario as it was', async () => {
    const l = await settledLab();
    const pristine = l.app.getState().scenario;
    const claim = selectClaim(l.app.getState());
    expect(claim).toBe('at-least-once');
    // ← ← then → → on the radio group: at-most-once, then exactly-once... each from the pristine scenario.
    l.actions.setGuarantee('at-most-once', walk);
    l.actions.setGuarantee('exactly-once', walk);
    expect(selectClaim(l.app.getState())).toBe('exactly-once');
    expect(l.app.getState().past).toHaveLength(1);
    l.actions.setGuarantee('at-least-once', walk);
    expect(l.app.getState().scenario).toBe(pristine);
    // One step back from any point of the walk is the scenario before it.
    l.actions.setGuarantee('at-most-once', walk);
    l.actions.undo();
    expect(l.app.getState().scenario).toBe(pristine);
    expect(l.app.getState().past).toHaveLength(0);
    await l.actions.settled();
  });

  it('Undo and Redo say the edit they undo or redo (a walk: its last switch)', async () => {
    const l = await settledLab();
    l.actions.setSeed(7);
    expect(l.app.getState().notice).toBe('Seed 7');
    l.actions.setCompare({ lanes: [{ guarantee: 'exactly-once' }] });
    l.actions.setGuarantee('at-most-once', walk);
    l.actions.setGuarantee('exactly-once', walk);
    l.actions.undo();
    expect(l.app.getState().notice).toBe('Undone: Guarantee: exactly-once');
    l.actions.undo();
    expect(l.app.getState().notice).toBe('Undone: Compare');
    l.actions.undo();
    expect(l.app.getState().notice).toBe('Undone: Seed 7');
    l.actions.undo();
    expect(l.app.getState().notice).toBe('Nothing to undo');
    l.actions.redo();
    expect(l.app.getState().notice).toBe('Redone: Seed 7');
    l.actions.redo();
    expect(l.app.getState().notice).toBe('Redone: Compare');
    l.actions.undo();
    expect(l.app.getState().notice).toBe('Undone: Compare');
    // The note is the history's, not the page's state.
    expect('note' in l.app.getState()).toBe(false);
    await l.actions.settled();
  });

  it('a walk ends at the first edit of another kind: the next switch is a new undo step', async () => {
    const l = await settledLab();
    l.actions.setGuarantee('exactly-once', walk);
    l.actions.setKnob('sink.statement', 'insert');
    l.actions.setGuarantee('at-most-once', walk);
    expect(l.app.getState().past).toHaveLength(3);
    await l.actions.settled();
  });

  it('each click is an undo step of its own, applied to the scenario on screen (ending a walk)', async () => {
    const l = await settledLab();
    l.actions.loadPreset('payment-resent-by-app/plain-insert');
    const shipped = l.app.getState().scenario;
    expect(selectClaim(l.app.getState())).toBe('exactly-once');
    expect(selectRecipeDifferences(l.app.getState()).length).toBeGreaterThan(0);
    l.actions.setGuarantee('at-most-once');
    const amo = l.app.getState().scenario;
    l.actions.setGuarantee('at-least-once');
    l.actions.undo();
    expect(l.app.getState().scenario).toBe(amo);
    l.actions.undo();
    expect(l.app.getState().scenario).toBe(shipped);
    // Clicked back to the preset's own guarantee: its recipe, not the knobs it shipped with.
    l.actions.setGuarantee('at-most-once');
    l.actions.setGuarantee('exactly-once');
    expect(selectClaim(l.app.getState())).toBe('exactly-once');
    expect(selectRecipeDifferences(l.app.getState())).toEqual([]);
    // A click after a walk's step is not part of the walk.
    l.actions.setGuarantee('at-least-once', walk);
    const walked = l.app.getState().scenario;
    l.actions.setGuarantee('at-most-once');
    l.actions.undo();
    expect(l.app.getState().scenario).toBe(walked);
    await l.actions.settled();
  });
});
