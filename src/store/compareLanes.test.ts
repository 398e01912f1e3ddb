/**
 * Compare's state in the lab: opening, changing and closing Compare are undo steps; an edit of
 * the scenario keeps comparing (the lanes follow it); the lanes run with their own client.
 */
import { describe, expect, it } from 'vitest';
import { defaultCompare } from '../views/compare/lanes';
import { traceHashOfView } from '../views/run/hash';
import { createCompareLanes } from './compareLanes';
import { inlineRunner, settledLab } from './labTesting';

const RUN_TIMEOUT = 60_000;

describe('compare state', () => {
  it(
    'is an undo step: open, change a lane, close — each undone and redone',
    async () => {
      const l = await settledLab();
      const spec = defaultCompare(l.app.getState().scenario);
      l.actions.setCompare(spec);
      expect(l.app.getState().compare).toEqual({
        lanes: [{ guarantee: 'at-most-once' }, { guarantee: 'exactly-once' }],
      });
      const changed = { lanes: [{ knobs: [{ path: 'producer.acks', value: '1' }] }] };
      l.actions.setCompare(changed);
      l.actions.setCompare(null);
      expect(l.app.getState().compare).toBeNull();
      l.actions.undo();
      expect(l.app.getState().compare).toBe(changed);
      l.actions.undo();
      expect(l.app.getState().compare).toBe(spec);
      l.actions.undo();
      expect(l.app.getState().compare).toBeNull();
      l.actions.redo();
      expect(l.app.getState().compare).toBe(spec);
      // An edit of the scenario keeps comparing, and its undo too.
      l.actions.setSeed(7);
      expect(l.app.getState().compare).toBe(spec);
      l.actions.undo();
      expect(l.app.getState().compare).toBe(spec);
      // Opening another preset closes Compare (a page of its own).
      l.actions.loadPreset('lost-ack-retry/idempotence-off');
      expect(l.app.getState().compare).toBeNull();
      await l.actions.settled();
    },
    RUN_TIMEOUT,
  );

  it(
    'runs the lanes beside the scenario, the refused one with its reason',
    async () => {
      const l = await settledLab();
      const lanes = createCompareLanes(l, inlineRunner);
      const stop = lanes.start();
      l.actions.setCompare({
        lanes: [{ guarantee: 'exactly-once' }, { knobs: [{ path: 'producer.acks', value: 7 }] }],
      });
      await lanes.settled();
      const [eo, bad] = lanes.store.getState().lanes;
      expect(eo!.status).toBe('ready');
      // The exactly-once lane of this preset: its trace hash, as the CLI prints it
      // (`sim at-least-once --compare exactly-once`, lane 3 of src/cli/compare.test.ts's run).
      expect(traceHashOfView(eo!.view!).slice(0, 16)).toBe('9bf531230fd5bb6d');
      expect(bad!.status).toBe('refused');
      expect(bad!.reason).toMatch(/^this lane's configuration is refused: producer\.acks/);
      l.actions.setCompare(null);
      expect(lanes.store.getState().lanes).toEqual([]);
      stop();
    },
    RUN_TIMEOUT,
  );
});
