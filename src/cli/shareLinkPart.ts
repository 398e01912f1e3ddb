/**
 * A share link in the runner (its optional part `share`, src/cli/optionalParts.ts): the scenario it
 * carries (src/views/io/shareLink.ts), and what else the page's Share put beside it — Compare's
 * lanes (`c=`) and the fault atlas's choice (`a=`), docs/page.md — which a run of the scenario
 * alone leaves out: said on stderr with the options that run them, so that a link of "my
 * configuration beside exactly-once" is not read as one lane's report.
 */
import { decodeAtlas } from '../views/atlas/atlasLink';
import { decodeCompare } from '../views/compare/compareLink';
import type { LaneSpec } from '../views/compare/compareSpec';

export { decodeShare, shareIssueLines } from '../views/io/shareLink';

/** One lane as a `--compare` value, or null when the option cannot say it (faults of its own, a value with a blank). */
function laneOption(lane: LaneSpec): string | null {
  if ((lane.faults?.length ?? 0) > 0) return null;
  const words = [
    ...(lane.guarantee ? [lane.guarantee] : []),
    ...(lane.knobs ?? []).map(
      (k) => `${k.path}=${typeof k.value === 'string' ? k.value : JSON.stringify(k.value)}`,
    ),
  ];
  if (words.length === 0 || words.some((w) => /[\s']/.test(w))) return null;
  return `--compare '${words.join(' ')}'`;
}

/**
 * The notes for what `hash` carries beside its scenario and the options given leave out.
 * @param given - whether `--compare` and `--explore` were given (then that part is run, or replaced).
 */
export function linkExtrasNotes(
  hash: string,
  batch: boolean,
  given: { compare: boolean; explore: boolean },
): string[] {
  const notes: string[] = [];
  const c = given.compare ? null : decodeCompare(hash);
  if (c?.ok && c.spec.lanes.length > 0) {
    const options = c.spec.lanes.map(laneOption);
    notes.push(
      `note: the link also carries Compare's lanes (c=), which this run leaves out: ${
        options.every((o) => o !== null)
          ? `add ${options.join(' ')} to run them`
          : 'a lane adds faults of its own, which --compare cannot say: open the link in the page'
      }`,
    );
  }
  const a = given.explore ? null : decodeAtlas(hash, batch);
  if (a?.ok) {
    const kinds = a.choice.kinds ? ` --kinds ${a.choice.kinds.join(',')}` : '';
    notes.push(
      `note: the link also carries the fault atlas's choice (a=), which this run leaves out: add --explore${kinds}${a.choice.pairs ? ' --depth 2' : ''} to run it`,
    );
  }
  return notes;
}
