import { batchRowsAt } from '../../../views/run/at';
import { formatCountOf, formatMs } from '../../../views/run/format';
import { type RunView } from '../../../views/run/runView';
import { testIds } from '../../testIds';

/**
 * The Spark query's micro-batches so far (Spark only).
 * @public rendered through the namespace ./processorPanelsOnDemand.ts loads
 */
export function BatchList({ view, idx }: { view: RunView; idx: number }) {
  const rows = batchRowsAt(view, idx);
  // One entry per micro-batch, newest first, in two short lines (as the checkpoints): a
  // four-column table cut its status off in the narrow processor column.
  return (
    <div className="table-scroll" style={{ maxHeight: '11em' }} tabIndex={0}>
      <ol
        className="checkpoints"
        data-testid={testIds.batchList}
        aria-label="Micro-batches, newest first"
      >
        {rows.length === 0 && <li className="muted">no micro-batch yet</li>}
        {rows.map((b) => (
          <li key={b.id} data-status={b.status}>
            <span>
              <strong>batch {b.id}</strong>{' '}
              {b.status === 'committed' ? '✓ committed' : '… planned (offset log)'}
            </span>
            <br />
            <span>planned {formatMs(b.plannedAt)}</span>
            {b.status === 'committed' && <span>committed {formatMs(b.committedAt)}</span>}
            {b.records > 0 && (
              <span>
                offsets {b.offset}–{b.offset + b.records - 1}
              </span>
            )}
            <span>{formatCountOf(b.records, 'record')}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
