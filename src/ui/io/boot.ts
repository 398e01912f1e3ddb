/**
 * Start-up of the lab's page (called once by main.tsx, the composition root): the lab on the
 * first scenario (./bootLab.ts, shared with the embed), then the page services — keep the
 * workspace autosaved, the URL honest and the browser history (Back, Forward) in step with the
 * scenarios opened.
 */
import { browserHistoryEnv } from '../../platform/history';
import { createArtifactClient } from '../../platform/runClient';
import { sharePredictionFromLocation } from '../../platform/share';
import { loadWorkspace } from '../../platform/storage';
import { createAutosave, type Autosave } from '../../platform/storageAutosave';
import type { Lab } from '../../store/labStore';
import { createShareSync } from '../share/shareSync';
import {
  openChallengeAddress,
  openPresetAddress,
  rememberOpenChallenge,
  writeChallengeLinkToLocation,
  writeChallengeToLocation,
} from '../../platform/challengeProgress';
import { noChallengeText } from '../challenge/challengeOpening';
import { firstChallengeLoaded } from './firstChallenge';
import { bootLab } from './bootLab';
import { createHistorySync } from './historySync';
import { keptWorkspaceActions } from './keptWorkspace';
import { claimAskedOf, claimNotice } from './claimNotice';
import { applyQueryPageState, dropQueryPageStateOnChange } from './queryPageState';
import type { PageServices } from './PageContext';
import type { Start } from './startup';
import {
  restorePageState,
  restoreReplacedPageState,
  subscribeWorkspace,
  workspaceOf,
} from './workspace';
import { addressQuery } from '../../platform/address';

// The challenge the address names (`?challenge=`), resolved before the first render: the page opens
// on its start (./firstChallenge.ts).
const firstChallenge = await firstChallengeLoaded;

/** The page: its lab, its services, and how it started. */
export interface BootedPage {
  lab: Lab;
  page: PageServices;
  start: Start;
}

/**
 * Boot the page.
 * @param embed - an embedded player: it never reads nor writes the saved workspace (a docs page
 *   showing a scenario must not overwrite the reader's own work on the same origin). The embed's
 *   own page boots with src/ui/embed/bootEmbed.ts.
 * @param shareSync - keep the share link in the address (src/ui/share/shareSync.ts; default
 *   true).
 */
export function bootPage({
  embed,
  shareSync = true,
}: {
  embed: boolean;
  shareSync?: boolean;
}): BootedPage {
  const saved = embed ? null : loadWorkspace();
  // A saved workspace that could not be restored: its notice offers to export or discard it;
  // Discard saves the workspace at once (autosave is created below).
  let autosave: Autosave | null = null;
  const kept = saved?.kept;
  // The address's challenge (never an embed's: it has no challenge panel).
  const asked = embed ? null : firstChallenge;
  const opening = typeof asked?.opening === 'object' ? asked.opening : null;
  const { lab, notices, start } = bootLab({
    embed,
    saved:
      saved && kept
        ? { ...saved, actions: keptWorkspaceActions(kept, () => autosave?.saveNow()) }
        : saved,
    challenge:
      asked && opening
        ? {
            start: opening.start,
            keepsAttempt: asked.keepsAttempt,
            title: opening.challenge.title,
            startPreset:
              'preset' in opening.challenge.start ? opening.challenge.start.preset : null,
            openPresetInstead: openPresetAddress,
          }
        : null,
  });
  if (asked) {
    // An id the lab does not have is refused by name; the page opens as it would without it. A
    // misspelt or cut-short one (a link pasted in a chat) offers the challenge it probably meant.
    const meant = asked.suggestion;
    if (!opening)
      notices.push({
        tone: 'warn',
        text:
          typeof asked.opening === 'string'
            ? asked.opening
            : `${noChallengeText(asked.id)} The lab opened without it.`,
        ...(meant !== null
          ? {
              actions: [
                {
                  label: `Open “${meant}”`,
                  name: `Open “${meant}”, the challenge the link probably meant`,
                  run: () => {
                    openChallengeAddress(meant);
                    return true;
                  },
                },
              ],
            }
          : {}),
      });
    // Before the history's first entry is recorded: the address says which challenge is open
    // (its canonical id), or none; a reload of this tab keeps the student's attempt.
    rememberOpenChallenge(opening?.challenge.id ?? null);
    writeChallengeToLocation(opening?.challenge.id ?? null);
    if (!opening?.fromFile) writeChallengeLinkToLocation(null);
    // Each run of an open challenge plays as a replay: its verdict folds until the run's end
    // (src/ui/challenge/ChallengeContext.tsx does so for each attempt).
    if (opening) lab.app.setState({ replay: lab.app.getState().scenario });
  }
  // The saved workspace's atlas choice and Compare lanes, as it was left (a bad one refused):
  // with the workspace, or a reload of its unedited preset (./startup.ts).
  if (start.pageState) restorePageState(lab, notices, start.pageState);
  // Imported files' question, unanswered when the workspace was saved: asked again.
  if (start.claimAsked) notices.push(claimNotice(lab.actions, start.claimAsked));
  // The workspace a link replaced: one Undo brings it back with its atlas choice and lanes.
  if (start.previous) restoreReplacedPageState(lab, notices, start.previous);
  // `?preset=…&a=…&c=`: the atlas's kinds and Compare's lanes as in a share link's hash (an
  // embed's `a=` is its answer); the address's wins over the workspace's.
  if (!embed && start.source === 'preset') applyQueryPageState(lab, notices, addressQuery());
  // Before the share link's sync subscribes: a scenario opened gets its history entry first, and
  // the share link and `?preset=` are then written into that entry's address.
  if (!embed) createHistorySync(lab, browserHistoryEnv(), notices);
  // Applied, the query's `a=` and `c=` are the page's state: the address drops them once it
  // changes (a new preset's address would otherwise carry them, and a reload reapply them).
  if (!embed) dropQueryPageStateOnChange(lab);
  const page: PageServices = {
    challenge: opening,
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
      // With the notices' question of imported files while it waits (./claimNotice.ts).
      read: () => ({
        ...workspaceOf(lab.app.getState()),
        ...claimAskedOf(notices.store.getState().items),
      }),
      subscribe: (listener) => {
        const edits = subscribeWorkspace(lab, listener);
        const asked = notices.store.subscribe((s, p) => {
          if (claimAskedOf(s.items).claimAsked !== claimAskedOf(p.items).claimAsked) listener();
        });
        return () => {
          edits();
          asked();
        };
      },
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
