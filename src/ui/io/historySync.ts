/**
 * Back and Forward in the browser: every scenario opened as a page of its own — a preset chosen
 * (the picker, the library, a variant), a file or a link imported (`LabState.opened`) — is an
 * entry of the session history; edits, undo and redo are not (they change the current entry's
 * scenario, so Back and Forward return to a page as it was left). Going Back or Forward loads
 * that entry's scenario as an undoable change: the edits of the scenario left behind stay one
 * Ctrl+Z away. An entry keeps the fault atlas's choice and Compare's lanes with its scenario (the
 * share link's `a=` and `c=` values, src/views/io/keptPageState.ts): Back to a page brings back
 * the kinds ticked and the lanes compared there; a value that cannot be read back is refused in a
 * notice naming its field, and the entry's scenario opens without it.
 *
 * A link typed or pasted into the address bar makes its own entry (a fragment navigation); its
 * `hashchange` opens it (src/ui/share/shareSync.ts) and the entry then records it here.
 */
import {
  browserHistoryEnv,
  entryOf,
  pushEntry,
  recordEntry,
  type HistoryEntry,
  type HistoryEnv,
} from '../../platform/history';
import { presetParamOf, resolvePresetParam } from '../../platform/presetUrl';
import { shareParam } from '../../platform/share';
import { loadedPreset, loadPreset } from '../../scenarios/presetCatalog';
import type { Lab, LabState } from '../../store/labStore';
import {
  keptPageStateInQuery,
  keptPageStateOf,
  readKeptPageState,
} from '../../views/io/keptPageState';
import type { Notices } from './notices';

/** What the status line says after Back or Forward opened an entry. */
export const HISTORY_NOTICE =
  'Opened from the browser history — Undo (Ctrl+Z) brings back what was on screen.';

const entryNow = (s: LabState): HistoryEntry => ({
  scenario: s.scenario,
  presetRef: s.presetRef,
  ...keptPageStateOf(s.atlas, s.compare),
});

/**
 * The entry an address names when its state holds none (an entry written before this page kept
 * its scenarios there, or one the browser refused to store): its `?preset=` with the atlas choice
 * and lanes of its `a=` and `c=` (read back as a stored entry's are: a bad one is refused naming
 * its field), unless it carries a share link — that one is opened by its `hashchange`.
 */
function entryOfAddress(loc: Pick<Location, 'search' | 'hash'>): HistoryEntry | null {
  const ref = presetRefOfAddress(loc);
  const found = ref === null ? undefined : loadedPreset(ref);
  return found
    ? {
        scenario: structuredClone(found.variant.scenario),
        presetRef: `${found.preset.id}/${found.variant.id}`,
        ...keptPageStateInQuery(loc.search),
      }
    : null;
}

/** The preset an address names by `?preset=` (none when it carries a share link). */
function presetRefOfAddress(loc: Pick<Location, 'search' | 'hash'>): string | null {
  if (shareParam(loc.hash) !== null) return null;
  const value = presetParamOf(loc.search);
  const param = value === null ? null : resolvePresetParam(value);
  return param?.kind === 'preset' ? param.ref : null;
}

/**
 * Start keeping the browser history in step with the lab: the current entry holds the scenario
 * on screen, a scenario opened pushes a new entry, and `popstate` loads the entry's scenario.
 * Create it before the other writers of the address subscribe (the share link, `?preset=`): a
 * new entry must exist before they write its address.
 */
export function createHistorySync(
  lab: Lab,
  env: HistoryEnv = browserHistoryEnv(),
  notices?: Pick<Notices, 'push'>,
): { dispose(): void } {
  recordEntry(env, entryNow(lab.app.getState()));
  const off = lab.app.subscribe((s, p) => {
    if (s.opened !== p.opened) pushEntry(env, entryNow(s));
    else if (
      s.scenario !== p.scenario ||
      s.presetRef !== p.presetRef ||
      s.atlas !== p.atlas ||
      s.compare !== p.compare
    )
      recordEntry(env, entryNow(s));
  });
  const unlisten = env.listen(function onEntry(state, loaded = false) {
    const entry = entryOf(state) ?? entryOfAddress(env.location);
    if (!entry) {
      // A preset the page has not loaded yet (src/scenarios/presetCatalog.ts): once it is.
      const ref = loaded ? null : presetRefOfAddress(env.location);
      if (ref !== null)
        void loadPreset(ref).then(
          () => onEntry(state, true),
          () => {},
        );
      return;
    }
    const s = lab.app.getState();
    const now = keptPageStateOf(s.atlas, s.compare);
    // Already on screen (Back to a page whose scenario the user had brought back by undo).
    if (
      s.presetRef === entry.presetRef &&
      JSON.stringify(s.scenario) === JSON.stringify(entry.scenario) &&
      now.atlas === entry.atlas &&
      now.compare === entry.compare
    )
      return;
    const kept = readKeptPageState(entry, entry.scenario, 'browser history');
    lab.actions.loadScenario(entry.scenario, {
      presetRef: entry.presetRef,
      atlas: kept.atlas,
      compare: kept.compare,
    });
    lab.app.setState({ notice: HISTORY_NOTICE });
    for (const reason of kept.refused)
      notices?.push({ tone: 'warn', text: `${reason}. The page opened without it.` });
  });
  return {
    dispose() {
      off();
      unlisten();
    },
  };
}
