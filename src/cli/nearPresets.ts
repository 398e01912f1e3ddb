/** What a mistyped preset id was likely meant to be (the runner's and `check`'s messages). */
import { allPresetRefs } from '../scenarios/presetScenarios';

/**
 * What a mistyped preset id was likely meant to be: the variants of a preset named by its id
 * ("; its variants: idempotence-off, …"), else the ids that contain it ("; did you mean …").
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
  const near = refs.filter((id) => id.includes(target.toLowerCase()));
  if (near.length === 0) return '';
  const shown = near.slice(0, 5).join(', ');
  return `; did you mean ${shown}${near.length > 5 ? ` (and ${near.length - 5} more)` : ''}`;
}
