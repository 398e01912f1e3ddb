/**
 * The share link the address opens (`#s=…`), decoded before the page boots: src/ui/io/bootLab.ts
 * awaits {@link firstShareLoaded} (a top-level await) as it does the first presets. The link's
 * codec (DEFLATE by fflate, src/views/io/shareLink.ts), the validation it runs, and the reading
 * of the lanes compared beside it (`c=`, src/views/compare/compareLink.ts) and of the fault
 * atlas's choice (`a=`, src/views/atlas/atlasLink.ts) and of its question (`p=`,
 * src/views/io/sharePrediction.ts) are imported only when the address carries a link, so an embed
 * of a preset fetches none of them (issue 31).
 */
import { addressHash, addressQuery, hasAddress } from '../../platform/address';
import { isEmbed } from '../embed/embedAddress';
import { readScenarioFile } from '../../views/io/scenarioFileRead';
import { requestScenarioFile, scenarioFileParam } from './scenarioFile';
import type { AtlasInLink } from '../../views/atlas/atlasLink';
import type { CompareInLink } from '../../views/compare/compareLink';
import type { ShareResult } from '../../views/io/shareLink';
import type { SharePrediction } from '../../views/io/sharePrediction';
import { shareParam } from '../../views/io/shareParam';
import { loadValidation } from '../../views/run/validationOnDemand';

/**
 * An address's share link: the scenario, and the compare state beside it (null: none). A bad
 * atlas choice (`a=`) refuses the link as a damaged scenario does, its field named. Its question
 * (`p=`): null when it has none or it could not be read, `predictionUnreadable` saying which.
 */
interface FirstShare {
  share: ShareResult;
  /** The scenario file the share came from (`?file=`, the loader's `src`), else absent. */
  file?: string;
  compare: CompareInLink;
  atlas: AtlasInLink;
  prediction: SharePrediction | null;
  predictionUnreadable: boolean;
}

/** A link that could not be read or was refused: no question of its own. */
const NO_PREDICTION = { prediction: null, predictionUnreadable: false } as const;

/** `hash`'s share link decoded, or null without one. */
async function decodeShareOf(hash: string): Promise<FirstShare | null> {
  if (shareParam(hash) === null) return null;
  try {
    const [{ decodeShare }, { decodeCompare }, { decodeAtlas }, prediction] = await Promise.all([
      import('../../views/io/shareLink'),
      import('../../views/compare/compareLink'),
      import('../../views/atlas/atlasLink'),
      import('../../views/io/sharePrediction'),
      // The player's readers validate a linked scenario as they render (validationOnDemand.ts).
      loadValidation(),
    ]);
    const share = decodeShare(hash);
    const atlas = share.ok ? decodeAtlas(hash, share.input.batch !== undefined) : null;
    if (atlas && !atlas.ok)
      return {
        share: { ok: false, issues: [{ path: '', message: atlas.reason }] },
        compare: null,
        atlas,
        ...NO_PREDICTION,
      };
    return {
      share,
      compare: decodeCompare(hash),
      atlas,
      prediction: prediction.decodeSharePrediction(hash),
      predictionUnreadable: prediction.sharePredictionUnreadable(hash),
    };
  } catch {
    // The codec's chunk did not download: the link is not refused as damaged, it is unread.
    return {
      share: {
        ok: false,
        issues: [{ path: '', message: 'share link: could not be read (reload the page to retry)' }],
      },
      compare: null,
      atlas: null,
      ...NO_PREDICTION,
    };
  }
}

/**
 * An embed's scenario file (`?embed&file=…`, ./scenarioFile.ts), asked of the host page's loader
 * and validated: it takes the share link's place, refused (nothing plays) when it is bad or could
 * not be had.
 */
async function decodeFileOf(file: string): Promise<FirstShare> {
  const [answer, { parseScenario }] = await Promise.all([
    requestScenarioFile(file),
    loadValidation(),
  ]);
  const share = readScenarioFile(file, answer, parseScenario);
  return { share, file, compare: null, atlas: null, ...NO_PREDICTION };
}

/** The address's share link or scenario file, decoded (null without one). */
export const firstShareLoaded: Promise<FirstShare | null> =
  // Only in a browser: unit tests decode links themselves.
  hasAddress() ? firstOf(addressQuery()) : Promise.resolve(null);

/** An embed's scenario file wins over a hash, as the loader's `src` does over the others. */
function firstOf(query: string): Promise<FirstShare | null> {
  const file = isEmbed(query) ? scenarioFileParam(query) : null;
  return file !== null ? decodeFileOf(file) : decodeShareOf(addressHash());
}
