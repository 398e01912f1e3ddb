/**
 * An embed pinned by a sidecar scenario file (`expect-file="payments.json"`, docs/cli.md) plays
 * its own scenario — the one its `scenario-hash` or `preset` names — and takes only the file's
 * `expect` block. When the file's scenario is edited and the embed is not made again from it, the
 * page shows another configuration than the file its pin comes from, and `check` compares the
 * embed with a pin written for the file: this names the first field where the two part.
 */
import { parseScenario, type Scenario } from '../engine';

/** A field's value as a note quotes it: JSON, cut short. */
function shown(value: unknown): string {
  const text = value === undefined ? '(unset)' : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** Where two values part first: its path, a knob's dotted name kept whole, and the two values there. */
interface Difference {
  path: string;
  a: unknown;
  b: unknown;
}

/** The first path (`producer.enable.idempotence`, `faults.0.match.event`) where `a` and `b` differ. */
function firstDifference(a: unknown, b: unknown, path: string): Difference | null {
  if (Object.is(a, b)) return null;
  const isObject = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object';
  if (!isObject(a) || !isObject(b) || Array.isArray(a) !== Array.isArray(b)) return { path, a, b };
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const key of keys) {
    const found = firstDifference(a[key], b[key], path ? `${path}.${key}` : key);
    if (found !== null) return found;
  }
  return null;
}

/**
 * The note when the sidecar file holds a scenario that is not the embed's (its `expect` block
 * aside), or null when they are the same or the file is no valid scenario (its own check says so).
 * @param shownAs - the file as the output names it.
 */
export function sidecarDrift(embedded: Scenario, sidecar: unknown, shownAs: string): string | null {
  const parsed = parseScenario(sidecar);
  if (!parsed.ok) return null;
  const d = firstDifference(
    { ...embedded, expect: undefined },
    { ...parsed.scenario, expect: undefined },
    '',
  );
  if (d === null) return null;
  return (
    `the embed plays another scenario than ${shownAs}, whose expect block pins it: ` +
    `${d.path} is ${shown(d.a)} in the embed, ${shown(d.b)} in the file — ` +
    `to show the file's scenario, import it on the lab's page and take the embed again (Embed)`
  );
}
