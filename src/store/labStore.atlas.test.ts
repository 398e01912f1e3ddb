/**
 * The fault atlas's choice in the lab (src/views/atlas/atlasChoice.ts): each tick of a kind and
 * "Pairs too" is one undo step, the scenario unchanged; an edit of the scenario keeps the choice;
 * opening another scenario starts from every kind; "explored" is noted without an undo step.
 */
import { describe, expect, it } from 'vitest';
import { ATLAS_KINDS } from '../views/atlas/atlasKinds';
import { withKind, withPairs } from '../views/atlas/atlasChoice';
import { settledLab } from './labTesting';

// Whole runs of a small preset (inline) on a shared two-core machine: each well under 2 s alone.
const RUN_TIMEOUT = 30_000;

describe('atlas choice', () => {
  it(
    'a tick is one undo step; undo and redo bring the kinds back with the scenario',
    async () => {
      const lab = await settledLab();
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

  it(
    'an undo step is the scenario with its preset, lanes and kinds as left: each comes back whole',
    async () => {
      const lab = await settledLab();
      const first = lab.app.getState().scenario;
      const lanes = { lanes: [{ guarantee: 'exactly-once' as const }] };
      const noCrash = withKind({}, ATLAS_KINDS, 'crash', false);
      // The workspace a link replaced, as the page's start puts it in the history (one step).
      const mine = { ...first, seed: 9 };
      lab.app.setState({
        past: [{ scenario: mine, presetRef: 'x/y', compare: lanes, atlas: noCrash }],
      });
      lab.actions.undo();
      expect(lab.app.getState()).toMatchObject({
        scenario: mine,
        presetRef: 'x/y',
        compare: lanes,
        atlas: noCrash,
      });
      lab.actions.redo();
      expect(lab.app.getState()).toMatchObject({
        scenario: first,
        presetRef: 'at-least-once/default',
        compare: null,
        atlas: {},
      });
      // The same scenario object opened again, other kinds ticked: two steps, each as it was.
      lab.actions.loadScenario(first, { presetRef: 'at-least-once/default', atlas: noCrash });
      lab.actions.undo();
      expect(lab.app.getState().atlas).toEqual({});
      lab.actions.redo();
      expect(lab.app.getState().atlas).toBe(noCrash);
      await lab.actions.settled();
    },
    RUN_TIMEOUT,
  );
});
