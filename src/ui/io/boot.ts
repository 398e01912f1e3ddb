/**
 * Start-up of the page (called once by main.tsx, the composition root): choose the first scenario
 * (share link › `?preset=` › saved workspace › default, see ./startup), create the lab and the
 * page services, then keep the workspace autosaved, the URL honest and the browser history (Back,
 * Forward) in step with the scenarios opened.
 */
import type { ScenarioInput } from '../../engine';
import { createArtifactClient, createRunClient } from '../../platform/runClient';
import { presetParamOf, resolvePresetParam } from '../../platform/presetUrl';
import {
  clearShareFromLocation,
  shareFromLocation,
  sharePredictionFromLocation,
  sharePredictionUnreadableInLocation,
} from '../../platform/share';
import { compareFromLocation } from '../../platform/compareUrl';
import { loadWorkspace } from '../../platform/storage';
import { createAutosave, type Autosave } from '../../platform/storageAutosave';
import { createLab, type Lab } from '../../store/labStore';
import { embedOptionsNotice } from '../embed/embedOptions';
import { createShareSync } from '../share/shareSync';
import { firstPresetsLoaded } from './firstPresets';
import { createHistorySync } from './historySync';
import { keptWorkspaceActions } from './keptWorkspace';
import { createNotices } from './notices';
import type { PageServices } from './PageContext';
import { chooseStart, type Start } from './startup';
import { presentParamOf, prefsState, subscribeWorkspace, workspaceOf } from './workspace';

// The presets the address opens (one family, not the library), downloading since the entry began.
await firstPresetsLoaded;

/** The page: its lab, its services, and how it started. */
export interface BootedPage {
  lab: Lab;
  page: PageServices;
  start: Start;
}

/**
 * Boot the page.
 * @param embed - an embedded player: it never reads nor writes the saved workspace (a docs page
 *   showing a scenario must not overwrite the reader's own work on the same origin).
 * @param shareSync - keep the share link in the address (src/ui/share/shareSync.ts; default
 *   true). The embed passes false: see src/embedMain.tsx.
 */
export function bootPage({
  embed,
  shareSync = true,
}: {
  embed: boolean;
  shareSync?: boolean;
}): BootedPage {
  const share = shareFromLocation();
  // A refused link leaves the address bar: a reload or a copy of the URL would refuse it again
  // (the notice says what was wrong with it).
  if (share && !share.ok) clearShareFromLocation();
  // The library's reading of `?preset=` (case, bare ids, its messages): one contract for both.
  const presetValue = presetParamOf(location.search);
  const preset = presetValue === null ? null : resolvePresetParam(presetValue);
  const saved = embed ? null : loadWorkspace();
  // A saved workspace that could not be restored: its notice offers to export or discard it;
  // Discard saves the workspace at once (autosave is created below).
  let autosave: Autosave | null = null;
  const kept = saved?.kept;
  const start = chooseStart({
    share,
    preset,
    saved:
      saved && kept
        ? { ...saved, actions: keptWorkspaceActions(kept, () => autosave?.saveNow()) }
        : saved,
    embed,
    predictionUnreadable: sharePredictionUnreadableInLocation(),
  });
  // An embed's address with options it does not know (`autoply=1`) or values it cannot use as
  // written (`speed=abc`): its author is told what was used instead.
  const unknown = embed ? embedOptionsNotice(location.search) : null;
  const notices = createNotices(unknown ? [...start.notices, unknown] : start.notices);
  const lab = createLab({
    runner: createRunClient(),
    ...(start.initial ? { initial: start.initial } : {}),
    initialPresetRef: start.presetRef,
  });
  const prefs = prefsState(start.prefs);
  // `?present=1` (or 0) opens the page in projector mode (or out of it), whatever was saved.
  const present = presentParamOf(location.search);
  if (present !== null) prefs.present = present;
  if (Object.keys(prefs).length > 0) lab.app.setState(prefs);
  if (start.previous) {
    lab.app.setState({
      past: [start.previous],
      notice:
        start.source === 'share'
          ? 'Opened the shared scenario — Undo (Ctrl+Z) brings back your saved workspace.'
          : 'Opened the preset from the link — Undo (Ctrl+Z) brings back your saved workspace.',
    });
  } else if (start.source === 'share') lab.app.setState({ notice: 'Opened the shared scenario.' });
  // A shared run opens at t = 0 and plays: its verdict folds until the end (LabState.replay).
  if (start.source === 'share' && !embed) lab.app.setState({ replay: lab.app.getState().scenario });
  // A compare link opens comparing the same lanes (its `c=`); a damaged one opens the scenario
  // alone and says why.
  const compare = start.source === 'share' ? compareFromLocation() : null;
  if (compare?.ok) lab.app.setState({ compare: compare.spec });
  else if (compare) notices.push({ tone: 'warn', text: compare.reason });
  if (start.refused !== undefined) {
    // The workspace was left on an edit the lab refused: run the last valid scenario first (its
    // run stays on screen), then put the refused edit back on top of it, as it was.
    const refused = start.refused as ScenarioInput;
    void lab.actions.settled().then(() => {
      if (lab.app.getState().past.length > 0) return; // the reader has already moved on
      // The status line says it is refused, why, and that Undo brings the last valid one back.
      lab.actions.loadScenario(refused, { presetRef: null });
    });
  }
  // Before the share link's sync subscribes: a scenario opened gets its history entry first, and
  // the share link and `?preset=` are then written into that entry's address.
  if (!embed) createHistorySync(lab);
  const page: PageServices = {
    notices,
    artifacts: createArtifactClient(),
    shareLink: shareSync
      ? createShareSync(
          lab,
          notices,
          start.source === 'share',
          start.source === 'share' ? sharePredictionFromLocation() : null,
        )
      : null,
  };

  if (!embed)
    autosave = createAutosave({
      read: () => workspaceOf(lab.app.getState()),
      subscribe: (listener) => subscribeWorkspace(lab, listener),
      onNotice: (n) => notices.push({ tone: 'warn', text: n.message }),
      keptAtLoad: kept?.inPlace ?? false,
    });
  return { lab, page, start };
}

/**
 * How long the first render waits for the first run (real ms). A small scenario's run (inline,
 * a few ms once its chunk is in) is ready well within it: the page then renders once, with the
 * run, instead of twice (empty, then with the run) — the first verdict comes sooner. A big one
 * (in the worker) is not waited for: the page shows its progress.
 */
const FIRST_RUN_WAIT_MS = 300;

/** Resolves when the lab's first run has settled, or after {@link FIRST_RUN_WAIT_MS}. */
export function firstRunOrSoon(lab: Lab | undefined): Promise<void> {
  if (!lab) return Promise.resolve();
  return Promise.race([
    lab.actions.settled(),
    new Promise<void>((r) => setTimeout(r, FIRST_RUN_WAIT_MS)),
  ]);
}
