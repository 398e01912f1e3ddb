/**
 * The faults of a run that never fired: those that left no 'fault' entry in its trace (their
 * moment never came — a crash point the processor never reaches, a message that never went by),
 * each with why it cannot fire in this scenario at all where that is so ({@link whyNeverFires}).
 * One reading of the trace for the CLI's report and the page's challenge attempt.
 */
import type { FaultSpec } from './scenario/schema';
import type { Run } from './simulate';
import { ENTRY_KINDS } from './traceCodes';
import { whyNeverFires } from './faultWords';

/** A fault of the scenario that never fired: its index in `faults`, and why it cannot (or null). */
export interface UnfiredFault {
  index: number;
  fault: FaultSpec;
  why: string | null;
}

export function faultsNeverFired(run: Run): UnfiredFault[] {
  const t = run.trace;
  const fired = new Set<number>();
  const FAULT = ENTRY_KINDS.indexOf('fault');
  for (let i = 0; i < t.length; i++) if (t.kind[i] === FAULT) fired.add(t.aux[i]!);
  return run.scenario.faults.flatMap((fault, index) =>
    fired.has(index) ? [] : [{ index, fault, why: whyNeverFires(run.scenario, fault) }],
  );
}
