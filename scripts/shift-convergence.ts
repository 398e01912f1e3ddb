// How much of a fault atlas's trial work a rejoin with the scenario's own run *shifted in time*
// could skip, at most (issue 23 §3): a trial delayed by a lost message (30 s of
// request.timeout.ms) may go on as the own run did, only later. Each trial is run from scratch;
// its trace from each entry after its fault's moment on is hashed on every column but `cause`
// (the entry ids, which a trial renumbers), `time` and `until` (replaced by the gaps between
// entries and the wait each names, which a shift keeps), and looked up among the own run's
// suffixes hashed alike. The first match counts its entries as skippable: an upper bound (equal
// futures are necessary for equal states, not sufficient). Prints the share of the trials'
// entries and the shifts found. `npx tsx scripts/shift-convergence.ts <variant> [first] [trials]
// [step]` (as scripts/atlas-convergence.ts).
import {
  buildEvents,
  enumeratePlacements,
  firstRun,
  forkMoment,
  runTrial,
  TRACE_COLUMNS,
  type Trace,
} from '../src/engine';
import { presetScenario } from '../bench/presetScenario';

const [id, from = '0', count = '200', step = '1'] = process.argv.slice(2);
if (!id) throw new Error(`usage: shift-convergence.ts <preset/variant> [first] [trials] [step]`);
const s = presetScenario(id);
const first = firstRun(s);
const placements = enumeratePlacements(s, first, undefined);
const events = buildEvents(s.workload, s.seed);
const columns = TRACE_COLUMNS.filter((c) => c !== 'cause' && c !== 'time' && c !== 'until');

/** Per entry e: the hash of the trace from e on, shift-free. */
function suffixes(t: Trace): string[] {
  const n = t.length;
  let x = 0;
  let y = 0;
  const out: string[] = new Array<string>(n + 1);
  out[n] = '0:0:0';
  for (let e = n - 1; e >= 0; e--) {
    const gap = e + 1 < n ? t.time[e + 1]! - t.time[e]! : 0;
    const wait = t.until[e]! >= 0 ? t.until[e]! - t.time[e]! : -1;
    for (const v of [...columns.map((c) => t[c][e]! | 0), gap, wait]) {
      x = Math.imul(x ^ v, 0x9e3779b1) >>> 0;
      y = (Math.imul(y, 31) + v + 7) >>> 0;
    }
    out[e] = `${x}:${y}:${n - e}`;
  }
  return out;
}

const ownAt = new Map<string, number>();
suffixes(first.trace).forEach((h, e) => ownAt.has(h) || ownAt.set(h, e));
let after = 0;
let skip = 0;
let trials = 0;
let matched = 0;
const shifts = new Map<number, number>();
for (let k = Number(from); k < placements.length && trials < Number(count); k += Number(step)) {
  const fault = placements[k]!.fault;
  const moment = forkMoment(s, fault, events) ?? 0;
  const t = runTrial(s, [fault], events).trace;
  const start = t.upperBound(moment - 1);
  after += t.length - start;
  trials++;
  const mine = suffixes(t);
  for (let e = start; e < t.length - 1; e++) {
    const o = ownAt.get(mine[e]!);
    if (o === undefined) continue;
    matched++;
    skip += t.length - e;
    const shift = t.time[e]! - first.trace.time[o]!;
    shifts.set(shift, (shifts.get(shift) ?? 0) + 1);
    break;
  }
}
const top = [...shifts].sort((a, b) => b[1] - a[1]).slice(0, 5);
console.log(
  `${id}: ${trials} of ${placements.length} placements (from ${from}, every ${step}), ${after} trial entries after their moments; the own run's future, shifted: ${matched} trials, ${((100 * skip) / Math.max(1, after)).toFixed(1)} % of those entries; shifts (ms × trials): ${top.map(([d, n]) => `${d} × ${n}`).join(', ')}`,
);
