/**
 * Which scenario the page opens with. Precedence: a challenge the query names (`?challenge=<id>`,
 * its start) wins over a share link (`#s=`), which wins over a preset in the
 * query (`?preset=id/variant`), which wins over the autosaved workspace, which wins over the
 * default preset — except that a reload of a tab's attempt at that challenge keeps the attempt.
 * Whatever could not be used is said in a notice, and the next source is tried.
 * A `?preset=` beside the challenge is never opened, not even as an attempt (a story as shipped,
 * its faults in place, is often the challenge's very solution): the notice names it.
 * The saved preferences apply whichever scenario wins (they are the reader's, not the scenario's).
 * Pure: the caller reads the URL and storage.
 */
import type { ScenarioInput } from '../../engine';
import type { PresetParam } from '../../platform/presetUrl';
import type { ShareResult } from '../../views/io/shareLink';
import { PREDICTION_UNREADABLE, shareIssueLines } from '../../views/io/shareParam';
import type { ClaimAsked, StorageNotice, Workspace, WorkspacePrefs } from '../../platform/storage';
import type { KeptPageState } from '../../views/io/keptPageState';
import { loadedPreset } from '../../scenarios/presetCatalog';
import type { UndoStep } from '../../store/labStore';
import { DEFAULT_ATLAS_CHOICE } from '../../views/atlas/atlasChoice';
import { pristinePresetRef } from '../../views/library/library';
import type { NoticeAction, PageNotice } from './notices';

/** Where the first scenario came from. */
type StartSource = 'challenge' | 'share' | 'preset' | 'workspace' | 'default';

/** The page's start. */
export interface Start {
  source: StartSource;
  /** The first scenario (undefined: the lab's default preset). */
  initial?: ScenarioInput;
  presetRef: string | null;
  prefs: WorkspacePrefs;
  /**
   * The saved workspace when a link replaced it: it goes in the undo history, so one Undo brings
   * the reader's own work back — its scenario, its preset, its atlas choice and Compare lanes.
   */
  previous?: ReplacedWorkspace;
  /** A refused edit saved on top of `initial`: loaded over it once it has run (see workspaceOf). */
  refused?: unknown;
  /**
   * The saved workspace's scenario is a link or a file opened whose end was not seen (its
   * `replay`): it opens again as the replay, at its start, its outcome folded.
   */
  replay?: boolean;
  /** The saved workspace's question of imported files, unanswered: asked again (./claimNotice.ts). */
  claimAsked?: ClaimAsked;
  /**
   * The saved workspace's atlas choice and Compare lanes (`a=`, `c=` values), to read back: with
   * the workspace, or with a `?preset=` that opens the very scenario it holds (a reload).
   */
  pageState?: KeptPageState;
  /**
   * A share link or `?preset=` was given and none could be used: the scenario is the workspace's
   * or the default. An embed then plays nothing (its reader would take that for the lesson) — and
   * so does an embed given neither.
   */
  linkRefused: boolean;
  notices: Omit<PageNotice, 'id'>[];
}

/**
 * The saved workspace a link replaced, as one Undo brings it back: its scenario and preset, and
 * its atlas choice and Compare lanes as saved (`a=`, `c=` values, read back by the page's boot,
 * ./boot.ts, which refuses a bad one naming its field).
 */
export interface ReplacedWorkspace extends KeptPageState {
  scenario: ScenarioInput;
  presetRef: string | null;
}

/** Inputs of {@link chooseStart}. */
export interface StartInputs {
  /** The decoded share link, or null when the URL carries none. */
  share: ShareResult | null;
  /** The `?preset=` parameter, resolved (src/platform/presetUrl.ts), or null when absent. */
  preset: PresetParam | null;
  /**
   * The saved workspace (null in an embed, which never reads it), its notice, and the choices
   * that notice offers (export or discard a saved workspace that could not be restored).
   */
  saved: {
    workspace: Workspace | null;
    notice: StorageNotice | null;
    actions?: NoticeAction[];
  } | null;
  /** An embed: what could not be opened is not replaced (the embed says it plays nothing). */
  embed?: boolean;
  /** The scenario file the share came from (an embed's `?file=`, the loader's `src`). */
  file?: string | null;
  /** The share link's prediction part (`p=`) is there but could not be read. */
  predictionUnreadable?: boolean;
  /** The address's hash (`location.hash`), read when it carries no share link (`s=`). */
  hash?: string;
  /**
   * The challenge the query names, resolved (./firstChallenge.ts; the lab's page only): its start
   * as written, and whether a scenario the page would otherwise open is an attempt at it to keep
   * (`shared`: the address's share link's; else the restored workspace, kept on a reload).
   */
  challenge?: {
    start: ScenarioInput;
    keepsAttempt(scenario: ScenarioInput | undefined, shared: boolean): boolean;
    /** Its title, for the notice of a `?preset=` beside it. */
    title?: string;
    /** The library preset its start is written on (`preset-id/variant-id`), or null. */
    startPreset?: string | null;
    /** Opens the page on the preset alone, the challenge left (a navigation). */
    openPresetInstead?: (ref: string) => void;
  } | null;
}

/**
 * What a `?preset=` beside `?challenge=` became, said: the challenge opened on its own start
 * (docs/challenges.md), the preset's story as shipped not opened — with a button to open it
 * instead when it is another story of the library.
 */
function presetBesideChallengeNotice(
  preset: PresetParam,
  challenge: NonNullable<StartInputs['challenge']>,
): Omit<PageNotice, 'id'> {
  const named = challenge.title ? `the challenge “${challenge.title}”` : 'the challenge';
  if (preset.kind === 'unknown')
    return {
      tone: 'warn',
      text: `This link names a challenge and a story the lab does not have (?preset=${clipped(preset.value)}): ${named} opened on its own start; ?preset= was not used.`,
    };
  const { ref } = preset;
  const story = (r: string) => r.split('/', 1)[0];
  if (challenge.startPreset && story(challenge.startPreset) === story(ref))
    return {
      tone: 'info',
      text: `This link names a challenge and its own story (?preset=${ref}): ${named} opened on that story as the challenge sets it up; ?preset= was not used to open the story as shipped.`,
    };
  const open = challenge.openPresetInstead;
  return {
    tone: 'warn',
    text: `This link names a challenge and a story: ${named} opened on its own start; ?preset=${ref} was not used.`,
    ...(open
      ? {
          actions: [
            {
              label: 'Open the story instead',
              name: `Open the story instead: ${ref}, without the challenge`,
              run: () => {
                open(ref);
                return true;
              },
            },
          ],
        }
      : {}),
  };
}

/** A value from the address as a notice quotes it: its first `max` characters. */
function clipped(v: string, max = 60): string {
  const t = v.trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/**
 * An embed given no scenario — no `preset=` and no share link (`#s=2.…`): it plays nothing and
 * says so, rather than the lab's default preset, which its reader would take for the lesson (a
 * misspelt `presett=`, or a hash pasted without its `s=`). `delivery-lab check` refuses the same
 * embed ("give preset=… or scenario-hash=…", docs/cli.md#pin-your-docs-in-ci).
 */
function noScenarioNotice(hash: string): Omit<PageNotice, 'id'> {
  const h = hash.replace(/^#/, '');
  return {
    tone: 'error',
    text: 'This embed names no scenario: give it a preset (?embed&preset=at-least-once/default; the loader’s preset="…") or a share link’s scenario in its hash (#s=2.…; the loader’s scenario-hash="s=2.…").',
    ...(h
      ? {
          lines: [
            `the address’s hash “#${clipped(h, 40)}” carries no scenario: a share link’s is “#s=2.…”`,
          ],
        }
      : {}),
  };
}

/** The saved workspace's atlas choice and Compare lanes, when it holds either. */
function pageStateOf(ws: Workspace): KeptPageState | undefined {
  if (ws.atlas === undefined && ws.compare === undefined) return undefined;
  return {
    ...(ws.atlas !== undefined ? { atlas: ws.atlas } : {}),
    ...(ws.compare !== undefined ? { compare: ws.compare } : {}),
  };
}

/**
 * The undo step that brings back the workspace a link replaced, until its atlas choice and lanes
 * are read back into it (./workspace.ts `restoreReplacedPageState`; an embed never has one).
 */
export function replacedUndoStep({ scenario, presetRef }: ReplacedWorkspace): UndoStep {
  return { scenario, presetRef, compare: null, atlas: DEFAULT_ATLAS_CHOICE };
}

/** The workspace as a link replaces it. */
function replaced(ws: Workspace): ReplacedWorkspace {
  return { scenario: ws.scenario, presetRef: ws.presetRef, ...pageStateOf(ws) };
}

/** Choose the start (see the module comment). */
export function chooseStart(inputs: StartInputs): Start {
  const { challenge, saved, preset } = inputs;
  if (!challenge) return linkedStart(inputs);
  // A challenge starts where it says: `?preset=` beside it is not opened, and the page says so.
  const linked = linkedStart({ ...inputs, preset: null });
  const start =
    preset === null
      ? linked
      : { ...linked, notices: [...linked.notices, presetBesideChallengeNotice(preset, challenge)] };
  // An attempt at it to keep — a shared one, or this tab's, reloaded: the student's pipeline as
  // they left it (or shared it).
  if (challenge.keepsAttempt(start.initial, start.source === 'share')) return start;
  // The challenge's start is the page, as a preset's link opens its preset: the saved workspace it
  // replaces is one Undo away — unless it is that very start (nothing to bring back).
  const ws = saved?.workspace ?? null;
  const same =
    ws !== null &&
    ws.presetRef === null &&
    JSON.stringify(ws.scenario) === JSON.stringify(challenge.start);
  return {
    source: 'challenge',
    initial: structuredClone(challenge.start),
    presetRef: null,
    prefs: start.prefs,
    linkRefused: false,
    ...(ws && !same ? { previous: replaced(ws) } : {}),
    notices: start.notices,
  };
}

/** The start from the share link, `?preset=`, the saved workspace or the default. */
function linkedStart({
  share,
  preset,
  saved,
  embed = false,
  predictionUnreadable = false,
  hash = '',
  file = null,
}: StartInputs): Start {
  const without = embed ? '' : ' The lab opened without it.';
  const notices: Omit<PageNotice, 'id'>[] = [];
  if (saved?.notice)
    notices.push({
      tone: saved.notice.kind === 'set-aside' || saved.notice.kind === 'kept' ? 'warn' : 'info',
      text: saved.notice.message,
      ...(saved.actions ? { actions: saved.actions } : {}),
    });
  const ws = saved?.workspace ?? null;
  const prefs = ws?.prefs ?? {};
  if (share) {
    if (share.ok) {
      // An unedited preset, shared: open it as that preset (its story and question).
      const presetRef = pristinePresetRef(share.input);
      // A link written while the answer was hidden has no expect block: the preset's comes
      // back, so that a link shared from here once the answer is out pins the preset's shape.
      const shipped =
        presetRef !== null && share.input.expect === undefined
          ? loadedPreset(presetRef)
          : undefined;
      // The scenario opens all the same; a question lost without a word would show the outcome.
      if (predictionUnreadable) notices.push({ tone: 'warn', text: PREDICTION_UNREADABLE });
      return {
        source: 'share',
        initial: shipped ? structuredClone(shipped.variant.scenario) : share.input,
        presetRef,
        prefs,
        linkRefused: false,
        ...(ws ? { previous: replaced(ws) } : {}),
        notices,
      };
    }
    notices.push({
      tone: 'error',
      text: file
        ? `The scenario file “${clipped(file)}” could not be opened; nothing plays:`
        : embed
          ? 'This share link could not be opened:'
          : 'This share link could not be opened; the lab opened without it:',
      lines: shareIssueLines(share.issues),
    });
  }
  if (preset !== null) {
    const p = preset.kind === 'preset' ? loadedPreset(preset.ref) : undefined;
    if (p) {
      const presetRef = `${p.preset.id}/${p.variant.id}`;
      // A reload of the page as it was left (the preset unedited, so `?preset=` stayed in the
      // address): the workspace's atlas choice and Compare lanes come back with it.
      const reload =
        ws !== null &&
        ws.presetRef === presetRef &&
        JSON.stringify(ws.scenario) === JSON.stringify(p.variant.scenario);
      const pageState = reload ? pageStateOf(ws) : undefined;
      return {
        source: 'preset',
        initial: structuredClone(p.variant.scenario),
        presetRef,
        prefs,
        linkRefused: false,
        // Reloaded as it was left, nothing was replaced: no undo step, no notice that the link
        // replaced the saved workspace (it said so over that very workspace once Compare was open).
        ...(ws && !reload ? { previous: replaced(ws) } : {}),
        ...(pageState ? { pageState } : {}),
        notices,
      };
    }
    notices.push({
      tone: 'warn',
      text: `${preset.kind === 'unknown' ? preset.message : 'Unknown preset.'}${without}`,
    });
  }
  // An embed with nothing to play: refused, with why (an embed never has a workspace).
  if (embed && share === null && preset === null)
    return {
      source: 'default',
      presetRef: null,
      prefs,
      linkRefused: true,
      notices: [...notices, noScenarioNotice(hash)],
    };
  const linkRefused = share !== null || preset !== null;
  if (ws)
    return {
      source: 'workspace',
      initial: ws.scenario,
      presetRef: ws.presetRef,
      prefs,
      linkRefused,
      ...(ws.refused !== undefined ? { refused: ws.refused } : {}),
      ...(ws.replay ? { replay: true } : {}),
      ...(ws.claimAsked ? { claimAsked: ws.claimAsked } : {}),
      ...(pageStateOf(ws) ? { pageState: pageStateOf(ws) } : {}),
      notices,
    };
  return { source: 'default', presetRef: null, prefs, linkRefused, notices };
}
