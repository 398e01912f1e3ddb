/**
 * The workspace as the lab holds it: the scenario (as written, with every fault added by clicks),
 * the preset it came from, the fault atlas's choice and Compare's lanes (as the share link writes
 * them, src/views/io/keptPageState.ts), and display preferences. What autosave writes and
 * start-up restores.
 */
import type { Workspace, WorkspacePrefs } from '../../platform/storage';
import {
  keptPageStateOf,
  readKeptPageState,
  type KeptPageState,
} from '../../views/io/keptPageState';
import { sameRun } from '../../store/sameRun';
import type { Notices } from './notices';
import type { ReplacedWorkspace } from './startup';
import {
  FONT_SCALES,
  selectParse,
  type DetailsTab,
  type Lab,
  type LabState,
  type Theme,
} from '../../store/labStore';

const TABS: readonly DetailsTab[] = ['ledger', 'knobs', 'sets', 'trace'];
const THEMES: readonly Theme[] = ['system', 'light', 'dark'];

/**
 * The workspace of a lab state. A scenario the lab refuses is saved as an edit on top of the last
 * valid one (the run on screen), so a reload shows it again with its reasons and Undo still works
 * — instead of a saved workspace that cannot be restored at all.
 */
export function workspaceOf(s: LabState): Workspace {
  // Not the speed: each scenario opened plays at its own pace (src/views/run/pace.ts), so a saved
  // speed would be overridden at once — and a paced speed is no edit of the user's to keep.
  const prefs = {
    skipIdle: s.skipIdle,
    fontStep: s.fontStep,
    tab: s.tab,
    present: s.present,
    theme: s.theme,
  };
  const page = keptPageStateOf(s.atlas, s.compare);
  if (!selectParse(s).ok && s.viewFor !== null && s.viewFor !== s.scenario)
    return { scenario: s.viewFor, presetRef: null, prefs, refused: s.scenario, ...page };
  // A link or a file opened whose end was not seen reopens at its start, as it opened: a reload
  // must not show its outcome before its time.
  const replay = sameRun(s.replay, s.scenario) && !sameRun(s.replaySeen, s.scenario);
  return {
    scenario: s.scenario,
    presetRef: s.presetRef,
    prefs,
    ...page,
    ...(replay ? { replay: true as const } : {}),
  };
}

/**
 * The saved workspace's atlas choice and Compare lanes put back on the lab (its scenario already
 * open): a value that cannot be read back is refused in a notice naming its field, and the
 * workspace stays open without it.
 */
export function restorePageState(
  lab: Lab,
  notices: Pick<Notices, 'push'>,
  kept: KeptPageState,
): void {
  if (kept.atlas === undefined && kept.compare === undefined) return;
  const r = readKeptPageState(kept, lab.app.getState().scenario, 'saved workspace');
  lab.app.setState({ atlas: r.atlas, compare: r.compare });
  for (const reason of r.refused)
    notices.push({ tone: 'warn', text: `${reason}. Your workspace opened without it.` });
}

/**
 * The atlas choice and Compare lanes of the saved workspace a link replaced, put in the undo step
 * that brings it back (the first, ./bootLab.ts): one Undo restores the workspace as it was left
 * (issue #23). A value that cannot be read back is refused in a notice naming its field; Undo
 * then brings back the workspace without it.
 */
export function restoreReplacedPageState(
  lab: Lab,
  notices: Pick<Notices, 'push'>,
  replaced: ReplacedWorkspace,
): void {
  if (replaced.atlas === undefined && replaced.compare === undefined) return;
  const [step, ...rest] = lab.app.getState().past;
  if (step?.scenario !== replaced.scenario) return;
  const r = readKeptPageState(replaced, replaced.scenario, 'saved workspace');
  lab.app.setState({ past: [{ ...step, atlas: r.atlas, compare: r.compare }, ...rest] });
  for (const reason of r.refused)
    notices.push({
      tone: 'warn',
      text: `${reason}. Undo brings back your workspace without it.`,
    });
}

/**
 * Preferences as lab state: each one checked (a stored value is data from anywhere), the unknown
 * or out-of-range ones ignored.
 */
export function prefsState(p: WorkspacePrefs): Partial<LabState> {
  const out: Partial<LabState> = {};
  if (typeof p.skipIdle === 'boolean') out.skipIdle = p.skipIdle;
  if (
    typeof p.fontStep === 'number' &&
    Number.isInteger(p.fontStep) &&
    p.fontStep >= 0 &&
    p.fontStep < FONT_SCALES.length
  )
    out.fontStep = p.fontStep;
  if (typeof p.tab === 'string' && (TABS as readonly string[]).includes(p.tab))
    out.tab = p.tab as DetailsTab;
  if (typeof p.present === 'boolean') out.present = p.present;
  if (typeof p.theme === 'string' && (THEMES as readonly string[]).includes(p.theme))
    out.theme = p.theme as Theme;
  return out;
}

/**
 * Subscribe to the changes autosave cares about (scenario, preset, atlas choice, Compare, the
 * replay and its end seen, preferences) — not to run
 * status, selection or playback, which change far more often and are not saved.
 */
export function subscribeWorkspace(lab: Lab, listener: () => void): () => void {
  return lab.app.subscribe((s, p) => {
    if (
      s.scenario !== p.scenario ||
      s.presetRef !== p.presetRef ||
      s.atlas !== p.atlas ||
      s.compare !== p.compare ||
      s.replay !== p.replay ||
      s.replaySeen !== p.replaySeen ||
      s.skipIdle !== p.skipIdle ||
      s.fontStep !== p.fontStep ||
      s.tab !== p.tab ||
      s.present !== p.present ||
      s.theme !== p.theme
    )
      listener();
  });
}

/** `?present=1` / `?present=0` (also true/false, on/off): projector mode from the address; null if absent or unreadable. */
export function presentParamOf(search: string): boolean | null {
  const v = new URLSearchParams(search).get('present');
  if (v === null) return null;
  if (['1', 'true', 'on', ''].includes(v.toLowerCase())) return true;
  if (['0', 'false', 'off'].includes(v.toLowerCase())) return false;
  return null;
}
