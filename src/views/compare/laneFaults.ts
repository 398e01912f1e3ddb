/**
 * The faults of a lane that never fired: every lane carries the same faults, but one may have
 * nothing to strike under another configuration — a lost acknowledgement under acks=0, where the
 * broker sends none (src/engine/faultWords.ts `whyNeverFires`), or a crash at a point the
 * pipeline never reaches. The lane says so, rather than let its counts suggest the fault made no
 * difference.
 */
import { whyNeverFires } from '../../engine';
import { faultName, faultWhat } from '../edit/faultName';
import type { RunView } from '../run/runView';
import { rowOf } from '../run/steps';

/** One fault of the lane's scenario that never fired, in words. */
export interface UnfiredFault {
  index: number;
  /** "fault "lost ack", a lost acknowledgement, never fired: with acks=0 …". */
  text: string;
  /** Whether it cannot fire in this configuration at all (not merely: its moment never came). */
  cannot: boolean;
}

/** The faults of the run that never fired, with why when the configuration rules them out. */
export function unfiredFaults(v: RunView): UnfiredFault[] {
  return v.scenario.faults.flatMap((f, index) => {
    if (rowOf(v.faultFired, index).length > 0) return [];
    const why = whyNeverFires(v.scenario, f);
    return [
      {
        index,
        text: `${faultName(f, index)}, ${faultWhat(f)}, never fired: ${why ?? 'its condition never came'}`,
        cannot: why !== null,
      },
    ];
  });
}
