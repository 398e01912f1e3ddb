// Do a fault atlas's trials converge with one another (issue 23 §3)? A memo of trials' states
// would stop a trial where its state equals one an earlier trial of the atlas reached at the same
// time, up to a renumbering of entry ids (as the rejoin test, src/engine/atlas/rejoin.ts, asks of
// the own run). This measures what such a memo could skip, exactly: every placement (or every
// MEMO_STEP-th; MEMO_FROM, MEMO_LIMIT: n from the i-th by moment) is run from scratch with a shifted twin (`traceShift`,
// which finds where its state holds entry ids), in the snapshot path's order (by moment); at
// grid times after its fault's moment (every MEMO_GRID_MS, sparser later: see nextGrid) its
// canonical state (src/engine/atlas/stateWalk.ts, the added fault spent, entry ids renumbered by
// first appearance, each named entry's columns appended, the trial's stop) is keyed by the time
// and a SHA-1 of the tokens, and a trial whose key an earlier trial left stops there: the entries
// it runs after that are counted as saved. It is run to its end all the same, and what the atlas
// reads of its outcome (fates, observed, held, cut off, the side effects' rows) is checked
// against the earlier trial's — the memo's premise (its end time may differ: it is read from its
// last entry, which can be history). MEMO_DEBUG prints a hit whose outcome differs.
// MEMO_CENSUS_EVERY (default 10; 0: none): every n-th trial that never meets an earlier state is
// compared with the last earlier trial of its family (the same fault at another moment: kind,
// link or point) at the first and last grid time both reached, and the place of the first token
// that differs is counted (the walk's labels: classes and keys down to the token; for a queue of
// another length, the kinds of tasks more or fewer); printed every 800 trials and at the end.
// Dear: ~1 s a trial of the Flink atlases at a load of 6 (two walks of 5–15k tokens per grid
// time), so a whole atlas of ~3,000 takes about an hour; lost-ack-retry/acks-1 10 s.
// `npx tsx scripts/atlas-memo-census.ts <variant>…`
import { createHash } from 'node:crypto';
import {
  advanceRun,
  assembleRun,
  defaultStopAt,
  finishRun,
  type AssembledRun,
} from '../src/engine/simulate';
import { buildEvents } from '../src/engine/scenario/workload';
import { enumeratePlacements } from '../src/engine/atlas/placements';
import { firstRun } from '../src/engine/atlas/explore';
import { forkMoment } from '../src/engine/atlas/continuation';
import { withFaults } from '../src/engine/atlas/trial';
import { Forker } from '../src/engine/atlas/fork';
import { MISMATCH, walkState, type WalkOptions } from '../src/engine/atlas/stateWalk';
import { entryIdsByTwin, Recorder } from '../src/engine/atlas/rejoin';
import { parseScenario } from '../src/engine/scenario/validate';
import { TRACE_COLUMNS } from '../src/engine/trace';
import { isIdleTask } from '../src/engine/world';
import { findPreset } from '../src/scenarios';

const GRID = Number(process.env.MEMO_GRID_MS ?? 500);
const STEP = Number(process.env.MEMO_STEP ?? 1);
const CENSUS_EVERY = Number(process.env.MEMO_CENSUS_EVERY ?? 10);
/**
 * The grid time after `t`: every GRID ms up to 32 GRID, every 8 GRID up to 128 GRID, then every
 * 64 GRID — a trial's entries are mostly early (some Flink trials idle on to 600 s, their
 * checkpoint timers ticking), and a walk of a state costs as much early as late.
 */
function nextGrid(t: number): number {
  const step = t < 32 * GRID ? GRID : t < 128 * GRID ? 8 * GRID : 64 * GRID;
  return (Math.floor(t / step) + 1) * step;
}

/** The columns a named entry must agree on (rejoin.ts's COLUMNS), `time` for a crash entry. */
const COLUMNS = TRACE_COLUMNS.filter((c) => c !== 'time' && c !== 'cause' && c !== 'until');

/** A paused run's state: its tokens, which are entry ids, and the labels (when asked). */
interface Walked {
  tokens: unknown[];
  ids: Uint8Array;
  crash: boolean[];
  /** The live queued tasks by kind (the census's words for a queue of another length). */
  queue?: Map<string, number>;
}

/** A paused run's live queued tasks counted by the class of their `self` and their method. */
function queueKinds(run: AssembledRun): Map<string, number> {
  type Task = { fn: { name?: string }; self: object | null; cancelled?: boolean; time: number };
  const q = (run.world as unknown as { queue: { items: Task[]; far: Task[] } }).queue;
  const out = new Map<string, number>();
  for (const t of [...q.items, ...q.far]) {
    if (t.cancelled === true || isIdleTask(t as never)) continue;
    const k = `${t.self?.constructor.name ?? '-'}.${t.fn.name ?? '?'}`;
    out.set(k, (out.get(k) ?? 0) + 1);
  }
  return out;
}

/** `a`'s queued tasks more (+) or fewer (−) than `b`'s, by kind. */
function queueDiff(a: Map<string, number>, b: Map<string, number>): string {
  const d = new Map(b);
  for (const [k, n] of a) d.set(k, (d.get(k) ?? 0) - n);
  return [...d]
    .filter(([, n]) => n !== 0)
    .sort()
    .map(([k, n]) => `${n < 0 ? '+' : '-'}${Math.abs(n)} ${k}`)
    .join(', ');
}

function record(run: AssembledRun, opts: WalkOptions): Recorder {
  const r = new Recorder();
  walkState(run, r, opts);
  return r;
}

/** The state of `a` with its entry ids found by its twin `b` (null: not comparable there). */
function walked(a: AssembledRun, b: AssembledRun, opts: WalkOptions): Walked | null {
  let x: Recorder;
  let y: Recorder;
  try {
    x = record(a, opts);
    y = record(b, opts);
  } catch (e) {
    if (e !== MISMATCH) throw e;
    return null; // the added fault can still act: no memo there
  }
  const ids = entryIdsByTwin(x, y);
  if (!ids) return null;
  return { tokens: x.tokens, ids, crash: x.crash };
}

/** Object tokens (structure marks, prototypes, shared inputs) → a number, the same in every run. */
const objectIds = new Map<unknown, number>();

/** The exact key of a state: tokens with entry ids renumbered, then the named entries' columns. */
function keyOf(w: Walked, run: AssembledRun, stop: number): string {
  const h = createHash('sha1');
  const renum = new Map<number, number>();
  const named: number[] = [];
  const timed = new Set<number>();
  let buf = `${stop};`;
  for (let j = 0; j < w.tokens.length; j++) {
    const t = w.tokens[j];
    if (w.ids[j]) {
      let r = renum.get(t as number);
      if (r === undefined) {
        r = renum.size;
        renum.set(t as number, r);
        named.push(t as number);
      }
      if (w.crash[j]) timed.add(t as number);
      buf += `i${r},`;
    } else if (typeof t === 'object' && t !== null) {
      let o = objectIds.get(t);
      if (o === undefined) objectIds.set(t, (o = objectIds.size));
      buf += `o${o},`;
    } else if (typeof t === 'function') {
      let o = objectIds.get(t);
      if (o === undefined) objectIds.set(t, (o = objectIds.size));
      buf += `f${o},`;
    } else if (typeof t === 'string') buf += `s${JSON.stringify(t)},`;
    else buf += `${typeof t}${Object.is(t, -0) ? '-0' : String(t)},`;
    if (buf.length > 1 << 16) {
      h.update(buf);
      buf = '';
    }
  }
  const tr = run.world.trace as unknown as Record<string, ArrayLike<number>>;
  for (const e of named) {
    for (const c of COLUMNS) buf += `${tr[c]![e]},`;
    if (timed.has(e)) buf += `t${tr.time![e]},`;
    buf += ';';
  }
  h.update(buf);
  return `${w.tokens.length}:${h.digest('hex')}`;
}

/** The first position where two states differ, up to a renumbering of entry ids; -1 if none. */
function firstDifference(a: Walked, b: Walked): number {
  const fw = new Map<number, number>();
  const bw = new Map<number, number>();
  const n = Math.min(a.tokens.length, b.tokens.length);
  for (let j = 0; j < n; j++) {
    if (a.ids[j] !== b.ids[j]) return j;
    const x = a.tokens[j];
    const y = b.tokens[j];
    if (!a.ids[j]) {
      if (!Object.is(x, y)) return j;
      continue;
    }
    const f = fw.get(x as number);
    if (f === undefined) {
      if (bw.has(y as number)) return j;
      fw.set(x as number, y as number);
      bw.set(y as number, x as number);
    } else if (f !== y) return j;
  }
  return a.tokens.length === b.tokens.length ? -1 : n;
}

/** A place's last four steps (as scripts/atlas-rejoin-census.ts shows them). */
const short = (place: string) => place.split(' ').slice(-4).join(' ');

/** The census's most frequent places, first and last grid time apart. */
function printCensus(census: Map<string, number>, out: (line: string) => void): void {
  for (const [place, n] of [...census].sort((x, y) => y[1] - x[1]).slice(0, 16))
    out(`  ${String(n).padStart(5)}  ${place}`);
}

for (const id of process.argv.slice(2)) {
  const raw = findPreset(id)?.variant;
  if (!raw) throw new Error(`no variant ${id}`);
  const parsed = parseScenario(raw.scenario);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const s = parsed.scenario;
  const first = firstRun(s);
  const placements = enumeratePlacements(s, first, undefined);
  const events = buildEvents(s.workload, s.seed);
  const shared = new Forker(assembleRun(s, { events }).world).sharedInputs;
  const order = placements
    .map((p, k) => ({ k, moment: forkMoment(s, p.fault, events) ?? 0 }))
    .filter((_, i) => i % STEP === 0)
    .sort((a, b) => a.moment - b.moment || a.k - b.k);
  /** (time, state key) → the first trial (its rank in `order`) that reached it. */
  const seen = new Map<string, number>();
  /** Per family of fault (its kind and place, not its time), the last trial's states by grid time. */
  const lastOf = new Map<string, Map<number, Walked>>();
  const census = new Map<string, number>();
  let after = 0;
  let saved = 0;
  let hits = 0;
  /** Per trial what the atlas reads of its outcome (`classify`, src/engine/atlas/explore.ts). */
  const outcomes: string[] = [];
  let otherOutcome = 0;
  let walks = 0;
  let notComparable = 0;
  let longest = 0;
  const started = performance.now();
  const timing = { walk: 0, key: 0 };
  const from = Number(process.env.MEMO_FROM ?? 0);
  const limit = Math.min(order.length, from + Number(process.env.MEMO_LIMIT ?? Infinity));
  for (let r = from; r < limit; r++) {
    const { k, moment } = order[r]!;
    const t = withFaults(s, [placements[k]!.fault]);
    const stop = t.stopAtMs ?? defaultStopAt(t, events);
    const a = assembleRun(t, { events });
    const b = assembleRun(t, { events, traceShift: 1 });
    advanceRun(a, moment);
    const atMoment = a.world.trace.length;
    const opts: WalkOptions = {
      shared,
      scenarios: new Set([s, t]),
      stopAtMs: stop,
      settled: false,
      added: { from: s.faults.length, now: 0 },
    };
    const mine = new Map<number, Walked>();
    const censused = CENSUS_EVERY > 0 && r % CENSUS_EVERY === 0;
    const fault = placements[k]!.fault as Record<string, unknown>;
    const family = JSON.stringify({ ...fault, at: 0, match: 0, event: 0 });
    const previous = lastOf.get(family) ?? new Map<number, Walked>();
    let hitAt = -1;
    /** The earlier trial whose state this one met. */
    let memoOf = -1;
    for (let g = nextGrid(moment); ; g = nextGrid(g)) {
      if (!advanceRun(a, g)) break;
      advanceRun(b, g);
      walks++;
      const c0 = performance.now();
      const w = walked(a, b, { ...opts, added: { from: s.faults.length, now: g } });
      if (w === null) {
        notComparable++;
        continue;
      }
      if (CENSUS_EVERY > 0) w.queue = queueKinds(a);
      mine.set(g, w);
      const c1 = performance.now();
      const key = `${g}|${keyOf(w, a, stop)}`;
      timing.walk += c1 - c0;
      timing.key += performance.now() - c1;
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        hitAt = a.world.trace.length;
        memoOf = earlier;
        break;
      }
      seen.set(key, r);
    }
    const run = finishRun(a, { explain: false });
    const n = run.trace.length;
    const v = run.verdict;
    const fx = v.points.find((x) => x.name === 'effects');
    outcomes[r] = JSON.stringify([
      [...v.fate],
      v.observed,
      v.sideEffects,
      v.held,
      run.cutOff,
      fx ? [...fx.rows] : null,
    ]);
    if (memoOf >= 0 && outcomes[memoOf] !== outcomes[r]) {
      otherOutcome++;
      if (process.env.MEMO_DEBUG)
        console.error(order[memoOf], outcomes[memoOf], '\n', order[r], hitAt, outcomes[r]);
    }
    longest = Math.max(longest, run.endTime);
    after += n - atMoment;
    if (hitAt >= 0) {
      hits++;
      saved += n - hitAt;
    } else if (censused && mine.size > 0) {
      const times = [...mine.keys()].filter((g) => previous.has(g));
      for (const [when, g] of [
        ['first', times[0]],
        ['last', times[times.length - 1]],
      ] as const) {
        if (g === undefined) continue;
        const p = firstDifference(mine.get(g)!, previous.get(g)!);
        let place = '(same state, other entries named)';
        if (p >= 0) {
          // The labelled walk of this trial at g: a run again up to g (the trial went past it).
          const again = assembleRun(t, { events });
          advanceRun(again, g);
          const labels: string[] = [];
          walkState(
            again,
            { put() {} },
            { ...opts, added: { from: s.faults.length, now: g }, labels },
          );
          place = short(labels[p] ?? '(state longer)');
          const other = previous.get(g)!.queue;
          if (place.endsWith('World.queue') && other)
            place += ` (${queueDiff(mine.get(g)!.queue!, other) || 'same kinds'})`;
        }
        const key = `${when}: ${place}`;
        census.set(key, (census.get(key) ?? 0) + 1);
      }
    }
    lastOf.set(family, mine);
    if (r % 200 === 0 || process.env.MEMO_LIMIT) {
      console.error(
        `${id}: ${r + 1}/${order.length}, ${hits} hits, ${saved} of ${after} entries saved, ${((performance.now() - started) / 1000).toFixed(0)} s (walks ${(timing.walk / 1000).toFixed(1)} s, keys ${(timing.key / 1000).toFixed(1)} s)`,
      );
      if (r % 800 === 0) printCensus(census, console.error);
    }
  }
  const pct = (x: number) => `${((100 * x) / Math.max(1, after)).toFixed(1)} %`;
  console.log(
    `${id}: ${limit - from} of ${placements.length} placements (from the ${from}th by moment) (every ${STEP}), grid ${GRID} ms, own run ${first.endTime} ms, longest trial ${longest} ms; ${walks} states walked (${notComparable} not comparable: fault still armed or ids not found), ${seen.size} distinct; ${hits} trials meet an earlier trial's state, saving ${saved} of ${after} entries run after the moments (${pct(saved)}), ${otherOutcome} of them with an outcome other than the earlier trial's; ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  printCensus(census, console.log);
}
