/**
 * The share link in the address bar, kept honest: the hash carries a scenario only while that
 * scenario is the one on screen. The Share button puts it there; an edit takes it out (a reload
 * then restores the autosaved workspace, which holds the edit); a link pasted into the address
 * bar of an open page (only the hash changes, no reload) is opened as an undoable edit — or, if
 * it cannot be opened, refused with a notice, the address of the work on screen put back.
 */
import type { ScenarioInput } from '../../engine';
import {
  clearShareFromLocation,
  shareIssueLines,
  sharePredictionUnreadableInLocation,
  watchShareInLocation,
  writeShareToLocation,
} from '../../platform/share';
import { compareFromLocation, writeCompareToLocation } from '../../platform/compareUrl';
import { writeAtlasToLocation } from '../../platform/atlasUrl';
import { decodeAtlas } from '../../views/atlas/atlasLink';
import type { Lab, LabState } from '../../store/labStore';
import type { PredictionSubject } from '../../views/library/library';
import { outgoingScenario } from '../../views/edit/pinExpect';
import {
  linkApplies,
  linkedSubject,
  PREDICTION_UNREADABLE,
  type LinkedPrediction,
  type SharePrediction,
} from '../../views/io/sharePrediction';
import type { Notices } from '../io/notices';
import { addressHash, addressHref, replaceAddress } from '../../platform/address';

/**
 * The question a share link asked (`p=`, src/views/io/sharePrediction.ts), as the page's "Predict
 * first" sees it. Both are selectors of the lab state, stable for the page's lifetime.
 */
export interface LinkedPredictions {
  /** What the page asks of a lab state: the link's question while it applies, else the preset's. */
  subject(s: LabState): PredictionSubject | null;
  /** The link whose question (or `p=0`: none) applies to a lab state, else null. */
  applying(s: LabState): LinkedPrediction | null;
}

/** A scenario as JSON text without its `expect` block. */
function withoutExpect(s: ScenarioInput): string {
  return JSON.stringify({ ...s, expect: undefined });
}

/** How {@link ShareSync.share} writes the scenario. */
interface ShareOptions {
  /**
   * "Predict first" hides the answer on the page (pending or locked): the link goes without the
   * `expect` block, which holds it — as the Scenario (JSON) export does.
   */
  answerHidden?: boolean;
}

/** The share side of the page. */
export interface ShareSync {
  /**
   * Put the current scenario in the URL hash; returns the full link.
   * @param prediction - what the link asks its reader (null or absent: nothing of its own).
   */
  share(prediction?: SharePrediction | null, o?: ShareOptions): string;
  /** The question the link the page was opened with (or a link pasted since) asks. */
  linked: LinkedPredictions;
  dispose(): void;
}

/**
 * Start keeping the hash honest.
 * @param openedFromLink - the lab's first scenario came from the URL's hash.
 * @param prediction - what that link asks (its `p=`), or null.
 */
export function createShareSync(
  lab: Lab,
  notices: Notices,
  openedFromLink: boolean,
  prediction: SharePrediction | null = null,
): ShareSync {
  let named: ScenarioInput | null = openedFromLink ? lab.app.getState().scenario : null;
  // One key per link opened: a second link's question is asked afresh.
  let links = 0;
  let link: LinkedPrediction | null = null;
  const openLink = (
    p: SharePrediction | null,
    scenario: ScenarioInput,
    presetRef: string | null,
  ) => {
    link = p && { key: `link-${++links}`, scenario, presetRef, prediction: p };
  };
  if (openedFromLink) {
    const s = lab.app.getState();
    openLink(prediction, s.scenario, s.presetRef);
  }
  const linked: LinkedPredictions = {
    subject: (s) => linkedSubject(link, s),
    applying: (s) => (linkApplies(link, s) ? link : null),
  };
  const off = lab.app.subscribe((s, p) => {
    if (s.scenario === p.scenario || s.scenario === named) return;
    if (named !== null) clearShareFromLocation();
    named = null;
  });
  const unwatch = watchShareInLocation((r, p, previous) => {
    // The atlas's choice beside it (`a=`): a bad one refuses the link, naming its field.
    const atlas = r.ok ? decodeAtlas(addressHash(), r.input.batch !== undefined) : null;
    const refused = !r.ok ? shareIssueLines(r.issues) : atlas && !atlas.ok ? [atlas.reason] : null;
    if (!r.ok || refused) {
      notices.push({
        tone: 'error',
        text: 'This share link could not be opened:',
        lines: refused ?? [],
      });
      // The work on screen stays, so its address comes back: left in the address bar, the
      // refused link would be refused again by a reload (the autosave holds the work, but the
      // notice would greet it) and copied on as if it were the work's link.
      replaceAddress(previous);
      return;
    }
    // Back or Forward to a link's page: the history has put its scenario on screen already
    // (src/ui/io/historySync.ts; the link may differ in its pinned expect block only).
    const current = lab.app.getState().scenario;
    if (withoutExpect(r.input) === withoutExpect(current)) {
      named = current;
      return;
    }
    named = r.input;
    // The link's question is in place before the scenario it is about arrives (loaded as it is,
    // with no preset), so the panels that hide the outcome see both at once. A link without one
    // ends the previous link's question.
    openLink(p, r.input, null);
    const compare = compareFromLocation();
    // It opens at t = 0 and plays: its verdict folds until the end (`replay`).
    lab.actions.loadScenario(r.input, {
      ...(compare?.ok ? { compare: compare.spec } : {}),
      ...(atlas?.ok ? { atlas: atlas.choice } : {}),
      replay: true,
      notice: 'Opened the shared scenario — Undo (Ctrl+Z) goes back.',
    });
    if (compare && !compare.ok) notices.push({ tone: 'warn', text: compare.reason });
    if (sharePredictionUnreadableInLocation())
      notices.push({ tone: 'warn', text: PREDICTION_UNREADABLE });
  });
  return {
    share(p = null, o = {}) {
      const s = lab.app.getState();
      // The link's expect block pins the run on screen (a preset's would describe the preset),
      // unless it would give the hidden answer away.
      writeShareToLocation(
        outgoingScenario(s.scenario, s.view, {
          ready: s.status === 'ready',
          answerHidden: o.answerHidden ?? false,
        }),
        location,
        history,
        p,
      );
      // The lanes compared with it travel beside it (`c=`): the link opens comparing them.
      writeCompareToLocation(s.compare);
      // So do the atlas's kinds ticked and pairs (`a=`): the link opens with the same ones.
      writeAtlasToLocation(s.atlas);
      named = s.scenario;
      return addressHref();
    },
    linked,
    dispose() {
      off();
      unwatch();
    },
  };
}
