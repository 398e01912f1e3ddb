/**
 * The share link's `hashchange` (jsdom fires it on a fragment navigation): a link pasted into the
 * address bar opens as an undoable edit; Back or Forward to a link's page, whose scenario the
 * browser history has already put on screen (src/ui/io/historySync.ts), does not open it twice.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRunClient } from '../../platform/runClient';
import { encodeShare } from '../../platform/share';
import { findPreset } from '../../scenarios';
import { createLab, type Lab } from '../../store/labStore';
import { createNotices } from '../io/notices';
import { createShareSync } from './shareSync';
import { withAtlasParam } from '../../views/atlas/atlasLink';
import { toBase64Url } from '../../views/io/shareParam';

// Whole runs on a loaded two-core machine: its slowest test took 2.3 s in a full CI run
// (this file 2.4 s), so each gets 15 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 15_000 });

const inline = createRunClient({ createWorker: null });
/** A fragment navigation, and the task that fires its hashchange. */
const navigate = async (hash: string) => {
  location.hash = hash;
  await new Promise((r) => setTimeout(r, 20));
};

describe('share link in the address bar', () => {
  let lab: Lab;
  let dispose = () => {};
  afterEach(async () => {
    dispose();
    history.replaceState(null, '', location.pathname);
    await lab.actions.settled();
  });

  it('opens a pasted link once; a link whose scenario is on screen (but for its expect block) is not opened again', async () => {
    lab = createLab({ runner: inline });
    dispose = createShareSync(lab, createNotices(), false).dispose;
    const shared = { ...findPreset('retry-storm')!.variant.scenario, seed: 7 };
    await navigate(`#${encodeShare(shared)}`);
    expect(lab.app.getState().scenario).toEqual(shared);
    expect(lab.app.getState().past).toHaveLength(1);
    expect(lab.app.getState().notice).toBe('Opened the shared scenario — Undo (Ctrl+Z) goes back.');
    // Back, then Forward: the history loads the link's scenario before its hashchange fires —
    // here by hand, with the block a Share would have pinned (another expect).
    await navigate('#elsewhere');
    lab.actions.loadScenario(structuredClone(shared));
    lab.app.setState({ notice: null });
    const past = lab.app.getState().past.length;
    await navigate(`#${encodeShare({ ...shared, expect: { totals: { rows: 1 } } })}`);
    expect(lab.app.getState().past).toHaveLength(past);
    expect(lab.app.getState().notice).toBeNull();
    // Another scenario's link opens.
    await navigate(`#${encodeShare({ ...shared, seed: 8 })}`);
    expect(lab.app.getState().scenario.seed).toBe(8);
    expect(lab.app.getState().past).toHaveLength(past + 1);
  });

  it('a damaged link pasted over the work is refused, and the address of the work comes back', async () => {
    lab = createLab({ runner: inline });
    const notices = createNotices();
    dispose = createShareSync(lab, notices, false).dispose;
    const shared = { ...findPreset('retry-storm')!.variant.scenario, seed: 7 };
    const link = encodeShare(shared);
    await navigate(`#${link}`);
    const work = location.href;
    expect(work.endsWith(`#${link}`)).toBe(true);
    // The same link cut short: not a scenario.
    await navigate(`#${link.slice(0, 40)}`);
    expect(notices.store.getState().items.map((n) => n.text)).toEqual([
      'This share link could not be opened:',
    ]);
    expect(lab.app.getState().scenario).toEqual(shared);
    expect(location.href).toBe(work);
  });

  it('carries the atlas kinds: Share writes them, a pasted link opens with them, a bad one is refused naming the field', async () => {
    lab = createLab({ runner: inline });
    const notices = createNotices();
    const sync = createShareSync(lab, notices, false);
    dispose = sync.dispose;
    const choice = { kinds: ['drop-response', 'crash'], pairs: true };
    lab.actions.setAtlas(choice, 'Fault atlas: pairs too');
    await lab.actions.settled();
    const link = sync.share();
    expect(new URL(link).hash).toContain('&a=1.');
    // The same link opened over other work: the same kinds ticked, one undo step.
    lab.actions.loadPreset('retry-storm');
    await lab.actions.settled();
    expect(lab.app.getState().atlas).toEqual({});
    const shared = lab.app.getState().scenario;
    const scenarioOf = (href: string) => new URL(href).hash.slice(1).split('&')[0]!;
    await navigate(`#${withAtlasParam(scenarioOf(link), choice)}`);
    expect(lab.app.getState().atlas).toEqual(choice);
    expect(lab.app.getState().scenario).not.toBe(shared);
    // A kind no atlas has: refused, its field named, the work on screen kept with its address.
    const work = location.href;
    const open = lab.app.getState().scenario;
    const bad = toBase64Url(
      new TextEncoder().encode(JSON.stringify({ kinds: ['crash', 'meteor'] })),
    );
    await navigate(`#${encodeShare({ ...open, seed: 99 })}&a=1.${bad}`);
    const refusal = notices.store.getState().items.at(-1)!;
    expect(refusal.text).toBe('This share link could not be opened:');
    expect(refusal.lines).toEqual([
      'share link, fault atlas (a=): kinds.1: expected drop-request, drop-response, delay-response, crash, leader-failover, rebalance, zombie, app-resend or source-duplicate, got "meteor"',
    ]);
    expect(lab.app.getState().scenario).toBe(open);
    expect(lab.app.getState().atlas).toEqual(choice);
    expect(location.href).toBe(work);
  });
});
