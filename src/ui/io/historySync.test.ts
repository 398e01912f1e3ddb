/**
 * Back and Forward (src/ui/io/historySync.ts) against a fake session history that behaves as the
 * HTML spec's does: pushState drops the entries after the current one and adds one, replaceState
 * changes the current one, traversing fires popstate with the state of the entry reached.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { entryOf, HISTORY_KEY, type HistoryEnv } from '../../platform/history';
import { createRunClient } from '../../platform/runClient';
import { findPreset } from '../../scenarios';
import { createLab, type Lab } from '../../store/labStore';
import { createHistorySync, HISTORY_NOTICE } from './historySync';

// Whole runs on a loaded two-core machine: its slowest test took 2.5 s in a full CI run
// (this file 4.3 s), so each gets 15 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 15_000 });

const inline = createRunClient({ createWorker: null });

function fakeBrowser(first = 'http://lab.test/') {
  const entries: { state: unknown; url: string }[] = [{ state: null, url: first }];
  let at = 0;
  const listeners = new Set<(state: unknown) => void>();
  const url = () => new URL(entries[at]!.url);
  const env: HistoryEnv = {
    history: {
      get state() {
        return entries[at]!.state;
      },
      pushState(state: unknown, _unused: string, next?: string | URL | null) {
        entries.splice(at + 1);
        entries.push({ state: structuredClone(state), url: String(next ?? entries[at]!.url) });
        at++;
      },
      replaceState(state: unknown, _unused: string, next?: string | URL | null) {
        entries[at] = { state: structuredClone(state), url: String(next ?? entries[at]!.url) };
      },
    },
    location: {
      get href() {
        return entries[at]!.url;
      },
      get search() {
        return url().search;
      },
      get hash() {
        return url().hash;
      },
    },
    listen(onPop) {
      listeners.add(onPop);
      return () => listeners.delete(onPop);
    },
  };
  /** Back (-1) or Forward (+1), as the browser's buttons do. */
  const go = (delta: number) => {
    at += delta;
    for (const l of listeners) l(entries[at]!.state);
  };
  const refs = () => entries.map((e) => entryOf(e.state)?.presetRef);
  return { env, entries, go, refs, at: () => at };
}

const shipped = (ref: string) => findPreset(ref)!.variant.scenario;
/** `id/variant` of a preset's default variant. */
const refOf = (id: string) => `${id}/${findPreset(id)!.variant.id}`;

describe('browser history: a page per scenario opened, Back and Forward load it', () => {
  let lab: Lab;
  let dispose = () => {};
  afterEach(async () => {
    dispose();
    await lab.actions.settled();
  });

  it('choosing three presets adds three entries; Back twice shows the first, Forward the second', () => {
    const b = fakeBrowser();
    lab = createLab({ runner: inline });
    dispose = createHistorySync(lab, b.env).dispose;
    // The entry the page opened in holds its scenario (the default preset).
    expect(b.refs()).toEqual(['at-least-once/default']);
    lab.actions.loadPreset('at-most-once');
    lab.actions.loadPreset('lost-ack-retry');
    lab.actions.loadPreset('spark-batch-replay');
    expect(b.refs()).toEqual([
      'at-least-once/default',
      'at-most-once/default',
      'lost-ack-retry/idempotence-off',
      'spark-batch-replay/append',
    ]);
    // An edit is no page of its own: the current entry follows it (4 entries still).
    lab.actions.setSeed(9);
    lab.actions.setSeed(11);
    expect(b.entries).toHaveLength(4);
    expect(entryOf(b.entries[3]!.state)!.scenario.seed).toBe(11);

    b.go(-1);
    expect(lab.app.getState().presetRef).toBe('lost-ack-retry/idempotence-off');
    expect(lab.app.getState().scenario).toEqual(shipped('lost-ack-retry'));
    expect(lab.app.getState().notice).toBe(HISTORY_NOTICE);
    b.go(-1);
    expect(lab.app.getState().presetRef).toBe('at-most-once/default');
    expect(lab.app.getState().scenario).toEqual(shipped('at-most-once'));
    b.go(+1);
    expect(lab.app.getState().presetRef).toBe('lost-ack-retry/idempotence-off');
    // Traversing adds no entry, and the entries keep their scenarios.
    expect(b.entries).toHaveLength(4);
    expect(b.at()).toBe(2);
    // Forward once more: the spark preset as it was left, edits included.
    b.go(+1);
    expect(lab.app.getState().presetRef).toBe('spark-batch-replay/append');
    expect(lab.app.getState().scenario.seed).toBe(11);
  });

  it("Back keeps the edits of the scenario left behind one undo away; other entries' state is kept", () => {
    const b = fakeBrowser();
    b.env.history.replaceState({ other: 1 }, '', b.env.location.href);
    lab = createLab({ runner: inline });
    dispose = createHistorySync(lab, b.env).dispose;
    expect(b.entries[0]!.state).toMatchObject({ other: 1 });
    lab.actions.loadPreset('retry-storm');
    lab.actions.setSeed(5);
    b.go(-1);
    expect(lab.app.getState().presetRef).toBe('at-least-once/default');
    lab.actions.undo();
    expect(lab.app.getState().presetRef).toBe(refOf('retry-storm'));
    expect(lab.app.getState().scenario.seed).toBe(5);
  });

  it('a file or a link imported is a page of its own; a scenario brought back is not', () => {
    const b = fakeBrowser();
    lab = createLab({ runner: inline });
    dispose = createHistorySync(lab, b.env).dispose;
    const own = { ...shipped('at-least-once'), name: 'mine', seed: 3 };
    lab.actions.loadScenario(own, { presetRef: null, opened: true });
    expect(b.entries).toHaveLength(2);
    expect(entryOf(b.entries[1]!.state)).toEqual({ scenario: own, presetRef: null });
    // A refused edit put back at start-up, a link opened by its hashchange: no entry.
    lab.actions.loadScenario({ ...own, seed: 4 }, { presetRef: null });
    lab.actions.undo();
    lab.actions.redo();
    expect(b.entries).toHaveLength(2);
    b.go(-1);
    expect(lab.app.getState().presetRef).toBe('at-least-once/default');
    // A new page after Back drops the entries after the current one, as a browser does.
    lab.actions.loadPreset('zombie-consumer');
    expect(b.refs()).toEqual(['at-least-once/default', refOf('zombie-consumer')]);
  });

  it('an entry without the page’s state opens what its address names: a preset, not a share link', () => {
    const b = fakeBrowser('http://lab.test/?preset=commit-before-process');
    lab = createLab({ runner: inline });
    dispose = createHistorySync(lab, b.env).dispose;
    lab.actions.loadPreset('retry-storm');
    // The first entry as a page written before the history kept scenarios.
    b.entries[0]!.state = null;
    b.go(-1);
    expect(lab.app.getState().presetRef).toBe('commit-before-process/default');
    b.entries.push({ state: { [HISTORY_KEY]: 'garbage' }, url: 'http://lab.test/#s=2.abc' });
    b.go(+2);
    // Left to the share link's hashchange (src/ui/share/shareSync.ts).
    expect(lab.app.getState().presetRef).toBe('commit-before-process/default');
    // Back to a page already on screen (the first entry now holds what its address opened):
    // nothing to load, nothing to undo.
    expect(entryOf(b.entries[0]!.state)!.presetRef).toBe('commit-before-process/default');
    const past = lab.app.getState().past.length;
    lab.app.setState({ notice: null });
    b.go(-2);
    expect(lab.app.getState().past).toHaveLength(past);
    expect(lab.app.getState().notice).toBeNull();
  });
});

describe('browser history keeps the atlas choice and Compare with each page (issue #23)', () => {
  let lab: Lab;
  let dispose = () => {};
  afterEach(async () => {
    dispose();
    await lab.actions.settled();
  });

  it('Back brings back the kinds ticked and the lanes compared on the page left; Forward the next page as left', () => {
    const b = fakeBrowser();
    lab = createLab({ runner: inline });
    dispose = createHistorySync(lab, b.env).dispose;
    const atlas = { kinds: ['crash', 'zombie'], pairs: true };
    const compare = { lanes: [{ guarantee: 'exactly-once' as const }] };
    lab.actions.setAtlas(atlas, 'Fault atlas: kinds');
    lab.actions.setCompare(compare);
    // The current entry holds them as the share link writes them (a=, c=).
    const first = entryOf(b.entries[0]!.state)!;
    expect(first.atlas).toMatch(/^1\./);
    expect(first.compare).toMatch(/^1\./);
    lab.actions.loadPreset('at-most-once');
    // A page of its own opens in the default state: every kind, Compare closed.
    expect(lab.app.getState().atlas).toEqual({});
    expect(lab.app.getState().compare).toBeNull();
    expect(entryOf(b.entries[1]!.state)).toEqual({
      scenario: shipped('at-most-once'),
      presetRef: 'at-most-once/default',
    });
    lab.actions.setAtlas({ kinds: ['crash'] }, 'Fault atlas: kinds');
    b.go(-1);
    expect(lab.app.getState().presetRef).toBe('at-least-once/default');
    expect(lab.app.getState().atlas).toEqual(atlas);
    expect(lab.app.getState().compare).toEqual(compare);
    b.go(+1);
    expect(lab.app.getState().presetRef).toBe('at-most-once/default');
    expect(lab.app.getState().atlas).toEqual({ kinds: ['crash'] });
    expect(lab.app.getState().compare).toBeNull();
    // "Explored" (the atlas ran to its end) is kept too: Back and Forward offer the same atlas.
    lab.actions.noteAtlasExplored();
    b.go(-1);
    b.go(+1);
    expect(lab.app.getState().atlas).toEqual({ kinds: ['crash'], explored: true });
  });

  it('a value the entry holds that cannot be read back is refused naming its field; the scenario opens', () => {
    const b = fakeBrowser();
    const said: string[] = [];
    lab = createLab({ runner: inline });
    dispose = createHistorySync(lab, b.env, { push: (n) => said.push(n.text) }).dispose;
    lab.actions.setCompare({ lanes: [{ guarantee: 'exactly-once' }] });
    lab.actions.loadPreset('at-most-once');
    // An entry written by another build: a kind this one does not know, beside good lanes.
    const e = (b.entries[0]!.state as Record<string, Record<string, unknown>>)[HISTORY_KEY]!;
    e.atlas = `1.${Buffer.from('{"kinds":["meteor"]}').toString('base64url')}`;
    b.go(-1);
    expect(lab.app.getState().presetRef).toBe('at-least-once/default');
    expect(lab.app.getState().scenario).toEqual(shipped('at-least-once'));
    expect(lab.app.getState().atlas).toEqual({});
    expect(lab.app.getState().compare).toEqual({ lanes: [{ guarantee: 'exactly-once' }] });
    expect(said).toEqual([
      'browser history, fault atlas (a=): kinds.0: expected drop-request, drop-response, delay-response, crash, leader-failover, rebalance, zombie, app-resend or source-duplicate, got "meteor". The page opened without it.',
    ]);
  });

  it('an entry without the page’s state opens its address’s a= and c= with its preset; a bad one is refused naming its field', () => {
    const v = (data: unknown) => `1.${Buffer.from(JSON.stringify(data)).toString('base64url')}`;
    const atlas = { kinds: ['crash'], pairs: true };
    const compare = { lanes: [{ guarantee: 'exactly-once' as const }] };
    const b = fakeBrowser(
      `http://lab.test/?preset=commit-before-process&a=${v(atlas)}&c=${v(compare)}`,
    );
    const said: string[] = [];
    lab = createLab({ runner: inline });
    dispose = createHistorySync(lab, b.env, { push: (n) => said.push(n.text) }).dispose;
    lab.actions.loadPreset('retry-storm');
    // The first entry as a page written before the history kept scenarios (or a typed address).
    b.entries[0]!.state = null;
    b.go(-1);
    expect(lab.app.getState().presetRef).toBe('commit-before-process/default');
    expect(lab.app.getState().atlas).toEqual(atlas);
    expect(lab.app.getState().compare).toEqual(compare);
    expect(said).toEqual([]);
    // A kind this build does not know beside good lanes: the lanes open, the kinds are refused.
    b.go(+1);
    b.entries[0] = {
      state: null,
      url: `http://lab.test/?preset=commit-before-process&a=${v({ kinds: ['meteor'] })}&c=${v(compare)}`,
    };
    b.go(-1);
    expect(lab.app.getState().presetRef).toBe('commit-before-process/default');
    expect(lab.app.getState().atlas).toEqual({});
    expect(lab.app.getState().compare).toEqual(compare);
    expect(said).toEqual([
      'browser history, fault atlas (a=): kinds.0: expected drop-request, drop-response, delay-response, crash, leader-failover, rebalance, zombie, app-resend or source-duplicate, got "meteor". The page opened without it.',
    ]);
  });
});
