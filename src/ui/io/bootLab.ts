/**
 * The start-up both pages share (the lab's, ./boot.ts, and the embed's,
 * src/ui/embed/bootEmbed.ts): choose the first scenario (share link › `?preset=` › saved
 * workspace › default, see ./startup), create the lab, its notices and preferences. What only the
 * lab's page does — the saved workspace, its autosave, the share link in the address bar, the
 * browser history — is in ./boot.ts, so the embed's bundle holds none of it (issue 31).
 */
import type { ScenarioInput } from '../../engine';
import { addressHash, addressQuery, markFirstScreen } from '../../platform/address';
import { createRunClient } from '../../platform/runClient';
import { presetParamOf, resolvePresetParam } from '../../platform/presetUrl';
import { clearShareFromLocation } from '../../platform/shareLocation';
import type { SharePrediction } from '../../views/io/sharePrediction';
import { createLab, type Lab } from '../../store/labStore';
import { embedOptionsNotice } from '../embed/embedOptions';
import { firstPresetsLoaded } from './firstPresets';
import { firstShareLoaded } from './firstShare';
import { createNotices, type Notices } from './notices';
import { chooseStart, replacedUndoStep, type Start, type StartInputs } from './startup';
import { presentParamOf, prefsState } from './workspace';

// The presets the address opens (one family, not the library), downloading since the entry began.
await firstPresetsLoaded;
// The address's share link, decoded (its codec loaded only if there is one: ./firstShare.ts).
const firstShare = await firstShareLoaded;

/** The lab as it starts, its notices, and how it started. */
export interface BootedLab {
  lab: Lab;
  notices: Notices;
  start: Start;
  /** The share link's question (`p=`) when the lab opened the link's scenario, else null. */
  sharePrediction: SharePrediction | null;
}

/**
 * Create the lab on the address's first scenario.
 * @param embed - an embedded player (see ./boot.ts `bootPage`).
 * @param saved - the saved workspace (null in an embed, which never reads it).
 */
export function bootLab({
  embed,
  saved,
  challenge = null,
}: {
  embed: boolean;
  saved: StartInputs['saved'];
  /** The challenge the address names, resolved (the lab's page only: ./firstChallenge.ts). */
  challenge?: StartInputs['challenge'];
}): BootedLab {
  const share = firstShare?.share ?? null;
  // A refused link leaves the address bar: a reload or a copy of the URL would refuse it again
  // (the notice says what was wrong with it).
  if (share && !share.ok) clearShareFromLocation();
  const query = addressQuery();
  // The library's reading of `?preset=` (case, bare ids, its messages): one contract for both.
  const presetValue = presetParamOf(query);
  // The lab's page opened on no story is on its first screen ("Start here": src/ui/present/FirstLine.tsx).
  if (!embed) markFirstScreen(presetValue === null);
  const preset = presetValue === null ? null : resolvePresetParam(presetValue);
  const start = chooseStart({
    share,
    preset,
    saved,
    embed,
    predictionUnreadable: firstShare?.predictionUnreadable ?? false,
    file: firstShare?.file ?? null,
    hash: addressHash(),
    challenge,
  });
  // An embed's address with options it does not know (`autoply=1`) or values it cannot use as
  // written (`speed=abc`): its author is told what was used instead.
  const unknown = embed ? embedOptionsNotice(query) : null;
  const notices = createNotices(unknown ? [...start.notices, unknown] : start.notices);
  const lab = createLab({
    runner: createRunClient(),
    ...(start.initial ? { initial: start.initial } : {}),
    initialPresetRef: start.presetRef,
    // An embed explains its run only once it shows a "why" (issue 31: the explaining code is
    // ~18 kB gzip of its first load otherwise).
    explainLater: embed,
  });
  const prefs = prefsState(start.prefs);
  // `?present=1` (or 0) opens the page in projector mode (or out of it), whatever was saved.
  const present = presentParamOf(query);
  if (present !== null) prefs.present = present;
  if (Object.keys(prefs).length > 0) lab.app.setState(prefs);
  if (start.previous) {
    // One Undo brings the workspace back as it was left (its atlas choice and lanes too: ./boot.ts).
    lab.app.setState({
      past: [replacedUndoStep(start.previous)],
      notice:
        start.source === 'share'
          ? 'Opened the shared scenario — Undo (Ctrl+Z) brings back your saved workspace.'
          : start.source === 'challenge'
            ? 'Opened the challenge from the link — Undo (Ctrl+Z) brings back your saved workspace.'
            : 'Opened the preset from the link — Undo (Ctrl+Z) brings back your saved workspace.',
    });
  } else if (start.source === 'share') lab.app.setState({ notice: 'Opened the shared scenario.' });
  // A shared run opens at t = 0 and plays: its verdict folds until the end (LabState.replay). So
  // does a link or a file restored by a reload before its end was seen (./workspace.ts).
  if ((start.source === 'share' || start.replay) && !embed)
    lab.app.setState({ replay: lab.app.getState().scenario });
  // A compare link opens comparing the same lanes (its `c=`); a damaged one opens the scenario
  // alone and says why.
  const compare = start.source === 'share' ? (firstShare?.compare ?? null) : null;
  if (compare?.ok) lab.app.setState({ compare: compare.spec });
  else if (compare) notices.push({ tone: 'warn', text: compare.reason });
  // The fault atlas's kinds and pairs as the link's sender had them (`a=`; a bad one refused the
  // link: ./firstShare.ts).
  const atlas = start.source === 'share' ? (firstShare?.atlas ?? null) : null;
  if (atlas?.ok) lab.app.setState({ atlas: atlas.choice });
  if (start.refused !== undefined) {
    // The workspace was left on an edit the lab refused: run the last valid scenario first (its
    // run stays on screen), then put the refused edit back on top of it, as it was.
    const refused = start.refused as ScenarioInput;
    void lab.actions.settled().then(() => {
      if (lab.app.getState().past.length > 0) return; // the reader has already moved on
      // The status line says it is refused, why, and that Undo brings the last valid one back.
      // With the atlas choice and lanes the workspace was left with (./workspace.ts).
      const { atlas, compare } = lab.app.getState();
      lab.actions.loadScenario(refused, { presetRef: null, atlas, compare });
    });
  }
  const sharePrediction = start.source === 'share' ? (firstShare?.prediction ?? null) : null;
  return { lab, notices, start, sharePrediction };
}
