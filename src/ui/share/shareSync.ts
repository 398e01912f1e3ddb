/**
 * The share link in the address bar, kept honest: the hash carries a scenario only while that
 * scenario is the one on screen. The Share button puts it there; an edit takes it out (a reload
 * then restores the autosaved workspace, which holds the edit); a link pasted into the address
 * bar of an open page (only the hash changes, no reload) is opened as an undoable edit.
 */
import type { ScenarioInput } from '../../engine';
import {
  clearShareFromLocation,
  shareIssueLines,
  watchShareInLocation,
  writeShareToLocation,
} from '../../platform/share';
import type { Lab } from '../../store/labStore';
import { pinExpect } from '../../views/pinExpect';
import type { Notices } from '../io/notices';

/** The share side of the page. */
export interface ShareSync {
  /** Put the current scenario in the URL hash; returns the full link. */
  share(): string;
  dispose(): void;
}

/**
 * Start keeping the hash honest.
 * @param openedFromLink - the lab's first scenario came from the URL's hash.
 */
export function createShareSync(lab: Lab, notices: Notices, openedFromLink: boolean): ShareSync {
  let named: ScenarioInput | null = openedFromLink ? lab.app.getState().scenario : null;
  const off = lab.app.subscribe((s, p) => {
    if (s.scenario === p.scenario || s.scenario === named) return;
    if (named !== null) clearShareFromLocation();
    named = null;
  });
  const unwatch = watchShareInLocation((r) => {
    if (!r.ok) {
      notices.push({
        tone: 'error',
        text: 'This share link could not be opened:',
        lines: shareIssueLines(r.issues),
      });
      return;
    }
    named = r.input;
    lab.actions.loadScenario(r.input);
    lab.app.setState({ notice: 'Opened the shared scenario — Undo (Ctrl+Z) goes back.' });
  });
  return {
    share() {
      const s = lab.app.getState();
      // The link's expect block pins the run on screen (a preset's would describe the preset).
      writeShareToLocation(s.status === 'ready' ? pinExpect(s.scenario, s.view) : s.scenario);
      named = s.scenario;
      return location.href;
    },
    dispose() {
      off();
      unwatch();
    },
  };
}
