/**
 * The page's state in the lab page's query, `?preset=…&a=1.<base64url>&c=1.<base64url>` (a typed
 * or bookmarked address): the fault atlas's choice and Compare's lanes, read as a share link's
 * `#…&a=…&c=` are (src/views/io/keptPageState.ts, one codec). A good value is applied, a bad one
 * refused in a notice naming its field, and the preset opens either way (the work is kept).
 * Applied, they are the page's state (the history entry and the autosaved workspace keep it): the
 * address drops them at its first change, so that a reload cannot apply them again over it.
 * An embed reads its query's `a=` as the prediction's answer instead (src/ui/embed/embedOptions.ts),
 * so only the lab's page calls this (./boot.ts).
 */
import { clearPageStateFromQuery } from '../../platform/pageStateQuery';
import type { Lab } from '../../store/labStore';
import { keptPageStateInQuery, readKeptPageState } from '../../views/io/keptPageState';
import type { Notices } from './notices';

/** Apply the query's `a=` and `c=` to the lab (its preset open), or say why not. */
export function applyQueryPageState(
  lab: Lab,
  notices: Pick<Notices, 'push'>,
  search: string,
): void {
  const { atlas, compare } = keptPageStateInQuery(search);
  const { scenario } = lab.app.getState();
  // Worded as a link of its own (`link, fault atlas (a=): …`): the page's address, not a share
  // link. Each value on its own: a refused one leaves what was there (the default, or the
  // reloaded workspace's), the other still applies.
  const refused: string[] = [];
  if (atlas !== undefined) {
    const r = readKeptPageState({ atlas }, scenario, 'link');
    if (r.refused.length === 0) lab.app.setState({ atlas: r.atlas });
    refused.push(...r.refused);
  }
  if (compare !== undefined) {
    const r = readKeptPageState({ compare }, scenario, 'link');
    if (r.refused.length === 0) lab.app.setState({ compare: r.compare });
    refused.push(...r.refused);
  }
  for (const reason of refused)
    notices.push({ tone: 'warn', text: `${reason}. The preset opened without it.` });
}

/**
 * From now on, the query's `a=` and `c=` leave the address (src/platform/pageStateQuery.ts) at
 * the first change of what they describe: the scenario, its preset, the atlas choice, the lanes.
 * Returns the unsubscribe.
 */
export function dropQueryPageStateOnChange(
  lab: Lab,
  clear: () => void = clearPageStateFromQuery,
): () => void {
  return lab.app.subscribe((s, p) => {
    if (
      s.scenario !== p.scenario ||
      s.presetRef !== p.presetRef ||
      s.atlas !== p.atlas ||
      s.compare !== p.compare
    )
      clear();
  });
}
