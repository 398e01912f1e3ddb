/**
 * A batch fault's placement in words (src/engine/batch/atlas.ts): as the job's setup lists what is
 * planned to fail (./batchSetup.ts), the atlas lists its cells (./batchAtlas.ts) and the CLI prints
 * them. Apart from the atlas so the batch player's setup reads it without the atlas's engine (the
 * batch embed's first load, issue 31).
 */
import type { BatchPlacement } from '../../engine/batch/atlas';
import { periodLabel } from '../../engine/batch/calendar';
import type { BatchRun } from '../../engine/batch/simulateBatch';
import { batchTimeLabel } from '../../engine/explain/batch';
import { formatCountOf } from '../run/format';

/** A placement in words, as the page lists it and the CLI prints it. */
export function placementWords(run: BatchRun, p: BatchPlacement): string {
  const date = (d: number) => periodLabel(run.calendar, d);
  switch (p.kind) {
    case 'crash': {
      const f = p.fault;
      const where =
        f.point === 'mid-write' ? `mid-write after ${formatCountOf(f.afterRows, 'row')}` : f.point;
      return `try ${f.tryNumber} of ${date(f.logicalDate)} crashes ${where}`;
    }
    case 'clear':
      return `clear and re-run ${date(p.logicalDate)} at ${batchTimeLabel(run, p.atMs)}`;
    case 'late-row': {
      // The atlas lands a row 1 ms after the first attempt that reads its date starts: in the
      // same minute, which the label alone would not tell apart from before it (src/engine/batch/atlas.ts).
      const reader = run.attempts.find((a) => a.startAt === p.addedAtMs - 1);
      const after = reader
        ? `, 1 ms after try ${reader.tryNumber} of ${date(run.runs[reader.run]!.logicalDate)} started reading`
        : '';
      return `${p.id} lands late, at ${batchTimeLabel(run, p.addedAtMs)}${after}`;
    }
  }
}
