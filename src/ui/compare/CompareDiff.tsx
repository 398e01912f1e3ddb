import type { CompareModel } from '../../views/compare/compareModel';
import { fateWords, type DiffRow, type LaneOutcome } from '../../views/compare/diff';
import { formatCountOf, formatMs } from '../../views/run/format';
import { Breakable } from '../Breakable';
import { Icon } from '../Icon';
import { compareTestIds } from './compareTestIds';

/**
 * Across lanes: what differs (the knobs, under their real names, and where each run departs from
 * the first — a button that moves the shared cursor there), then the per-event diff of the whole
 * runs, the events whose fate differs first, each with its lane's sentence.
 */
export function CompareDiff({
  model,
  lanes,
  onSeek,
}: {
  model: CompareModel;
  /** The numbers (from 1) of the lanes in the model. */
  lanes: readonly number[];
  onSeek(t: number): void;
}) {
  const differing = model.diff.filter((r) => r.differs);
  const same = model.diff.filter((r) => !r.differs);
  const units = model.outcomes.map((o) => o.unit);
  return (
    <>
      <section className="compare-what" aria-labelledby="compare-what-h">
        <h3 id="compare-what-h">What differs</h3>
        {model.knobs.length === 0 ? (
          <p>No knob differs.</p>
        ) : (
          // Wider than a narrow window (Flink's setStartingOffsets(OffsetsInitializer)), a table
          // scrolls sideways in its own box: it pushed the page to 708 px at 390.
          // A tab stop (it may scroll): named, so that focused it is more than a run of cells.
          <div
            className="compare-table-scroll"
            tabIndex={0}
            role="region"
            aria-label="The knobs that differ"
          >
            <table
              className="compare-knobs"
              aria-label="The knobs that differ, by lane"
              data-testid={compareTestIds.knobs}
            >
              <thead>
                <tr>
                  <th scope="col">Knob</th>
                  {lanes.map((n) => (
                    <th scope="col" key={n}>
                      Lane {n}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {model.knobs.map((k) => (
                  <tr key={k.path}>
                    <th scope="row">
                      {/* A name may wrap after its dots (enable.|idempotence): the values beside
                        it stay whole in a narrow box (the lesson's flipped Compare, lessonCompare.css). */}
                      <code>
                        <Breakable text={k.name} />
                      </code>{' '}
                      <span className="muted">({k.system})</span>
                    </th>
                    {k.values.map((v, i) => (
                      <td key={i}>{v}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <ul className="compare-divergences">
          {model.divergences.map((d, i) => (
            <li key={i} data-testid={compareTestIds.divergence} data-time={d?.time ?? ''}>
              {d === null ? (
                <>
                  Lane {lanes[i + 1]} runs exactly as lane {lanes[0]} (identical traces).
                </>
              ) : (
                <>
                  Lane {lanes[i + 1]} departs from lane {lanes[0]} at{' '}
                  <button type="button" className="compare-link" onClick={() => onSeek(d.time)}>
                    {formatMs(d.time)}
                    <span className="visually-hidden"> (move the cursor there)</span>
                  </button>{' '}
                  (entry {d.entry + 1}): lane {lanes[0]} — {d.base ?? 'its run has ended'}; lane{' '}
                  {lanes[i + 1]} — {d.other ?? 'its run has ended'}.
                </>
              )}
            </li>
          ))}
        </ul>
      </section>
      <section
        className="compare-diff"
        aria-labelledby="compare-diff-h"
        data-testid={compareTestIds.diff}
      >
        <h3 id="compare-diff-h">
          Per-event diff of the whole runs: {differing.length} of {model.diff.length} events differ
        </h3>
        {differing.length > 0 ? (
          <DiffTable
            rows={differing}
            lanes={lanes}
            units={units}
            label="The events whose fate differs, by lane"
          />
        ) : (
          <p>Every event has the same fate in every lane.</p>
        )}
        {same.length > 0 && (
          <details>
            <summary>{formatCountOf(same.length, 'event')} the same in every lane</summary>
            <DiffTable
              rows={same}
              lanes={lanes}
              units={units}
              label="The events the same in every lane"
            />
          </details>
        )}
      </section>
    </>
  );
}

function DiffTable({
  rows,
  lanes,
  units,
  label,
}: {
  rows: readonly DiffRow[];
  lanes: readonly number[];
  units: readonly LaneOutcome['unit'][];
  /** What the table holds: its scroll box's and its own name. */
  label: string;
}) {
  return (
    <div
      className="compare-table-scroll compare-diff-scroll"
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      <table className="compare-diff-table" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Event</th>
            {lanes.map((n) => (
              <th scope="col" key={n}>
                Lane {n}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={r.id}
              data-testid={compareTestIds.diffRow}
              data-event={r.id}
              data-differs={r.differs}
            >
              <th scope="row" className="mono">
                {r.id}
              </th>
              {r.fates.map((f, i) => (
                <td key={i} className={`fate-cell ${f.fate ?? 'none'}`}>
                  <span className={`fate ${f.fate ?? ''}`}>
                    {f.fate === 'duplicated' ? (
                      <Icon name="dup" />
                    ) : (
                      <span aria-hidden="true">
                        {f.fate === 'lost' ? '✕ ' : f.fate === 'once' ? '✓ ' : ''}
                      </span>
                    )}
                    {fateWords(f, units[i]!)}
                  </span>
                  {f.why && <p className="why">{f.why}</p>}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
