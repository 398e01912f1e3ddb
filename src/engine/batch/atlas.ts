/**
 * The fault atlas of a batch job: every placement of one more fault in its fault space, each run
 * and judged. The streaming atlas (src/engine/atlas) places stream faults read from a stream
 * run's opportunities; a batch job's faults are of another kind, so its space is enumerated here
 * from its first run (docs/semantics/batch.md#faults):
 * - a task crash at each point of each attempt the first run made that no fault already strikes:
 *   `before-write`, `mid-write` after each count of rows (0 … rows read − 1), `after-write`;
 * - a clear and re-run of each logical date, one hour after the first run's last step (none when
 *   that is past the 7 days a scenario's times may take, LIMITS.timeMs: it could not be opened);
 * - each source row arriving late: landing 1 ms after the first attempt that read its period
 *   started (a row the scenario already sets a landing time for is left as it is).
 * Pure and deterministic: the same scenario gives the same placements and outcomes.
 */
import { checkBatch } from './checker';
import { periodOfRow } from './calendar';
import type { BatchConfig, BatchFault } from './schema';
import { simulateBatch } from './simulateBatch';
import { LIMITS } from '../scenario/limits';
import type { Guarantee, ObservedGuarantee } from '../scenario/schema';

const HOUR_MS = 3_600_000;

export type BatchPlacement =
  | { kind: 'crash'; fault: BatchFault }
  | { kind: 'clear'; logicalDate: number; atMs: number }
  | { kind: 'late-row'; id: string; addedAtMs: number };

export interface BatchAtlasCell {
  placement: BatchPlacement;
  /** A pair's second fault, placed in the run the first one made (./explore.ts). */
  then?: BatchPlacement;
  lost: number;
  duplicates: number;
  wrongPartitionRows: number;
  observed: ObservedGuarantee;
  held: boolean;
}

/** The job with one placement added (the scenario's own faults, clears and rows kept). */
export function withPlacement(b: BatchConfig, p: BatchPlacement): BatchConfig {
  switch (p.kind) {
    case 'crash':
      return { ...b, faults: [...b.faults, p.fault] };
    case 'clear':
      return { ...b, clears: [...b.clears, { logicalDate: p.logicalDate, atMs: p.atMs }] };
    case 'late-row':
      return {
        ...b,
        source: b.source.map((r) => (r.id === p.id ? { ...r, addedAtMs: p.addedAtMs } : r)),
      };
  }
}

/** Every placement of one more fault in the job's fault space (see the file's comment). */
export function batchPlacements(b: BatchConfig): BatchPlacement[] {
  const first = simulateBatch(b);
  const out: BatchPlacement[] = [];
  for (const a of first.attempts) {
    const logicalDate = first.runs[a.run]!.logicalDate;
    const struck = b.faults.some(
      (f) => f.logicalDate === logicalDate && f.tryNumber === a.tryNumber,
    );
    if (struck) continue;
    const at = (point: BatchFault['point'], afterRows = 0): BatchPlacement => ({
      kind: 'crash',
      fault: { logicalDate, tryNumber: a.tryNumber, point, afterRows },
    });
    out.push(at('before-write'));
    for (let k = 0; k < a.read.length; k++) out.push(at('mid-write', k));
    out.push(at('after-write'));
  }
  // Within the times a scenario may hold (LIMITS.timeMs, 7 days): past them the placement, as a
  // counterexample to paste or a cell to open, is a clear the scenario format refuses.
  const clearAt = first.endTime + HOUR_MS;
  if (clearAt <= LIMITS.timeMs)
    for (let d = 0; d < b.periods; d++) out.push({ kind: 'clear', logicalDate: d, atMs: clearAt });
  for (const row of b.source) {
    if (row.addedAtMs !== undefined) continue;
    const period = periodOfRow(first.calendar, row);
    const reader = first.attempts.find((a) => a.window === period);
    if (reader) out.push({ kind: 'late-row', id: row.id, addedAtMs: reader.startAt + 1 });
  }
  return out;
}

/**
 * Run every placement (of `kinds`, default all: the page's kind filter, the CLI's `--kinds`) and
 * judge it against `claim`; `onProgress` hears how many of all are done after each (the page's
 * atlas worker reports it).
 */
export function batchAtlas(
  b: BatchConfig,
  claim: Guarantee,
  onProgress?: (done: number, total: number) => void,
  kinds?: readonly BatchPlacement['kind'][],
): BatchAtlasCell[] {
  const placements = batchPlacements(b).filter(
    (p) => kinds === undefined || kinds.includes(p.kind),
  );
  return placements.map((placement, i) => {
    const cell = judgeCell(b, claim, placement);
    onProgress?.(i + 1, placements.length);
    return cell;
  });
}

/** The job with `placement` (and a pair's second, `then`) added, run and judged against `claim`. */
export function judgeCell(
  b: BatchConfig,
  claim: Guarantee,
  placement: BatchPlacement,
  then?: BatchPlacement,
): BatchAtlasCell {
  const once = withPlacement(b, placement);
  const v = checkBatch(simulateBatch(then ? withPlacement(once, then) : once), claim);
  return {
    placement,
    ...(then ? { then } : {}),
    lost: v.totals.lost,
    duplicates: v.totals.duplicates,
    wrongPartitionRows: v.totals.wrongPartitionRows,
    observed: v.observed,
    held: v.held,
  };
}
