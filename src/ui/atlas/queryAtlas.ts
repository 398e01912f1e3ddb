/**
 * The fault atlas's choice in the lab page's query, `?preset=…&a=1.<base64url>`, read as the
 * share link's `#…&a=` is (src/views/atlas/atlasLink.ts): a good one ticks its kinds, a bad one
 * is refused in a notice naming its field, and the preset opens either way (the work is kept).
 * An embed reads its query's `a=` as the prediction's answer instead (src/ui/embed/embedOptions.ts),
 * so only the lab's page calls this (./boot.ts of src/ui/io).
 */
import type { Lab } from '../../store/labStore';
import { decodeAtlas } from '../../views/atlas/atlasLink';
import type { Notices } from '../io/notices';

export function applyQueryAtlas(lab: Lab, notices: Pick<Notices, 'push'>, search: string): void {
  // Worded as a link of its own (`link, fault atlas (a=): …`): the page's address, not a share link.
  const atlas = decodeAtlas(search, lab.app.getState().scenario.batch !== undefined, 'link');
  if (atlas === null) return;
  if (atlas.ok) lab.app.setState({ atlas: atlas.choice });
  else
    notices.push({
      tone: 'warn',
      text: `${atlas.reason}. The preset opened without it.`,
    });
}
