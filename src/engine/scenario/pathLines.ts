/**
 * Where a field is in a JSON text: the 1-based line of each value's dotted path (`producer.acks`,
 * `faults.1.target`, `steps.2.thenFlipTo.knob`), so that a refusal names each problem's own line —
 * `delivery-lab check`'s and the page's Import and Open… alike. A key that holds dots
 * (`max.poll.records`) is one step of the path, as the validator's paths write it; an object
 * member's line is its key's, an array item's its value's.
 */
import { walkJson } from './jsonErrorAt';

/** Every path of a JSON text and its line; empty when the text is no JSON. */
export function jsonPathLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  // The last of duplicate keys is the one JSON.parse keeps: the map keeps the last line set.
  const broken = walkJson(text, { field: (path, line) => lines.set(path, line) });
  return broken === null ? lines : new Map();
}

/**
 * The line of a validator's path in a JSON text: the path's own, or — for a field that is missing
 * (`required`) or a path the text does not spell so — the nearest enclosing field's; 1 for the
 * whole file.
 */
export function lineOfPath(text: string, path: string, lines = jsonPathLines(text)): number {
  if (path === '') return 1;
  const parts = path.split('.');
  for (let n = parts.length; n > 0; n--) {
    const hit = lines.get(parts.slice(0, n).join('.'));
    if (hit !== undefined) return hit;
  }
  return 1;
}
