/**
 * "What differs" between compared lanes: the knobs set otherwise, under their real names (the
 * Knobs tab's catalogue, src/views/edit/knobs.ts), each with its value in effect in every lane (as
 * written, or the default the scenario gets when it is left unset).
 */
import { columnNamesWords, type Scenario } from '../../engine';
import { knobInEffect } from '../../scenarios';
import { formatKnobValue, KNOBS } from '../edit/knobs';

/** One knob that differs between lanes. */
export interface KnobDifference {
  path: string;
  /** Its real name (`enable.idempotence`). */
  name: string;
  /** The system it belongs to ("Kafka producer"). */
  system: string;
  /** Its value in each lane, as shown ("all", "30000 ms", "(unset)"), or "—" where it does not exist. */
  values: string[];
}

type Knob = (typeof KNOBS)[number];

/** A knob's value in effect, formatted: the default it gets when left unset (`defaultFor`). */
function inEffect(s: Scenario, k: Knob): string {
  const v = knobInEffect(s, k.path);
  return formatKnobValue(k, v === undefined && k.defaultFor ? k.defaultFor(s) : v);
}

/**
 * The knobs whose value differs between the lanes' scenarios (catalogue order), the claim first.
 * A knob differs when its value as shown does ("—" where it does not apply) and its value in
 * effect does too: one that only comes into play in a lane (the broker's
 * transaction.max.timeout.ms once a lane sets transactional.id), at the value it has in every
 * lane, is no change of anyone's, and one that applies in no lane is nobody's.
 */
export function knobDifferences(lanes: readonly Scenario[]): KnobDifference[] {
  const out: KnobDifference[] = [];
  const claims = lanes.map((s) => s.claim);
  if (claims.some((c) => c !== claims[0]))
    out.push({ path: 'claim', name: 'claim', system: 'the verdict', values: claims });
  // The table's column names from a lane's own statement (sink.columns): no knob of the Knobs
  // tab, but what its SQL says (docs/sql.md#your-names).
  const names = lanes.map((s) =>
    s.sink.type === 'table' ? (columnNamesWords(s.sink) ?? "the lab's") : '—',
  );
  if (names.some((n) => n !== names[0]))
    out.push({ path: 'sink.columns', name: 'column names', system: 'PostgreSQL', values: names });
  for (const k of KNOBS) {
    const effect = lanes.map((s) => inEffect(s, k));
    const values = lanes.map((s, i) => (k.applies(s) ? effect[i]! : '—'));
    const same = (list: string[]) => list.every((v) => v === list[0]);
    // Neither as shown (a knob of no lane's: "— | —") nor in effect.
    if (same(values) || same(effect)) continue;
    out.push({ path: k.path, name: k.name, system: k.system, values });
  }
  return out;
}
