/** What a mistyped preset id was likely meant to be (the runner's and `check`'s messages). */
import { presetIds, presets } from '../scenarios';

/**
 * What a mistyped preset id was likely meant to be: the variants of a preset named by its id
 * ("; its variants: idempotence-off, …"), else the ids that contain it ("; did you mean …").
 * Empty when nothing is close, or the target looks like a file.
 */
export function nearPresets(target: string): string {
  if (/\.json$|[\\]/.test(target) || target.startsWith('.')) return '';
  const [pid, vid] = target.toLowerCase().split('/', 2);
  const preset = presets.find((p) => p.id === pid);
  if (preset && vid !== undefined)
    return `; the preset "${preset.id}" has variants ${preset.variants.map((v) => v.id).join(', ')}`;
  const near = presetIds().filter((id) => id.includes(target.toLowerCase()));
  if (near.length === 0) return '';
  const shown = near.slice(0, 5).join(', ');
  return `; did you mean ${shown}${near.length > 5 ? ` (and ${near.length - 5} more)` : ''}`;
}
