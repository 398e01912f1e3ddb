// How much of a fault atlas's trial work a cross-trial memo could skip, at most (issue 23 §3):
// each trial of a run of placements is run from scratch, and its trace from each of 63 checkpoint
// times of the scenario's own run (evenly spaced, as the rejoin's: src/engine/atlas/rejoin.ts) on
// is hashed — every column but `cause` (the entry ids, which a trial renumbers). A trial whose
// trace from a checkpoint after its fault's moment on equals the own run's there is one the
// rejoin can stop (if its state is equal too, and a checkpoint it tries); one whose trace equals
// an earlier trial's there is one a table of finished trials' states keyed by the checkpoint could
// stop. Equal futures are necessary for equal states, not sufficient: an upper bound.
// `npx tsx scripts/atlas-convergence.ts <variant> [first placement] [trials] [step]`: `trials`
// placements from `first`, `step` apart (a step of 1 keeps a trial's neighbours in the run).
import {
  buildEvents,
  enumeratePlacements,
  firstRun,
  forkMoment,
  parseScenario,
  runTrial,
  TRACE_COLUMNS,
  type Trace,
} from '../src/engine';
import { findPreset } from '../src/scenarios';

const [id, from = '0', count = '200', step = '1'] = process.argv.slice(2);
const raw = id ? findPreset(id)?.variant : undefined;
if (!raw) throw new Error(`usage: atlas-convergence.ts <preset/variant> [first] [trials] [step]`);
const parsed = parseScenario(raw.scenario);
if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
const s = parsed.scenario;
const first = firstRun(s);
const placements = enumeratePlacements(s, first, undefined);
const events = buildEvents(s.workload, s.seed);
const times = Array.from({ length: 63 }, (_, i) => Math.floor((first.endTime * (i + 1)) / 64));
const columns = TRACE_COLUMNS.filter((c) => c !== 'cause');

/** Per checkpoint time: the hash of the trace from there on, and how many entries that is. */
function suffixes(t: Trace): { hash: string[]; entries: number[] } {
  const n = t.length;
  const a = new Uint32Array(n + 1);
  const b = new Uint32Array(n + 1);
  for (let e = n - 1; e >= 0; e--) {
    let x = a[e + 1]!;
    let y = b[e + 1]!;
    for (const c of columns) {
      const v = t[c][e]! | 0;
      x = Math.imul(x ^ v, 0x9e3779b1) >>> 0;
      y = (Math.imul(y, 31) + v + 7) >>> 0;
    }
    a[e] = x;
    b[e] = y;
  }
  const hash: string[] = [];
  const entries: number[] = [];
  for (const time of times) {
    const e = t.upperBound(time - 1);
    hash.push(`${a[e]}:${b[e]}:${n - e}`);
    entries.push(n - e);
  }
  return { hash, entries };
}

const own = suffixes(first.trace);
const seen = times.map(() => new Set<string>());
let after = 0;
const skip = { own: 0, any: 0 };
const trials = { own: 0, any: 0, all: 0 };
for (let k = Number(from); k < placements.length && trials.all < Number(count); k += Number(step)) {
  const fault = placements[k]!.fault;
  const moment = forkMoment(s, fault, events) ?? 0;
  const run = runTrial(s, [fault], events);
  const mine = suffixes(run.trace);
  after += run.trace.length - run.trace.upperBound(moment - 1);
  trials.all++;
  let byOwn = 0;
  let byAny = 0;
  for (let i = 0; i < times.length; i++) {
    if (times[i]! <= moment) continue;
    const h = mine.hash[i]!;
    if (byOwn === 0 && h === own.hash[i]) byOwn = mine.entries[i]!;
    if (byAny === 0 && (h === own.hash[i] || seen[i]!.has(h))) byAny = mine.entries[i]!;
  }
  for (let i = 0; i < times.length; i++) if (times[i]! > moment) seen[i]!.add(mine.hash[i]!);
  skip.own += byOwn;
  skip.any += byAny;
  if (byOwn > 0) trials.own++;
  if (byAny > 0) trials.any++;
}
const pct = (x: number) => `${((100 * x) / Math.max(1, after)).toFixed(1)} %`;
console.log(
  `${id}: ${trials.all} of ${placements.length} placements (from ${from}, every ${step}), ${after} trial entries after their moments; the own run's future from a checkpoint: ${trials.own} trials, ${pct(skip.own)} of those entries; the own run's or an earlier trial's: ${trials.any} trials, ${pct(skip.any)}`,
);
