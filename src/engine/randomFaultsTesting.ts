/** Shared by the random-fault tests: a consumer pipeline and an upstream one, and what a fault fired on. */
import type { Run } from './simulate';
import { entriesOf, events, runScenario } from './testing';

export const idOf = (run: Run, event: number) => run.events.identityId(run.events.identity[event]!);
/** The business ids of the 'fault' entries of fault `index`, in order. */
export const firedOn = (run: Run, index = 0) =>
  entriesOf(run, 'fault')
    .filter((i) => run.trace.aux[i] === index)
    .map((i) => idOf(run, run.trace.event[i]!));
/** For each firing of fault `index`: how many records `actor` had processed by then (its draws). */
export const ordinals = (run: Run, actor: string, index = 0) => {
  const t = run.trace;
  const a = t.actors.indexOf(actor);
  const out: number[] = [];
  let n = 0;
  for (let i = 0; i < t.length; i++) {
    if (t.kindOf(i) === 'process' && t.actor[i] === a) n++;
    if (t.kindOf(i) === 'fault' && t.aux[i] === index) out.push(n);
  }
  return out;
};

// e1..e40 (10..400, sum 8,200), one every 10 ms, one partition; a consumer that commits by hand,
// polls at most 5 records and writes each record with its own plain INSERT (statementPer record),
// so a record's row is in the table as soon as it is processed.
export const consumer = (
  faults: unknown[],
  opts: { commit?: string; sink?: Record<string, unknown>; seed?: number } = {},
) =>
  runScenario({
    seed: opts.seed ?? 1,
    workload: { events: events(40, (i) => (i - 1) * 10) },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      commit: (opts.commit ?? 'after-processing') as 'after-processing',
      'auto.offset.reset': 'earliest',
      'max.poll.records': 5,
    },
    sink: { type: 'table', statementPer: 'record', ...opts.sink } as never,
    faults: faults as never,
  });
export const randomCrash = {
  kind: 'random',
  what: 'crash',
  target: 'consumer-0',
  probability: 0.1,
};

export const upstream = (
  what: string,
  opts: { sink?: Record<string, unknown>; extra?: unknown[] } = {},
) =>
  runScenario({
    seed: 7,
    workload: { events: events(20, (i) => (i - 1) * 100) },
    processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
    sink: { type: 'table', ...opts.sink } as never,
    faults: [{ kind: 'random', what, probability: 0.2 }, ...(opts.extra ?? [])] as never,
  });
export const FIRED_SEED_7 = ['e2', 'e3', 'e9', 'e13', 'e17', 'e19', 'e20'];
