/** What a mistyped preset id was likely meant to be (the runner's and `check`'s messages). */
import { misspellingBound, nearest } from '../engine/core/editDistance';
import { allPresetRefs } from '../scenarios/presetScenarios';

/**
 * What a mistyped preset id was likely meant to be: the variants of a preset named by its id
 * ("; its variants: idempotence-off, …"), else the ids that contain it ("; did you mean …"), else
 * the variants of the preset id a misspelling away.
 * Empty when nothing is close, or the target looks like a file. Reads the ids alone (no preset is
 * built: src/scenarios/presetScenarios.ts).
 */
export function nearPresets(target: string): string {
  if (/\.json$|[\\]/.test(target) || target.startsWith('.')) return '';
  const [pid, vid] = target.toLowerCase().split('/', 2);
  const refs = allPresetRefs();
  const variants = refs.filter((r) => r.startsWith(`${pid}/`)).map((r) => r.slice(pid!.length + 1));
  if (variants.length > 0 && vid !== undefined)
    return `; the preset "${pid}" has variants ${variants.join(', ')}`;
  let near = refs.filter((id) => id.includes(target.toLowerCase()));
  if (near.length === 0) {
    // A preset id a few letters off (`flink-checkpoint-replya`): its variants, the one named first.
    const meant = nearest(pid!, [...new Set(refs.map((r) => r.split('/')[0]!))], misspellingBound);
    if (meant === null) return '';
    near = refs.filter((r) => r.startsWith(`${meant}/`));
    if (vid !== undefined && near.includes(`${meant}/${vid}`))
      near = [`${meant}/${vid}`, ...near.filter((r) => r !== `${meant}/${vid}`)];
  }
  const shown = near.slice(0, 5).join(', ');
  return `; did you mean ${shown}${near.length > 5 ? ` (and ${near.length - 5} more)` : ''}`;
}
