import { describe, expect, it, vi } from 'vitest';
import type { ScenarioInput } from '../../engine';
import { resolvePresetParam } from '../../platform/presetUrl';
import { decodeShare } from '../../platform/share';
import type { Workspace } from '../../platform/storage';
import { findPreset } from '../../scenarios';
import { PREDICTION_UNREADABLE } from '../../views/io/sharePrediction';
import { chooseStart } from './startup';

// Whole runs on a loaded two-core machine: its slowest test took 2.5 s in a full CI run
// (this file 2.9 s), so each gets 15 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 15_000 });

const mine: ScenarioInput = { version: 1, name: 'mine', workload: { generate: { count: 2 } } };
const linked: ScenarioInput = { version: 1, name: 'linked', workload: { generate: { count: 3 } } };
const saved = (ws: Partial<Workspace> | null) => ({
  workspace: ws ? { scenario: mine, presetRef: null, prefs: { fontStep: 2 }, ...ws } : null,
  notice: null,
});
const share = { ok: true as const, input: linked, scenario: {} as never, version: 1 };
const badShare = { ok: false as const, issues: [{ path: '', message: 'share link: damaged' }] };

describe('chooseStart: share link › ?preset= › saved workspace › default', () => {
  it('a share link wins over a preset and the workspace; the workspace goes in the history', () => {
    const s = chooseStart({ share, preset: resolvePresetParam('at-most-once'), saved: saved({}) });
    expect(s).toMatchObject({
      source: 'share',
      initial: linked,
      presetRef: null,
      previous: { scenario: mine },
    });
    // The reader's preferences apply whatever scenario wins.
    expect(s.prefs).toEqual({ fontStep: 2 });
    expect(s.notices).toEqual([]);
  });

  it('a share link of a preset as shipped opens as that preset (its story and question); edited, as a scenario', () => {
    const shipped = structuredClone(findPreset('poll-timeout-slow-batch/upsert')!.variant.scenario);
    const s = chooseStart({ share: { ...share, input: shipped }, preset: null, saved: null });
    expect(s).toMatchObject({ source: 'share', presetRef: 'poll-timeout-slow-batch/upsert' });
    const edited = { ...shipped, seed: 7 };
    const e = chooseStart({ share: { ...share, input: edited }, preset: null, saved: null });
    expect(e).toMatchObject({ source: 'share', presetRef: null });
  });

  it('a share link whose prediction part (p=) cannot be read opens, with a notice saying so', () => {
    const s = chooseStart({ share, preset: null, saved: null, predictionUnreadable: true });
    expect(s).toMatchObject({ source: 'share', initial: linked });
    expect(s.notices).toEqual([{ tone: 'warn', text: PREDICTION_UNREADABLE }]);
    expect(chooseStart({ share, preset: null, saved: null }).notices).toEqual([]);
  });

  it('a preset shared while its answer was hidden (no expect block) opens as that preset, block back', () => {
    const shipped = findPreset('lost-ack-retry/idempotence-off')!.variant.scenario;
    const { expect: _answer, ...bare } = structuredClone(shipped);
    const s = chooseStart({ share: { ...share, input: bare }, preset: null, saved: null });
    expect(s).toMatchObject({ source: 'share', presetRef: 'lost-ack-retry/idempotence-off' });
    expect(s.initial).toEqual(shipped);
    // Edited as well: a scenario of its own, as it came.
    const edited = { ...bare, seed: 7 };
    const e = chooseStart({ share: { ...share, input: edited }, preset: null, saved: null });
    expect(e).toMatchObject({ source: 'share', presetRef: null, initial: edited });
  });

  it('a preset wins over the workspace', () => {
    const s = chooseStart({
      share: null,
      preset: resolvePresetParam('AT-most-once'),
      saved: saved({}),
    });
    expect(s).toMatchObject({
      source: 'preset',
      presetRef: 'at-most-once/default',
      previous: { scenario: mine, presetRef: null },
    });
    expect(s.initial?.name).toBe('At-most-once: commit first, never retry');
  });

  it('the workspace, else the default', () => {
    expect(
      chooseStart({ share: null, preset: null, saved: saved({ presetRef: 'x/y' }) }),
    ).toMatchObject({
      source: 'workspace',
      initial: mine,
      presetRef: 'x/y',
    });
    // A refused edit saved on top of it comes along, to be put back once the workspace has run.
    const refused = { version: 1, producer: { acks: 7 } };
    expect(chooseStart({ share: null, preset: null, saved: saved({ refused }) })).toMatchObject({
      source: 'workspace',
      initial: mine,
      refused,
    });
    const d = chooseStart({ share: null, preset: null, saved: null });
    expect(d).toMatchObject({ source: 'default', presetRef: null, prefs: {} });
    expect(d.initial).toBeUndefined();
  });

  it('a link or preset that was asked for and could not be used is flagged (an embed then plays nothing)', () => {
    const none = { share: null, preset: null, saved: null };
    expect(chooseStart(none).linkRefused).toBe(false);
    expect(chooseStart({ ...none, share }).linkRefused).toBe(false);
    expect(chooseStart({ ...none, preset: resolvePresetParam('at-most-once') }).linkRefused).toBe(
      false,
    );
    const bad = chooseStart({ ...none, share: badShare });
    expect(bad).toMatchObject({ source: 'default', linkRefused: true });
    expect(chooseStart({ ...none, preset: resolvePresetParam('nope/nope') })).toMatchObject({
      source: 'default',
      linkRefused: true,
    });
  });

  it('what cannot be used is said, and the next source is tried', () => {
    const s = chooseStart({
      share: badShare,
      preset: resolvePresetParam('no-such-preset'),
      saved: { workspace: null, notice: { kind: 'set-aside', message: 'set aside: bad JSON' } },
    });
    expect(s.source).toBe('default');
    expect(s.notices.map((n) => n.tone)).toEqual(['warn', 'error', 'warn']);
    expect(s.notices[1]!.lines).toEqual(['share link: damaged']);
    expect(s.notices[2]!.text).toContain('no-such-preset');
  });

  it('a saved workspace kept where it was: a warning with its choices (export, discard)', () => {
    const actions = [{ label: 'Export', name: 'Export it', run: () => false }];
    const s = chooseStart({
      share: null,
      preset: null,
      saved: { workspace: null, notice: { kind: 'kept', message: 'kept: no room' }, actions },
    });
    expect(s.notices).toEqual([{ tone: 'warn', text: 'kept: no room', actions }]);
  });

  it('an embed given no scenario (no preset, no #s=) plays nothing and says so, the stray hash quoted', () => {
    const none = { share: null, preset: null, saved: null, embed: true };
    const bare = chooseStart(none);
    expect(bare).toMatchObject({ source: 'default', linkRefused: true });
    expect(bare.initial).toBeUndefined();
    expect(bare.notices).toHaveLength(1);
    expect(bare.notices[0]).toMatchObject({ tone: 'error' });
    expect(bare.notices[0]!.text).toContain('This embed names no scenario');
    expect(bare.notices[0]!.text).toContain('preset');
    expect(bare.notices[0]!.lines).toBeUndefined();
    // A share link's value pasted without its `s=` (the loader's scenario-hash="2.…").
    const stray = chooseStart({
      ...none,
      hash: '#2.dZrNbttGFIVfReCqBRyDw396l7bIom3Q30WBIosJNU4IUSRBUokNw9s',
    });
    expect(stray.linkRefused).toBe(true);
    expect(stray.notices[0]!.lines).toEqual([
      'the address’s hash “#2.dZrNbttGFIVfReCqBRyDw396l7bIom3Q30WBIo…” carries no scenario: a share link’s is “#s=2.…”',
    ]);
    // The lab's page still opens its default.
    expect(chooseStart({ share: null, preset: null, saved: null })).toMatchObject({
      source: 'default',
      linkRefused: false,
      notices: [],
    });
  });

  it('a damaged link (#s=2.AAAA): the embed plays nothing and says what failed; the page keeps the saved work', () => {
    const damaged = decodeShare('#s=2.AAAA');
    const why = [
      'share link: the data is damaged: it decodes to 3 bytes, too few for a scenario and its 4-byte checksum (was the link cut short?)',
    ];
    const embed = chooseStart({ share: damaged, preset: null, saved: null, embed: true });
    expect(embed).toMatchObject({ source: 'default', linkRefused: true });
    expect(embed.initial).toBeUndefined();
    expect(embed.notices).toEqual([
      { tone: 'error', text: 'This share link could not be opened:', lines: why },
    ]);
    const page = chooseStart({ share: damaged, preset: null, saved: saved({}) });
    // The reader's own scenario, as saved, and nothing to undo back to: it was never replaced.
    expect(page).toMatchObject({ source: 'workspace', initial: mine, linkRefused: true });
    expect(page.previous).toBeUndefined();
    expect(page.notices).toEqual([
      {
        tone: 'error',
        text: 'This share link could not be opened; the lab opened without it:',
        lines: why,
      },
    ]);
  });
});

describe('chooseStart: the saved atlas choice and Compare lanes (issue #23)', () => {
  const kept = { atlas: '1.eyJraW5kcyI6WyJjcmFzaCJdfQ', compare: '1.e30' };

  it('come with the workspace, and with a reload of its unedited preset — not with another scenario', () => {
    expect(chooseStart({ share: null, preset: null, saved: saved(kept) }).pageState).toEqual(kept);
    expect(
      chooseStart({ share: null, preset: null, saved: saved({ atlas: kept.atlas }) }).pageState,
    ).toEqual({ atlas: kept.atlas });
    expect(chooseStart({ share: null, preset: null, saved: saved({}) })).not.toHaveProperty(
      'pageState',
    );
    // `?preset=` of the very scenario the workspace holds (the page reloaded as it was left).
    const shipped = structuredClone(findPreset('at-most-once')!.variant.scenario);
    const own = { scenario: shipped, presetRef: 'at-most-once/default', ...kept };
    const reload = chooseStart({
      share: null,
      preset: resolvePresetParam('at-most-once'),
      saved: saved(own),
    });
    expect(reload).toMatchObject({ source: 'preset', pageState: kept });
    // Nothing was replaced: no undo step back to it, so no "Opened the preset from the link —
    // Undo brings back your saved workspace" over the very workspace a reload brought back.
    expect(reload.previous).toBeUndefined();
    // The preset edited in the workspace, or another preset: the preset opens in its own state.
    for (const ws of [
      { ...own, scenario: { ...shipped, seed: 9 } },
      { ...own, presetRef: 'at-most-once/other' },
    ]) {
      const other = chooseStart({
        share: null,
        preset: resolvePresetParam('at-most-once'),
        saved: saved(ws),
      });
      expect(other).not.toHaveProperty('pageState');
      // The workspace it replaced is an Undo away.
      expect(other.previous).toMatchObject({ scenario: ws.scenario, presetRef: ws.presetRef });
    }
    // A share link brings its own (a=, c=): never the workspace's.
    expect(chooseStart({ share, preset: null, saved: saved(kept) })).not.toHaveProperty(
      'pageState',
    );
  });
});

describe('chooseStart: ?challenge= (resolved by the page’s boot, src/ui/io/firstChallenge.ts)', () => {
  const start: ScenarioInput = {
    version: 1,
    name: 'the challenge',
    workload: { generate: { count: 4 } },
  };
  const challenge = (keeps: ScenarioInput | null = null) => ({
    start,
    // Not a shared attempt here (the share link's scenario is no attempt at this start).
    keepsAttempt: (s: ScenarioInput | undefined) => keeps !== null && s === keeps,
  });

  it('opens on its start with no undo step when nothing was saved (not the default story first)', () => {
    const s = chooseStart({ share: null, preset: null, saved: null, challenge: challenge() });
    expect(s).toMatchObject({ source: 'challenge', initial: start, presetRef: null });
    expect(s.previous).toBeUndefined();
    expect(s.notices).toEqual([]);
  });

  it('wins over ?preset= and a share link; the saved workspace it replaces is one Undo away', () => {
    const s = chooseStart({
      share,
      preset: resolvePresetParam('at-most-once'),
      saved: saved({ prefs: { fontStep: 1 } }),
      challenge: challenge(),
    });
    expect(s).toMatchObject({ source: 'challenge', initial: start, previous: { scenario: mine } });
    expect(s.prefs).toEqual({ fontStep: 1 });
    // Never silently: the preset left out is named (e2e/challenge.spec.ts opens the link).
    expect(s.notices.map((n) => n.text)).toEqual([
      'This link names a challenge and a story: the challenge opened on its own start; ?preset=at-most-once/default was not used.',
    ]);
  });

  it('names a ?preset= the library does not have beside it, and its own story’s as set up', () => {
    const unknown = chooseStart({
      share: null,
      preset: resolvePresetParam('at-most-twice'),
      saved: null,
      challenge: { ...challenge(), title: 'T' },
    });
    expect(unknown).toMatchObject({ source: 'challenge', initial: start });
    expect(unknown.notices).toEqual([
      {
        tone: 'warn',
        text: 'This link names a challenge and a story the lab does not have (?preset=at-most-twice): the challenge “T” opened on its own start; ?preset= was not used.',
      },
    ]);
    const own = chooseStart({
      share: null,
      preset: resolvePresetParam('at-most-once/default'),
      saved: null,
      challenge: { ...challenge(), title: 'T', startPreset: 'at-most-once/default' },
    });
    expect(own.notices).toMatchObject([{ tone: 'info' }]);
    expect(own.notices[0]!.text).toMatch(/^This link names a challenge and its own story/);
  });

  it('a saved workspace that is its very start is no undo step; this tab’s attempt is kept', () => {
    const same = chooseStart({
      share: null,
      preset: null,
      saved: saved({ scenario: structuredClone(start) }),
      challenge: challenge(),
    });
    expect(same).toMatchObject({ source: 'challenge' });
    expect(same.previous).toBeUndefined();
    // A reload of this tab's attempt (the workspace is the attempt): kept as the student left it.
    const kept = chooseStart({
      share: null,
      preset: null,
      saved: saved({}),
      challenge: challenge(mine),
    });
    expect(kept).toMatchObject({ source: 'workspace', initial: mine });
    expect(kept.previous).toBeUndefined();
  });
});

describe('chooseStart: ?challenge= with a share link of an attempt at it (its page’s Share)', () => {
  it('opens the shared attempt, as shared, with no undo step over it', () => {
    const start: ScenarioInput = {
      version: 1,
      name: 'start',
      workload: { generate: { count: 4 } },
    };
    // keepsAttempt as firstChallenge.ts gives it, the shared scenario an attempt at the start.
    const s = chooseStart({
      share,
      preset: null,
      saved: null,
      challenge: { start, keepsAttempt: (x, shared) => shared && x === linked },
    });
    expect(s).toMatchObject({ source: 'share', initial: linked });
    expect(s.previous).toBeUndefined();
  });
});
