import { memo, useEffect, useMemo, useRef } from 'react';
import { focusSoon } from '../hooks/focusSoon';
import { countersAt } from '../../views/run/at';
import { laneLinesAt, laneTableNote } from '../../views/compare/laneAt';
import type { UnfiredFault } from '../../views/compare/laneFaults';
import { formatCount, formatMoney, formatMs, ordinal } from '../../views/run/format';
import { traceHashOfView } from '../../views/run/hash';
import type { RunView } from '../../views/run/runView';
import { Icon } from '../Icon';
import { compareTestIds } from './compareTestIds';

/** Trace hashes are shown (and tested) for runs up to this many entries; above, on demand only. */
const HASH_MAX_ENTRIES = 300_000;

/**
 * One lane at the shared cursor: the counters, the verdict of the whole run, the faults it cannot
 * fire, and its table — rows in workload order, a lost event as a struck-through gap.
 */
export const LaneColumn = memo(function LaneColumn({
  number,
  view,
  idx,
  unfired,
  hidden,
  folded = null,
}: {
  number: number;
  view: RunView;
  idx: number;
  unfired: readonly UnfiredFault[];
  /** "Predict first" hides the outcome: the counters stay, verdict and table wait. */
  hidden: boolean;
  /**
   * The answer is told but the run's end not yet reached (`outcomeFolded`): the lane's verdict
   * waits until the shared clock reaches this lane's end; the function shows every outcome now.
   */
  folded?: (() => void) | null;
}) {
  const c = useMemo(() => countersAt(view, idx), [view, idx]);
  const table = useMemo(() => laneLinesAt(view, idx), [view, idx]);
  const note = laneTableNote(table);
  const hash = useMemo(() => (view.n <= HASH_MAX_ENTRIES ? traceHashOfView(view) : ''), [view]);
  const body = useRef<HTMLDivElement>(null);
  const tableBox = useRef<HTMLDivElement>(null);
  // At the run's end the lane's first duplicate or lost row comes into its box, the row before it
  // above, as the page's sink table does: it opened at its first row, the anomalies below the
  // fold of a table of 20 rows and more (an on-call engineer's report).
  const atEnd = idx >= view.n;
  useEffect(() => {
    const box = tableBox.current;
    if (!atEnd || hidden || !box) return;
    const row = box.querySelector<HTMLElement>('.lane-row.dup, .lane-row.lost');
    const head = box.querySelector<HTMLElement>('.lane-row.head');
    if (!row || !head) return;
    const top = row.getBoundingClientRect().top - box.getBoundingClientRect().top;
    const shown = top >= head.offsetHeight && top + row.offsetHeight <= box.clientHeight;
    if (!shown) box.scrollTop += top - head.offsetHeight - row.offsetHeight;
  }, [atEnd, hidden, view]);
  const v = view.verdict;
  const unit =
    v.primary === 'effects' ? 'effects' : v.primary.startsWith('log:') ? 'records' : 'rows';
  return (
    <div
      ref={body}
      className="lane-body"
      data-testid={compareTestIds.lane}
      data-lane={number}
      data-trace-hash={hash}
    >
      {unfired.length > 0 && (
        <ul className="lane-unfired" aria-label={`Lane ${number}: faults that never fired`}>
          {unfired.map((f) => (
            <li key={f.index} data-testid={compareTestIds.laneUnfired} data-cannot={f.cannot}>
              <span aria-hidden="true">⚠ </span>
              {f.text}
            </li>
          ))}
        </ul>
      )}
      <dl className="lane-counters" data-testid={compareTestIds.laneCounters}>
        <div>
          <dt>{unit}</dt>
          <dd data-value={c.rows}>{formatCount(c.rows)}</dd>
        </div>
        <div className={c.duplicates > 0 ? 'bad-dup' : ''}>
          <dt>duplicates</dt>
          <dd data-value={c.duplicates}>{formatCount(c.duplicates)}</dd>
        </div>
        <div className={c.final && c.missing > 0 ? 'bad-lost' : ''}>
          <dt>{c.final ? 'lost' : 'not yet in'}</dt>
          <dd data-value={c.missing}>{formatCount(c.missing)}</dd>
        </div>
        <div>
          <dt>sum (true {formatMoney(c.trueSum)})</dt>
          <dd>{formatMoney(c.sum)}</dd>
        </div>
      </dl>
      {!hidden && folded && idx < view.n && (
        <p className="lane-verdict folded" data-testid={compareTestIds.laneVerdictFolded}>
          Verdict at its end ({formatMs(view.endTime)}).{' '}
          <button
            type="button"
            className="linkish"
            onClick={() => {
              folded();
              // The button gives way to this lane's verdict: the focus goes there, not to <body>
              // (where the next Tab would start again from the top of the page).
              focusSoon(() => body.current?.querySelector<HTMLElement>('.lane-verdict'));
            }}
          >
            Reveal now
          </button>
        </p>
      )}
      {!hidden && !(folded && idx < view.n) && (
        <p
          className={`lane-verdict ${v.held ? 'held' : 'broken'}`}
          data-testid={compareTestIds.laneVerdict}
          data-held={v.held}
          data-observed={v.observed}
        >
          <span aria-hidden="true">{v.held ? '✓ ' : '✕ '}</span>
          Observed <strong>{v.observed}</strong>, claimed{' '}
          <span className="lane-claimed">{v.claimed}</span>: {v.held ? 'held' : 'broken'}
          {view.cutOff && ' (so far: cut off)'}
          <span className="muted"> · ends at {formatMs(view.endTime)}</span>
        </p>
      )}
      {!hidden && (
        <div
          ref={tableBox}
          className="lane-table"
          role="table"
          aria-label={`Lane ${number}: ${v.primaryLabel} at the cursor, in workload order`}
          tabIndex={0}
          data-testid={compareTestIds.laneTable}
        >
          <div role="row" className="lane-row head">
            <span role="columnheader">id</span>
            <span role="columnheader">amount</span>
            <span role="columnheader">note</span>
          </div>
          {table.lines.map((l) => (
            <div
              role="row"
              key={`${l.id}:${l.copy}`}
              className={`lane-row${l.lost ? ' lost' : l.copy > 1 ? ' dup' : ''}`}
              data-testid={compareTestIds.laneRow}
              data-event={l.id}
              data-lost={l.lost}
              data-copy={l.copy}
            >
              <span role="cell" className="mono">
                {l.lost ? <s>{l.id}</s> : l.id}
              </span>
              <span role="cell">
                {l.lost ? <s>{formatMoney(l.amount)}</s> : formatMoney(l.amount)}
              </span>
              <span role="cell">
                {l.lost ? (
                  <span className="fate lost">
                    <span aria-hidden="true">✕</span> lost — no row
                  </span>
                ) : l.copy > 1 ? (
                  <span className="fate duplicated">
                    <Icon name="dup" /> {ordinal(l.copy)} copy
                  </span>
                ) : (
                  ''
                )}
              </span>
            </div>
          ))}
          {note !== null && <p className="muted">{note}</p>}
        </div>
      )}
      {hash && (
        <p className="muted lane-hash" title="The trace hash of this lane's run">
          trace <code>{hash.slice(0, 16)}</code>
        </p>
      )}
    </div>
  );
});
