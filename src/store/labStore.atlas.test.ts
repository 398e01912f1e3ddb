/**
 * The fault atlas's choice in the lab (src/views/atlas/atlasChoice.ts): each tick of a kind and
 * "Pairs too" is one undo step, the scenario unchanged; an edit of the scenario keeps the choice;
 * opening another scenario starts from every kind; "explored" is noted without an undo step.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../scenarios';
import type { RunClient } from '../platform/runClient';
import { scenarioKey } from '../views/run/compute';
import { computeRunView } from '../views/run/computeRun';
import { ATLAS_KINDS } from '../views/atlas/atlasKinds';
import { withKind, withPairs } from '../views/atlas/atlasChoice';
import { createLab } from './labStore';

// Whole runs of a small preset (inline) on a shared two-core machine: each well under 2 s alone.
const RUN_TIMEOUT = 30_000;

/** Runs inline, as the page's client does for small scenarios (there is no Worker in jsdom). */
const inlineRunner: RunClient = {
  run(input) {
    const key = scenarioKey(input);
    return { promise: Promise.resolve({ ...computeRunView(input), key }), cancel() {} };
  },
  dispose() {},
};

describe('atlas choice', () => {
  it(
    'a tick is one undo step; undo and redo bring the kinds back with the scenario',
    async () => {
      const lab = createLab({
        runner: inlineRunner,
        initial: structuredClone(findPreset('at-least-once/default')!.variant.scenario),
        initialPresetRef: 'at-least-once/default',
      });
      await lab.actions.settled();
      const before = lab.app.getState().scenario;
      expect(lab.app.getState().atlas).toEqual({});
      const noCrash = withKind({}, ATLAS_KINDS, 'crash', false);
      lab.actions.setAtlas(noCrash, 'Fault atlas: crashes left out');
      const pairs = withPairs(noCrash, true);
      lab.actions.setAtlas(pairs, 'Fault atlas: pairs too');
      // Two undo steps, the scenario the same as written.
      expect(lab.app.getState().past).toHaveLength(2);
      expect(lab.app.getState().scenario).toEqual(before);
      expect(lab.app.getState().atlas).toBe(pairs);
      // The atlas ran: noted, with no undo step of its own.
      lab.actions.noteAtlasExplored();
      expect(lab.app.getState().atlas).toEqual({ ...pairs, explored: true });
      expect(lab.app.getState().past).toHaveLength(2);
      lab.actions.undo();
      expect(lab.app.getState().atlas).toBe(noCrash);
      lab.actions.undo();
      expect(lab.app.getState().atlas).toEqual({});
      lab.actions.redo();
      expect(lab.app.getState().atlas).toBe(noCrash);
      // An edit of the scenario keeps the kinds ticked, and its undo too.
      lab.actions.setSeed(7);
      expect(lab.app.getState().atlas).toBe(noCrash);
      lab.actions.undo();
      expect(lab.app.getState().atlas).toBe(noCrash);
      // Another scenario opened: every kind again — unless it is opened with a link's choice.
      lab.actions.loadPreset('lost-ack-retry/idempotence-off');
      expect(lab.app.getState().atlas).toEqual({});
      lab.actions.loadScenario(before, { atlas: pairs });
      expect(lab.app.getState().atlas).toBe(pairs);
      await lab.actions.settled();
    },
    RUN_TIMEOUT,
  );
});
