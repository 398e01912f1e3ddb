import { useMemo, useRef, useState } from 'react';
import { ledgerRowAt } from '../../views/run/at';
import { formatMoney, formatMs } from '../../views/run/format';
import type { RunView } from '../../views/run/runView';
import type { LabState } from '../../store/labStore';
import { useActions, useIdx, useLab, useView } from '../../store/LabContext';
import { Fate, fateOfCode } from '../Fate';
import { HiddenOutcome } from '../library/HiddenOutcome';
import { usePredictionGate } from '../library/usePredictionGate';
import { useFontScale } from '../hooks/useFontScale';
import { PLAIN_ROWS_MAX, Rows } from '../pipeline/Rows';
import { testIds } from '../testIds';

const ROW_PX = 26;
const selectSelected = (s: LabState) => s.selected;

/**
 * The per-event ledger: every business event with its records in the log, how often it was
 * processed, its sink rows, the checkpoint that covers it, its fate (live at the cursor, and the
 * run's final fate) and its end-to-end latency (once it is visible at the cursor). Virtualized
 * past PLAIN_ROWS_MAX events; "anomalies only" narrows it to lost and duplicated events.
 */
export function Ledger() {
  const view = useView();
  if (!view) return null;
  return <LedgerOf view={view} />;
}

function LedgerOf({ view }: { view: RunView }) {
  const a = useActions();
  const idx = useIdx();
  const selected = useLab(selectSelected);
  const [onlyAnomaliesChosen, setOnly] = useState(false);
  // "Predict first": the final fates are the answer (the fate now, at the cursor, stays); so is
  // the list of anomalies, which is made of them. The latency is live like the fate now: it shows
  // only once the event is visible at the cursor, so it gives nothing away ahead of time.
  const gate = usePredictionGate();
  const onlyAnomalies = onlyAnomaliesChosen && !gate.finalHidden;
  const rows = useMemo(() => {
    const n = view.events.identities;
    if (!onlyAnomalies) return null;
    const out: number[] = [];
    for (let j = 0; j < n; j++) if (view.verdict.fate[j] !== 1) out.push(j);
    return out;
  }, [view, onlyAnomalies]);
  const count = rows ? rows.length : view.events.identities;
  const scroll = useRef<HTMLDivElement>(null);
  // The sticky header row is one row tall: the rows start below it, and a row scrolled to is
  // placed below it.
  const head = ROW_PX * useFontScale();
  const hasCheckpoints = view.checkpoints.length > 0;
  return (
    <div data-testid={testIds.ledger}>
      <label className="field" style={{ marginBottom: '0.3em' }}>
        <input
          type="checkbox"
          checked={onlyAnomalies}
          disabled={gate.finalHidden}
          onChange={(e) => setOnly(e.target.checked)}
        />
        <span>only lost and duplicated events (final)</span>
      </label>
      {gate.finalHidden && <HiddenOutcome gate={gate} what="fates" className="ledger-hidden" />}
      {/* Every event's row for a short run; a long one's virtualized (src/ui/pipeline/Rows.tsx). */}
      <Rows
        plain={view.events.identities <= PLAIN_ROWS_MAX}
        count={count}
        size={head}
        scroll={scroll}
        paddingStart={head}
        scrollPaddingStart={head}
      >
        {(virt) => (
          <div
            ref={scroll}
            className="table-scroll"
            tabIndex={0}
            style={{ maxHeight: '16em' }}
            role="table"
            aria-label="Per-event ledger: ↑ and ↓ select an event, Home and End the first and the last"
            aria-rowcount={count + 1}
            // One tab stop for the whole ledger (a thousand events are not a thousand Tabs): the
            // arrows move the selection, which the Event trace follows.
            onKeyDown={(e) => {
              if (count === 0 || e.altKey || e.ctrlKey || e.metaKey) return;
              const at = rows ? rows.indexOf(selected) : selected;
              const to: Record<string, number> = {
                ArrowDown: at < 0 ? 0 : Math.min(count - 1, at + 1),
                ArrowUp: at < 0 ? 0 : Math.max(0, at - 1),
                Home: 0,
                End: count - 1,
              };
              const next = to[e.key];
              if (next === undefined) return;
              e.preventDefault();
              // The page's arrows step the playback: not while walking the ledger.
              e.stopPropagation();
              a.select(rows ? rows[next]! : next);
              virt.scrollToIndex(next, { align: 'auto' });
            }}
          >
            <div className="vtable" style={{ height: virt.getTotalSize() }}>
              <div className="vrow head ledger-cols" role="row" style={{ height: head }}>
                <span role="columnheader">event</span>
                <span role="columnheader">amount</span>
                <span role="columnheader">log records</span>
                <span role="columnheader">processed</span>
                <span role="columnheader">rows</span>
                <span role="columnheader">{hasCheckpoints ? 'checkpoint' : 'final'}</span>
                <span role="columnheader">fate now</span>
                <span
                  role="columnheader"
                  title={`End-to-end latency: from the application's first send to the first effect at ${view.verdict.primaryLabel} (virtual time)`}
                >
                  latency
                </span>
              </div>
              {virt.getVirtualItems().map((r) => {
                const j = rows ? rows[r.index]! : r.index;
                const row = ledgerRowAt(view, j, idx);
                return (
                  <div
                    key={r.key}
                    role="row"
                    className={`vrow ledger-cols clickable${j === selected ? ' selected' : ''}`}
                    style={{ top: r.start, height: r.size }}
                    data-testid={testIds.ledgerRow}
                    data-event={row.id}
                    data-fate={row.fate}
                    onClick={() => a.select(j === selected ? -1 : j)}
                  >
                    <span role="cell" className="mono">
                      <button
                        type="button"
                        className="linkish"
                        tabIndex={-1}
                        style={{ padding: 0, border: 0, background: 'none' }}
                        aria-pressed={j === selected}
                      >
                        {row.id}
                      </button>
                    </span>
                    <span role="cell">{formatMoney(row.amount)}</span>
                    <span
                      role="cell"
                      className="mono"
                      title="partition@offset of each record in the logs"
                    >
                      {row.records.length === 0 ? '—' : recordsText(view, row.records)}
                    </span>
                    <span role="cell">×{row.processed}</span>
                    <span role="cell">×{row.rows}</span>
                    <span role="cell">
                      {hasCheckpoints ? (
                        row.checkpoint >= 0 ? (
                          `#${row.checkpoint}`
                        ) : (
                          '—'
                        )
                      ) : gate.finalHidden ? (
                        <span className="muted" title="Hidden until the prediction is revealed">
                          <span aria-hidden="true">?</span>
                          <span className="visually-hidden">hidden</span>
                        </span>
                      ) : (
                        <Fate fate={fateOfCode(row.finalFate)} />
                      )}
                    </span>
                    <span role="cell">
                      <Fate fate={row.fate} count={row.rows} />
                    </span>
                    <span role="cell">{row.latencyMs >= 0 ? formatMs(row.latencyMs) : '—'}</span>
                  </div>
                );
              })}
            </div>
          </div>
        )}
      </Rows>
    </div>
  );
}

/**
 * Where an event's records sit, "payments-0@3 @4": a partition named once for its records in a
 * row (a retried or replayed event's copies usually follow each other there), so the column
 * holds two copies without an ellipsis, in projector mode too.
 */
function recordsText(
  view: RunView,
  records: readonly { topic: number; partition: number; offset: number }[],
): string {
  let previous = '';
  return records
    .map((x) => {
      const partition = `${view.topics[x.topic]}-${x.partition}`;
      const text = partition === previous ? `@${x.offset}` : `${partition}@${x.offset}`;
      previous = partition;
      return text;
    })
    .join(' ');
}
